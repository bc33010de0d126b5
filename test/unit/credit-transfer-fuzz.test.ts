import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { validateCreditTransfer } from '../../src/domain/messages/validate.js';
import { parseJson } from '../../src/lib/json.js';
import { CREDIT_TRANSFER_FIXTURES, creditTransfer } from '../fixtures/credit-transfer.js';
import { apply, checkRefusal, mutationOf, parentOf, resolve } from '../support/fuzz.js';

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
