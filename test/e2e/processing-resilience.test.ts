import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/adapters/store.js';
import { assertTransition } from '../../src/domain/machines/credit-transfer.js';
import { creditTransfer } from '../fixtures/credit-transfer.js';
import { dropPostgresDatabase, freshPostgresUrl } from '../support/postgres.js';
import { Receiver, type Received } from '../support/receiver.js';
import { basicAuth, startServer, writeTestConfig, type RunningServer } from '../support/server.js';

const CALLBACK_PATH = '/partner-api/v1/transactions/outbound/credit-transfer-response';
const EVENTS_PATH = '/events-api/v1/events';
const HAPPY = ['REQUEST_RECEIVED', 'REQUEST_ACCEPTED', 'REQUEST_PENDING', 'REQUEST_DELIVERED', 'RESPONSE_RECEIVED', 'RESPONSE_ACCEPTED', 'RESPONSE_PENDING', 'RESPONSE_DELIVERED'].map((t) => `PAYMENT_AUTH_${t}`);
/** Short retries so an integrator outage of a few seconds is bridged within the test. */
const FAST_RETRIES = { delivery: { timeoutMs: 2_000, leaseMs: 8_000, retryScheduleMs: { callback: [0, 300, 600, 1000, 1000, 1000, 1000, 1000, 2000, 2000, 2000, 2000], event: [0, 300, 600, 1000, 1000, 1000, 1000, 1000, 2000, 2000, 2000, 2000] } } };
const HIGH_LIMITS = { limits: { requestsPerSecond: 1_000_000, burst: 1_000_000 } };

const sqliteUrl = () => `sqlite:${join(mkdtempSync(join(tmpdir(), 'regpay-resilience-')), 'regpay.db')}`;
const bodyOf = (message: Received): any => JSON.parse(message.body);

interface Seen {
  readonly eventTypes: readonly string[];
  readonly outcomes: readonly string[];
}

/**
 * What the integrator saw of each transfer, with at-least-once redeliveries folded by their
 * stable webhook-id (a message counts where it arrived last). Every body is parsed once: the
 * tests poll this while thousands of messages arrive.
 */
function seenByTransfer(received: readonly Received[]): Map<string, Seen> {
  const byUetr = new Map<string, { events: Map<string, string>; callbacks: Map<string, string> }>();
  for (const message of received) {
    const isEvent = message.path === EVENTS_PATH;
    if (!isEvent && message.path !== CALLBACK_PATH) continue;
    const body = bodyOf(message);
    const uetr = (isEvent ? body.tranInfo.tranUetr : body.transactionIdentifiers.uetr) as string;
    let transfer = byUetr.get(uetr);
    if (transfer === undefined) {
      transfer = { events: new Map(), callbacks: new Map() };
      byUetr.set(uetr, transfer);
    }
    const byId = isEvent ? transfer.events : transfer.callbacks;
    const id = String(message.headers['webhook-id']);
    byId.delete(id);
    byId.set(id, (isEvent ? body.type : body.status.outcome) as string);
  }
  return new Map([...byUetr].map(([uetr, { events, callbacks }]) => [uetr, { eventTypes: [...events.values()], outcomes: [...callbacks.values()] }]));
}

const NOTHING_SEEN: Seen = { eventTypes: [], outcomes: [] };

/** What the integrator saw of one transfer. */
function seen(byTransfer: Map<string, Seen>, uetr: string): Seen {
  return byTransfer.get(uetr) ?? NOTHING_SEEN;
}

const unfinished = (received: readonly Received[], uetrs: Iterable<string>): string[] => {
  const byTransfer = seenByTransfer(received);
  return [...uetrs].filter((uetr) => !seen(byTransfer, uetr).eventTypes.includes(HAPPY.at(-1)!));
};

/** Waits until every transfer's last event arrived; on timeout, says what one unfinished transfer got. */
async function waitComplete(receiver: Receiver, uetrs: Set<string> | string[], timeoutMs: number): Promise<Received[]> {
  try {
    return await receiver.waitFor((all) => unfinished(all, uetrs).length === 0, timeoutMs);
  } catch (error) {
    const received = receiver.received();
    const left = unfinished(received, uetrs);
    throw new Error(`${String(error)}; ${left.length} unfinished, e.g. ${JSON.stringify(seen(seenByTransfer(received), left[0]!))}`);
  }
}

async function post(server: RunningServer, transfer: unknown): Promise<number> {
  const response = await fetch(`${server.url}/api/v1/transactions/outbound/credit-transfer`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: basicAuth() },
    body: JSON.stringify(transfer),
  });
  await response.arrayBuffer();
  return response.status;
}

/** Sends `count` transfers one after the other, each answered 202; returns their uetrs. */
async function acceptTransfers(server: RunningServer, count: number): Promise<string[]> {
  const uetrs: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const transfer = creditTransfer('ZA_RPP');
    assert.equal(await post(server, transfer), 202);
    uetrs.push(transfer.transactionIdentifiers.uetr);
  }
  return uetrs;
}

/** Sends transfers from `workers` parallel loops until `stop()` says so; returns the uetrs answered 202. */
async function load(server: () => RunningServer, workers: number, stop: () => boolean): Promise<Set<string>> {
  const accepted = new Set<string>();
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (!stop()) {
        const transfer = creditTransfer('ZA_RPP');
        try {
          if ((await post(server(), transfer)) === 202) accepted.add(transfer.transactionIdentifiers.uetr);
        } catch {
          // the server is being killed: the transfer may or may not have been accepted
        }
      }
    }),
  );
  return accepted;
}

describe('credit-transfer processing under failure', () => {
  it('after kill -9 under load and a restart, every accepted transfer gets exactly one outcome and its events in order', async () => {
    const receiver = await Receiver.start();
    const configPath = writeTestConfig({
      database: sqliteUrl(),
      integratorExtra: { partnerApiUrl: receiver.partnerApiUrl, eventsApiUrl: receiver.eventsApiUrl, ...HIGH_LIMITS },
      extra: FAST_RETRIES,
    });
    let server = await startServer({ configPath });
    let killed = false;
    const loading = load(() => server, 8, () => killed);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    killed = true;
    await server.kill9();
    const accepted = await loading;
    assert.ok(accepted.size >= 20, `load before the kill (${accepted.size} accepted)`);
    server = await startServer({ configPath });
    try {
      // The restarted instance ends the leases of the killed one (same host, its pid gone) and
      // resumes its work at once, and looks at once at transfers whose callback the killed one
      // delivered but never told its engine of: everything arrives long before those leases
      // (engine 30 s) or the engine's callback check (60 s) would have let it.
      const received = await waitComplete(receiver, accepted, 20_000);
      assert.match(server.output(), /their leases are released/, 'the restart says it took the work over');
      const byTransfer = seenByTransfer(received);
      for (const uetr of accepted) {
        const view = seen(byTransfer, uetr);
        assert.deepEqual(view.outcomes, ['APPROVED'], `one outcome for ${uetr}`);
        // A scheme answer lost with the process is recovered through TIMEOUT and a status enquiry:
        // then the path differs from the happy one, but it is still a legal walk, each state once.
        assert.equal(view.eventTypes[0], HAPPY[0]);
        assert.equal(view.eventTypes.at(-1), HAPPY.at(-1));
        assert.equal(new Set(view.eventTypes).size, view.eventTypes.length, `each state of ${uetr} entered once`);
        view.eventTypes.slice(1).forEach((state, i) => assertTransition(view.eventTypes[i]!, state));
      }
    } finally {
      await server.stop();
      await receiver.down();
    }
  });

  it('with processing off, accepts and keeps transfers without sending anything, and processes them all once restarted with it on', async () => {
    const receiver = await Receiver.start();
    const database = sqliteUrl();
    const config = (enabled: boolean) =>
      writeTestConfig({
        database,
        integratorExtra: { partnerApiUrl: receiver.partnerApiUrl, eventsApiUrl: receiver.eventsApiUrl, ...HIGH_LIMITS },
        extra: { ...FAST_RETRIES, processing: { enabled } },
      });
    let server = await startServer({ configPath: config(false) });
    try {
      const uetrs = await acceptTransfers(server, 10);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      assert.equal(receiver.received().length, 0, 'nothing is sent from an instance with processing off');
      assert.equal(await server.stop(), 0);
      const store = await openStore(database);
      try {
        for (const uetr of uetrs) assert.equal((await store.findTransaction('demo-bank', uetr))?.state, HAPPY[0]);
      } finally {
        await store.close();
      }

      server = await startServer({ configPath: config(true) });
      const received = await waitComplete(receiver, uetrs, 30_000);
      const byTransfer = seenByTransfer(received);
      for (const uetr of uetrs) assert.deepEqual(seen(byTransfer, uetr).eventTypes, HAPPY);
    } finally {
      await server.stop();
      await receiver.down();
    }
  });

  it('delivers everything, in order per transfer, once an integrator that was down comes back', async () => {
    const receiver = await Receiver.start();
    await receiver.down();
    const configPath = writeTestConfig({
      database: sqliteUrl(),
      integratorExtra: { partnerApiUrl: receiver.partnerApiUrl, eventsApiUrl: receiver.eventsApiUrl, ...HIGH_LIMITS },
      extra: FAST_RETRIES,
    });
    const server = await startServer({ configPath });
    try {
      const uetrs = await acceptTransfers(server, 20);
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      assert.equal(receiver.received().length, 0, 'nothing can arrive while the integrator is down');
      await receiver.up();
      const received = await waitComplete(receiver, uetrs, 30_000);
      const byTransfer = seenByTransfer(received);
      // The outcome callback failed while the integrator was down: that state is entered once, then left on delivery.
      const withFailure = [...HAPPY.slice(0, -1), 'PAYMENT_AUTH_RESPONSE_DELIVERY_FAILURE', HAPPY.at(-1)];
      for (const uetr of uetrs) {
        const view = seen(byTransfer, uetr);
        assert.deepEqual(view.outcomes, ['APPROVED']);
        assert.deepEqual(view.eventTypes, withFailure);
      }
    } finally {
      await server.stop();
      await receiver.down();
    }
  });

  it('shares the work of two instances on one PostgreSQL database without processing any transfer twice', async () => {
    const receiver = await Receiver.start();
    const database = await freshPostgresUrl();
    const configPath = writeTestConfig({
      database,
      integratorExtra: { partnerApiUrl: receiver.partnerApiUrl, eventsApiUrl: receiver.eventsApiUrl, ...HIGH_LIMITS },
      extra: FAST_RETRIES,
    });
    const first = await startServer({ configPath });
    const second = await startServer({ configPath });
    try {
      let stop = false;
      const loads = [load(() => first, 4, () => stop), load(() => second, 4, () => stop)];
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      stop = true;
      const accepted = new Set([...(await loads[0]!), ...(await loads[1]!)]);
      assert.ok(accepted.size >= 20, `load on both instances (${accepted.size} accepted)`);
      const received = await waitComplete(receiver, accepted, 60_000);
      const byTransfer = seenByTransfer(received);
      for (const uetr of accepted) {
        const view = seen(byTransfer, uetr);
        assert.deepEqual(view.outcomes, ['APPROVED']);
        assert.deepEqual(view.eventTypes, HAPPY);
      }
      const store = await openStore(database);
      try {
        // At-least-once allows a second copy only after an attempt that failed (e.g. timed out on a
        // loaded machine after the integrator got it); two instances both sending one message would
        // show as more copies than recorded attempts, or as two acknowledged attempts.
        const copies = new Map<string, number>();
        for (const message of received) copies.set(message.headers['webhook-id']!, (copies.get(message.headers['webhook-id']!) ?? 0) + 1);
        for (const [id, count] of copies) {
          if (count === 1) continue;
          const attempts = await store.deliveryAttempts(id);
          assert.ok(attempts.length >= count, `${id}: ${count} copies arrived but only ${attempts.length} attempts were made`);
          assert.equal(attempts.filter((attempt) => attempt.delivered).length, 1, `${id}: acknowledged once`);
        }
        for (const uetr of [...accepted].slice(0, 50)) {
          const transaction = await store.findTransaction('demo-bank', uetr);
          assert.ok(transaction);
          assert.deepEqual((await store.history(transaction.id)).map((row) => row.toState), HAPPY);
        }
      } finally {
        await store.close();
      }
    } finally {
      await first.stop();
      await second.stop();
      await receiver.down();
      await dropPostgresDatabase(database);
    }
  });
});
