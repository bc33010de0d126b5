import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { validateCreditTransfer } from '../../src/domain/messages/validate.js';
import { parseJson } from '../../src/lib/json.js';
import { CREDIT_TRANSFER_FIXTURES, creditTransfer } from '../fixtures/credit-transfer.js';

/** Every pointer of a JSON tree, the root excluded. */
function pointers(value: unknown, prefix = ''): string[] {
  if (value === null || typeof value !== 'object') return [];
  const keys = Array.isArray(value) ? value.map((_, index) => String(index)) : Object.keys(value);
  return keys.flatMap((key) => {
    const pointer = `${prefix}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    return [pointer, ...pointers((value as Record<string, unknown>)[key], pointer)];
  });
}

function resolve(value: unknown, pointer: string): { found: boolean; value: unknown } {
  let current = value;
  for (const token of pointer.split('/').slice(1)) {
    const key = token.replaceAll('~1', '/').replaceAll('~0', '~');
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, key)) return { found: false, value: undefined };
    current = (current as Record<string, unknown>)[key];
  }
  return { found: true, value: current };
}

/** What must hold for any input: no exception; ok, or a non-empty list of faults that each point into the body. */
function checkOutcome(body: unknown): void {
  const result = validateCreditTransfer(body);
  if (result.ok) return;
  assert.ok(result.errors.length > 0, 'a refusal names at least one field');
  const fields = result.errors.map((error) => error.field);
  assert.equal(new Set(fields).size, fields.length, 'one entry per field');
  for (const { field, message } of result.errors) {
    assert.ok(field === '' || field.startsWith('/'), `${field} is a JSON pointer`);
    assert.ok(message.length > 0, `${field} has a message`);
    // A missing field is named by its own pointer, so only its parent need exist.
    const parent = message.startsWith('is required') ? field.slice(0, field.lastIndexOf('/')) : field;
    assert.ok(resolve(body, parent).found, `${field} points into the body`);
  }
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

type Mutation = { readonly kind: 'set'; readonly pointerIndex: number; readonly value: unknown } | { readonly kind: 'delete'; readonly pointerIndex: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), pointerIndex: fc.nat(), value: nasty }),
  fc.record({ kind: fc.constant('delete' as const), pointerIndex: fc.nat() }),
);

function apply(body: unknown, change: Mutation): void {
  const all = pointers(body);
  if (all.length === 0) return;
  const pointer = all[change.pointerIndex % all.length] ?? '';
  const parentPointer = pointer.slice(0, pointer.lastIndexOf('/'));
  const key = (pointer.split('/').pop() ?? '').replaceAll('~1', '/').replaceAll('~0', '~');
  const parent = resolve(body, parentPointer).value;
  if (parent === null || typeof parent !== 'object') return;
  const holder = parent as Record<string, unknown>;
  // Removing an array item shortens the array: JSON has no holes.
  if (change.kind === 'delete' && Array.isArray(parent)) parent.splice(Number(key), 1);
  else if (change.kind === 'delete') delete holder[key];
  // A copy: generated values are shared between runs, and inserting one twice would build a cycle, which no JSON body has.
  else holder[key] = structuredClone(change.value);
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
