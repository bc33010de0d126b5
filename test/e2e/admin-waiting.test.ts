import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { configFromObject } from '../../src/config/load.js';
import { REASON_TEXTS } from '../../src/connectors/iso20022/reason-codes.js';
import { MACHINES } from '../../src/domain/machines/registry.js';
import { buildApp } from '../../src/http/app.js';
import type { NewTransaction, Store } from '../../src/ports/store.js';
import { ManualClock, sequentialIds } from '../support/auth-app.js';
import { memoryStore } from '../support/delivery.js';

/**
 * The admin API an operator finds stuck payments with (docs/console.md, docs/operations.md): the
 * states per kind from the machines, the reason codes with their texts, the transactions not final
 * waiting longest first, the budget a timeout ran out of, and scheme health per minute without the
 * schemes that carry nothing. In process, on a real (memory) SQLite store, through HTTP inject.
 */
const OPERATOR = { username: 'ops', password: 'ops-password-for-waiting-tests' };
const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const MINUTE = 60_000;

function transaction(overrides: Partial<NewTransaction> = {}): NewTransaction {
  const messageId = `MSG${randomUUID().replaceAll('-', '').slice(0, 20)}`;
  const rawBody = JSON.stringify({ schema: 'CreditTransfer', messageIdentifiers: { messageIdentification: messageId } });
  return {
    id: randomUUID(),
    integratorId: 'bank-a',
    kind: 'CREDIT_TRANSFER',
    uetr: randomUUID(),
    scheme: 'ZA_RPP',
    messageId,
    payloadHash: `hash-of-${rawBody}`,
    rawBody,
    amountMinor: 10_000n,
    currency: 'ZAR',
    state: 'PAYMENT_AUTH_REQUEST_RECEIVED',
    receivedAt: NOW,
    dueAt: NOW,
    traceparent: null,
    tracestate: null,
    outbox: [],
    ...overrides,
  };
}

void describe('the admin API for finding stuck payments', () => {
  let app: FastifyInstance;
  let store: Store;
  const clock = new ManualClock(NOW);
  const get = async (url: string) => {
    const response = await app.inject({ method: 'GET', url, headers: { authorization: `Basic ${Buffer.from(`${OPERATOR.username}:${OPERATOR.password}`).toString('base64')}` }, remoteAddress: '127.0.0.1' });
    return { status: response.statusCode, body: response.json<any>() };
  };
  const accept = async (tx: NewTransaction) => {
    assert.equal((await store.intake(tx)).kind, 'accepted');
    return tx;
  };

  before(async () => {
    const config = await configFromObject({
      server: { heldConnectionMs: 300, heldConnectionsMax: 10, logLevel: 'silent' },
      database: 'sqlite::memory:',
      auth: { mode: 'basic' },
      integrators: [
        {
          id: 'bank-a',
          institution: { bicfi: 'DEMOZAJJ' },
          allowlist: ['127.0.0.1/32'],
          credentials: { username: 'alice', password: 'alice-password' },
          partnerApiUrl: 'http://127.0.0.1:9/partner-api/v1',
          eventsApiUrl: 'http://127.0.0.1:9/events-api/v1',
          schemes: ['ZA_RPP', 'ZA_RTC'],
          inbound: { answerTimeoutMs: 4_000 },
        },
      ],
      schemes: { ZA_RPP: { connector: 'simulator', timeBudgetMs: 10_000 }, ZA_RTC: { connector: 'simulator' }, ZA_AC: { connector: 'simulator' } },
      admin: { ...OPERATOR, allowlist: ['127.0.0.1/32'] },
    });
    store = await memoryStore();
    app = await buildApp({ config, store, clock, ids: sequentialIds, readiness: { accepting: () => true } });
  });
  after(async () => {
    await app?.close();
    await store?.close();
  });

  void it("serves every kind's states from its machine, each marked final or not", async () => {
    const { status, body } = await get('/admin/v1/states');
    assert.equal(status, 200);
    assert.deepEqual(
      body.kinds.map((kind: any) => kind.kind),
      [...MACHINES.keys()],
    );
    for (const kind of body.kinds) {
      const machine = MACHINES.get(kind.kind)!;
      assert.deepEqual(kind.states, Object.entries(machine.transitions).map(([state, next]) => ({ state, final: next.length === 0 })), kind.kind);
      assert.equal(kind.initialState, machine.initialState);
    }
    const transfer = body.kinds.find((kind: any) => kind.kind === 'CREDIT_TRANSFER');
    assert.equal(transfer.direction, 'OUTBOUND');
    assert.deepEqual(transfer.states.filter((state: any) => state.final).map((state: any) => state.state), ['PAYMENT_AUTH_RESPONSE_DELIVERED']);
    assert.equal(body.kinds.find((kind: any) => kind.kind === 'INBOUND_CREDIT_TRANSFER').direction, 'INBOUND');
  });

  void it('serves the configured schemes with their connector and what each carries, for the scheme filters', async () => {
    const { status, body } = await get('/admin/v1/schemes');
    assert.equal(status, 200);
    assert.deepEqual(body, {
      schemes: [
        { scheme: 'ZA_RTC', connector: 'simulator', operations: ['creditTransfer'] },
        { scheme: 'ZA_RPP', connector: 'simulator', operations: ['creditTransfer', 'identifierDetermination', 'requestToPay'] },
        { scheme: 'ZA_AC', connector: 'simulator', operations: [] },
      ],
    });
  });

  void it('serves the reason codes with their texts, the table the service writes its own texts from', async () => {
    const { status, body } = await get('/admin/v1/reason-codes');
    assert.equal(status, 200);
    assert.equal(body.reasonCodes.length, REASON_TEXTS.size);
    assert.deepEqual(body.reasonCodes.find((reason: any) => reason.code === 'AB06'), { code: 'AB06', text: 'Timeout at the instructed agent' });
    assert.deepEqual(body.reasonCodes.map((reason: any) => reason.code), [...REASON_TEXTS.keys()].sort());
  });

  void it('lists the transactions not final, waiting longest first, with how long each waited and its next timer; names the budget a timeout ran out of', async () => {
    const stuck = await accept(transaction({ receivedAt: NOW - 5 * MINUTE, dueAt: NOW - 5 * MINUTE }));
    await store.applyChange({
      transactionId: stuck.id,
      expectedVersion: 1,
      via: [{ state: 'PAYMENT_AUTH_REQUEST_ACCEPTED', cause: null }, { state: 'PAYMENT_AUTH_REQUEST_PENDING', cause: null }, { state: 'PAYMENT_AUTH_REQUEST_DELIVERED', cause: null }],
      toState: 'PAYMENT_AUTH_TIMEOUT',
      at: NOW - 5 * MINUTE + 10_000,
      cause: null,
      dueAt: NOW + 30_000,
      data: { submissions: 1, deadlineAt: NOW - 5 * MINUTE + 10_000 },
      outbox: [],
    });
    const done = await accept(transaction({ receivedAt: NOW - 4 * MINUTE }));
    await store.applyChange({ transactionId: done.id, expectedVersion: 1, toState: 'PAYMENT_AUTH_RESPONSE_DELIVERED', at: NOW - 4 * MINUTE, cause: null, dueAt: null, outbox: [], outcome: { outcome: 'APPROVED', reasonCode: null } });
    const inbound = await accept(transaction({ kind: 'INBOUND_CREDIT_TRANSFER', scheme: 'ZA_RTC', receivedAt: NOW - 3 * MINUTE, dueAt: NOW + 1_000, data: { deadlineAt: NOW - 3 * MINUTE + 4_000 } }));
    await store.applyChange({ transactionId: inbound.id, expectedVersion: 1, toState: 'PAYMENT_AUTH_TIMEOUT', at: NOW - 3 * MINUTE + 4_000, cause: null, dueAt: NOW + 1_000, outbox: [] });
    const fresh = await accept(transaction({ receivedAt: NOW - 1_000, dueAt: NOW + 9_000 }));

    const { status, body } = await get('/admin/v1/waiting');
    assert.equal(status, 200);
    assert.equal(body.asOf, new Date(NOW).toISOString());
    assert.deepEqual(body.transactions.map((row: any) => row.id), [stuck.id, inbound.id, fresh.id], 'longest waiting first; the final one left out');
    const [first] = body.transactions;
    assert.deepEqual([first.state, first.waitedMs, first.dueAt, first.direction, first.amount], ['PAYMENT_AUTH_TIMEOUT', 5 * MINUTE, new Date(NOW + 30_000).toISOString(), 'OUTBOUND', { value: '100.00', currency: 'ZAR' }]);
    assert.equal(body.nextCursor, null);

    assert.deepEqual((await get('/admin/v1/waiting?scheme=ZA_RTC')).body.transactions.map((row: any) => row.id), [inbound.id]);
    assert.deepEqual((await get('/admin/v1/waiting?direction=OUTBOUND&state=PAYMENT_AUTH_TIMEOUT')).body.transactions.map((row: any) => row.id), [stuck.id]);
    const page = await get('/admin/v1/waiting?limit=2');
    assert.deepEqual(page.body.transactions.map((row: any) => row.id), [stuck.id, inbound.id]);
    assert.deepEqual((await get(`/admin/v1/waiting?limit=2&cursor=${page.body.nextCursor}`)).body.transactions.map((row: any) => row.id), [fresh.id]);

    const refused = await get('/admin/v1/waiting?state=REQUEST_TO_PAY_STATUS_PAID&scheme=XX&limit=0&decided=maybe&colour=red');
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.body.errors.map((error: any) => error.field).sort(), ['/colour', '/decided', '/limit', '/scheme', '/state']);

    // Decided, its callback still due: it waits, though not for an answer (not in flight).
    await store.applyChange({ transactionId: fresh.id, expectedVersion: 1, toState: 'PAYMENT_AUTH_RESPONSE_PENDING', at: NOW, cause: null, dueAt: NOW + 5_000, outbox: [], outcome: { outcome: 'APPROVED', reasonCode: null } });
    assert.deepEqual((await get('/admin/v1/waiting?decided=true')).body.transactions.map((row: any) => row.id), [fresh.id]);
    assert.deepEqual((await get('/admin/v1/waiting?decided=false')).body.transactions.map((row: any) => row.id), [stuck.id, inbound.id]);
    const rpp = (await get('/admin/v1/schemes/health')).body.schemes.find((scheme: any) => scheme.scheme === 'ZA_RPP');
    assert.equal(rpp.inFlight, (await get('/admin/v1/waiting?scheme=ZA_RPP&decided=false')).body.transactions.length, 'in flight is what waits undecided');

    const timeline = (await get(`/admin/v1/transactions/${stuck.id}`)).body;
    const timeout = timeline.history.find((entry: any) => entry.toState === 'PAYMENT_AUTH_TIMEOUT');
    assert.deepEqual(timeout.timeout, {
      budget: "the scheme's time budget",
      setting: 'schemes.ZA_RPP.timeBudgetMs',
      countedFrom: 'the first submission to the scheme',
      budgetMs: 10_000,
      ranOutAt: new Date(NOW - 5 * MINUTE + 10_000).toISOString(),
    });
    assert.ok(timeline.history.filter((entry: any) => entry.toState !== 'PAYMENT_AUTH_TIMEOUT').every((entry: any) => !('timeout' in entry)), 'only a timeout names a budget');
    const inboundTimeout = (await get(`/admin/v1/transactions/${inbound.id}`)).body.history.find((entry: any) => entry.toState === 'PAYMENT_AUTH_TIMEOUT');
    assert.deepEqual(inboundTimeout.timeout, {
      budget: "the integrator's answer budget",
      setting: 'integrators[0].inbound.answerTimeoutMs (bank-a)',
      countedFrom: "the scheme's message",
      budgetMs: 4_000,
      ranOutAt: new Date(NOW - 3 * MINUTE + 4_000).toISOString(),
    });
  });

  void it('draws scheme health per minute over the window, and leaves out the schemes that carry no operation', async () => {
    const decided = await accept(transaction({ scheme: 'ZA_RTC', receivedAt: NOW - 10 * MINUTE + 5 }));
    await store.applyChange({ transactionId: decided.id, expectedVersion: 1, toState: 'PAYMENT_AUTH_REQUEST_ACCEPTED', at: NOW - 10 * MINUTE + 805, cause: null, dueAt: null, outbox: [], outcome: { outcome: 'REJECTED', reasonCode: 'AC01' } });
    const { status, body } = await get('/admin/v1/schemes/health?windowMinutes=60');
    assert.equal(status, 200);
    assert.equal(body.bucketMinutes, 1);
    assert.deepEqual(body.schemes.map((scheme: any) => scheme.scheme), ['ZA_RTC', 'ZA_RPP'], 'ZA_AC is configured but carries nothing to watch');
    const rtc = body.schemes[0];
    assert.deepEqual(rtc.operations, ['creditTransfer']);
    assert.equal(rtc.series.length, 60);
    assert.deepEqual(rtc.series[50], { from: new Date(NOW - 10 * MINUTE).toISOString(), accepted: 1, outcomes: [{ outcome: 'REJECTED', count: 1 }], p95Ms: 800 });
    assert.deepEqual(rtc.series[49], { from: new Date(NOW - 11 * MINUTE).toISOString(), accepted: 0, outcomes: [], p95Ms: null });
    assert.equal(body.schemes[1].series.reduce((sum: number, bucket: any) => sum + bucket.accepted, 0), 3, 'every ZA_RPP transaction of the hour in one of its minutes');
    const day = (await get('/admin/v1/schemes/health?windowMinutes=1440')).body;
    assert.deepEqual([day.bucketMinutes, day.schemes[0].series.length], [24, 60], 'a longer window in wider buckets');
  });
});
