import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { retryOfStoredMessage } from '../../src/app/stored-message.js';
import { ApiError } from '../../src/domain/errors.js';
import { bodyHash, canonicalJson, samePayload } from '../../src/lib/canonical-json.js';
import { parseJson } from '../../src/lib/json.js';
import { creditTransfer } from '../fixtures/credit-transfer.js';

function parsed(text: string): unknown {
  const result = parseJson(text);
  assert.ok(result.ok);
  return result.value;
}

/** The same JSON value written another way: keys reversed at every level, two-space indentation. */
function reformatted(value: unknown): string {
  const reorder = (item: unknown): unknown =>
    Array.isArray(item)
      ? item.map(reorder)
      : item !== null && typeof item === 'object'
        ? Object.fromEntries(Object.entries(item).reverse().map(([key, inner]) => [key, reorder(inner)]))
        : item;
  return JSON.stringify(reorder(value), null, 2);
}

describe('duplicate detection of stored messages (CONTRACT §6)', () => {
  it('fingerprints a body by its exact bytes', () => {
    const body = JSON.stringify(creditTransfer('ZA_RPP'));
    assert.equal(bodyHash(body), bodyHash(`${body}`));
    assert.notEqual(bodyHash(body), bodyHash(` ${body}`), 'one more space is another body');
    assert.match(bodyHash(body), /^[0-9a-f]{64}$/);
  });

  it('takes the same payload with other key order, spacing and number formatting as the same', () => {
    const transfer = creditTransfer('ZA_RPP');
    // 250.5 written as 250.50: an amount with a trailing zero is the same amount.
    const stored = reformatted(transfer).replace(/"value": (\d+\.\d+)/, (_match, value: string) => `"value": ${value}0`);
    assert.notEqual(stored, JSON.stringify(transfer));
    assert.ok(samePayload(stored, parsed(JSON.stringify(transfer))));
  });

  it('takes a payload with any changed value as another', () => {
    const transfer = creditTransfer('ZA_RPP');
    const changed = structuredClone(transfer);
    changed.amounts.bankSettlementAmount.value += 0.01;
    assert.equal(samePayload(JSON.stringify(transfer), parsed(JSON.stringify(changed))), false);
    assert.equal(samePayload(JSON.stringify(transfer), parsed(JSON.stringify({ ...transfer, extra: 1 }))), false, 'an added property');
  });

  it('agrees with the canonical form for any JSON value, however it is written', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
        // What the JSON reader refuses (a __proto__ key) never reaches a store.
        fc.pre(parseJson(JSON.stringify(a)).ok && parseJson(JSON.stringify(b)).ok);
        const sameCanonical = canonicalJson(parsed(JSON.stringify(a))) === canonicalJson(parsed(JSON.stringify(b)));
        assert.equal(samePayload(reformatted(a), parsed(JSON.stringify(b))), sameCanonical);
        assert.ok(samePayload(reformatted(a), parsed(JSON.stringify(a))));
      }),
      { numRuns: 500 },
    );
  });

  it('writes the canonical form of known values exactly: keys sorted by UTF-16 code units, arrays in their order, no white space', () => {
    // Expected texts written out by hand (RFC 8785 §3.2), not computed by the code under test.
    assert.equal(canonicalJson({ b: [3, 1, 2], a: { d: null, c: 'x' } }), '{"a":{"c":"x","d":null},"b":[3,1,2]}');
    assert.equal(canonicalJson(['b', 'a', ['z', 'y']]), '["b","a",["z","y"]]');
    assert.equal(canonicalJson({ '\u20ac': 1, '\r': 2, '1': 3, '\u00e9': 4, '\ud83d\ude00': 5 }), '{"\\r":2,"1":3,"\u00e9":4,"\u20ac":1,"\ud83d\ude00":5}');
    assert.equal(canonicalJson({ amount: 250.5, zero: -0, big: 1e21, small: 1e-7, text: 'a"b' }), '{"amount":250.5,"big":1e+21,"small":1e-7,"text":"a\\"b","zero":0}');
    assert.equal(canonicalJson({ kept: 1, dropped: undefined }), '{"kept":1}', 'an undefined member is absent, as in JSON');
    assert.equal(canonicalJson([]), '[]');
    assert.equal(canonicalJson({}), '{}');
    assert.equal(canonicalJson(null), 'null');
    assert.equal(canonicalJson(true), 'true');
    assert.throws(() => canonicalJson(Number.NaN), { name: 'TypeError', message: 'non-finite number' });
    assert.throws(() => canonicalJson([1, Number.POSITIVE_INFINITY]), { name: 'TypeError', message: 'non-finite number' });
    assert.throws(() => canonicalJson(undefined), { name: 'TypeError', message: 'undefined has no JSON form' });
  });

  it('takes the same elements of an array in another order as another payload', () => {
    assert.equal(samePayload('{"lines":["one","two"]}', parsed('{"lines":["two","one"]}')), false);
    assert.equal(samePayload('[{"a":1},{"a":2}]', parsed('[{"a":2},{"a":1}]')), false);
    assert.equal(samePayload('{"lines":["one","two"]}', parsed('{ "lines" : [ "one" , "two" ] }')), true);
    assert.equal(samePayload('{"lines":["one","two"]', parsed('{"lines":["one","two"]}')), false, 'a stored body that does not parse is no match');
  });

  it('answers a retry whose two remittance lines are swapped with 409, not as the first message', () => {
    const transfer = { ...creditTransfer('ZA_RTC'), remittanceInformation: { unstructured: ['Invoice 2026-118', 'Order 7731'] } };
    const messageId = transfer.messageIdentifiers.messageIdentification;
    const differs = { kind: 'message_differs', transactionId: 't1', response: null, storedRawBody: JSON.stringify(transfer) } as const;
    const swapped = { ...transfer, remittanceInformation: { unstructured: ['Order 7731', 'Invoice 2026-118'] } };
    assert.throws(
      () => retryOfStoredMessage(differs, parsed(JSON.stringify(swapped)), messageId),
      (error: unknown) => error instanceof ApiError && error.code === 'MESSAGE_ID_CONFLICT',
    );
    assert.equal(retryOfStoredMessage(differs, parsed(reformatted(transfer)), messageId).transactionId, 't1', 'the same lines in the same order are a retry');
  });

  it('answers a retry as the first message was, and a conflict with 409 naming the message id', () => {
    const transfer = creditTransfer('ZA_RTC');
    const storedRawBody = JSON.stringify(transfer);
    const messageId = transfer.messageIdentifiers.messageIdentification;
    assert.deepEqual(retryOfStoredMessage({ kind: 'duplicate', transactionId: 't1', response: 'r' }, transfer, messageId), {
      kind: 'duplicate',
      transactionId: 't1',
      response: 'r',
    });
    const differs = { kind: 'message_differs', transactionId: 't1', response: null, storedRawBody } as const;
    assert.equal(retryOfStoredMessage(differs, parsed(reformatted(transfer)), messageId).transactionId, 't1');
    const changed = { ...transfer, amounts: { ...transfer.amounts, bankSettlementAmount: { ...transfer.amounts.bankSettlementAmount, value: 1 } } };
    assert.throws(
      () => retryOfStoredMessage(differs, parsed(JSON.stringify(changed)), messageId),
      (error: unknown) => {
        assert.ok(error instanceof ApiError);
        assert.equal(error.code, 'MESSAGE_ID_CONFLICT');
        assert.equal(error.detail, `messageIdentification ${messageId} was already used with a different payload`);
        assert.deepEqual(error.errors, [{ field: '/messageIdentifiers/messageIdentification', message: 'already used with a different payload' }]);
        return true;
      },
    );
  });
});
