import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { HttpPartnerSender } from '../../src/adapters/partner-http/http-sender.js';
import type { IntegratorConfig } from '../../src/config/types.js';
import type { OutboxRecord, Store } from '../../src/ports/store.js';
import { ManualClock } from '../support/auth-app.js';
import {
  CALLBACK_PATH,
  EVENTS_PATH,
  TRACEPARENT,
  TestReceiver,
  WEBHOOK_SECRET,
  integratorConfig,
  memoryStore,
  message,
  seedTransaction,
  type ReceivedRequest,
} from '../support/delivery.js';

/**
 * The HTTP sender against a real integrator endpoint (a node:http server in this process): what
 * goes on the wire, and what comes back as the attempt's outcome.
 */
const T0 = Date.UTC(2025, 0, 15, 12, 0, 0);
const TIMEOUT_MS = 300;

/** Standard Webhooks verification, written from the spec rather than from our signer. */
function verifiesAsStandardWebhook(request: ReceivedRequest, secret: string): boolean {
  const id = request.headers['webhook-id'];
  const timestamp = request.headers['webhook-timestamp'];
  const header = request.headers['webhook-signature'];
  if (id === undefined || timestamp === undefined || header === undefined) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = Buffer.from(createHmac('sha256', key).update(`${id}.${timestamp}.${request.body}`).digest('base64'));
  return header.split(' ').some((signature) => {
    const [version, value] = signature.split(',');
    const given = Buffer.from(value ?? '');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

void describe('delivering one message over HTTP', () => {
  let receiver: TestReceiver;
  let store: Store;
  let clock: ManualClock;
  let sender: HttpPartnerSender;

  before(async () => {
    receiver = await TestReceiver.start();
  });
  after(async () => receiver.down());
  beforeEach(async () => {
    receiver.requests.length = 0;
    receiver.respond = () => ({ status: 204 });
    store = await memoryStore();
    clock = new ManualClock(T0);
    sender = new HttpPartnerSender({ clock, timeoutMs: TIMEOUT_MS, connectionsPerOriginMax: 4, responseBytesMax: 4_096 });
  });
  afterEach(async () => {
    await sender.close();
    await store.close();
  });

  async function stored(integrator: IntegratorConfig, channel: 'event' | 'callback' = 'callback'): Promise<OutboxRecord> {
    const txId = await seedTransaction(store, integrator, [message(integrator, channel, { schema: 'PaymentStatusReport', note: 'Zoë & co' })], T0);
    const [record] = await store.outbox(txId);
    assert.ok(record);
    return record;
  }

  void it('signs the message so the Standard Webhooks algorithm verifies it, with the outbox id and the attempt time', async () => {
    const integrator = await integratorConfig('bank-a', receiver.url, { webhookSecret: WEBHOOK_SECRET });
    const record = await stored(integrator);
    const result = await sender.send(record, integrator);
    assert.equal(result.delivered, true);
    const [request] = receiver.requests;
    assert.ok(request);
    assert.equal(request.path, CALLBACK_PATH);
    assert.equal(request.method, 'POST');
    assert.equal(request.body, record.body, 'the body is sent exactly as stored');
    assert.equal(request.headers['webhook-id'], record.id);
    assert.equal(request.headers['webhook-timestamp'], String(T0 / 1000));
    assert.match(request.headers['webhook-signature'] ?? '', /^v1,[A-Za-z0-9+/]{43}=$/);
    assert.ok(verifiesAsStandardWebhook(request, WEBHOOK_SECRET));
    assert.ok(!verifiesAsStandardWebhook({ ...request, body: request.body.replace('Zoë', 'Zoe') }, WEBHOOK_SECRET), 'a changed body fails');
  });

  void it('signs the exact bytes it sends, however the stored body is written', async () => {
    const integrator = await integratorConfig('bank-a', receiver.url, { webhookSecret: WEBHOOK_SECRET });
    const record = await stored(integrator);
    // Not what JSON.stringify would write: spaces, a newline, an amount with a trailing zero, an escaped character.
    const body = '{ "amount" : 250.50,\n  "note": "Zo\\u00eb & co", "b": 1, "a": 2 }';
    assert.notEqual(JSON.stringify(JSON.parse(body)), body);
    await sender.send({ ...record, body }, integrator);
    const [request] = receiver.requests;
    assert.ok(request);
    assert.equal(request.body, body);
    assert.ok(verifiesAsStandardWebhook(request, WEBHOOK_SECRET), 'the signature is over the bytes received');
  });

  void it('sends JSON with the webhook id and timestamp but no signature when the integrator has no secret', async () => {
    const integrator = await integratorConfig('bank-a', receiver.url);
    const record = await stored(integrator, 'event');
    await sender.send(record, integrator);
    const [request] = receiver.requests;
    assert.ok(request);
    assert.equal(request.path, EVENTS_PATH);
    assert.equal(request.headers['content-type'], 'application/json');
    assert.equal(request.headers['webhook-id'], record.id);
    assert.equal(request.headers['webhook-timestamp'], String(T0 / 1000));
    assert.equal(request.headers['webhook-signature'], undefined);
    assert.equal(request.headers['authorization'], undefined);
  });

  void it('continues the stored trace: same trace id and flags, a new span id on every attempt, tracestate kept', async () => {
    const integrator = await integratorConfig('bank-a', receiver.url);
    const record = await stored(integrator);
    await sender.send(record, integrator);
    await sender.send(record, integrator);
    const [first, second] = receiver.requests;
    const [, traceId, parentSpan, flags] = TRACEPARENT.split('-');
    for (const request of [first, second]) {
      const parts = (request?.headers['traceparent'] ?? '').split('-');
      assert.equal(parts.length, 4);
      assert.equal(parts[1], traceId);
      assert.equal(parts[3], flags);
      assert.match(parts[2] ?? '', /^[0-9a-f]{16}$/);
      assert.notEqual(parts[2], parentSpan);
      assert.equal(request?.headers['tracestate'], 'vendor=opaque');
    }
    assert.notEqual(first?.headers['traceparent'], second?.headers['traceparent'], 'each attempt is its own span');
  });

  void it('counts any 2xx as an acknowledgement and anything else as a failure with its status', async () => {
    const integrator = await integratorConfig('bank-a', receiver.url);
    const record = await stored(integrator);
    const statuses = [200, 202, 299, 400, 404, 410, 500, 503];
    const outcomes = [];
    for (const status of statuses) {
      receiver.respond = () => ({ status, body: 'x'.repeat(100_000) });
      outcomes.push(await sender.send(record, integrator));
    }
    assert.deepEqual(
      outcomes.map(({ delivered, httpStatus, error }) => ({ delivered, httpStatus, error })),
      statuses.map((status) => ({ delivered: status < 300, httpStatus: status, error: null })),
    );
    assert.ok(outcomes.every((outcome) => outcome.durationMs >= 0));
  });

  void it('passes on a Retry-After of a 429 or 503 in milliseconds', async () => {
    const integrator = await integratorConfig('bank-a', receiver.url);
    const record = await stored(integrator);
    receiver.respond = () => ({ status: 503, headers: { 'retry-after': '120' } });
    assert.equal((await sender.send(record, integrator)).retryAfterMs, 120_000);
    receiver.respond = () => ({ status: 429, headers: { 'retry-after': new Date(T0 + 30_000).toUTCString() } });
    assert.equal((await sender.send(record, integrator)).retryAfterMs, 30_000);
    receiver.respond = () => ({ status: 500, headers: { 'retry-after': '120' } });
    assert.equal((await sender.send(record, integrator)).retryAfterMs, null);
  });

  void it('never follows a redirect', async () => {
    const elsewhere = await TestReceiver.start();
    try {
      const integrator = await integratorConfig('bank-a', receiver.url);
      const record = await stored(integrator);
      receiver.respond = () => ({ status: 307, headers: { location: `${elsewhere.url}${CALLBACK_PATH}` } });
      const result = await sender.send(record, integrator);
      assert.deepEqual({ delivered: result.delivered, httpStatus: result.httpStatus, error: result.error }, { delivered: false, httpStatus: 307, error: 'redirect not followed (HTTP 307)' });
      assert.equal(elsewhere.requests.length, 0);
    } finally {
      await elsewhere.down();
    }
  });

  void it('gives up on an integrator that does not answer within the timeout', async () => {
    const integrator = await integratorConfig('bank-a', receiver.url);
    const record = await stored(integrator);
    receiver.respond = () => ({ status: 200, hang: true });
    const result = await sender.send(record, integrator);
    assert.deepEqual({ delivered: result.delivered, httpStatus: result.httpStatus, error: result.error }, { delivered: false, httpStatus: null, error: `timed out after ${TIMEOUT_MS} ms` });
    assert.ok(result.durationMs >= TIMEOUT_MS - 20 && result.durationMs < TIMEOUT_MS + 1_000, `took ${result.durationMs} ms`);
  });

  void it('takes a 2xx status as the acknowledgement even when the answer stalls after it, and stops reading at the timeout', async () => {
    const integrator = await integratorConfig('bank-a', receiver.url);
    const record = await stored(integrator);
    receiver.respond = () => ({ status: 200, stallBody: true });
    const result = await sender.send(record, integrator);
    assert.deepEqual({ delivered: result.delivered, httpStatus: result.httpStatus, error: result.error }, { delivered: true, httpStatus: 200, error: null });
    assert.ok(result.durationMs >= TIMEOUT_MS - 20 && result.durationMs < TIMEOUT_MS + 1_000, `took ${result.durationMs} ms`);
  });

  void it('reports a refused connection as the transport error, without a status', async () => {
    const down = await TestReceiver.start();
    await down.down();
    const integrator = await integratorConfig('bank-a', down.url);
    const record = await stored(integrator);
    const result = await sender.send(record, integrator);
    assert.equal(result.delivered, false);
    assert.equal(result.httpStatus, null);
    assert.match(result.error ?? '', /ECONNREFUSED/);
  });

  void it('sends Basic credentials to an integrator that asks for them', async () => {
    const integrator = await integratorConfig('bank-a', receiver.url, { callbackAuth: { type: 'basic', username: 'regpay', password: 'cb-pässword' } });
    const record = await stored(integrator);
    await sender.send(record, integrator);
    assert.equal(receiver.requests[0]?.headers['authorization'], `Basic ${Buffer.from('regpay:cb-pässword').toString('base64')}`);
  });
});

void describe('OAuth2 client-credentials callback auth', () => {
  const CLIENT = { clientId: 'regpay client', clientSecret: 'cb-secret/+=' };
  let receiver: TestReceiver;
  let store: Store;
  let clock: ManualClock;
  let sender: HttpPartnerSender;
  let issued: number;
  let accepted: string;
  let tokenRequests: ReceivedRequest[];

  beforeEach(async () => {
    issued = 0;
    accepted = '';
    tokenRequests = [];
    receiver = await TestReceiver.start((request) => {
      if (request.path === '/oauth/token') {
        tokenRequests.push(request);
        issued += 1;
        accepted = `token-${issued}`;
        return { status: 200, body: JSON.stringify({ access_token: accepted, token_type: 'Bearer', expires_in: 3_600, scope: 'callbacks' }) };
      }
      return request.headers['authorization'] === `Bearer ${accepted}` ? { status: 202 } : { status: 401, headers: { 'www-authenticate': 'Bearer error="invalid_token"' } };
    });
    store = await memoryStore();
    clock = new ManualClock(T0);
    sender = new HttpPartnerSender({ clock, timeoutMs: TIMEOUT_MS, connectionsPerOriginMax: 4, responseBytesMax: 4_096 });
  });
  afterEach(async () => {
    await sender.close();
    await store.close();
    await receiver.down();
  });

  async function oauthIntegrator(extra: Record<string, unknown> = {}): Promise<{ integrator: IntegratorConfig; record: OutboxRecord }> {
    const integrator = await integratorConfig('bank-a', receiver.url, {
      callbackAuth: { type: 'oauth2', tokenUrl: `${receiver.url}/oauth/token`, ...CLIENT, scope: 'callbacks', ...extra },
    });
    const txId = await seedTransaction(store, integrator, [message(integrator, 'callback')], T0);
    const [record] = await store.outbox(txId);
    assert.ok(record);
    return { integrator, record };
  }

  void it('fetches a token with the client credentials, shares and caches it, and renews it before it expires', async () => {
    const { integrator, record } = await oauthIntegrator();
    const results = await Promise.all([sender.send(record, integrator), sender.send(record, integrator)]);
    assert.ok(results.every((result) => result.delivered));
    assert.equal(tokenRequests.length, 1, 'concurrent deliveries share one token request');
    const [tokenRequest] = tokenRequests;
    // RFC 6749 §2.3.1: client id and secret form-encoded, then Basic.
    assert.equal(tokenRequest?.headers['authorization'], `Basic ${Buffer.from('regpay+client:cb-secret%2F%2B%3D').toString('base64')}`);
    assert.equal(tokenRequest?.headers['content-type'], 'application/x-www-form-urlencoded');
    assert.deepEqual(Object.fromEntries(new URLSearchParams(tokenRequest?.body)), { grant_type: 'client_credentials', scope: 'callbacks' });

    clock.advance(3_000_000);
    assert.equal((await sender.send(record, integrator)).delivered, true);
    assert.equal(tokenRequests.length, 1, 'the token is reused while it is valid');

    // 3600 s lifetime, renewed 30 s early: at 3570 s a new one is fetched.
    clock.advance(570_000);
    assert.equal((await sender.send(record, integrator)).delivered, true);
    assert.equal(tokenRequests.length, 2, 'renewed shortly before expiry, without waiting for a 401');
    const bearers = receiver.to(CALLBACK_PATH).map((request) => request.headers['authorization']);
    assert.deepEqual(bearers, ['Bearer token-1', 'Bearer token-1', 'Bearer token-1', 'Bearer token-2']);
  });

  void it('fetches a new token once after a 401 and repeats the request once', async () => {
    const { integrator, record } = await oauthIntegrator();
    assert.equal((await sender.send(record, integrator)).delivered, true);
    accepted = 'revoked-by-the-integrator';
    const result = await sender.send(record, integrator);
    assert.equal(result.delivered, true);
    assert.equal(tokenRequests.length, 2);
    assert.deepEqual(
      receiver.to(CALLBACK_PATH).map((request) => request.headers['authorization']),
      ['Bearer token-1', 'Bearer token-1', 'Bearer token-2'],
    );
  });

  void it('reports a 401 that a fresh token does not cure, without asking again and again', async () => {
    const { integrator, record } = await oauthIntegrator();
    receiver.respond = (request) => {
      if (request.path === '/oauth/token') {
        tokenRequests.push(request);
        return { status: 200, body: JSON.stringify({ access_token: `token-${tokenRequests.length}`, token_type: 'bearer', expires_in: 60 }) };
      }
      return { status: 401 };
    };
    const result = await sender.send(record, integrator);
    assert.deepEqual({ delivered: result.delivered, httpStatus: result.httpStatus }, { delivered: false, httpStatus: 401 });
    assert.equal(tokenRequests.length, 2);
    assert.equal(receiver.to(CALLBACK_PATH).length, 2);
  });

  void it('can present the client credentials as form fields', async () => {
    const { integrator, record } = await oauthIntegrator({ tokenAuthMethod: 'client_secret_post' });
    assert.equal((await sender.send(record, integrator)).delivered, true);
    const [tokenRequest] = tokenRequests;
    assert.equal(tokenRequest?.headers['authorization'], undefined);
    assert.deepEqual(Object.fromEntries(new URLSearchParams(tokenRequest?.body)), {
      grant_type: 'client_credentials',
      scope: 'callbacks',
      client_id: CLIENT.clientId,
      client_secret: CLIENT.clientSecret,
    });
  });

  void it('records a token endpoint failure by its error code, never with a secret', async () => {
    const { integrator, record } = await oauthIntegrator();
    receiver.respond = () => ({ status: 401, body: JSON.stringify({ error: 'invalid_client', error_description: `secret ${CLIENT.clientSecret} is wrong` }) });
    const result = await sender.send(record, integrator);
    assert.deepEqual({ delivered: result.delivered, httpStatus: result.httpStatus, error: result.error }, { delivered: false, httpStatus: null, error: 'token endpoint answered HTTP 401 (invalid_client)' });
    receiver.respond = () => ({ status: 200, body: '{"token_type":"bearer"}' });
    assert.equal((await sender.send(record, integrator)).error, 'token endpoint answered without a usable access_token');
    assert.equal(receiver.to(CALLBACK_PATH).length, 0, 'nothing is sent without a token');
  });
});
