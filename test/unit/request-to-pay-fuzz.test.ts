import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  RTP_FINAL_STATUSES,
  RTP_ISO_STATUSES,
  RTP_STATUSES,
  dateTimeEpochMs,
  expiryProblem,
  isFinalRtpStatus,
  requestToPayCancellationResponseJson,
  requestToPayResponseJson,
  rtpStatusFromIso,
  validateOutboundRequestToPay,
  validateRequestToPay,
  validateRequestToPayCancellation,
  validateRequestToPayStatusRequest,
} from '../../src/domain/messages/request-to-pay.js';
import type { Validation } from '../../src/domain/messages/validate.js';
import { numberText, parseJson } from '../../src/lib/json.js';
import { MINOR_UNITS_MAX, formatAmount } from '../../src/lib/money.js';
import { REQUEST_TO_PAY_FIXTURES, requestToPay, requestToPayCancellation, requestToPayStatusRequest } from '../fixtures/request-to-pay.js';
import { anyList, anyText, apply, checkRefusal, mutationOf, parentOf, place, resolve, textPointers } from '../support/fuzz.js';
import { assertSendable, cancellationSent, requestToPayOf, requestToPaySent, type Sent } from '../support/sendable.js';

/**
 * What must hold for any input of any of the three validators: no exception; ok, or a non-empty
 * list of faults, one per field, each naming a value of the body, or, when it says a field is
 * missing, a field absent from an object of the body.
 */
function checkOutcome(validate: (body: unknown) => Validation<unknown>, body: unknown): void {
  checkRefusal(validate(body), body, (field) => {
    assert.equal(resolve(body, field).found, false, `${field} is said to be missing, and is`);
    const holder = resolve(body, parentOf(field));
    assert.ok(holder.found, `${field} would belong to a value of the body`);
    assert.ok(holder.value !== null && typeof holder.value === 'object' && !Array.isArray(holder.value), `${field} would belong to an object`);
  });
}

const nasty = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(
    'x'.repeat(100_000),
    '😀'.repeat(2049),
    ' ',
    '0831234567',
    '+27-0831234567',
    'MOBILE',
    'CUSTOM',
    'PROPRIETARY',
    'PBPX',
    'ZAR',
    'USD',
    'XAU',
    'CUST',
    '2026-03-02T09:15:27Z',
    -1,
    1e308,
    5e-324,
    -0,
    0.1 + 0.2,
    '',
    '__proto__',
    [],
    {},
    null,
    { currency: 'ZAR', value: 1e21 },
    { currency: 'USD', value: 10 },
    JSON.parse('{"__proto__": {"polluted": true}}') as unknown,
    JSON.parse('{"constructor": {"prototype": {"polluted": true}}}') as unknown,
  ),
);

const mutation = mutationOf(nasty);

const fixtureKind = fc.constantFrom(...REQUEST_TO_PAY_FIXTURES);

/** The three messages, each with a valid sample built from a fresh request of `kind`. */
const MESSAGES = [
  { name: 'RequestToPay', validate: validateRequestToPay, sample: requestToPay },
  { name: 'RequestToPayStatusRequest', validate: validateRequestToPayStatusRequest, sample: (kind: (typeof REQUEST_TO_PAY_FIXTURES)[number]) => requestToPayStatusRequest(requestToPay(kind)) },
  { name: 'RequestToPayCancellation', validate: validateRequestToPayCancellation, sample: (kind: (typeof REQUEST_TO_PAY_FIXTURES)[number]) => requestToPayCancellation(requestToPay(kind)) },
] as const;

for (const { name, validate, sample } of MESSAGES) {
  void describe(`${name} validation under arbitrary input`, () => {
    void it('never throws on arbitrary JSON values, and refuses them with fields that point into them', () => {
      fc.assert(
        fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => checkOutcome(validate, value)),
        { numRuns: 300 },
      );
    });

    void it('never throws on mutations of valid samples, and names only fields of the mutated body', () => {
      fc.assert(
        fc.property(fixtureKind, fc.array(mutation, { minLength: 1, maxLength: 5 }), (kind, changes) => {
          const body = sample(kind);
          for (const change of changes) apply(body, change);
          checkOutcome(validate, body);
        }),
        { numRuns: 400 },
      );
    });

    void it('never throws on mutated samples sent as JSON text', () => {
      fc.assert(
        fc.property(fixtureKind, mutation, (kind, change) => {
          const body = sample(kind);
          apply(body, change);
          const parsed = parseJson(JSON.stringify(body));
          if (parsed.ok) checkOutcome(validate, parsed.value);
        }),
        { numRuns: 300 },
      );
    });
  });
}

void describe('RequestToPay validation of arbitrary parts', () => {
  void it('never throws on requests whose accounts, agents and conditions are anything', () => {
    const amountLike = fc.record({ currency: fc.oneof(nasty, fc.constantFrom('ZAR', 'USD', 'JPY')), value: fc.oneof(nasty, fc.double()) }, { requiredKeys: [] });
    const proxy = fc.record({ schema: fc.oneof(nasty, fc.constantFrom('MOBILE', 'CUSTOM')), namespace: nasty, value: nasty }, { requiredKeys: [] });
    const account = fc.record({ identification: fc.oneof(nasty, fc.record({ value: nasty })), proxy: fc.oneof(nasty, proxy) }, { requiredKeys: [] });
    fc.assert(
      fc.property(
        fixtureKind,
        fc.record(
          {
            creditorAccount: fc.oneof(nasty, account),
            debtorAccount: fc.oneof(nasty, account),
            debtorAgent: fc.oneof(nasty, fc.record({ bicfi: nasty, memberId: nasty }, { requiredKeys: [] })),
            requestToPayConditions: fc.oneof(nasty, fc.record({ minAmount: fc.oneof(nasty, amountLike), maxAmount: fc.oneof(nasty, amountLike) }, { requiredKeys: [] })),
            amounts: fc.oneof(nasty, fc.record({ bankSettlementAmount: fc.oneof(nasty, amountLike) }, { requiredKeys: [] })),
          },
          { requiredKeys: [] },
        ),
        (kind, parts) => {
          const body: Record<string, unknown> = { ...requestToPay(kind), ...structuredClone(parts) };
          checkOutcome(validateRequestToPay, body);
        },
      ),
      { numRuns: 500 },
    );
  });
});

/** A request intake accepted (ZA_RPP) is sent, and so is its cancellation, or refused with a reason code: never a document the scheme cannot read. */
async function checkSendable(body: unknown): Promise<'invalid' | Sent['kind']> {
  checkOutcome(validateOutboundRequestToPay, body);
  const result = validateOutboundRequestToPay(body);
  if (!result.ok || result.value.scheme !== 'ZA_RPP') return 'invalid';
  const request = requestToPayOf(result.value.message, result.value.expiresAt);
  const sent = await requestToPaySent(request);
  assertSendable(sent);
  if (sent.kind === 'sent') assertSendable(await cancellationSent({ request, cancellationKey: 'fuzz', reasonCode: 'CUST' }));
  return sent.kind;
}

const LISTS = [
  '/remittanceInformation/unstructured',
  '/remittanceInformation/structured',
  '/creditor/address/addressLine',
  '/debtor/identification/identifiers',
  '/creditorAgent/additionalIdentifications',
];

void describe('RequestToPay intake of arbitrary text and lists of any length', () => {
  void it('never throws on any text (controls, lone surrogates, noncharacters, long) in its text fields, and sends what it accepts', async () => {
    await fc.assert(
      fc.asyncProperty(fixtureKind, fc.array(fc.tuple(fc.nat(), anyText), { minLength: 1, maxLength: 5 }), async (kind, edits) => {
        const body = requestToPay(kind);
        const texts = textPointers(body);
        for (const [index, text] of edits) place(body, texts[index % texts.length] ?? '/schema', text);
        await checkSendable(body);
      }),
      { numRuns: 300 },
    );
  });

  void it('never throws on lists of any length in its list fields, and sends what it accepts', async () => {
    await fc.assert(
      fc.asyncProperty(fixtureKind, fc.constantFrom(...LISTS), anyList(fc.oneof(anyText, fc.integer(), fc.constant({}))), async (kind, pointer, list) => {
        const body = requestToPay(kind);
        place(body, pointer, list);
        await checkSendable(body);
      }),
      { numRuns: 150 },
    );
  });

  void it('never throws on any text in the texts of a status request or a cancellation', () => {
    fc.assert(
      fc.property(fixtureKind, fc.nat(), anyText, (kind, index, text) => {
        for (const { validate, sample } of MESSAGES.slice(1)) {
          const body = sample(kind);
          const texts = textPointers(body);
          place(body, texts[index % texts.length] ?? '/schema', text);
          checkOutcome(validate, body);
        }
      }),
      { numRuns: 300 },
    );
  });
});

/** Minor units of a ZAR amount, up to the largest the service carries. */
const minorUnits = fc.bigInt({ min: 0n, max: MINOR_UNITS_MAX });

void describe('request-to-pay builders write money exactly', () => {
  void it('echo any bounds around any amount digit for digit, never through a float', () => {
    fc.assert(
      fc.property(fixtureKind, fc.array(minorUnits, { minLength: 3, maxLength: 3 }), (kind, units) => {
        const [min, amount, max] = [...units].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)) as [bigint, bigint, bigint];
        const text = (minor: bigint) => formatAmount({ currency: 'ZAR', minor });
        const body = requestToPay(kind);
        body.amounts.bankSettlementAmount = { currency: 'ZAR', value: 0 };
        body.requestToPayConditions = { minAmount: { currency: 'ZAR', value: 1 }, maxAmount: { currency: 'ZAR', value: 2 } };
        const json = JSON.stringify(body)
          .replace('"bankSettlementAmount":{"currency":"ZAR","value":0}', `"bankSettlementAmount":{"currency":"ZAR","value":${text(amount)}}`)
          .replace('"minAmount":{"currency":"ZAR","value":1}', `"minAmount":{"currency":"ZAR","value":${text(min)}}`)
          .replace('"maxAmount":{"currency":"ZAR","value":2}', `"maxAmount":{"currency":"ZAR","value":${text(max)}}`);
        const parsed = parseJson(json);
        assert.ok(parsed.ok);
        const result = validateRequestToPay(parsed.value);
        assert.ok(result.ok, JSON.stringify(result.ok ? '' : result.errors));
        assert.deepEqual([result.value.minAmount?.minor, result.value.amount.minor, result.value.maxAmount?.minor], [min, amount, max]);

        const response = parseJson(
          requestToPayResponseJson({ original: result.value.message, status: 'PENDING', messageIdentification: 'RSP', createdAt: 0 }),
        );
        assert.ok(response.ok);
        const conditions = (response.value as any).requestToPayConditions;
        assert.equal(numberText(conditions.minAmount, 'value'), text(min));
        assert.equal(numberText(conditions.maxAmount, 'value'), text(max));
      }),
      { numRuns: 300 },
    );
  });

  void it('refuse bounds on the wrong side of the amount, whatever the amounts, however close', () => {
    fc.assert(
      fc.property(minorUnits, fc.bigInt({ min: 1n, max: 1000n }), (amount, gap) => {
        fc.pre(amount + gap <= MINOR_UNITS_MAX);
        const text = (minor: bigint) => formatAmount({ currency: 'ZAR', minor });
        const body = requestToPay('MOBILE');
        body.amounts.bankSettlementAmount = { currency: 'ZAR', value: 0 };
        body.requestToPayConditions = { minAmount: { currency: 'ZAR', value: 1 } };
        const json = JSON.stringify(body)
          .replace('"bankSettlementAmount":{"currency":"ZAR","value":0}', `"bankSettlementAmount":{"currency":"ZAR","value":${text(amount)}}`)
          .replace('"minAmount":{"currency":"ZAR","value":1}', `"minAmount":{"currency":"ZAR","value":${text(amount + gap)}}`);
        const parsed = parseJson(json);
        assert.ok(parsed.ok);
        const result = validateRequestToPay(parsed.value);
        assert.equal(result.ok, false);
        if (!result.ok) assert.deepEqual(result.errors.map((error) => error.field), ['/requestToPayConditions/minAmount/value']);
      }),
      { numRuns: 300 },
    );
  });

  void it('write cancellation answers for any status and reason as valid JSON', () => {
    fc.assert(
      fc.property(fc.constantFrom(...RTP_STATUSES), fc.boolean(), fc.option(fc.string(), { nil: undefined }), (status, accepted, reasonText) => {
        const original = requestToPay('ACCOUNT');
        const text = requestToPayCancellationResponseJson({
          cancellation: requestToPayCancellation(original),
          original,
          accepted,
          ...(reasonText === undefined ? {} : { reasonCode: 'ARJR', reasonText }),
          requestToPayStatus: status,
          messageIdentification: 'CRS',
          createdAt: 0,
        });
        const parsed = parseJson(text);
        assert.ok(parsed.ok);
        const body = parsed.value as any;
        assert.equal(body.requestToPayStatus.status, status);
        assert.equal(body.cancellationStatus.status, accepted ? 'ACCEPTED' : 'REJECTED');
        assert.deepEqual(body.cancellationStatus.reasonInfo.map((info: any) => info.additionalInformation?.[0]), reasonText === undefined ? [] : [reasonText]);
      }),
      { numRuns: 200 },
    );
  });
});

/** An instant anywhere in years 0000 to 9999, in ms. */
const instant = fc.integer({ min: -62_167_219_200_000, max: 253_402_300_799_999 });

/** The instant written as RFC 3339 with a whole-minute offset, e.g. 2026-03-02T11:15:27.482+02:00. */
function withOffset(epochMs: number, offsetMinutes: number): string {
  const local = new Date(epochMs + offsetMinutes * 60_000).toISOString().replace('Z', '');
  const sign = offsetMinutes < 0 ? '-' : '+';
  const size = Math.abs(offsetMinutes);
  return `${local}${sign}${String(Math.floor(size / 60)).padStart(2, '0')}:${String(size % 60).padStart(2, '0')}`;
}

void describe('expiry properties', () => {
  void it('reads back any instant written with any offset, to the millisecond', () => {
    fc.assert(
      fc.property(instant, fc.integer({ min: -23 * 60 - 59, max: 23 * 60 + 59 }), (epochMs, offset) => {
        const local = epochMs + offset * 60_000;
        fc.pre(local >= -62_167_219_200_000 && local <= 253_402_300_799_999);
        assert.equal(dateTimeEpochMs(withOffset(epochMs, offset)), epochMs);
        assert.equal(dateTimeEpochMs(new Date(epochMs).toISOString()), epochMs);
      }),
      { numRuns: 1000 },
    );
  });

  void it('finds an expiry wrong exactly when it is not in the future or beyond the horizon', () => {
    const now = fc.integer({ min: 0, max: 4_000_000_000_000 });
    const horizon = fc.integer({ min: 1, max: 90 * 86_400_000 });
    fc.assert(
      fc.property(now, horizon, fc.integer({ min: -10 * 86_400_000, max: 100 * 86_400_000 }), (at, horizonMs, delta) => {
        const problem = expiryProblem(new Date(at + delta).toISOString(), at, horizonMs);
        assert.equal(problem === undefined, delta > 0 && delta <= horizonMs, `delta ${delta}, horizon ${horizonMs}: ${problem ?? 'none'}`);
      }),
      { numRuns: 1000 },
    );
  });
});

void describe('status mapping properties', () => {
  void it('never turns a code outside the five into anything but PENDING', () => {
    fc.assert(
      fc.property(fc.string(), (code) => {
        fc.pre(!RTP_ISO_STATUSES.has(code));
        const status = rtpStatusFromIso(code);
        assert.equal(status, 'PENDING');
        assert.equal(isFinalRtpStatus(status), false);
        assert.ok(!(RTP_FINAL_STATUSES as readonly string[]).includes(status));
      }),
      { numRuns: 500 },
    );
  });
});

void describe('RequestToPay intake of any parties, agents, accounts and amounts', () => {
  void it('sends every request it accepts, and its cancellation, or refuses it at intake naming the field: never refused by the connector for its own content', async () => {
    const name = fc.option(fc.oneof({ arbitrary: fc.constantFrom('Sipho Plumbing', 'Zoë Müller-Łukasz', ' ', 'x'.repeat(140)), weight: 6 }, { arbitrary: anyText, weight: 1 }), { nil: undefined });
    const party = fc.record({ legalName: name, knownAsName: name, countryOfResidence: fc.constantFrom('ZA', 'GB') }, { requiredKeys: [] }).map((record) =>
      Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)),
    );
    const agent = fc.record(
      { bicfi: fc.constantFrom('DEMOZAJJ', 'FIRNZAJJ', 'ABSAZAJJ', 'CITIUS33'), clearingSystemMemberId: fc.record({ memberId: fc.constantFrom('210001', '250655', 'x'.repeat(35)) }) },
      { requiredKeys: [] },
    );
    const account = fc.oneof(
      fc.record({ identification: fc.record({ schema: fc.constantFrom('GENERIC', 'IBAN'), value: fc.constantFrom('62004455667', '1'.repeat(34), '1'.repeat(35), 'GB82WEST12345698765432') }, { requiredKeys: ['value'] }) }),
      fc.record({ proxy: fc.record({ schema: fc.constantFrom('MOBILE', 'CUSTOM'), namespace: fc.constantFrom('ZA_MOBILE', 'x'.repeat(40)), value: fc.constantFrom('+27-0821234567', 'thandi@shap') }) }),
    );
    const outcomes = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(
        fixtureKind,
        fc.record({ creditor: party, debtor: party, creditorAgent: agent, debtorAgent: agent, creditorAccount: account, debtorAccount: account }, { requiredKeys: [] }),
        async (kind, parts) => {
          const outcome = await checkSendable({ ...requestToPay(kind), ...parts });
          outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
        },
      ),
      { numRuns: 300 },
    );
    // Not vacuous: many requests are sent, and many refused at intake.
    assert.ok((outcomes.get('sent') ?? 0) >= 30, `sent: ${JSON.stringify([...outcomes])}`);
    assert.ok((outcomes.get('refused_at_intake') ?? 0) + (outcomes.get('invalid') ?? 0) >= 30, `refused: ${JSON.stringify([...outcomes])}`);
  });
});
