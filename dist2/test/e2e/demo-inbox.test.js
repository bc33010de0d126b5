import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { creditTransfer } from '../fixtures/credit-transfer.js';
import { demoAccessToken, startDemo } from '../support/server.js';
/**
 * The zero-config demo shows what happens: started with no configuration (a real process in an
 * empty directory), its integrator's callbacks and events reach the service's own demo inbox,
 * which verifies their signatures and lists them through the admin API, and the start banner
 * says where everything is.
 */
describe('the demo inbox (service started with no configuration)', () => {
    let server;
    let variables;
    before(async () => {
        ({ server, variables } = await startDemo(mkdtempSync(join(tmpdir(), 'regpay-demo-inbox-'))));
    });
    after(async () => {
        await server?.stop();
    });
    const admin = () => `Basic ${Buffer.from(`${variables['REGPAY_ADMIN_USERNAME']}:${variables['REGPAY_ADMIN_PASSWORD']}`).toString('base64')}`;
    it('prints where the API, docs, admin API, inbox and console are, with the integrator and admin credentials', () => {
        const banner = server.output();
        for (const part of ['/api/v1', '/docs', '/admin/v1', '/admin/v1/demo-inbox', '/console', 'client_secret', 'webhook secret'])
            assert.ok(banner.includes(part), `${part} in the banner`);
        assert.equal(variables['REGPAY_URL'], server.url);
        assert.equal(variables['REGPAY_ADMIN_USERNAME'], 'admin');
        assert.ok((variables['REGPAY_ADMIN_PASSWORD'] ?? '').length >= 16);
    });
    it("receives the demo integrator's callback and events, signed, and lists them for the operator", async () => {
        const accessToken = await demoAccessToken(server, variables);
        const transfer = creditTransfer('ZA_RTC');
        const uetr = transfer.transactionIdentifiers.uetr;
        const accepted = await fetch(`${server.url}/api/v1/transactions/outbound/credit-transfer`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
            body: JSON.stringify(transfer),
        });
        assert.equal(accepted.status, 202, await accepted.text());
        const deadline = Date.now() + 30_000;
        let messages = [];
        for (;;) {
            const response = await fetch(`${server.url}/admin/v1/demo-inbox?limit=1000`, { headers: { authorization: admin() } });
            assert.equal(response.status, 200);
            messages = (await response.json()).messages;
            const events = messages.filter((entry) => entry.channel === 'event' && entry.body.tranInfo?.tranUetr === uetr);
            if (events.some((entry) => entry.body.type === 'PAYMENT_AUTH_RESPONSE_DELIVERED'))
                break;
            if (Date.now() > deadline)
                assert.fail(`not every event reached the inbox: ${JSON.stringify(messages.map((entry) => [entry.channel, entry.path]))}`);
            await new Promise((resolve) => setTimeout(resolve, 100));
        }
        const callback = messages.find((entry) => entry.channel === 'callback' && entry.body.transactionIdentifiers?.uetr === uetr);
        assert.ok(callback, 'the outcome callback is in the inbox');
        assert.equal(callback.path, '/transactions/outbound/credit-transfer-response');
        assert.equal(callback.body.status.outcome, 'APPROVED');
        const ours = messages.filter((entry) => entry.body.tranInfo?.tranUetr === uetr || entry.body.transactionIdentifiers?.uetr === uetr);
        assert.equal(ours.length, 9, 'eight events and the callback, each once');
        assert.ok(ours.every((entry) => entry.signatureValid), 'each signed with the printed webhook secret');
        const later = await fetch(`${server.url}/admin/v1/demo-inbox?after=${callback.seq}`, { headers: { authorization: admin() } });
        const rest = (await later.json()).messages;
        assert.ok(rest.every((entry) => entry.seq > callback.seq), 'pages go on after a sequence number');
        assert.equal((await fetch(`${server.url}/admin/v1/demo-inbox`)).status, 401, 'only for the operator');
    });
    const uetrOf = (entry) => entry.body?.transactionIdentifiers?.uetr ?? entry.body?.request?.uetr ?? entry.body?.tranInfo?.tranUetr;
    /** The operator's trigger: the simulated scheme sends the demo bank a lookup and/or a credit. */
    async function originate(order) {
        const response = await fetch(`${server.url}/admin/v1/simulator/inbound`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: admin() }, body: JSON.stringify(order) });
        const body = (await response.json());
        assert.equal(response.status, 202, JSON.stringify(body));
        return body.uetr;
    }
    /** What reached the inbox about one transaction, once `done` holds. */
    async function inboxFor(uetr, done) {
        const deadline = Date.now() + 30_000;
        for (;;) {
            const response = await fetch(`${server.url}/admin/v1/demo-inbox?limit=1000`, { headers: { authorization: admin() } });
            const entries = (await response.json()).messages.filter((entry) => uetrOf(entry) === uetr);
            if (done(entries))
                return entries;
            if (Date.now() > deadline)
                assert.fail(`the inbox did not get there: ${JSON.stringify(entries.map((entry) => [entry.path, entry.body?.type]))}`);
            await new Promise((resolve) => setTimeout(resolve, 100));
        }
    }
    const completed = (entries) => entries.some((entry) => entry.body?.type === 'PAYMENT_COMPLETION_DELIVERED');
    it('answers the scheme’s lookup of a demo customer and its credit to them, and is told the credit settled, with INBOUND events', async () => {
        const uetr = await originate({ integratorId: 'demo-bank', scenario: 'LOOKUP_THEN_CREDIT', proxy: { value: '+27-0821234567', schema: 'MOBILE' }, amount: '150.25' });
        const entries = await inboxFor(uetr, completed);
        const lookup = entries.find((entry) => entry.path === '/identifiers/inbound/identifier-determination-sync');
        assert.ok(lookup, 'the demo bank was asked who the proxy is');
        assert.deepEqual(lookup.answer?.report.reportInformation.accountOwner, { knownAsName: 'Thandi', legalName: 'Thandi Nkosi' }, 'and answered from its directory');
        const authorisation = entries.find((entry) => entry.path === '/transactions/inbound/credit-transfer-authorisation-sync');
        assert.equal(authorisation?.body.creditorAccount.identification.value, '4071000001', 'the credit goes to the account the demo bank named');
        assert.equal(authorisation?.answer?.status.outcome, 'APPROVED');
        const completion = entries.filter((entry) => entry.path === '/transactions/inbound/credit-transfer-completion');
        assert.equal(completion.length, 1, 'told the final word once');
        assert.equal(completion[0]?.body.status.outcome, 'APPROVED', 'settled: credit the customer');
        assert.equal(authorisation?.body.amounts.bankSettlementAmount.value, 150.25, 'the amount the scheme sent');
        assert.deepEqual(completion[0]?.body.transactionIdentifiers, authorisation?.body.transactionIdentifiers, 'the completion names the credit');
        assert.ok(entries.every((entry) => entry.signatureValid), 'every call signed with the printed webhook secret');
        const events = entries.filter((entry) => entry.channel === 'event').map((entry) => entry.body);
        assert.ok(events.length > 0 && events.every((event) => event.tranInfo.direction === 'INBOUND' && event.tranInfo.service === 'RPP_INBOUND'), JSON.stringify(events.map((event) => event.tranInfo)));
    });
    it('declines a credit to a demo customer whose account is closed, AC04, and is told the credit was rejected', async () => {
        const uetr = await originate({ integratorId: 'demo-bank', scenario: 'CREDIT', accountNumber: '4071001004', amount: '10.00' });
        const entries = await inboxFor(uetr, completed);
        const authorisation = entries.find((entry) => entry.path === '/transactions/inbound/credit-transfer-authorisation-sync');
        assert.equal(authorisation?.answer?.status.reasonInfo[0].reason.value, 'AC04');
        const completion = entries.find((entry) => entry.path === '/transactions/inbound/credit-transfer-completion');
        assert.equal(completion?.body.status.outcome, 'REJECTED');
        assert.equal(completion?.body.status.reasonInfo[0].reason.value, 'AC04');
    });
});
//# sourceMappingURL=demo-inbox.test.js.map