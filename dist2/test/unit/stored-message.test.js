import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { retryOfStoredMessage } from '../../src/app/stored-message.js';
import { ApiError } from '../../src/domain/errors.js';
import { bodyHash, canonicalJson, samePayload } from '../../src/lib/canonical-json.js';
import { parseJson } from '../../src/lib/json.js';
import { creditTransfer } from '../fixtures/credit-transfer.js';
function parsed(text) {
    const result = parseJson(text);
    assert.ok(result.ok);
    return result.value;
}
/** The same JSON value written another way: keys reversed at every level, two-space indentation. */
function reformatted(value) {
    const reorder = (item) => Array.isArray(item)
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
        const stored = reformatted(transfer).replace(/"value": (\d+\.\d+)/, (_match, value) => `"value": ${value}0`);
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
        fc.assert(fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
            // What the JSON reader refuses (a __proto__ key) never reaches a store.
            fc.pre(parseJson(JSON.stringify(a)).ok && parseJson(JSON.stringify(b)).ok);
            const sameCanonical = canonicalJson(parsed(JSON.stringify(a))) === canonicalJson(parsed(JSON.stringify(b)));
            assert.equal(samePayload(reformatted(a), parsed(JSON.stringify(b))), sameCanonical);
            assert.ok(samePayload(reformatted(a), parsed(JSON.stringify(a))));
        }), { numRuns: 500 });
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
        const differs = { kind: 'message_differs', transactionId: 't1', response: null, storedRawBody };
        assert.equal(retryOfStoredMessage(differs, parsed(reformatted(transfer)), messageId).transactionId, 't1');
        const changed = { ...transfer, amounts: { ...transfer.amounts, bankSettlementAmount: { ...transfer.amounts.bankSettlementAmount, value: 1 } } };
        assert.throws(() => retryOfStoredMessage(differs, parsed(JSON.stringify(changed)), messageId), (error) => error instanceof ApiError && error.code === 'MESSAGE_ID_CONFLICT' && error.errors.some((item) => item.field === '/messageIdentifiers/messageIdentification'));
    });
});
//# sourceMappingURL=stored-message.test.js.map