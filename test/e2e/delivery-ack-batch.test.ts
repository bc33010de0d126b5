import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { HttpPartnerSender } from '../../src/adapters/partner-http/http-sender.js';
import type { IntegratorConfig } from '../../src/config/types.js';
import { Dispatcher, type DispatcherOptions } from '../../src/engine/dispatcher.js';
import type { Timers } from '../../src/ports/clock.js';
import type { DeliveryAttempt, OutboxStatus, Store } from '../../src/ports/store.js';
import { ManualClock } from '../support/auth-app.js';
import { EVENTS_PATH, TestReceiver, eventually, integratorConfig, memoryStore, message, seedTransaction, withStoreMethods } from '../support/delivery.js';

/**
 * Acknowledgements recorded in batches (Dispatcher's ackWindowMs, Store.recordDeliveries): with
 * the real SQLite store, the real HTTP sender and a real integrator endpoint. The store is
 * counted through its port, never replaced.
 */
const T0 = Date.UTC(2025, 0, 15, 12, 0, 0);

interface Counted {
  readonly store: Store;
  /** Store writes that recorded attempts, each with the attempts it held. */
  readonly writes: (readonly DeliveryAttempt[])[];
}

function counted(store: Store): Counted {
  const writes: (readonly DeliveryAttempt[])[] = [];
  return {
    writes,
    store: withStoreMethods(store, {
      recordDelivery: (target) => (attempt) => {
        writes.push([attempt]);
        return target.recordDelivery(attempt);
      },
      recordDeliveries: (target) => (attempts) => {
        writes.push(attempts);
        return target.recordDeliveries(attempts);
      },
    }),
  };
}

void describe('acknowledgements recorded in batches', () => {
  let store: Store;
  let bank: TestReceiver;
  let integrator: IntegratorConfig;
  let senders: HttpPartnerSender[];
  let dispatchers: Dispatcher[];
  const clock = new ManualClock(T0);

  beforeEach(async () => {
    store = await memoryStore();
    bank = await TestReceiver.start();
    integrator = await integratorConfig('bank-a', bank.url);
    senders = [];
    dispatchers = [];
  });
  afterEach(async () => {
    for (const dispatcher of dispatchers) await dispatcher.stop();
    for (const sender of senders) await sender.close();
    await bank.down();
    await store.close();
  });

  function start(on: Store, options: Partial<DispatcherOptions> = {}): Dispatcher {
    const sender = new HttpPartnerSender({ clock, timeoutMs: 2_000, connectionsPerOriginMax: 64, responseBytesMax: 4_096 });
    senders.push(sender);
    const dispatcher = new Dispatcher({
      store: on,
      sender,
      integrators: new Map([[integrator.id, integrator]]),
      clock,
      instanceId: 'test-instance',
      pollIntervalMs: 60_000,
      ...options,
    });
    dispatchers.push(dispatcher);
    dispatcher.start();
    return dispatcher;
  }

  const statuses = async (transactions: readonly string[]): Promise<OutboxStatus[]> =>
    (await Promise.all(transactions.map((id) => store.outbox(id)))).flat().map((row) => row.status);

  void it('records the acknowledgements of events that finish together in fewer store writes than events, each DELIVERED once', async () => {
    const events = 40;
    const { store: countedStore, writes } = counted(store);
    const transactions: string[] = [];
    for (let i = 0; i < events; i += 1) transactions.push(await seedTransaction(store, integrator, [message(integrator, 'event')], T0));
    // A window wider than 40 local round trips take even on a busy machine.
    const dispatcher = start(countedStore, { ackWindowMs: 100 });
    dispatcher.wake();
    await eventually(async () => (await statuses(transactions)).every((status) => status === 'DELIVERED'), 'every event is recorded DELIVERED');
    assert.equal(bank.to(EVENTS_PATH).length, events, 'each event sent once');
    assert.equal(
      writes.reduce((sum, attempts) => sum + attempts.length, 0),
      events,
      'every acknowledgement recorded, once',
    );
    assert.ok(writes.length < events / 4, `${events} acknowledgements took ${writes.length} store writes`);
  });

  void it('records a callback\'s acknowledgement at once, with the events\' waiting, and tells the engine only once it is committed', async () => {
    const { store: countedStore, writes } = counted(store);
    const eventTransactions: string[] = [];
    for (let i = 0; i < 5; i += 1) eventTransactions.push(await seedTransaction(store, integrator, [message(integrator, 'event')], T0));
    const told: { id: string; status: OutboxStatus | undefined }[] = [];
    // A window no test waits out: events' acknowledgements wait until something takes them along.
    const dispatcher = start(countedStore, {
      ackWindowMs: 600_000,
      onCallbackOutcome: async (record) => {
        told.push({ id: record.id, status: (await store.outboxMessage(record.id))?.status });
      },
    });
    dispatcher.wake();
    await eventually(() => bank.to(EVENTS_PATH).length === 5, 'the events are acknowledged');
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(await statuses(eventTransactions), ['PENDING', 'PENDING', 'PENDING', 'PENDING', 'PENDING'], 'acknowledged, waiting for their batch');
    assert.equal(writes.length, 0);

    const callback = message(integrator, 'callback');
    await seedTransaction(store, integrator, [callback], T0);
    dispatcher.wake();
    await eventually(() => told.length === 1, 'the engine is told of the callback');
    assert.deepEqual(told, [{ id: callback.id, status: 'DELIVERED' }], 'the acknowledgement was committed before the engine heard of it');
    assert.deepEqual(await statuses(eventTransactions), ['DELIVERED', 'DELIVERED', 'DELIVERED', 'DELIVERED', 'DELIVERED'], 'the waiting events went with it');
    assert.equal(writes.length, 1, 'in one write');
    assert.equal(writes[0]?.length, 6);
  });

  void it('hands on a transaction\'s next event only once the acknowledgement of the one before is committed, so order holds', async () => {
    const outbox = [message(integrator, 'event', { n: 1 }), message(integrator, 'event', { n: 2 }), message(integrator, 'event', { n: 3 })];
    const transaction = await seedTransaction(store, integrator, outbox, T0);
    // What the outbox held when each event arrived, by the event's n.
    const seen = new Map<number, OutboxStatus[]>();
    bank.respond = (request) => {
      const { n } = JSON.parse(request.body) as { n: number };
      void store.outbox(transaction).then((rows) => seen.set(n, rows.map((row) => row.status)));
      return { status: 204 };
    };
    start(store, { ackWindowMs: 30 }).wake();
    await eventually(async () => (await statuses([transaction])).every((status) => status === 'DELIVERED'), 'the three events are delivered');
    assert.deepEqual(
      bank.to(EVENTS_PATH).map((request) => (JSON.parse(request.body) as { n: number }).n),
      [1, 2, 3],
    );
    await eventually(() => seen.size === 3, 'each arrival looked at the outbox');
    assert.deepEqual(seen.get(2)?.[0], 'DELIVERED', 'the first was recorded before the second was sent');
    assert.deepEqual(seen.get(3)?.slice(0, 2), ['DELIVERED', 'DELIVERED']);
  });

  void it('delivers again, after a crash, an acknowledgement whose batch was never written: at least once, nothing lost', async () => {
    const transactions: string[] = [];
    for (let i = 0; i < 3; i += 1) transactions.push(await seedTransaction(store, integrator, [message(integrator, 'event')], T0));
    // The first instance dies with its batch unwritten: its timers never fire again.
    const dead: Timers = { setTimeout: () => undefined, clearTimeout: () => undefined };
    start(store, { instanceId: 'dies', timers: dead, ackWindowMs: 5 }).wake();
    await eventually(() => bank.to(EVENTS_PATH).length === 3, 'the events are acknowledged');
    dispatchers.pop();
    assert.deepEqual(await statuses(transactions), ['PENDING', 'PENDING', 'PENDING'], 'nothing recorded DELIVERED that is not');
    // The restart ends the dead instance's leases (docs/storage.md) and delivers them again.
    assert.equal(await store.releaseLeases(['dies'], clock.now()), 3);
    start(store, { instanceId: 'restarted' }).wake();
    await eventually(async () => (await statuses(transactions)).every((status) => status === 'DELIVERED'), 'delivered after the restart');
    const ids = bank.to(EVENTS_PATH).map((request) => request.headers['webhook-id']);
    assert.equal(ids.length, 6, 'each event twice');
    assert.equal(new Set(ids).size, 3, 'under the same webhook-id, for the receiver to de-duplicate');
  });
});

void describe('acknowledgement batch options', () => {
  void it('refuses a negative window and an empty batch', async () => {
    const store = await memoryStore();
    try {
      const base = { store, sender: new HttpPartnerSender({ clock: new ManualClock(T0), timeoutMs: 1_000, connectionsPerOriginMax: 1, responseBytesMax: 1_024 }), integrators: new Map(), clock: new ManualClock(T0), instanceId: 'x' };
      assert.throws(() => new Dispatcher({ ...base, ackWindowMs: -1 }), /ackWindowMs/);
      assert.throws(() => new Dispatcher({ ...base, ackBatchMax: 0 }), /ackBatchMax/);
      await base.sender.close();
    } finally {
      await store.close();
    }
  });
});
