import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { tracked } from '../support/children.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { newWebhookSecret } from '../../src/cli/secret-commands.js';
import { webhookSignature } from '../../src/lib/webhook-signature.js';
import { creditTransfer } from '../fixtures/credit-transfer.js';
import { basicAuth, startServer, writeTestConfig } from '../support/server.js';
/**
 * examples/receiver.mjs, the integrator's receiver docs/api.md points to, run as an integrator
 * runs it (plain node, no build) against a real service that signs its callbacks and events:
 * it verifies and acknowledges what the service sends, and refuses whatever is tampered with.
 */
const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const RECEIVER = join(REPO, 'examples/receiver.mjs');
const WAIT_MS = 60_000;
const OPERATOR = { username: 'ops', password: 'ops-password-for-tests' };
async function startReceiver(secret, env = {}) {
    const child = tracked(spawn(process.execPath, [RECEIVER], {
        env: { PATH: process.env.PATH ?? '', REGPAY_WEBHOOK_SECRET: secret, RECEIVER_PORT: '0', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
    }));
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk) => (stderr += chunk.toString()));
    const deadline = Date.now() + 30_000;
    for (;;) {
        const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr);
        if (match?.[1] !== undefined) {
            return {
                url: match[1],
                child,
                lines: () => stdout.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line)),
                stderr: () => stderr,
            };
        }
        if (child.exitCode !== null || Date.now() > deadline)
            assert.fail(`the receiver did not start:\n${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
    }
}
async function waitFor(what, probe, diagnostics) {
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
        const found = probe();
        if (found !== undefined)
            return found;
        if (Date.now() > deadline)
            assert.fail(`${what} within ${WAIT_MS} ms:\n${diagnostics()}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
    }
}
void describe('examples/receiver.mjs', () => {
    const secret = newWebhookSecret();
    let receiver;
    let server;
    before(async () => {
        receiver = await startReceiver(secret, { RECEIVER_DECLINE_ACCOUNTS: '4071001004,4071001006:AC06' });
        const database = `sqlite:${join(mkdtempSync(join(tmpdir(), 'regpay-receiver-')), 'regpay.db')}`;
        server = await startServer({
            configPath: writeTestConfig({
                database,
                integratorExtra: { partnerApiUrl: `${receiver.url}/partner-api/v1`, eventsApiUrl: `${receiver.url}/events-api/v1`, webhookSecret: secret },
                extra: { admin: { username: OPERATOR.username, password: OPERATOR.password, allowlist: ['127.0.0.1/32', '::1/128'] } },
            }),
        });
    });
    after(async () => {
        const code = await server?.stop();
        receiver?.child.kill('SIGTERM');
        assert.equal(code, 0);
    });
    const diagnostics = () => `receiver:\n${receiver.lines().map((line) => JSON.stringify(line)).join('\n')}\n${receiver.stderr()}\nservice:\n${server.output().slice(-4_000)}`;
    void it('verifies and acknowledges the signed outcome callback and every event of a credit transfer, in order', async () => {
        const transfer = creditTransfer('ZA_RTC');
        const uetr = transfer.transactionIdentifiers.uetr;
        const response = await fetch(`${server.url}/api/v1/transactions/outbound/credit-transfer`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: basicAuth() },
            body: JSON.stringify(transfer),
        });
        assert.equal(response.status, 202);
        const callback = await waitFor('the receiver printed the verified credit-transfer-response', () => receiver.lines().find((line) => line.kind === 'callback' && line.summary?.uetr === uetr), diagnostics);
        assert.equal(callback.result, 'verified');
        assert.equal(callback.path, '/partner-api/v1/transactions/outbound/credit-transfer-response');
        assert.equal(callback.summary?.schema, 'PaymentStatusReport');
        assert.equal(callback.summary?.outcome, 'APPROVED');
        assert.equal(callback.body.messageIdentifiers.messageIdentification, callback.webhookId?.replaceAll('-', ''), 'its own message id is its webhook-id without dashes');
        const expected = [
            'PAYMENT_AUTH_REQUEST_RECEIVED',
            'PAYMENT_AUTH_REQUEST_ACCEPTED',
            'PAYMENT_AUTH_REQUEST_PENDING',
            'PAYMENT_AUTH_REQUEST_DELIVERED',
            'PAYMENT_AUTH_RESPONSE_RECEIVED',
            'PAYMENT_AUTH_RESPONSE_ACCEPTED',
            'PAYMENT_AUTH_RESPONSE_PENDING',
            'PAYMENT_AUTH_RESPONSE_DELIVERED',
        ];
        const events = await waitFor('the receiver printed all eight events of the transfer', () => {
            const found = receiver.lines().filter((line) => line.kind === 'event' && line.summary?.uetr === uetr);
            return found.length >= expected.length ? found : undefined;
        }, diagnostics);
        assert.deepEqual(events.map((event) => event.body.type), expected, 'one event per state entered, in the order entered');
        for (const event of events) {
            assert.equal(event.result, 'verified');
            assert.equal(event.path, '/events-api/v1/events');
            assert.equal(event.body.name, `TRANSACTION_STATE_${event.body.type}`);
        }
        assert.deepEqual(receiver.lines().filter((line) => line.result !== 'verified'), [], 'nothing the service sent was refused');
    });
    /** The operator's trigger: the simulated scheme sends the integrator's institution a lookup and/or a credit. */
    async function originate(order) {
        const response = await fetch(`${server.url}/admin/v1/simulator/inbound`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: basicAuth(OPERATOR) },
            body: JSON.stringify(order),
        });
        const body = (await response.json());
        assert.equal(response.status, 202, JSON.stringify(body));
        return body.uetr;
    }
    const about = (uetr) => (line) => line.summary?.uetr === uetr;
    const COMPLETION = '/partner-api/v1/transactions/inbound/credit-transfer-completion';
    void it('answers the scheme’s lookup of its customer and the credit to them, verifying each call, and acknowledges the settled completion', async () => {
        const uetr = await originate({ integratorId: 'demo-bank', scenario: 'LOOKUP_THEN_CREDIT', proxy: { value: '+27-0821234567', schema: 'MOBILE' }, amount: '150.25' });
        const completion = await waitFor('the receiver printed the completion', () => receiver.lines().find((line) => about(uetr)(line) && line.path === COMPLETION), diagnostics);
        assert.equal(completion.result, 'verified');
        assert.equal(completion.summary?.outcome, 'APPROVED', 'settled: the customer is credited now');
        assert.equal(completion.answer, undefined, 'a completion is only acknowledged');
        const calls = receiver.lines().filter(about(uetr));
        const lookup = calls.find((line) => line.path === '/partner-api/v1/identifiers/inbound/identifier-determination-sync');
        assert.equal(lookup?.result, 'verified');
        assert.equal(lookup?.answer.report.reportInformation.outcome, 'SUCCESSFUL');
        assert.equal(lookup?.answer.report.reportInformation.accountInformation.traditionalIdentifier, '4071000001', 'a proxy resolves to RECEIVER_PROXY_ACCOUNT');
        const authorisation = calls.find((line) => line.path === '/partner-api/v1/transactions/inbound/credit-transfer-authorisation-sync');
        assert.equal(authorisation?.result, 'verified');
        assert.equal(authorisation?.body.creditorAccount.identification.value, '4071000001', 'the credit goes to the account the receiver named');
        assert.equal(authorisation?.answer.status.outcome, 'APPROVED');
        const events = await waitFor('the receiver printed the INBOUND events up to the completion delivered', () => {
            const found = receiver.lines().filter((line) => line.kind === 'event' && line.summary?.uetr === uetr);
            return found.some((event) => event.body.type === 'PAYMENT_COMPLETION_DELIVERED') ? found : undefined;
        }, diagnostics);
        assert.ok(events.every((event) => event.result === 'verified' && event.body.tranInfo.direction === 'INBOUND'));
    });
    void it('declines a credit to an account in RECEIVER_DECLINE_ACCOUNTS with its reason, and the completion says REJECTED with it', async () => {
        for (const [account, reason] of [['4071001004', 'AC04'], ['4071001006', 'AC06']]) {
            const uetr = await originate({ integratorId: 'demo-bank', scenario: 'CREDIT', accountNumber: account, amount: '10.00' });
            const completion = await waitFor(`the completion of the credit to ${account}`, () => receiver.lines().find((line) => about(uetr)(line) && line.path === COMPLETION), diagnostics);
            assert.equal(completion.summary?.outcome, 'REJECTED');
            assert.equal(completion.body.status.reasonInfo[0].reason.value, reason);
        }
    });
    async function post(headers, body, method = 'POST') {
        const response = await fetch(`${receiver.url}/partner-api/v1/transactions/outbound/credit-transfer-response`, {
            method,
            headers: { 'content-type': 'application/json', ...headers },
            ...(method === 'POST' ? { body } : {}),
        });
        await response.arrayBuffer();
        return response.status;
    }
    function signed(id, body, options = {}) {
        const timestampS = options.timestampS ?? Math.floor(Date.now() / 1000);
        return {
            'webhook-id': id,
            'webhook-timestamp': String(timestampS),
            'webhook-signature': webhookSignature(options.secret ?? secret, id, timestampS, body),
        };
    }
    void it('accepts a message signed as the service signs it, and refuses it tampered, unsigned, stale or under another secret', async () => {
        const body = '{"schema":"PaymentStatusReport","status":{"outcome":"APPROVED","reasonInfo":[]}}';
        assert.equal(await post(signed('msg-genuine', body), body), 204, 'genuine');
        const tampered = body.replace('APPROVED', 'REJECTED');
        assert.equal(await post(signed('msg-tampered', body), tampered), 401, 'body changed after signing');
        const headers = signed('msg-id-changed', body);
        assert.equal(await post({ ...headers, 'webhook-id': 'msg-other' }, body), 401, 'webhook-id changed after signing');
        assert.equal(await post({ 'webhook-id': 'msg-unsigned', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)) }, body), 401, 'no signature');
        assert.equal(await post(signed('msg-other-secret', body, { secret: newWebhookSecret() }), body), 401, 'signed with another secret');
        assert.equal(await post(signed('msg-stale', body, { timestampS: Math.floor(Date.now() / 1000) - 600 }), body), 401, 'ten minutes old');
        const rotating = signed('msg-rotating', body);
        const both = `${signed('msg-rotating', body, { secret: newWebhookSecret() })['webhook-signature'] ?? ''} ${rotating['webhook-signature'] ?? ''}`;
        assert.equal(await post({ ...rotating, 'webhook-signature': both }, body), 204, 'one of several signatures matches (secret rotation)');
        assert.equal(await post({}, '', 'GET'), 405);
        const printed = receiver.lines();
        const resultOf = (id) => printed.filter((line) => line.webhookId === id).map((line) => line.result);
        assert.deepEqual(resultOf('msg-genuine'), ['verified']);
        assert.deepEqual(resultOf('msg-tampered'), ['rejected']);
        assert.deepEqual(resultOf('msg-other'), ['rejected']);
        assert.deepEqual(resultOf('msg-unsigned'), ['rejected']);
        assert.deepEqual(resultOf('msg-other-secret'), ['rejected']);
        assert.deepEqual(resultOf('msg-stale'), ['rejected']);
        assert.match(printed.find((line) => line.webhookId === 'msg-stale')?.reason ?? '', /five minutes/);
        assert.deepEqual(resultOf('msg-rotating'), ['verified']);
        assert.equal(await post(signed('msg-genuine', body), body), 204, 'a repeat is acknowledged again');
        await waitFor('the repeat is marked', () => (receiver.lines().some((line) => line.webhookId === 'msg-genuine' && line.result === 'verified-repeat') ? true : undefined), diagnostics);
    });
});
//# sourceMappingURL=example-receiver.test.js.map