import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { validateCreditTransfer, validateOutboundCreditTransfer } from '../../src/domain/messages/validate.js';
import { SCHEMES, supports } from '../../src/domain/schemes.js';
import { parseJson } from '../../src/lib/json.js';
import { CREDIT_TRANSFER_FIXTURES, creditTransfer } from '../fixtures/credit-transfer.js';
import { anyList, anyText, apply, checkRefusal, mutationOf, parentOf, place, resolve, textPointers } from '../support/fuzz.js';
import { assertSendable, creditTransferSent, type Sent } from '../support/sendable.js';

/** What must hold for any input: no exception; ok, or a non-empty list of faults that each point into the body. */
function checkOutcome(body: unknown): void {
  // A missing field is named by its own pointer, so only its parent need exist.
  checkRefusal(validateCreditTransfer(body), body, (field) => assert.ok(resolve(body, parentOf(field)).found, `${field} points into the body`));
}

const nasty = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(
    'x'.repeat(100_000),
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
    JSON.parse('{"__proto__": {"polluted": true}}') as unknown,
    JSON.parse('{"constructor": {"prototype": {"polluted": true}}}') as unknown,
  ),
  fc.integer({ min: 1, max: 400 }).map((depth) => {
    let deep: unknown = 'bottom';
    for (let level = 0; level < depth; level++) deep = level % 2 === 0 ? [deep] : { nested: deep };
    return deep;
  }),
);

const mutation = mutationOf(nasty);

/** Every list of a credit transfer (parents are created where a sample lacks them). */
const LISTS = [
  '/remittanceInformation/unstructured',
  '/remittanceInformation/structured',
  '/instructionForCreditorAgent',
  '/regulatoryReporting',
  '/regulatoryReporting/0/details',
  '/regulatoryReporting/0/details/0/information',
  '/intermediaryAgents',
  '/previousInstructingAgents',
  '/creditor/address/addressLine',
  '/debtor/identification/identifiers',
  '/creditorAgent/additionalIdentifications',
  '/paymentScheme/schemeData/charges',
];

/** What a list of a credit transfer may hold: text, numbers, objects of some of its items' shapes, anything. */
const listItem = fc.oneof(
  anyText,
  fc.integer(),
  fc.constant({}),
  fc.record({ bicfi: fc.constantFrom('CITIUS33', 'bad'), name: anyText }, { requiredKeys: [] }),
  fc.record({ amount: fc.constant({ currency: 'USD', value: 15 }), agent: fc.constant({ bicfi: 'CITIUS33' }) }),
  fc.jsonValue({ maxDepth: 2 }),
);

/**
 * A transfer intake accepts (validation, then its scheme's rules) is sent as a document the scheme
 * reads, never refused by the connector for its own content (issue #27 §3).
 */
async function checkSendable(body: unknown): Promise<'invalid' | Sent['kind']> {
  const result = validateOutboundCreditTransfer(body);
  checkRefusal(result, body, (field) => assert.ok(resolve(body, parentOf(field)).found, `${field} points into the body`));
  if (!result.ok) return 'invalid';
  const sent = await creditTransferSent(result.value);
  assertSendable(sent);
  return sent.kind;
}

void describe('CreditTransfer validation under arbitrary input', () => {
  void it('never throws on arbitrary JSON values, and refuses them with fields that point into them', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => checkOutcome(value)),
      { numRuns: 400 },
    );
  });

  void it('never throws on arbitrary objects carrying the top-level field names', () => {
    const fields = ['schema', 'messageIdentifiers', 'transactionIdentifiers', 'amounts', 'creditor', 'creditorAccount', 'creditorAgent', 'debtor', 'debtorAgent', 'paymentScheme', 'tax'];
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...fields), nasty), (value) => checkOutcome(value)),
      { numRuns: 300 },
    );
  });

  void it('never throws on mutations of valid samples, and names only fields of the mutated body', () => {
    fc.assert(
      fc.property(fc.constantFrom(...CREDIT_TRANSFER_FIXTURES), fc.array(mutation, { minLength: 1, maxLength: 5 }), (kind, changes) => {
        const body = creditTransfer(kind);
        for (const change of changes) apply(body, change);
        checkOutcome(body);
      }),
      { numRuns: 500 },
    );
  });

  void it('never throws on mutated samples sent as JSON text, and judges their amounts from the text', () => {
    const amountText = fc.oneof(
      fc.constantFrom('10', '10.0', '10.00', '10.000', '1e2', '1.5E1', '-0', '0.001', '1e-2', '123456789012345678901234567890', '1e308'),
      fc.double({ min: 0, max: 1e12, noNaN: true }).map(String),
    );
    fc.assert(
      fc.property(fc.constantFrom(...CREDIT_TRANSFER_FIXTURES), amountText, mutation, (kind, amount, change) => {
        const body = creditTransfer(kind);
        apply(body, change);
        const text = JSON.stringify(body).replace(/("bankSettlementAmount":\{"currency":"[A-Z]{3}","value":)[^,}]+/, `$1${amount}`);
        const parsed = parseJson(text);
        if (parsed.ok) checkOutcome(parsed.value);
      }),
      { numRuns: 300 },
    );
  });
});

void describe('CreditTransfer intake of arbitrary text and lists of any length', () => {
  void it('never throws on any text (controls, lone surrogates, noncharacters, long) in its text fields, and sends what it accepts', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...CREDIT_TRANSFER_FIXTURES), fc.array(fc.tuple(fc.nat(), anyText), { minLength: 1, maxLength: 5 }), async (kind, edits) => {
        const body = creditTransfer(kind);
        const texts = textPointers(body);
        for (const [index, text] of edits) place(body, texts[index % texts.length] ?? '/schema', text);
        await checkSendable(body);
      }),
      { numRuns: 300 },
    );
  });

  void it('never throws on lists of any length in its list fields, and sends what it accepts', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...CREDIT_TRANSFER_FIXTURES), fc.constantFrom(...LISTS), anyList(listItem), async (kind, pointer, list) => {
        const body = creditTransfer(kind);
        place(body, pointer, list);
        await checkSendable(body);
      }),
      { numRuns: 200 },
    );
  });

  void it('sends every sample it accepts whatever its supplementary data, tax and scheme data hold (any member names, any values), or refuses it at intake', async () => {
    const member = fc.oneof(anyText, fc.constantFrom('\u0001', 'a\u0000b', '\uD800', '\uFFFE', 'x'));
    const content = fc.dictionary(member, fc.oneof(anyText, fc.integer(), fc.dictionary(member, anyText, { maxKeys: 3 })), { maxKeys: 4 });
    const pointers = ['/supplementaryData', '/tax', '/paymentScheme/schemeData', '/remittanceInformation/structured/0/originatorReference'];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...CREDIT_TRANSFER_FIXTURES), fc.constantFrom(...pointers), content, async (kind, pointer, value) => {
        const body = creditTransfer(kind);
        if (pointer === '/paymentScheme/schemeData') place(body, pointer, { ...(body.paymentScheme.schemeData ?? {}), ...value });
        else place(body, pointer, value);
        await checkSendable(body);
      }),
      { numRuns: 200 },
    );
  });

  void it('sends every mutated sample it accepts, whatever the mutations', async () => {
    const anything = fc.oneof(nasty, anyText, anyList(fc.oneof(anyText, fc.constant({}))));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...CREDIT_TRANSFER_FIXTURES), fc.array(mutationOf(anything), { minLength: 1, maxLength: 5 }), async (kind, changes) => {
        const body = creditTransfer(kind);
        for (const change of changes) apply(body, change);
        await checkSendable(body);
      }),
      { numRuns: 200 },
    );
  });
});

/** A name as an integrator may give one: none, an everyday one, blank, long, or any text. */
/** Mostly `usual`, now and then one of `edges`. */
function mostly<T>(usual: readonly T[], edges: readonly T[]): fc.Arbitrary<T> {
  return fc.oneof({ arbitrary: fc.constantFrom(...usual), weight: 4 }, { arbitrary: fc.constantFrom(...edges), weight: 1 });
}

const partyName = fc.option(fc.oneof({ arbitrary: fc.constantFrom('Thandi', 'Karoo Solar (Pty) Ltd', 'Zoë Müller-Łukasz', ' ', 'x'.repeat(140)), weight: 6 }, { arbitrary: anyText, weight: 1 }), { nil: undefined });
const party = fc.record(
  {
    legalName: partyName,
    knownAsName: partyName,
    countryOfResidence: fc.constantFrom('ZA', 'GB', 'US', 'DE'),
    identification: fc.record({ identifiers: fc.array(fc.record({ identification: mostly(['ID-1', '8001015009087'], ['x'.repeat(36)]) }), { maxLength: 2 }) }),
  },
  { requiredKeys: [] },
).map(withoutUndefined);
const agent = fc.record(
  {
    bicfi: fc.constantFrom('FIRNZAJJ', 'ABSAZAJJ', 'DEMOZAJJ', 'CITIUS33', 'DEUTDEFF', 'SBZAZAJJXXX', 'NWBKGB2L'),
    clearingSystemMemberId: fc.record({ memberId: fc.constantFrom('250655', '632005', '1', 'x'.repeat(35)) }),
    name: fc.constantFrom('Absa Bank Limited', 'Bank'),
  },
  { requiredKeys: [] },
);
const account = fc.oneof(
  { arbitrary: fc.constant({}), weight: 1 },
  { arbitrary: fc.record({ identification: fc.record({ schema: fc.constantFrom('GENERIC', 'IBAN', 'BBAN'), value: mostly(['4071234567', 'GB82WEST12345698765432', '1'.repeat(34)], ['1'.repeat(35), 'not an iban']) }, { requiredKeys: ['value'] }) }), weight: 4 },
  { arbitrary: fc.record({ proxy: fc.record({ schema: fc.constantFrom('MOBILE', 'CUSTOM'), namespace: mostly(['ZA_MOBILE'], ['x'.repeat(40)]), value: fc.constantFrom('+27-0821234567', 'thandi@shap') }) }), weight: 2 },
);
const amount = fc.record({ currency: fc.constantFrom('ZAR', 'USD', 'EUR', 'GBP'), value: fc.constantFrom(0.01, 1, 250.5, 15000, 4_999_999.99, 1e15, 9_007_199_254_740_991) });

function withoutUndefined<T extends Record<string, unknown>>(record: T): T {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as T;
}

void describe('CreditTransfer intake of any parties, agents, accounts, amounts on any scheme', () => {
  void it('sends every transfer it accepts on its scheme, or refuses it at intake naming the field: never refused by the connector for its own content', async () => {
    const outcomes = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...CREDIT_TRANSFER_FIXTURES),
        // Its own scheme (undefined) as often as any other that carries credit transfers.
        fc.option(fc.constantFrom(...SCHEMES.filter((scheme) => supports(scheme, 'creditTransfer'))), { nil: undefined, freq: 2 }),
        fc.record({ debtor: party, creditor: party, debtorAgent: agent, creditorAgent: agent, debtorAccount: account, creditorAccount: account }, { requiredKeys: [] }),
        fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary: amount, weight: 1 }),
        fc.option(fc.constantFrom('DEBT', 'CRED', 'SHAR', 'SLEV'), { nil: undefined }),
        // A UUID of another version now and then: no ISO 20022 scheme message takes it as a UETR.
        fc.oneof({ arbitrary: fc.constant(undefined), weight: 7 }, { arbitrary: fc.constantFrom('c232ab00-9414-11ec-b3c8-9f6bdeced846', '017f22e2-79b0-7cc3-98c4-dc0c0c07398f', '00000000-0000-0000-0000-000000000000'), weight: 1 }),
        async (kind, scheme, parts, settlement, chargeBearer, uetr) => {
          const body = creditTransfer(kind) as unknown as Record<string, unknown> & { paymentScheme: { schema: string; schemeData?: Record<string, unknown> }; amounts: Record<string, unknown> };
          Object.assign(body, parts);
          if (scheme !== undefined) body.paymentScheme.schema = scheme;
          if (chargeBearer !== undefined) body.paymentScheme.schemeData = { ...(body.paymentScheme.schemeData ?? {}), chargeBearer };
          if (settlement !== undefined) body.amounts = { ...body.amounts, bankSettlementAmount: settlement };
          if (uetr !== undefined) place(body, '/transactionIdentifiers/uetr', uetr);
          const outcome = await checkSendable(body);
          outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
        },
      ),
      { numRuns: 400 },
    );
    // Not vacuous: many of the transfers are sent, and many refused at intake by their scheme's rules.
    assert.ok((outcomes.get('sent') ?? 0) >= 20, `sent: ${JSON.stringify([...outcomes])}`);
    assert.ok((outcomes.get('refused_at_intake') ?? 0) >= 40, `refused at intake: ${JSON.stringify([...outcomes])}`);
  });
});
