import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { creditTransfer } from '../fixtures/credit-transfer.js';
import { identifierDetermination } from '../fixtures/identifier-determination.js';
import { requestToPay, requestToPayCancellation, requestToPayStatusRequest } from '../fixtures/request-to-pay.js';
import { intakeApp } from '../support/intake-app.js';
import { basicAuth } from '../support/server.js';
import { edit } from '../support/validation.js';
/** What any refusal of a hostile body may cost the service and the client, at most. */
const ANSWER_BYTES_MAX = 64 * 1024;
const FIELD_ERRORS_LISTED_MAX = 100;
/**
 * Generous: parsing a body of a megabyte takes up to seconds on a busy two-core machine, and is
 * the most of any answer here; validation's own cost is bounded in message-bounds.test.ts.
 */
const ANSWER_MS_MAX = 10_000;
void describe('intake under hostile and careless bodies', () => {
    let app;
    let close;
    before(async () => {
        ({ app, close } = await intakeApp());
    });
    after(() => close());
    const post = async (path, body) => {
        const started = performance.now();
        const response = await app.inject({
            method: 'POST',
            url: `/api/v1${path}`,
            headers: { 'content-type': 'application/json', authorization: basicAuth() },
            payload: JSON.stringify(body),
        });
        return { response, ms: performance.now() - started };
    };
    /** A 400 whose ErrorDetail is small and lists at most FIELD_ERRORS_LISTED_MAX fields. */
    const refusal = async (path, body) => {
        const { response, ms } = await post(path, body);
        assert.equal(response.statusCode, 400, response.body.slice(0, 300));
        assert.ok(response.body.length < ANSWER_BYTES_MAX, `the answer takes ${response.body.length} bytes`);
        assert.ok(ms < ANSWER_MS_MAX, `answered after ${Math.round(ms)} ms`);
        const detail = response.json();
        assert.equal(detail.schema, 'ErrorDetail');
        assert.ok(detail.errors.length > 0 && detail.errors.length <= FIELD_ERRORS_LISTED_MAX, `${detail.errors.length} fields listed`);
        return detail;
    };
    const fields = (detail) => detail.errors.map((error) => error.field);
    void it('answers a credit transfer carrying 480,000 remittance numbers (961 KB) with a small 400 naming the list, within seconds', async () => {
        const transfer = creditTransfer('ZA_RTC');
        edit(transfer, '/remittanceInformation/unstructured', Array.from({ length: 480_000 }, (_, index) => index % 10));
        const detail = await refusal('/transactions/outbound/credit-transfer', transfer);
        assert.deepEqual(fields(detail), ['/remittanceInformation/unstructured']);
    });
    void it(`lists at most ${FIELD_ERRORS_LISTED_MAX} faulty fields and says in the detail how many more faults it found`, async () => {
        const transfer = creditTransfer('ZA_RTC');
        edit(transfer, '/supplementaryData', Object.fromEntries(Array.from({ length: 1_000 }, (_, index) => [`note${index}`, `bell\u0007${index}`])));
        const detail = await refusal('/transactions/outbound/credit-transfer', transfer);
        assert.equal(detail.errors.length, FIELD_ERRORS_LISTED_MAX);
        assert.match(detail.detail ?? '', /\b900 more\b/);
    });
    for (const scheme of ['ZA_RPP', 'ZA_RTC']) {
        for (const [pointer, text] of [
            ['/debtor/legalName', 'Thandi\u0000Mokoena'],
            ['/debtor/legalName', 'Thandi\u0007Mokoena'],
            ['/remittanceInformation/unstructured/0', 'Invoice\u0000 2026-118'],
            ['/remittanceInformation/unstructured/0', 'Invoice\u0007 2026-118'],
        ]) {
            void it(`refuses ${JSON.stringify(text)} at ${pointer} of a ${scheme} credit transfer with a 400 naming the field`, async () => {
                const transfer = creditTransfer(scheme);
                edit(transfer, pointer, text);
                assert.deepEqual(fields(await refusal('/transactions/outbound/credit-transfer', transfer)), [pointer]);
            });
        }
    }
    void it('refuses a control character in a text of every other message with a 400 naming the field', async () => {
        const original = requestToPay('MOBILE');
        const cases = [
            ['/identifiers/outbound/identifier-determination', identifierDetermination('CUSTOM'), '/request/identifier/value'],
            ['/transactions/outbound/request-to-pay', requestToPay('CUSTOM'), '/debtor/legalName'],
            ['/transactions/outbound/request-to-pay/status-request', requestToPayStatusRequest(original), '/originalTransactionIdentifiers/endToEndIdentification'],
            ['/transactions/outbound/request-to-pay/cancellation-request', requestToPayCancellation(original), '/messageIdentifiers/messageIdentification'],
            [
                '/transactions/outbound/credit-transfer/status-request',
                {
                    schema: 'PaymentStatusRequest',
                    messageIdentifiers: { messageIdentification: 'PSR-0001', creationDateTime: '2026-03-02T09:15:27Z' },
                    originalTransactionIdentifiers: { uetr: original.transactionIdentifiers.uetr },
                },
                '/messageIdentifiers/messageIdentification',
            ],
        ];
        for (const [path, body, pointer] of cases) {
            edit(body, pointer, 'Thandi\u0000Mokoena');
            assert.deepEqual(fields(await refusal(path, body)), [pointer], path);
        }
    });
    void it('refuses 50,000 remittance lines, and 5,000 lines of 200 characters, with a 400 naming the list', async () => {
        for (const lines of [Array.from({ length: 50_000 }, (_, index) => `Invoice ${index}`), Array.from({ length: 5_000 }, () => 'x'.repeat(200))]) {
            const transfer = creditTransfer('ZA_RTC');
            edit(transfer, '/remittanceInformation/unstructured', lines);
            assert.deepEqual(fields(await refusal('/transactions/outbound/credit-transfer', transfer)), ['/remittanceInformation/unstructured']);
        }
    });
});
//# sourceMappingURL=hostile-input.test.js.map