import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { TSchema } from '@sinclair/typebox';
import { ADDRESS_LINES_MAX, PostalAddressSchema } from '../../src/domain/messages/common.js';
import { CbprPlusSchemeDataSchema, CreditTransferSchema, REMITTANCE_PIECE_CHARS, REMITTANCE_PIECES_MAX } from '../../src/domain/messages/credit-transfer.js';
import {
  IdentifierDeterminationRequestSchema,
  IdentifierDeterminationResponseSchema,
  validateIdentifierDeterminationRequest,
} from '../../src/domain/messages/identifier-determination.js';
import { PaymentStatusRequestSchema, validatePaymentStatusRequest } from '../../src/domain/messages/payment-status-request.js';
import {
  RequestToPayCancellationResponseSchema,
  RequestToPayCancellationSchema,
  RequestToPayResponseSchema,
  RequestToPaySchema,
  RequestToPayStatusRequestSchema,
  validateRequestToPay,
  validateRequestToPayCancellation,
  validateRequestToPayStatusRequest,
} from '../../src/domain/messages/request-to-pay.js';
import { FIELD_CHARS_MAX, FIELD_ERRORS_MAX, validateCreditTransfer, type Validation } from '../../src/domain/messages/validate.js';
import { CREDIT_TRANSFER_FIXTURES, creditTransfer } from '../fixtures/credit-transfer.js';
import { IDENTIFIER_DETERMINATION_FIXTURES, identifierDetermination } from '../fixtures/identifier-determination.js';
import { REQUEST_TO_PAY_FIXTURES, requestToPay, requestToPayCancellation, requestToPayStatusRequest } from '../fixtures/request-to-pay.js';
import { pointers, resolve } from '../support/fuzz.js';
import { costly, largest, type LargestOptions } from '../support/largest.js';
import { assertSendable, cancellationSent, creditTransferSent, lookupSent, requestToPayOf, requestToPaySent, type Sent } from '../support/sendable.js';
import { accepted, edit, faultsOf } from '../support/validation.js';
import { assertValid, XSD_SKIP } from '../support/xsd.js';

type Schema = Readonly<Record<string, unknown>>;

const ACCOUNTS = ['creditorAccount', 'debtorAccount', 'creditorAgentAccount', 'debtorAgentAccount'] as const;
const PARTIES = ['creditor', 'debtor', 'initiatingParty'] as const;

const VALIDATION_MS_MAX = 1_000;

function paymentStatusRequest(): Record<string, unknown> {
  return {
    schema: 'PaymentStatusRequest',
    messageIdentifiers: { messageIdentification: 'PSR-0001', creationDateTime: '2026-03-02T09:15:27Z' },
    originalTransactionIdentifiers: { uetr: creditTransfer('ZA_RTC').transactionIdentifiers.uetr },
  };
}

/** Every message the service takes, with its validator and valid samples. */
const REQUESTS: ReadonlyArray<{ name: string; schema: TSchema; validate: (body: unknown) => Validation<unknown>; samples: () => unknown[] }> = [
  { name: 'CreditTransfer', schema: CreditTransferSchema, validate: validateCreditTransfer, samples: () => CREDIT_TRANSFER_FIXTURES.map((kind) => creditTransfer(kind)) },
  { name: 'PaymentStatusRequest', schema: PaymentStatusRequestSchema, validate: validatePaymentStatusRequest, samples: () => [paymentStatusRequest()] },
  {
    name: 'IdentifierDeterminationRequest',
    schema: IdentifierDeterminationRequestSchema,
    validate: validateIdentifierDeterminationRequest,
    samples: () => IDENTIFIER_DETERMINATION_FIXTURES.map((kind) => identifierDetermination(kind)),
  },
  { name: 'RequestToPay', schema: RequestToPaySchema, validate: validateRequestToPay, samples: () => REQUEST_TO_PAY_FIXTURES.map((kind) => requestToPay(kind)) },
  {
    name: 'RequestToPayStatusRequest',
    schema: RequestToPayStatusRequestSchema,
    validate: validateRequestToPayStatusRequest,
    samples: () => REQUEST_TO_PAY_FIXTURES.map((kind) => requestToPayStatusRequest(requestToPay(kind))),
  },
  {
    name: 'RequestToPayCancellation',
    schema: RequestToPayCancellationSchema,
    validate: validateRequestToPayCancellation,
    samples: () => REQUEST_TO_PAY_FIXTURES.map((kind) => requestToPayCancellation(requestToPay(kind))),
  },
];

/** The messages the service writes, whose schemas feed /openapi.json too. */
const ANSWERS: ReadonlyArray<[string, TSchema]> = [
  ['IdentifierDeterminationResponse', IdentifierDeterminationResponseSchema],
  ['RequestToPayResponse', RequestToPayResponseSchema],
  ['RequestToPayCancellationResponse', RequestToPayCancellationResponseSchema],
];

function typesOf(schema: Schema): readonly string[] {
  const type = schema.type;
  return Array.isArray(type) ? (type as string[]) : typeof type === 'string' ? [type] : [];
}

/** A pattern without `*`, `+` or `{n,}` matches strings of a bounded length only. */
function boundedPattern(pattern: unknown): boolean {
  return typeof pattern === 'string' && pattern.startsWith('^') && pattern.endsWith('$') && !/[*+]|\{\d+,\}/.test(pattern);
}

/** The arrays and strings of a schema that take any size, as JSON pointers into the schema's instances. */
function unboundedParts(schema: Schema, pointer = ''): string[] {
  const found: string[] = [];
  const types = typesOf(schema);
  if (types.includes('array') && typeof schema.maxItems !== 'number') found.push(`${pointer || '/'} (an array without maxItems)`);
  const textBounded =
    typeof schema.maxLength === 'number' || schema.enum !== undefined || schema.const !== undefined || boundedPattern(schema.pattern) || schema.format === 'date' || schema.format === 'uuid';
  if (types.includes('string') && !textBounded) found.push(`${pointer || '/'} (a string without maxLength)`);
  for (const [key, property] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) found.push(...unboundedParts(property, `${pointer}/${key}`));
  if (schema.items !== undefined) found.push(...unboundedParts(schema.items as Schema, `${pointer}/*`));
  return found;
}

void describe('message bounds', () => {
  const schemas: ReadonlyArray<[string, TSchema]> = [
    ...REQUESTS.map(({ name, schema }): [string, TSchema] => [name, schema]),
    ['CbprPlusSchemeData', CbprPlusSchemeDataSchema],
    ...ANSWERS,
  ];
  for (const [name, schema] of schemas) {
    void it(`bounds every array and every text of a ${name}`, () => {
      assert.deepEqual(unboundedParts(schema as Schema), []);
    });
  }

  void it('reports a list over its bound once, without judging any of its items', () => {
    for (const length of [11, 50_000]) {
      const message = creditTransfer('ZA_RTC') as unknown as Record<string, unknown>;
      edit(message, '/remittanceInformation/unstructured', Array.from({ length }, (_, index) => index));
      const found = faultsOf(validateCreditTransfer(message));
      assert.deepEqual([...found.keys()], ['/remittanceInformation/unstructured'], `${length} items`);
      assert.match(found.get('/remittanceInformation/unstructured') ?? '', /^must have at most \d+ items$/);
    }
  });

  void it('judges a credit transfer carrying 480,000 remittance numbers in well under a second', () => {
    const message = creditTransfer('ZA_RTC') as unknown as Record<string, unknown>;
    edit(message, '/remittanceInformation/unstructured', Array.from({ length: 480_000 }, (_, index) => index % 10));
    const started = performance.now();
    const result = validateCreditTransfer(message);
    const ms = performance.now() - started;
    assert.deepEqual([...faultsOf(result).keys()], ['/remittanceInformation/unstructured']);
    // Generous for a busy machine: the judgement costs a few milliseconds, one per list, not one per item.
    assert.ok(ms < VALIDATION_MS_MAX, `judged in ${Math.round(ms)} ms`);
  });

  void it(`lists at most ${FIELD_ERRORS_MAX} faulty fields and counts every fault beyond them`, () => {
    // Every part of every postal address of a transfer of the wrong type: 20 faults an address, in 23 addresses.
    const address = Object.fromEntries(Object.keys(PostalAddressSchema.properties).map((key) => [key, key === 'addressLine' ? Array.from({ length: ADDRESS_LINES_MAX }, () => true) : true]));
    const agent = { bicfi: 'CITIUS33', address, branch: { address } };
    const message = creditTransfer('ZA_RTC') as unknown as Record<string, unknown>;
    for (const party of PARTIES) edit(message, `/${party}`, { legalName: 'Naledi Khumalo', address });
    for (const field of ['debtorAgent', 'creditorAgent', 'instructedAgent', 'instructingAgent']) edit(message, `/${field}`, agent);
    for (const field of ['intermediaryAgents', 'previousInstructingAgents']) edit(message, `/${field}`, [agent, agent, agent]);
    const faults = pointers(message).filter((pointer) => resolve(message, pointer).value === true).length;
    assert.ok(faults > FIELD_ERRORS_MAX * 4);
    const result = validateCreditTransfer(message);
    assert.ok(!result.ok);
    assert.equal(result.errors.length, FIELD_ERRORS_MAX);
    assert.equal(result.unlisted, faults - FIELD_ERRORS_MAX);
    for (const { field } of result.errors) assert.equal(resolve(message, field).value, true, field);
  });
});

/**
 * Characters no scheme message may carry: C0 and C1 controls and DEL, lone surrogates, U+FFFE and
 * U+FFFF, and TAB, LF and CR inside a text (around it they are whitespace, which readers trim).
 */
const REFUSED: ReadonlyArray<[string, string]> = [
  ['\u0000', 'U+0000'],
  ['\u0007', 'U+0007'],
  ['\u001B', 'U+001B'],
  ['\u007F', 'U+007F'],
  ['\u0085', 'U+0085'],
  ['\u009F', 'U+009F'],
  ['\uD800', 'U+D800'],
  ['\uDC00', 'U+DC00'],
  ['\uFFFE', 'U+FFFE'],
  ['\uFFFF', 'U+FFFF'],
  ['\t', 'U+0009'],
  ['\n', 'U+000A'],
  ['\r', 'U+000D'],
];

/** `text` with `character` in its middle (between two code points, so no surrogate pair is split). */
function withInside(text: string, character: string): string {
  const points = [...text];
  const middle = Math.max(1, Math.floor(points.length / 2));
  return `${points.slice(0, middle).join('')}${character}${points.slice(middle).join('')}`;
}

void describe('characters a scheme message cannot carry', () => {
  for (const { name, validate, samples } of REQUESTS) {
    void it(`refuses them in every text of a ${name}, naming that field and the character`, () => {
      for (const sample of samples()) {
        const texts = pointers(sample).filter((pointer) => typeof resolve(sample, pointer).value === 'string');
        assert.ok(texts.length > 0);
        for (const pointer of texts) {
          for (const [character, name] of REFUSED) {
            const message = structuredClone(sample);
            const text = resolve(sample, pointer).value as string;
            edit(message, pointer, withInside(text === '' ? 'x' : text, character));
            const found = faultsOf(validate(message));
            assert.deepEqual([...found.keys()], [pointer], `${name} at ${pointer}`);
            assert.match(found.get(pointer) ?? '', new RegExp(name.replace('+', '\\+')), `${name} at ${pointer}`);
          }
        }
      }
    });
  }

  void it('refuses them in parts whose content the spec does not show, which are passed on as sent', () => {
    const message = creditTransfer('CBPR_PLUS') as unknown as Record<string, unknown>;
    edit(message, '/regulatoryReporting/0/details/0/information', 'Import\u0000of capital goods');
    edit(message, '/supplementaryData', { note: { lines: ['ok', 'bell\u0007'] } });
    const found = faultsOf(validateCreditTransfer(message));
    assert.deepEqual([...found.keys()].sort(), ['/regulatoryReporting/0/details/0/information', '/supplementaryData/note/lines/1']);
  });

  void it(`lists a fault under a pointer longer than ${FIELD_CHARS_MAX} characters at its nearest ancestor within them`, () => {
    const message = creditTransfer('ZA_RTC') as unknown as Record<string, unknown>;
    const longName = 'n'.repeat(FIELD_CHARS_MAX);
    edit(message, '/supplementaryData', { short: { [longName]: 'bell\u0007', [`${longName}2`]: { deeper: '\u0000' } } });
    const found = faultsOf(validateCreditTransfer(message));
    assert.deepEqual([...found.keys()], ['/supplementaryData/short']);
    assert.equal(found.get('/supplementaryData/short'), `holds a faulty member whose pointer is longer than ${FIELD_CHARS_MAX} characters`);
  });

  void it('takes letters of every script, symbols and emoji, and TAB, LF and CR around a text', () => {
    const message = creditTransfer('ZA_RTC') as unknown as Record<string, unknown>;
    edit(message, '/debtor/legalName', 'Zoë Ñandú-Øster 王芳 Ἀθηνᾶ Мокоена 😀');
    edit(message, '/creditor/legalName', '\tKaroo Solar Installations (Pty) Ltd\r\n');
    edit(message, '/remittanceInformation/unstructured', ['Invoice 2026-118 ✓ €', ' \n']);
    accepted(validateCreditTransfer(message));
  });
});

const PROXY_TYPE = 'CUSTOM';
/** ISO 20022 lengths the connector judges with a reason code beyond (docs/connectors.md): Max34Text, Max35Text. */
const ACCOUNT_NUMBER_CHARS = 34;
const IDENTIFIER_CHARS = 35;

/**
 * The parts a largest message sets beyond its schema: fields the connector refuses with a reason
 * code beyond an ISO length shorter than intake's bound (account number AC01, proxy type FF02,
 * party identification RR12), parts whose content the spec does not show but the connector writes
 * (charges, regulatory reporting, structured remittance) at what the connector writes at most, and
 * the remittance lines at the most pieces they may take in all (a rule, not the schema, says it).
 */
function overridesFor(amount: LargestOptions['amount']): Record<string, unknown> {
  return {
    ...Object.fromEntries(
      ACCOUNTS.flatMap((account) => [
        [`/${account}/identification/value`, costly(ACCOUNT_NUMBER_CHARS)],
        [`/${account}/proxy/schema`, PROXY_TYPE],
        [`/${account}/proxy/namespace`, costly(IDENTIFIER_CHARS - PROXY_TYPE.length - 1)],
      ]),
    ),
    ...Object.fromEntries(PARTIES.map((party) => [`/${party}/identification/identifiers/*/identification`, costly(IDENTIFIER_CHARS)])),
    '/paymentScheme/schemeData/charges/*/amount': amount,
    '/paymentScheme/schemeData/exchangeRate': 1.2345678901,
    '/regulatoryReporting/*/debitCreditReportingIndicator': 'BOTH',
    '/regulatoryReporting/*/authority': { name: costly(140), country: 'ZA' },
    '/regulatoryReporting/*/details/*/type': costly(IDENTIFIER_CHARS),
    '/regulatoryReporting/*/details/*/date': '2026-03-02',
    '/regulatoryReporting/*/details/*/country': 'ZA',
    '/regulatoryReporting/*/details/*/code': costly(10),
    '/regulatoryReporting/*/details/*/amount': amount,
    // As many Ustrd pieces as the lines may take in all, each full (how the lines split them does not change the document).
    '/remittanceInformation/unstructured': Array.from({ length: REMITTANCE_PIECES_MAX }, () => costly(REMITTANCE_PIECE_CHARS)),
    '/remittanceInformation/structured/*/creditorReference': costly(IDENTIFIER_CHARS),
    '/remittanceInformation/structured/*/additionalRemittanceInformation': [costly(140), costly(140), costly(140)],
  };
}

/** Where a credit transfer names an agent. */
const AGENTS = ['/debtorAgent', '/creditorAgent', '/instructedAgent', '/instructingAgent', '/intermediaryAgents/*', '/previousInstructingAgents/*', '/paymentScheme/schemeData/charges/*/agent'];

/**
 * What CBPR+ refuses at intake (CH17: its pacs.008 holds no SplmtryData, where only these could
 * travel) left out, so the largest message is the largest CBPR+ accepts: an agent's
 * companyRegistration and additionalIdentifications. A knownAsName equal to the legalName and a
 * deprecated memberId equal to the clearing member id, as the filling makes them, are accepted.
 */
const CBPR_PLUS_REFUSED: Record<string, undefined> = Object.fromEntries(
  AGENTS.flatMap((agent) => [
    [`${agent}/companyRegistration`, undefined],
    [`${agent}/additionalIdentifications`, undefined],
  ]),
);

async function assertLargestSent(sent: Sent, messageName: string): Promise<void> {
  assert.equal(sent.kind, 'sent', sent.kind === 'sent' ? '' : sent.reason);
  assertSendable(sent);
  if (XSD_SKIP === false && sent.kind === 'sent') await assertValid(messageName, [sent.document]);
}

void describe('the largest message intake accepts fits its scheme message', () => {
  for (const kind of CREDIT_TRANSFER_FIXTURES.filter((fixture) => fixture !== 'LIBERAL')) {
    void it(`renders the largest ${kind} credit transfer as a well-formed pacs.008 of at most half the size an operator reads`, async () => {
      const sample = creditTransfer(kind);
      const amount = sample.amounts.bankSettlementAmount;
      const overrides = { ...overridesFor(amount), ...(kind === 'CBPR_PLUS' ? CBPR_PLUS_REFUSED : {}) };
      const message = largest(CreditTransferSchema, sample, { amount, overrides });
      const valid = accepted(validateCreditTransfer(message));
      const sent = await creditTransferSent(valid);
      await assertLargestSent(sent, kind === 'ZA_RPP' ? 'pacs.008.001.10' : 'pacs.008.001.08');
    });
  }

  void it('renders the largest request-to-pay as a pain.013 and its cancellation as a camt.056, each well-formed and at most half the size an operator reads', async () => {
    const sample = requestToPay('CUSTOM');
    const amount = sample.amounts.bankSettlementAmount;
    const message = largest(RequestToPaySchema, sample, { amount, overrides: overridesFor(amount) });
    const valid = accepted(validateRequestToPay(message));
    const request = requestToPayOf(valid.message, valid.expiresAt);
    await assertLargestSent(await requestToPaySent(request), 'pain.013.001.09');
    await assertLargestSent(await cancellationSent({ request, cancellationKey: 'largest', reasonCode: 'CUST' }), 'camt.056.001.10');
  });

  void it('renders the largest identifier determination as an acmt.023, well-formed and at most half the size an operator reads', async () => {
    const sample = identifierDetermination('CUSTOM');
    const message = largest(IdentifierDeterminationRequestSchema, sample, {
      amount: { currency: 'ZAR', value: 1 },
      overrides: { '/request/identifier/namespace': costly(IDENTIFIER_CHARS - PROXY_TYPE.length - 1) },
    });
    const valid = accepted(validateIdentifierDeterminationRequest(message));
    await assertLargestSent(await lookupSent(valid.message), 'acmt.023.001.03');
  });
});
