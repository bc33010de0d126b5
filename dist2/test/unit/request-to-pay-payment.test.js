import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { openStore } from '../../src/adapters/store.js';
import { systemClock, systemIds } from '../../src/adapters/system/system.js';
import { receiveFromScheme } from '../../src/app/receive-from-scheme.js';
import { configFromObject } from '../../src/config/load.js';
import { ERROR_CATALOGUE } from '../../src/domain/errors.js';
import { IRTP } from '../../src/domain/machines/inbound-request-to-pay.js';
import { buildApp } from '../../src/http/app.js';
import { creditTransfer } from '../fixtures/credit-transfer.js';
import { requestToPay } from '../fixtures/request-to-pay.js';
import { basicAuth, OTHER_USER, testConfigObject } from '../support/server.js';
/**
 * Paying a request-to-pay the scheme brought to the demo bank's customer (CONTRACT §11): the
 * intake's checks of the transfer that carries its uetr, and the integrator's decisions route,
 * through app.inject on an in-memory store (no engine: the machine's answer is taken as given).
 */
describe('paying a received request-to-pay, and the integrator’s decisions on it (intake)', () => {
    let app;
    let store;
    let receiving;
    const processing = { leaseForNew: () => undefined, accepted: () => undefined, decideNow: () => Promise.resolve(), request: () => Promise.resolve('decided') };
    before(async () => {
        store = await openStore('sqlite::memory:');
        const config = await configFromObject(testConfigObject({ database: 'sqlite::memory:', integratorExtra: { limits: { requestsPerSecond: 1_000_000, burst: 1_000_000 } } }));
        app = await buildApp({ config, store, clock: systemClock, ids: systemIds, readiness: { accepting: () => true }, processing });
        const silent = { warn: () => undefined };
        receiving = { store, clock: systemClock, ids: systemIds, integrators: new Map(config.integrators.map((integrator) => [integrator.id, integrator])), schemes: config.schemes, log: silent };
    });
    after(async () => {
        await app?.close();
        await store?.close();
    });
    /** A request-to-pay (R8750, between R8750 and R9000) the scheme brings to the demo bank's customer. */
    const received = async (expiresInMs = 3_600_000) => {
        const request = requestToPay('ACCOUNT');
        request.expiryDateTime = new Date(Date.now() + expiresInMs).toISOString();
        request.creditorAgent = { bicfi: 'ABSAZAJJ' };
        request.debtorAgent = { bicfi: 'DEMOZAJJ' };
        const messageId = `S${randomUUID().replaceAll('-', '').slice(0, 20)}`;
        const outcome = await receiveFromScheme(receiving, {
            kind: 'request_to_pay',
            scheme: 'ZA_RPP',
            original: { messageId, messageName: 'pain.013.001.09', uetr: request.transactionIdentifiers.uetr },
            institution: { bicfi: 'DEMOZAJJ' },
            bodyJson: JSON.stringify(request),
            received: { messageName: 'pain.013.001.09', messageId, document: '<Document/>' },
            receivedAt: Date.now(),
        });
        assert.deepEqual(outcome, { kind: 'accepted' });
        return request;
    };
    /** The demo bank's transfer paying `request`, to its creditor's account. */
    const payment = (request, value = 8800, endToEnd = request.transactionIdentifiers.endToEndIdentification) => {
        const transfer = creditTransfer('ZA_RPP');
        transfer.transactionIdentifiers = { endToEndIdentification: endToEnd, uetr: request.transactionIdentifiers.uetr };
        transfer.amounts = { bankSettlementAmount: { currency: 'ZAR', value } };
        transfer.creditor = request.creditor;
        transfer.creditorAccount = request.creditorAccount;
        transfer.creditorAgent = request.creditorAgent;
        return transfer;
    };
    const post = (path, body, auth = basicAuth()) => app.inject({ method: 'POST', url: `/api/v1${path}`, headers: { 'content-type': 'application/json', authorization: auth }, payload: JSON.stringify(body) });
    const pay = (body) => post('/transactions/outbound/credit-transfer', body);
    const fields = (response) => response.json().errors.map((error) => error.field).sort();
    it('takes a transfer that pays the request within its conditions and links it to the request', async () => {
        const request = await received();
        const response = await pay(payment(request));
        assert.equal(response.statusCode, 202, response.body);
        const transfer = await store.findTransaction('demo-bank', request.transactionIdentifiers.uetr, 'CREDIT_TRANSFER');
        const inbound = await store.findTransaction('demo-bank', request.transactionIdentifiers.uetr, 'INBOUND_REQUEST_TO_PAY');
        assert.equal(transfer?.data.requestToPayId, inbound?.id);
    });
    it('answers a second payment of the request 409 UETR_CONFLICT, and a retry of the first 202', async () => {
        const request = await received();
        const first = payment(request);
        assert.equal((await pay(first)).statusCode, 202);
        const second = payment(request, 8900);
        second.messageIdentifiers = { ...second.messageIdentifiers, messageIdentification: `SECOND${Date.now()}` };
        const conflict = await pay(second);
        assert.equal(conflict.statusCode, 409, conflict.body);
        assert.equal(conflict.json().message, ERROR_CATALOGUE.UETR_CONFLICT.message);
        assert.deepEqual(fields(conflict), ['/transactionIdentifiers/uetr']);
        assert.equal((await pay(first)).statusCode, 202);
    });
    it('refuses 422 a payment below the request’s minimum with another end-to-end id, naming both fields', async () => {
        const request = await received();
        const response = await pay(payment(request, 8000, 'NOT-THE-REQUESTS'));
        assert.equal(response.statusCode, 422, response.body);
        assert.equal(response.json().message, ERROR_CATALOGUE.REQUEST_TO_PAY_NOT_PAYABLE.message);
        assert.deepEqual(fields(response), ['/amounts/bankSettlementAmount/value', '/transactionIdentifiers/endToEndIdentification']);
        assert.equal(await store.findTransaction('demo-bank', request.transactionIdentifiers.uetr, 'CREDIT_TRANSFER'), undefined, 'nothing stored');
    });
    it('refuses 422 a payment above the request’s maximum', async () => {
        const request = await received();
        const response = await pay(payment(request, 9000.01));
        assert.equal(response.statusCode, 422);
        assert.deepEqual(fields(response), ['/amounts/bankSettlementAmount/value']);
    });
    it('refuses 422 a payment of a request past its expiryDateTime, naming the uetr', async () => {
        const request = await received(-1_000);
        const response = await pay(payment(request));
        assert.equal(response.statusCode, 422);
        assert.deepEqual(fields(response), ['/transactionIdentifiers/uetr']);
        assert.match(response.json().errors[0].message, /expired/);
    });
    it('refuses 422 a payment of a request that has ended, saying how', async () => {
        const request = await received();
        const inbound = await store.findTransaction('demo-bank', request.transactionIdentifiers.uetr, 'INBOUND_REQUEST_TO_PAY');
        assert.ok(inbound);
        const changed = await store.applyChange({ transactionId: inbound.id, expectedVersion: inbound.version, toState: IRTP.ACCEPTED, via: [], at: Date.now(), cause: null, dueAt: null, outbox: [] });
        assert.ok(changed.ok);
        const cancelled = await store.applyChange({ transactionId: inbound.id, expectedVersion: changed.version, toState: IRTP.CANCELLED, at: Date.now(), cause: null, dueAt: null, outbox: [] });
        assert.ok(cancelled.ok);
        const response = await pay(payment(request));
        assert.equal(response.statusCode, 422);
        assert.deepEqual(fields(response), ['/transactionIdentifiers/uetr']);
        assert.match(response.json().errors[0].message, /CANCELLED/);
    });
    it('answers the integrator’s decision 202, another integrator’s 404, and a status that is the service’s to give 400 at /status/status', async () => {
        const request = await received();
        const answer = (status, id) => ({
            schema: 'RequestToPayResponse',
            messageIdentifiers: { messageIdentification: id, creationDateTime: new Date().toISOString() },
            originalMessageIdentifiers: request.messageIdentifiers,
            transactionIdentifiers: request.transactionIdentifiers,
            status: { status, reasonInfo: [] },
        });
        const path = '/transactions/inbound/request-to-pay-response';
        assert.equal((await post(path, answer('PRESENTED', `P${Date.now()}`))).statusCode, 202);
        const other = await post(path, answer('PRESENTED', `O${Date.now()}`), basicAuth(OTHER_USER));
        assert.equal(other.statusCode, 404);
        assert.deepEqual(fields(other), ['/transactionIdentifiers/uetr']);
        for (const status of ['PAID', 'PENDING', 'EXPIRED', 'CANCELLED']) {
            const refused = await post(path, answer(status, `X${status}${Date.now()}`));
            assert.equal(refused.statusCode, 400, `${status}: ${refused.body}`);
            assert.deepEqual(fields(refused), ['/status/status']);
        }
        const noReason = await post(path, answer('REJECTED', `R${Date.now()}`));
        assert.equal(noReason.statusCode, 400);
        assert.deepEqual(fields(noReason), ['/status/reasonInfo']);
    });
});
//# sourceMappingURL=request-to-pay-payment.test.js.map