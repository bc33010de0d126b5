import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { CREDIT_TRANSFER_FIXTURES, creditTransfer } from '../fixtures/credit-transfer.js';
import { anyList, anyText, place, textPointers } from '../support/fuzz.js';
import { intakeApp } from '../support/intake-app.js';
import { basicAuth } from '../support/server.js';
/** What an integrator may legitimately get back for a body it made up; 500 is never among them. */
const EXPECTED = new Set([202, 400, 403, 409, 413, 415, 422]);
describe('credit-transfer endpoint under arbitrary input', () => {
    let app;
    let store;
    let close;
    before(async () => {
        ({ app, store, close } = await intakeApp());
    });
    after(() => close());
    const send = async (payload, contentType = 'application/json') => {
        const response = await app.inject({
            method: 'POST',
            url: '/api/v1/transactions/outbound/credit-transfer',
            headers: { 'content-type': contentType, authorization: basicAuth() },
            payload,
        });
        assert.ok(EXPECTED.has(response.statusCode), `status ${response.statusCode} for ${payload.slice(0, 200)}: ${response.body.slice(0, 300)}`);
        if (response.statusCode !== 202) {
            const body = response.json();
            assert.equal(body.schema, 'ErrorDetail');
            assert.ok(Array.isArray(body.errors));
            if (response.statusCode === 400)
                assert.ok(body.errors.length > 0, `a refusal names at least one field: ${response.body.slice(0, 300)}`);
        }
        return response;
    };
    it('never answers 500 to arbitrary JSON values', async () => {
        await fc.assert(fc.asyncProperty(fc.json({ maxDepth: 4 }), async (json) => void (await send(json))), { numRuns: 300 });
    });
    it('never answers 500 to arbitrary text, whatever the content type says', async () => {
        await fc.assert(fc.asyncProperty(fc.string({ maxLength: 200 }), fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/xml'), async (text, type) => void (await send(text, type))), { numRuns: 200 });
    });
    it('never answers 500 when any field of a valid transfer is replaced by an arbitrary value, and names the field it refuses', async () => {
        const paths = (value, prefix = []) => value !== null && typeof value === 'object'
            ? Object.entries(value).flatMap(([key, child]) => [[...prefix, key], ...paths(child, [...prefix, key])])
            : [];
        await fc.assert(fc.asyncProperty(fc.nat(), fc.jsonValue({ maxDepth: 2 }), async (pick, replacement) => {
            const transfer = creditTransfer('ZA_RTC');
            const all = paths(transfer);
            const path = all[pick % all.length];
            let holder = transfer;
            for (const key of path.slice(0, -1))
                holder = holder[key];
            holder[path.at(-1)] = replacement;
            await send(JSON.stringify(transfer));
        }), { numRuns: 400 });
    });
    it('never answers 500 to any text (controls, lone surrogates, noncharacters, long) in the text fields of a valid transfer', async () => {
        await fc.assert(fc.asyncProperty(fc.constantFrom(...CREDIT_TRANSFER_FIXTURES), fc.array(fc.tuple(fc.nat(), anyText), { minLength: 1, maxLength: 4 }), async (kind, edits) => {
            const transfer = creditTransfer(kind);
            const texts = textPointers(transfer);
            for (const [index, text] of edits)
                place(transfer, texts[index % texts.length] ?? '/schema', text);
            await send(JSON.stringify(transfer));
        }), { numRuns: 200 });
    });
    it('never answers 500 to lists of any length in the list fields of a valid transfer', async () => {
        const lists = ['/remittanceInformation/unstructured', '/remittanceInformation/structured', '/regulatoryReporting', '/intermediaryAgents', '/creditor/address/addressLine'];
        await fc.assert(fc.asyncProperty(fc.constantFrom(...CREDIT_TRANSFER_FIXTURES), fc.constantFrom(...lists), anyList(fc.oneof(anyText, fc.integer(), fc.constant({}))), async (kind, pointer, list) => {
            const transfer = creditTransfer(kind);
            place(transfer, pointer, list);
            await send(JSON.stringify(transfer));
        }), { numRuns: 100 });
    });
    it('accepts every fixture transfer exactly once and answers its retry 202 without a second transaction', async () => {
        for (const kind of ['ZA_RPP', 'ZA_RTC', 'ZA_EFT', 'CBPR_PLUS', 'TCIB', 'LIBERAL']) {
            const transfer = creditTransfer(kind);
            assert.equal((await send(JSON.stringify(transfer))).statusCode, 202, kind);
            assert.equal((await send(JSON.stringify(transfer))).statusCode, 202, `${kind} retry`);
            const stored = await store.findTransaction('demo-bank', transfer.transactionIdentifiers.uetr.toLowerCase());
            assert.ok(stored, kind);
            assert.equal((await store.history(stored.id)).length, 1);
        }
    });
});
//# sourceMappingURL=http-fuzz.test.js.map