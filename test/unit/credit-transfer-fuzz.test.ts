import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { validateCreditTransfer, validateOutboundCreditTransfer } from '../../src/domain/messages/validate.js';
import { parseJson } from '../../src/lib/json.js';
import { CREDIT_TRANSFER_FIXTURES, creditTransfer } from '../fixtures/credit-transfer.js';
import { anyList, anyText, apply, checkRefusal, mutationOf, parentOf, place, resolve, textPointers } from '../support/fuzz.js';
import { assertSendable, creditTransferSent } from '../support/sendable.js';

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
async function checkSendable(body: unknown): Promise<void> {
  const result = validateOutboundCreditTransfer(body);
  checkRefusal(result, body, (field) => assert.ok(resolve(body, parentOf(field)).found, `${field} points into the body`));
  if (result.ok) assertSendable(await creditTransferSent(result.value));
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
