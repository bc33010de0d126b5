import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { tracked } from '../support/children.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { newWebhookSecret } from '../../src/cli/secret-commands.js';
import { webhookSignature } from '../../src/lib/webhook-signature.js';
import { creditTransfer } from '../fixtures/credit-transfer.js';
import { basicAuth, demoAccessToken, freePort, startDemo, startServer, writeTestConfig, type RunningServer } from '../support/server.js';

/**
 * examples/receiver.mjs, the integrator's receiver docs/api.md points to, run as an integrator
 * runs it (plain node, no build) against a real service that signs its callbacks and events:
 * it verifies and acknowledges what the service sends, and refuses whatever is tampered with.
 */
const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const RECEIVER = join(REPO, 'examples/receiver.mjs');
const WAIT_MS = 60_000;
const OPERATOR = { username: 'ops', password: 'ops-password-for-tests' };

interface Printed {
  readonly result: string;
  readonly reason?: string;
  readonly webhookId?: string;
  readonly path: string;
  readonly kind: string;
  readonly summary?: Record<string, unknown>;
  readonly body?: any;
  readonly answer?: any;
}

interface Receiver {
  readonly url: string;
  readonly child: ChildProcess;
  lines(): Printed[];
  stderr(): string;
}

async function startReceiver(secret: string, env: Record<string, string> = {}): Promise<Receiver> {
  const child = tracked(spawn(process.execPath, [RECEIVER], {
    env: { PATH: process.env.PATH ?? '', REGPAY_WEBHOOK_SECRET: secret, RECEIVER_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  }));
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const deadline = Date.now() + 30_000;
  for (;;) {
    const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr);
    if (match?.[1] !== undefined) {
      return {
        url: match[1],
        child,
        lines: () => stdout.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Printed),
        stderr: () => stderr,
      };
    }
    if (child.exitCode !== null || Date.now() > deadline) assert.fail(`the receiver did not start:\n${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function waitFor<T>(what: string, probe: () => T | undefined, diagnostics: () => string): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const found = probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) assert.fail(`${what} within ${WAIT_MS} ms:\n${diagnostics()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

void describe('examples/receiver.mjs', () => {
  const secret = newWebhookSecret();
  let receiver: Receiver;
  let server: RunningServer;

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

    const callback = await waitFor(
      'the receiver printed the verified credit-transfer-response',
      () => receiver.lines().find((line) => line.kind === 'callback' && line.summary?.uetr === uetr),
      diagnostics,
    );
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
    const events = await waitFor(
      'the receiver printed all eight events of the transfer',
      () => {
        const found = receiver.lines().filter((line) => line.kind === 'event' && line.summary?.uetr === uetr);
        return found.length >= expected.length ? found : undefined;
      },
      diagnostics,
    );
    assert.deepEqual(
      events.map((event) => event.body.type),
      expected,
      'one event per state entered, in the order entered',
    );
    for (const event of events) {
      assert.equal(event.result, 'verified');
      assert.equal(event.path, '/events-api/v1/events');
      assert.equal(event.body.name, `TRANSACTION_STATE_${event.body.type as string}`);
    }
    assert.deepEqual(
      receiver.lines().filter((line) => line.result !== 'verified'),
      [],
      'nothing the service sent was refused',
    );
  });

  /** The operator's trigger: the simulated scheme sends the integrator's institution a lookup and/or a credit. */
  async function originate(order: Record<string, unknown>): Promise<string> {
    const response = await fetch(`${server.url}/admin/v1/simulator/inbound`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: basicAuth(OPERATOR) },
      body: JSON.stringify(order),
    });
    const body = (await response.json()) as { uetr: string };
    assert.equal(response.status, 202, JSON.stringify(body));
    return body.uetr;
  }
  const about = (uetr: string) => (line: Printed) => line.summary?.uetr === uetr;
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
    const events = await waitFor(
      'the receiver printed the INBOUND events up to the completion delivered',
      () => {
        const found = receiver.lines().filter((line) => line.kind === 'event' && line.summary?.uetr === uetr);
        return found.some((event) => event.body.type === 'PAYMENT_COMPLETION_DELIVERED') ? found : undefined;
      },
      diagnostics,
    );
    assert.ok(events.every((event) => event.result === 'verified' && event.body.tranInfo.direction === 'INBOUND'));
  });

  void it('declines a credit to an account in RECEIVER_DECLINE_ACCOUNTS with its reason, and the completion says REJECTED with it', async () => {
    for (const [account, reason] of [['4071001004', 'AC04'], ['4071001006', 'AC06']] as const) {
      const uetr = await originate({ integratorId: 'demo-bank', scenario: 'CREDIT', accountNumber: account, amount: '10.00' });
      const completion = await waitFor(`the completion of the credit to ${account}`, () => receiver.lines().find((line) => about(uetr)(line) && line.path === COMPLETION), diagnostics);
      assert.equal(completion.summary?.outcome, 'REJECTED');
      assert.equal(completion.body.status.reasonInfo[0].reason.value, reason);
    }
  });

  async function post(headers: Record<string, string>, body: string, method = 'POST'): Promise<number> {
    const response = await fetch(`${receiver.url}/partner-api/v1/transactions/outbound/credit-transfer-response`, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      ...(method === 'POST' ? { body } : {}),
    });
    await response.arrayBuffer();
    return response.status;
  }

  function signed(id: string, body: string, options: { secret?: string; timestampS?: number } = {}): Record<string, string> {
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
    const resultOf = (id: string) => printed.filter((line) => line.webhookId === id).map((line) => line.result);
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

/**
 * The README's way to watch the demo at the example receiver: start the demo with
 * REGPAY_DEMO_RECEIVER=http://127.0.0.1:9090, paste its export line into a second shell and run
 * examples/receiver.mjs there. Callbacks and events then reach the receiver, signed with the
 * printed secret, instead of the demo's own inbox.
 */
void describe('the demo pointed at the example receiver (REGPAY_DEMO_RECEIVER)', () => {
  let receiver: Receiver | undefined;
  let demo: RunningServer;
  let variables: Record<string, string>;
  let receiverPort: number;

  before(async () => {
    receiverPort = await freePort();
    ({ server: demo, variables } = await startDemo(mkdtempSync(join(tmpdir(), 'regpay-demo-receiver-')), { REGPAY_DEMO_RECEIVER: `http://127.0.0.1:${receiverPort}` }));
    // Started second, as a person does: with the secret the demo printed.
    receiver = await startReceiver(variables['REGPAY_WEBHOOK_SECRET'] ?? '', { RECEIVER_PORT: String(receiverPort) });
  });
  after(async () => {
    await demo?.stop();
    receiver?.child.kill('SIGTERM');
  });

  void it('says in its banner where callbacks and events go, and keeps no inbox of its own', async () => {
    assert.match(demo.output(), new RegExp(`receiver:\\s+http://127\\.0\\.0\\.1:${receiverPort}\\s`));
    assert.doesNotMatch(demo.output(), /demo inbox:/);
    const inbox = await fetch(`${demo.url}/admin/v1/demo-inbox`, { headers: { authorization: `Basic ${Buffer.from(`admin:${variables['REGPAY_ADMIN_PASSWORD']}`).toString('base64')}` } });
    assert.equal(inbox.status, 404);
  });

  void it("delivers the credit transfer's outcome callback and events to the receiver, which verifies them with the printed secret", async () => {
    const transfer = creditTransfer('ZA_RTC');
    const uetr = transfer.transactionIdentifiers.uetr;
    const accepted = await fetch(`${demo.url}/api/v1/transactions/outbound/credit-transfer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${await demoAccessToken(demo, variables)}` },
      body: JSON.stringify(transfer),
    });
    assert.equal(accepted.status, 202, await accepted.text());
    const lines = () => receiver?.lines().filter((line) => line.summary?.uetr === uetr) ?? [];
    const diagnostics = () => `receiver:\n${JSON.stringify(receiver?.lines())}\n${receiver?.stderr() ?? ''}\ndemo:\n${demo.output().slice(-4_000)}`;
    await waitFor('the receiver printed the callback and the last event', () => (lines().some((line) => line.kind === 'callback') && lines().some((line) => line.summary?.event === 'TRANSACTION_STATE_PAYMENT_AUTH_RESPONSE_DELIVERED') ? true : undefined), diagnostics);
    const callback = lines().find((line) => line.kind === 'callback');
    assert.equal(callback?.path, '/partner-api/v1/transactions/outbound/credit-transfer-response');
    assert.equal(callback?.summary?.outcome, 'APPROVED');
    assert.ok(lines().every((line) => line.result === 'verified'), JSON.stringify(lines().map((line) => line.result)));
  });
});
