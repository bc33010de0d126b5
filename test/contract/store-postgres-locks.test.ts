import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pg from 'pg';
import { openStore } from '../../src/adapters/store.js';
import type { BatchRetryReason } from '../../src/adapters/store-postgres/pg-batch.js';
import type { Store } from '../../src/ports/store.js';
import { integratorConfig, message, seedTransaction } from '../support/delivery.js';
import { deadlockCount, dropTestDatabase, freshPostgresUrl } from '../support/postgres.js';

const STORES = 3;
const TRANSACTIONS = 40;
const ROUNDS = 30;


function shuffled<T>(items: readonly T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

/**
 * Several stores (instances) on one database, each with every kind of row-locking write in flight
 * at once on the same transactions, in random order: state changes, lease releases (its own and
 * a dead instance's), claims, wake-ups, deliveries recorded and replays. Each store's group commit puts whatever is queued into one
 * batch, so batches mix them freely; every batch still takes its row locks in one global order,
 * so PostgreSQL never finds two batches waiting on each other.
 */
void describe('PostgreSQL store: row locks across instances', () => {
  void it('mixes state changes, releases, claims, deliveries and replays on shared rows without a deadlock', { timeout: 180_000 }, async () => {
    const database = await freshPostgresUrl();
    const stores: Store[] = [];
    try {
      for (let i = 0; i < STORES; i += 1) stores.push(await openStore(database));
      const [first] = stores;
      assert.ok(first);
      const integrator = await integratorConfig('bank-a', 'http://127.0.0.1:9');
      const ids: string[] = [];
      for (let i = 0; i < TRANSACTIONS; i += 1) ids.push(await seedTransaction(first, integrator, [message(integrator, 'event'), message(integrator, 'event')]));
      const outboxIds = (await Promise.all(ids.map((id) => first.outbox(id)))).flat().map((row) => row.id);
      const before = await deadlockCount(database);

      let failures = 0;
      const attempt = (work: Promise<unknown>): Promise<unknown> =>
        work.catch(() => {
          failures += 1;
        });
      for (let round = 0; round < ROUNDS; round += 1) {
        const now = Date.now();
        await Promise.all(
          stores.flatMap((store, index) => {
            const owner = `instance-${index}`;
            return [
              ...shuffled(ids).map(async (id) => {
                const current = await store.getTransaction(id);
                if (current === undefined) return;
                await attempt(
                  store.applyChange({ transactionId: id, expectedVersion: current.version, toState: current.state, at: now, cause: null, dueAt: now, outbox: [] }),
                );
              }),
              ...shuffled(ids).map((id) => attempt(store.releaseTransaction(id, owner))),
              attempt(store.claimDue({ now, limit: 10, owner, leaseMs: 30_000 })),
              attempt(store.releaseLeases([`instance-${(index + 1) % STORES}`], now)),
              attempt(store.wakeDeliveredCallbacks(now)),
              attempt(store.replayUndelivered({ integratorId: integrator.id }, now)),
              ...shuffled(outboxIds)
                .slice(0, 10)
                .map((outboxId) =>
                  attempt(store.recordDelivery({ outboxId, at: now, durationMs: 1, httpStatus: 500, error: 'HTTP 500', delivered: false, nextAttemptAt: now })),
                ),
            ];
          }),
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      assert.equal(failures, 0, 'no write failed');
      assert.equal((await deadlockCount(database)) - before, 0, 'PostgreSQL detected no deadlock');
    } finally {
      for (const store of stores) await store.close();
      await dropTestDatabase(database);
    }
  });

  void it('runs a batch the database aborted as a deadlock again, and tells of it', { timeout: 60_000 }, async () => {
    const database = await freshPostgresUrl();
    const retried: BatchRetryReason[] = [];
    const store = await openStore(database, { onBatchRetried: (reason) => retried.push(reason) });
    const other = new pg.Client({ connectionString: database });
    await other.connect();
    // PostgreSQL checks for a deadlock in the session whose wait passes deadlock_timeout first, and
    // aborts that one. On a loaded machine the two waits can start close enough for the other
    // session to be checked first; a long timeout in it leaves the check to the store's batch.
    await other.query("SET deadlock_timeout = '30s'");
    try {
      const integrator = await integratorConfig('bank-a', 'http://127.0.0.1:9');
      // Two transactions, each with a message given up on: one replay locks both rows, in id order, in one statement.
      const ids: string[] = [];
      for (let i = 0; i < 2; i += 1) {
        const id = await seedTransaction(store, integrator, [message(integrator, 'event')]);
        const [row] = await store.outbox(id);
        assert.ok(row);
        await store.recordDelivery({ outboxId: row.id, at: Date.now(), durationMs: 1, httpStatus: 500, error: 'HTTP 500', delivered: false, nextAttemptAt: null });
        ids.push(id);
      }
      const [low, high] = ids.sort() as [string, string];
      // Another session holds the higher row and, once the store's batch holds the lower one and
      // waits for the higher, asks for the lower: a cycle PostgreSQL breaks by aborting a side.
      await other.query('BEGIN');
      await other.query('SELECT id FROM transactions WHERE id = $1 FOR UPDATE', [high]);
      const replayed = store.replayUndelivered({ integratorId: integrator.id }, Date.now());
      await waitForLockWait(other);
      const outcome = await other.query('SELECT id FROM transactions WHERE id = $1 FOR UPDATE', [low]).then(
        () => 'locked',
        (error: unknown) => (error as { code?: string }).code,
      );
      await other.query(outcome === 'locked' ? 'COMMIT' : 'ROLLBACK');
      assert.equal(await replayed, 2, 'the replay was done in the end');
      // PostgreSQL aborts the side whose wait passed deadlock_timeout first: the store's batch.
      assert.equal(outcome, 'locked', 'the store batch was the deadlock victim, not the other session');
      assert.deepEqual(retried, ['deadlock'], 'the aborted batch was run again and reported');
    } finally {
      await other.end();
      await store.close();
      await dropTestDatabase(database);
    }
  });
});

/** Until some session of the database waits on a row lock (the store's batch behind `holder`). */
async function waitForLockWait(holder: pg.Client): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const waiting = await holder.query<{ count: string }>(
      "SELECT count(*) AS count FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()",
    );
    if (Number(waiting.rows[0]?.count) > 0) return;
    if (Date.now() > deadline) throw new Error('the store never waited on the held row');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
