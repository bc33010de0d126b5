import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { creditTransfer } from '../fixtures/credit-transfer.js';
import { Receiver } from '../support/receiver.js';
import { basicAuth, OTHER_USER, startServer, writeTestConfig } from '../support/server.js';
/**
 * A request-to-pay the scheme brings to the demo bank's customer, end to end over real HTTP: the
 * built-in simulator as the scheme, the service, and a stand-in integrator in its own process.
 * The integrator is handed the request, reports its customer's decisions (pain.014 PRES, ACCP to
 * the operator), pays it with its own credit transfer (ACSC), and is told of a withdrawal (camt.029
 * CNCL to the operator).
 */
const OPERATOR = { username: 'ops', password: 'ops-password-for-tests' };
const PARTNER = '/partner-api/v1';
const REQUEST = `${PARTNER}/transactions/inbound/request-to-pay`;
const NOTICE = `${PARTNER}/transactions/inbound/request-to-pay/cancellation-request`;
const bodyOf = (message) => JSON.parse(message.body);
const callsFor = (received, path, uetr) => received.filter((m) => m.path === path && (bodyOf(m).transactionIdentifiers?.uetr ?? bodyOf(m).originalTransactionIdentifiers?.uetr) === uetr);
describe('receiving a request-to-pay for the bank’s customer, end to end', () => {
    let receiver;
    let server;
    before(async () => {
        receiver = await Receiver.start();
        const database = `sqlite:${join(mkdtempSync(join(tmpdir(), 'regpay-receiving-rtp-')), 'regpay.db')}`;
        const configPath = writeTestConfig({
            database,
            integratorExtra: { partnerApiUrl: receiver.partnerApiUrl, eventsApiUrl: receiver.eventsApiUrl },
            extra: {
                admin: { username: OPERATOR.username, password: OPERATOR.password, allowlist: ['127.0.0.1/32', '::1/128'] },
                schemes: { ZA_RPP: { connector: 'simulator', timeBudgetMs: 10_000, simulatorLatencyMs: 5, inbound: { answerTimeoutMs: 1_000 } } },
            },
        });
        server = await startServer({ configPath });
    });
    after(async () => {
        await server?.stop();
        await receiver?.down();
    });
    const originate = async (order) => {
        const response = await fetch(`${server.url}/admin/v1/simulator/inbound`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: basicAuth(OPERATOR) },
            body: JSON.stringify(order),
        });
        const body = (await response.json());
        assert.equal(response.status, 202, JSON.stringify(body));
        return body.uetr;
    };
    const operatorSees = async (uetr, what, timeoutMs = 15_000) => {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
            const response = await fetch(`${server.url}/admin/v1/simulator/inbound/ZA_RPP/${uetr}`, { headers: { authorization: basicAuth(OPERATOR) } });
            const text = response.status === 200 ? await response.text() : '';
            if (text.includes(what))
                return text;
            if (Date.now() > deadline)
                throw new Error(`the operator never saw ${what}: ${text}`);
            await new Promise((resolve) => setTimeout(resolve, 50));
        }
    };
    const handedOver = async (uetr) => {
        const received = await receiver.waitFor((all) => callsFor(all, REQUEST, uetr).length > 0, 15_000);
        return bodyOf(callsFor(received, REQUEST, uetr)[0]);
    };
    const decide = (request, status, auth = basicAuth()) => fetch(`${server.url}/api/v1/transactions/inbound/request-to-pay-response`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: auth },
        body: JSON.stringify({
            schema: 'RequestToPayResponse',
            messageIdentifiers: { messageIdentification: `RSP${randomUUID().replaceAll('-', '').slice(0, 24)}`, creationDateTime: new Date().toISOString() },
            originalMessageIdentifiers: request.messageIdentifiers,
            transactionIdentifiers: request.transactionIdentifiers,
            status: { status, reasonInfo: [] },
        }),
    });
    it('hands the request to the integrator, forwards PRESENTED and ACCEPTED as pain.014s, and reports ACSC once the integrator’s transfer pays it', async () => {
        const uetr = await originate({ integratorId: 'demo-bank', scenario: 'REQUEST_TO_PAY', accountNumber: '4071000020', amount: '120.00' });
        const request = await handedOver(uetr);
        assert.equal(request.schema, 'RequestToPay');
        assert.equal(request.amounts.bankSettlementAmount.value, 120);
        assert.equal((await decide(request, 'PRESENTED', basicAuth(OTHER_USER))).status, 404, 'another integrator cannot answer it');
        assert.equal((await decide(request, 'PRESENTED')).status, 202);
        await operatorSees(uetr, 'PRES');
        assert.equal((await decide(request, 'ACCEPTED')).status, 202);
        await operatorSees(uetr, 'ACCP');
        const transfer = creditTransfer('ZA_RPP');
        transfer.transactionIdentifiers = { endToEndIdentification: request.transactionIdentifiers.endToEndIdentification, uetr };
        transfer.amounts = { bankSettlementAmount: { currency: 'ZAR', value: 120 } };
        transfer.debtorAccount = { identification: { schema: 'GENERIC', value: '4071000020' } };
        transfer.creditor = request.creditor;
        transfer.creditorAccount = request.creditorAccount;
        transfer.creditorAgent = request.creditorAgent;
        const paid = await fetch(`${server.url}/api/v1/transactions/outbound/credit-transfer`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: basicAuth() },
            body: JSON.stringify(transfer),
        });
        assert.equal(paid.status, 202, await paid.text());
        const view = await operatorSees(uetr, 'ACSC', 20_000);
        assert.ok(view.indexOf('PRES') < view.indexOf('ACCP') && view.indexOf('ACCP') < view.indexOf('ACSC'), `the pain.014s in order: ${view}`);
        const late = await decide(request, 'PRESENTED');
        assert.equal(late.status, 409, 'no decision after PAID');
        assert.equal(callsFor(receiver.received(), NOTICE, uetr).length, 0, 'a paid request gets no cancellation notice');
    });
    it('tells the integrator of the scheme’s withdrawal once and answers the operator camt.029 CNCL', async () => {
        const uetr = await originate({ integratorId: 'demo-bank', scenario: 'REQUEST_TO_PAY_WITHDRAWN', accountNumber: '4071000021', amount: '75.50' });
        const request = await handedOver(uetr);
        const received = await receiver.waitFor((all) => callsFor(all, NOTICE, uetr).length > 0, 15_000);
        const notice = bodyOf(callsFor(received, NOTICE, uetr)[0]);
        assert.equal(notice.schema, 'RequestToPayCancellation');
        assert.equal(notice.reasonCode, 'CUST');
        assert.deepEqual(notice.originalTransactionIdentifiers, request.transactionIdentifiers);
        await operatorSees(uetr, 'CNCL');
        assert.equal((await decide(request, 'ACCEPTED')).status, 409, 'no decision on a cancelled request');
        await new Promise((resolve) => setTimeout(resolve, 300));
        assert.equal(callsFor(receiver.received(), NOTICE, uetr).length, 1, 'one notice');
    });
});
//# sourceMappingURL=receiving-request-to-pay.test.js.map