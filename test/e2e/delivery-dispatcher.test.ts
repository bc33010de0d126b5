import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { HttpPartnerSender } from '../../src/adapters/partner-http/http-sender.js';
import type { IntegratorConfig } from '../../src/config/types.js';
import { Dispatcher, type CallbackOutcome, type DispatcherOptions } from '../../src/engine/dispatcher.js';
import type { OutboxRecord, Store } from '../../src/ports/store.js';
import { ManualClock } from '../support/auth-app.js';
import {
  CALLBACK_PATH,
  EVENTS_PATH,
  TestReceiver,
  deliveryDefaults,
  eventually,
  integratorConfig,
  memoryStore,
  message,
  seedTransaction,
  type ReceivedRequest,
  type Responder,
  withStoreMethods,
} from '../support/delivery.js';

/**
 * The dispatcher with the real SQLite store, the real HTTP sender and real integrator endpoints
 * (node:http servers in this process). Time is a manual clock: the tests run days of retries in
 * a second by moving it and waking the dispatcher.
 */
const T0 = Date.UTC(2025, 0, 15, 12, 0, 0);
const DAY_SCHEDULE_MS = [0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

void describe('delivering the outbox', () => {
  let store: Store;
  let clock: ManualClock;
  let receivers: TestReceiver[];
  let senders: HttpPartnerSender[];
  let dispatchers: Dispatcher[];

  beforeEach(async () => {
    store = await memoryStore();
    clock = new ManualClock(T0);
    receivers = [];
    senders = [];
    dispatchers = [];
  });
  afterEach(async () => {
    for (const dispatcher of dispatchers) await dispatcher.stop();
    for (const sender of senders) await sender.close();
    for (const receiver of receivers) await receiver.down();
    await store.close();
  });

  async function receiver(respond?: Responder): Promise<TestReceiver> {
    const started = await TestReceiver.start(respond);
    receivers.push(started);
    return started;
  }

  function start(integrators: readonly IntegratorConfig[], options: Partial<DispatcherOptions> & { timeoutMs?: number } = {}): Dispatcher {
    const sender = new HttpPartnerSender({ clock, timeoutMs: options.timeoutMs ?? 2_000, connectionsPerOriginMax: 8, responseBytesMax: 4_096 });
    senders.push(sender);
    const dispatcher = new Dispatcher({
      store,
      sender,
      integrators: new Map(integrators.map((integrator) => [integrator.id, integrator])),
      clock,
      instanceId: 'test-instance',
      retryScheduleMs: DAY_SCHEDULE_MS,
      retryJitterRatio: 0,
      pollIntervalMs: 20,
      ...options,
    });
    dispatchers.push(dispatcher);
    dispatcher.start();
    return dispatcher;
  }

  const row = async (txId: string, id: string): Promise<OutboxRecord> => {
    const found = (await store.outbox(txId)).find((record) => record.id === id);
    assert.ok(found, `outbox row ${id}`);
    return found;
  };

  /** Move the clock on and let the dispatcher look. */
  const advance = (dispatcher: Dispatcher, ms: number): void => {
    clock.advance(ms);
    dispatcher.wake();
  };

  void it('delivers a message as soon as it is woken and records the attempt', async () => {
    const bank = await receiver();
    const integrator = await integratorConfig('bank-a', bank.url);
    const dispatcher = start([integrator], { pollIntervalMs: 60_000 });
    const callback = message(integrator, 'callback');
    const txId = await seedTransaction(store, integrator, [callback], T0);
    dispatcher.wake();
    await eventually(async () => (await row(txId, callback.id)).status === 'DELIVERED', 'the callback is delivered');
    assert.equal(bank.to(CALLBACK_PATH).length, 1);
    const [attempt] = await store.deliveryAttempts(callback.id);
    assert.deepEqual({ ...attempt, durationMs: 0 }, { outboxId: callback.id, at: T0, durationMs: 0, httpStatus: 204, error: null, delivered: true });
    assert.equal((await row(txId, callback.id)).deliveredAt, T0);
  });

  void it('retries 5xx answers and timeouts on the schedule, records every attempt, then holds the message as UNDELIVERED', async () => {
    let calls = 0;
    const bank = await receiver(() => {
      calls += 1;
      return calls === 2 ? { status: 200, hang: true } : { status: calls % 2 === 0 ? 500 : 503 };
    });
    const integrator = await integratorConfig('bank-a', bank.url);
    // Long enough that a loaded machine's quick 503 is never taken for a timeout; the hanging call times out.
    const dispatcher = start([integrator], { timeoutMs: 1_000 });
    const callback = message(integrator, 'callback');
    const txId = await seedTransaction(store, integrator, [callback], T0);
    dispatcher.wake();

    const attempts = async (): Promise<number> => (await store.deliveryAttempts(callback.id)).length;
    await eventually(async () => (await attempts()) === 1, 'the first attempt');
    assert.equal((await row(txId, callback.id)).nextAttemptAt, T0 + 5_000);

    advance(dispatcher, 4_999);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(await attempts(), 1, 'not retried before its time');

    let expectedNext = T0 + 5_000;
    for (let attempt = 2; attempt <= DAY_SCHEDULE_MS.length; attempt += 1) {
      advance(dispatcher, expectedNext - clock.now());
      await eventually(async () => (await attempts()) === attempt, `attempt ${attempt}`);
      const next = DAY_SCHEDULE_MS[attempt];
      if (next !== undefined) {
        expectedNext = clock.now() + next;
        assert.equal((await row(txId, callback.id)).nextAttemptAt, expectedNext, `attempt ${attempt} schedules the next one`);
      }
    }
    const given = await row(txId, callback.id);
    assert.equal(given.status, 'UNDELIVERED');
    assert.equal(given.attempts, 8);
    const recorded = await store.deliveryAttempts(callback.id);
    assert.deepEqual(
      recorded.map(({ httpStatus, error, delivered }) => ({ httpStatus, error, delivered })),
      [
        { httpStatus: 503, error: null, delivered: false },
        { httpStatus: null, error: 'timed out after 1000 ms', delivered: false },
        ...[3, 4, 5, 6, 7, 8].map((n) => ({ httpStatus: n % 2 === 0 ? 500 : 503, error: null, delivered: false })),
      ],
    );
    assert.equal(recorded.at(-1)?.at, T0 + DAY_SCHEDULE_MS.reduce((sum, delay) => sum + delay, 0), 'the last attempt comes 27 h 35 min 5 s after the first');
    assert.ok(bank.to(CALLBACK_PATH).every((request) => request.headers['webhook-id'] === callback.id), 'every attempt carries the same webhook-id');

    advance(dispatcher, 365 * 86_400_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(await attempts(), 8, 'an undelivered message is never retried on its own');
  });

  void it('delivers an undelivered message after a replay, with a fresh schedule', async () => {
    let up = false;
    const bank = await receiver(() => ({ status: up ? 202 : 503 }));
    const integrator = await integratorConfig('bank-a', bank.url);
    const dispatcher = start([integrator], { retryScheduleMs: [0, 1_000] });
    const callback = message(integrator, 'callback');
    const txId = await seedTransaction(store, integrator, [callback], T0);
    dispatcher.wake();
    await eventually(async () => (await store.deliveryAttempts(callback.id)).length === 1, 'the first attempt');
    advance(dispatcher, 1_000);
    await eventually(async () => (await row(txId, callback.id)).status === 'UNDELIVERED', 'the schedule is spent');

    up = true;
    clock.advance(60_000);
    assert.equal(await store.replayUndelivered({ outboxId: callback.id }, clock.now()), 1);
    const replayed = await row(txId, callback.id);
    assert.deepEqual({ status: replayed.status, attempts: replayed.attempts }, { status: 'PENDING', attempts: 0 });
    dispatcher.wake();
    await eventually(async () => (await row(txId, callback.id)).status === 'DELIVERED', 'the replayed message is delivered');
    assert.deepEqual(
      (await store.deliveryAttempts(callback.id)).map((attempt) => [attempt.at - T0, attempt.httpStatus]),
      [
        [0, 503],
        [1_000, 503],
        [61_000, 202],
      ],
      'the attempts before the replay stay on record',
    );
  });

  void it('waits as long as a Retry-After asks when that is longer than the schedule', async () => {
    const bank = await receiver(() => ({ status: 503, headers: { 'retry-after': '600' } }));
    const integrator = await integratorConfig('bank-a', bank.url);
    const dispatcher = start([integrator]);
    const event = message(integrator, 'event');
    const txId = await seedTransaction(store, integrator, [event], T0);
    dispatcher.wake();
    await eventually(async () => (await store.deliveryAttempts(event.id)).length === 1, 'the first attempt');
    assert.equal((await row(txId, event.id)).nextAttemptAt, T0 + 600_000, '10 min asked for, not the scheduled 5 s');
  });

  void it('sends the next event of a transaction as soon as the one before is acknowledged, with one claim for the whole queue', async () => {
    const bank = await receiver();
    const integrator = await integratorConfig('bank-a', bank.url);
    const { counting, claims } = countingClaims(store);
    // No poll would come within the test: only the first wake and the hand-over can move the queue.
    const dispatcher = start([integrator], { pollIntervalMs: 60_000, store: counting });
    const events = Array.from({ length: 8 }, (_, n) => message(integrator, 'event', { n }));
    const txId = await seedTransaction(store, integrator, events, T0);
    dispatcher.wake();
    await eventually(async () => (await store.outbox(txId)).every((record) => record.status === 'DELIVERED'), 'all eight events are delivered');
    assert.deepEqual(
      bank.to(EVENTS_PATH).map((request) => request.headers['webhook-id']),
      events.map((event) => event.id),
      'in order, each once',
    );
    assert.ok(claims() <= 3, `the queue was walked by hand-over, not by claims (${claims()} claims)`);
  });

  void it('sends the messages a change wrote leased to it without any claim, and gives no lease once stopped or out of room', async () => {
    const bank = await receiver();
    const integrator = await integratorConfig('bank-a', bank.url);
    const { counting, claims } = countingClaims(store);
    const dispatcher = start([integrator], { pollIntervalMs: 60_000, store: counting, inFlightMax: 2 });
    // The first claim of its loop runs at start, before anything is written.
    await eventually(() => Promise.resolve(claims() === 1), 'the dispatcher made its first claim');
    const txId = await seedTransaction(store, integrator, [], T0);
    const callback = message(integrator, 'callback');
    const lease = dispatcher.leaseForNew();
    assert.deepEqual(lease, { owner: 'test-instance', leaseMs: 90_000 });
    const outcome = await store.applyChange({
      transactionId: txId,
      expectedVersion: 1,
      toState: 'PAYMENT_COMPLETED',
      at: T0,
      cause: null,
      dueAt: null,
      outbox: [{ ...callback, availableAt: T0 }],
      leaseOutbox: lease,
    });
    assert.ok(outcome.ok);
    dispatcher.take(outcome.leased);
    await eventually(async () => (await row(txId, callback.id)).status === 'DELIVERED', 'the callback is delivered');
    assert.equal(bank.to(CALLBACK_PATH).length, 1);
    assert.equal(claims(), 1, 'no claim was needed');

    // Out of room: two deliveries hang, so a third message is left to claims.
    const hanging = await receiver(() => ({ status: 200, hang: true }));
    const slow = await integratorConfig('bank-slow', hanging.url);
    const slowDispatcher = start([slow], { pollIntervalMs: 60_000, inFlightMax: 2, timeoutMs: 60_000, stopTimeoutMs: 100 });
    await seedTransaction(store, slow, [message(slow, 'callback'), message(slow, 'event')], T0);
    slowDispatcher.wake();
    await eventually(() => Promise.resolve(slowDispatcher.inFlight === 2), 'two deliveries hang');
    assert.equal(slowDispatcher.leaseForNew(), undefined, 'no room');
    await dispatcher.stop();
    assert.equal(dispatcher.leaseForNew(), undefined, 'stopped');
  });

  void it('delivers the events of each transaction in order although the integrator fails now and then', async () => {
    // Every message fails its first attempt, and every third request fails besides.
    const seen = new Set<string>();
    const bank = await receiver((request) => {
      const id = request.headers['webhook-id'] ?? '';
      const first = !seen.has(id);
      seen.add(id);
      return { status: first || request.index % 3 === 0 ? 503 : 202 };
    });
    const integrator = await integratorConfig('bank-a', bank.url);
    const dispatcher = start([integrator], { retryScheduleMs: [0, ...Array.from({ length: 20 }, () => 1_000)] });
    const transactions: { txId: string; events: string[] }[] = [];
    for (let t = 0; t < 4; t += 1) {
      const events = Array.from({ length: 5 }, (_, n) => message(integrator, 'event', { n }));
      transactions.push({ txId: await seedTransaction(store, integrator, events, T0), events: events.map((event) => event.id) });
    }
    dispatcher.wake();
    const allDelivered = async (): Promise<boolean> => {
      for (const { txId } of transactions) if ((await store.outbox(txId)).some((record) => record.status !== 'DELIVERED')) return false;
      return true;
    };
    for (let round = 0; round < 40 && !(await allDelivered()); round += 1) {
      await new Promise((resolve) => setTimeout(resolve, 30));
      advance(dispatcher, 1_000);
    }
    await eventually(allDelivered, 'every event is delivered');

    const answeredOk = (request: ReceivedRequest): boolean => {
      const id = request.headers['webhook-id'] ?? '';
      const firstIndex = bank.requests.find((other) => other.headers['webhook-id'] === id)?.index;
      return request.index !== firstIndex && request.index % 3 !== 0;
    };
    for (const { events } of transactions) {
      const mine = bank.requests.filter((request) => events.includes(request.headers['webhook-id'] ?? ''));
      const acknowledged = mine.filter(answeredOk).map((request) => request.headers['webhook-id']);
      assert.deepEqual(acknowledged, events, 'acknowledged in the order the events were written');
      for (let k = 1; k < events.length; k += 1) {
        const firstSeen = mine.findIndex((request) => request.headers['webhook-id'] === events[k]);
        const previousAcked = mine.findIndex((request) => request.headers['webhook-id'] === events[k - 1] && answeredOk(request));
        assert.ok(firstSeen > previousAcked, `event ${k} is not sent before event ${k - 1} is acknowledged`);
      }
    }
  });

  void it('keeps delivering callbacks while the events endpoint keeps failing', async () => {
    const bank = await receiver((request) => ({ status: request.path === EVENTS_PATH ? 503 : 202 }));
    const integrator = await integratorConfig('bank-a', bank.url);
    const dispatcher = start([integrator]);
    const event = message(integrator, 'event');
    const callback = message(integrator, 'callback');
    const laterEvent = message(integrator, 'event');
    const txId = await seedTransaction(store, integrator, [event, callback, laterEvent], T0);
    dispatcher.wake();
    await eventually(async () => (await row(txId, callback.id)).status === 'DELIVERED', 'the callback is delivered');
    advance(dispatcher, 5_000);
    await eventually(async () => (await row(txId, event.id)).attempts === 2, 'the event is retried');
    assert.equal((await row(txId, laterEvent.id)).attempts, 0, 'the later event waits for the one before it');
    assert.equal(bank.to(CALLBACK_PATH).length, 1);
  });

  void it('gets everything through, in order per transaction, to an integrator that was down for a while', async () => {
    const bank = await receiver();
    await bank.down();
    const integrator = await integratorConfig('bank-a', bank.url);
    const dispatcher = start([integrator]);
    const written: { txId: string; events: string[]; callbacks: string[] }[] = [];
    for (let t = 0; t < 5; t += 1) {
      const rows = [message(integrator, 'event'), message(integrator, 'event'), message(integrator, 'callback'), message(integrator, 'event'), message(integrator, 'callback')];
      const txId = await seedTransaction(store, integrator, rows, T0);
      written.push({ txId, events: rows.filter((r) => r.channel === 'event').map((r) => r.id), callbacks: rows.filter((r) => r.channel === 'callback').map((r) => r.id) });
    }
    const heads = written.flatMap(({ events, callbacks }) => [events[0] ?? '', callbacks[0] ?? '']);
    const attemptsOfHeads = async (n: number): Promise<boolean> => {
      for (const id of heads) if ((await store.deliveryAttempts(id)).length !== n) return false;
      return true;
    };

    // Down: the immediate attempt and the retries after 5 s and 5 min all fail.
    dispatcher.wake();
    await eventually(() => attemptsOfHeads(1), 'first attempts while down');
    advance(dispatcher, 5_000);
    await eventually(() => attemptsOfHeads(2), 'second attempts while down');
    advance(dispatcher, 300_000);
    await eventually(() => attemptsOfHeads(3), 'third attempts while down');
    const failure = (await store.deliveryAttempts(heads[0] ?? ''))[0];
    assert.equal(failure?.httpStatus, null);
    assert.match(failure?.error ?? '', /ECONNREFUSED/);
    assert.equal((await store.outbox(written[0]?.txId ?? '')).filter((r) => r.attempts > 0).length, 2, 'only the heads of the queues were tried');

    // Back up: the 30-minute retry gets through, and each queue drains behind its head.
    await bank.up();
    advance(dispatcher, 1_800_000);
    await eventually(async () => {
      for (const { txId } of written) if ((await store.outbox(txId)).some((r) => r.status !== 'DELIVERED')) return false;
      return true;
    }, 'everything is delivered after the integrator is back');

    for (const { events, callbacks } of written) {
      const order = (path: string, ids: string[]): (string | undefined)[] =>
        bank.to(path).map((request) => request.headers['webhook-id']).filter((id) => ids.includes(id ?? ''));
      assert.deepEqual(order(EVENTS_PATH, events), events, 'events arrive once each, in order');
      assert.deepEqual(order(CALLBACK_PATH, callbacks), callbacks, 'callbacks arrive once each, in order');
    }
  });

  void it('does not let a slow integrator hold up another one', async () => {
    const slow = await receiver(() => ({ status: 202, delayMs: 1_500 }));
    const fast = await receiver();
    const slowBank = await integratorConfig('slow-bank', slow.url);
    const fastBank = await integratorConfig('fast-bank', fast.url);
    const dispatcher = start([slowBank, fastBank], { endpointInFlightMax: 2, inFlightMax: 6, claimBatchMax: 4, timeoutMs: 5_000 });
    for (let t = 0; t < 8; t += 1) await seedTransaction(store, slowBank, [message(slowBank, 'callback')], T0 - 1_000);
    const fastTxs: string[] = [];
    for (let t = 0; t < 4; t += 1) fastTxs.push(await seedTransaction(store, fastBank, [message(fastBank, 'callback')], T0));
    dispatcher.wake();
    const started = Date.now();
    await eventually(async () => {
      for (const txId of fastTxs) if ((await store.outbox(txId)).some((r) => r.status !== 'DELIVERED')) return false;
      return true;
    }, 'the fast integrator gets all of its callbacks', 1_400);
    assert.ok(Date.now() - started < 1_400, 'before the slow integrator answered even once');
    assert.equal(slow.requests.length, 2, 'the slow integrator has at most endpointInFlightMax deliveries at once');
  });

  void it('delivers a callback on its early schedule after a 30 s outage of its receiver, while an event keeps Standard Webhooks\' schedule', async () => {
    const outageEndsAt = T0 + 30_000;
    const bank = await receiver(() => ({ status: clock.now() < outageEndsAt ? 503 : 204 }));
    const integrator = await integratorConfig('bank-a', bank.url);
    const { retryScheduleMs, retryJitterRatio } = await deliveryDefaults();
    // Every retry lengthened by half its jitter allowance (5% with the default ratio of 10%).
    const dispatcher = start([integrator], { retryScheduleMs, retryJitterRatio, random: () => 0.5 });
    const callback = message(integrator, 'callback');
    const event = message(integrator, 'event');
    const txId = await seedTransaction(store, integrator, [event, callback], T0);
    dispatcher.wake();

    // Move the clock to each next attempt due, once the attempts due so far are recorded.
    const settled = async (): Promise<boolean> => (await store.outbox(txId)).every((record) => record.status !== 'PENDING' || record.nextAttemptAt > clock.now());
    for (let step = 0; step < 20; step += 1) {
      await eventually(settled, 'the attempts due are recorded');
      const pending = (await store.outbox(txId)).filter((record) => record.status === 'PENDING');
      if (pending.length === 0) break;
      advance(dispatcher, Math.min(...pending.map((record) => record.nextAttemptAt)) - clock.now());
    }
    const attempts = async (id: string): Promise<[number, boolean][]> => (await store.deliveryAttempts(id)).map((attempt) => [attempt.at - T0, attempt.delivered]);
    assert.deepEqual(
      await attempts(callback.id),
      [
        [0, false],
        [1_050, false],
        [6_300, false],
        [22_050, false],
        [53_550, true],
      ],
      'retried after 1 s, 5 s, 15 s and 30 s (each plus 5%): delivered within a minute of the first attempt',
    );
    assert.deepEqual(
      await attempts(event.id),
      [
        [0, false],
        [5_250, false],
        [320_250, true],
      ],
      'retried after 5 s, then 5 min',
    );
  });

  void it('tells the engine the outcome of every callback attempt, and nothing about events', async () => {
    let callbackCalls = 0;
    const bank = await receiver((request) => {
      if (request.path === EVENTS_PATH) return { status: 503 };
      callbackCalls += 1;
      return { status: callbackCalls <= 2 ? 500 : 200 };
    });
    const integrator = await integratorConfig('bank-a', bank.url);
    const outcomes: [string, CallbackOutcome][] = [];
    const dispatcher = start([integrator], {
      retryScheduleMs: { callback: [0, 1_000, 1_000], event: [0] },
      onCallbackOutcome: (record, outcome) => {
        outcomes.push([record.id, outcome]);
      },
    });
    const event = message(integrator, 'event');
    const callback = message(integrator, 'callback');
    const txId = await seedTransaction(store, integrator, [event, callback], T0);
    dispatcher.wake();
    await eventually(() => outcomes.length === 1, 'the first outcome');
    advance(dispatcher, 1_000);
    await eventually(() => outcomes.length === 2, 'the second outcome');
    advance(dispatcher, 1_000);
    await eventually(() => outcomes.length === 3, 'the third outcome');
    assert.deepEqual(outcomes, [
      [callback.id, { delivered: false, firstFailure: true, gaveUp: false }],
      [callback.id, { delivered: false, firstFailure: false, gaveUp: false }],
      [callback.id, { delivered: true, firstFailure: false, gaveUp: false }],
    ]);
    assert.equal((await row(txId, event.id)).status, 'UNDELIVERED', 'the event failed on its own schedule, unreported');
  });

  void it('reports a spent schedule for a callback, and a replayed callback does not fail "first" again', async () => {
    const bank = await receiver(() => ({ status: 500 }));
    const integrator = await integratorConfig('bank-a', bank.url);
    const outcomes: CallbackOutcome[] = [];
    const dispatcher = start([integrator], { retryScheduleMs: [0], onCallbackOutcome: (_record, outcome) => void outcomes.push(outcome) });
    const callback = message(integrator, 'callback');
    await seedTransaction(store, integrator, [callback], T0);
    dispatcher.wake();
    await eventually(() => outcomes.length === 1, 'the first outcome');
    await store.replayUndelivered({ outboxId: callback.id }, clock.now());
    dispatcher.wake();
    await eventually(() => outcomes.length === 2, 'the outcome after the replay');
    assert.deepEqual(outcomes, [
      { delivered: false, firstFailure: true, gaveUp: true },
      { delivered: false, firstFailure: false, gaveUp: true },
    ]);
  });

  void it('waits for deliveries in flight when it stops', async () => {
    const bank = await receiver(() => ({ status: 202, delayMs: 200 }));
    const integrator = await integratorConfig('bank-a', bank.url);
    const dispatcher = start([integrator]);
    const callback = message(integrator, 'callback');
    const txId = await seedTransaction(store, integrator, [callback], T0);
    dispatcher.wake();
    await eventually(() => dispatcher.inFlight === 1, 'a delivery in flight');
    await dispatcher.stop();
    assert.equal((await row(txId, callback.id)).status, 'DELIVERED', 'the answer was recorded before stop() returned');
  });

  void it('aborts deliveries still hanging after its stop timeout, without recording them against the integrator', async () => {
    const bank = await receiver(() => ({ status: 202, hang: true }));
    const integrator = await integratorConfig('bank-a', bank.url);
    const dispatcher = start([integrator], { stopTimeoutMs: 100, timeoutMs: 10_000 });
    const callback = message(integrator, 'callback');
    const txId = await seedTransaction(store, integrator, [callback], T0);
    dispatcher.wake();
    await eventually(() => bank.requests.length === 1, 'the request reached the integrator');
    const stopping = Date.now();
    await dispatcher.stop();
    assert.ok(Date.now() - stopping < 2_000, 'stop() did not wait for the 10 s timeout');
    const pending = await row(txId, callback.id);
    assert.deepEqual({ status: pending.status, attempts: pending.attempts }, { status: 'PENDING', attempts: 0 });
    assert.deepEqual(await store.deliveryAttempts(callback.id), [], 'its lease lapses and it is sent again after the restart');
  });
});

/** The store as a dispatcher sees it, counting its outbox claims. */
function countingClaims(store: Store): { counting: Store; claims: () => number } {
  let claims = 0;
  const counting = withStoreMethods(store, {
    claimOutbox: (target) => (options) => {
      claims += 1;
      return target.claimOutbox(options);
    },
  });
  return { counting, claims: () => claims };
}
