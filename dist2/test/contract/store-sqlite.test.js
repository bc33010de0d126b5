import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { MIGRATIONS, migrationSql, schemaMigrationsTableSql } from '../../src/adapters/migrations.js';
import { openStore, StoreUnavailableError, StoreWriteError } from '../../src/adapters/store.js';
import { OUTBOX_BLOCKED_AT } from '../../src/adapters/store-ops.js';
import { writerThreadOf } from '../../src/adapters/store-sqlite/sqlite-store.js';
import { storeContract } from './store.contract.js';
/** A file database (not :memory:) so two instances can share it and durability means something. */
function fileDatabase(options = {}) {
    const dir = mkdtempSync(join(tmpdir(), 'regpay-store-'));
    const url = `sqlite:${join(dir, 'regpay.db')}`;
    return {
        url,
        open: () => openStore(url, options),
        drop: () => {
            rmSync(dir, { recursive: true, force: true });
            return Promise.resolve();
        },
    };
}
storeContract('SQLite', () => Promise.resolve(fileDatabase()));
// The main-thread writer is the path `sqlite::memory:` takes (one executor, two places to run it).
storeContract('SQLite, main-thread writer', () => Promise.resolve(fileDatabase({ writerThread: 'main' })));
const T0 = 1_700_000_000_000;
function transfer(overrides = {}) {
    const id = randomUUID();
    return {
        id,
        integratorId: 'bank-a',
        kind: 'CREDIT_TRANSFER',
        uetr: randomUUID(),
        scheme: 'ZA_RPP',
        messageId: `MSG${id.replaceAll('-', '').slice(0, 20)}`,
        payloadHash: `hash-${id}`,
        rawBody: `{"id":"${id}"}`,
        amountMinor: 100n,
        currency: 'ZAR',
        state: 'RECEIVED',
        receivedAt: T0,
        dueAt: null,
        traceparent: null,
        tracestate: null,
        outbox: [],
        ...overrides,
    };
}
async function withFileStore(fn) {
    const database = fileDatabase();
    const stores = [];
    const open = async () => {
        const store = await database.open();
        stores.push(store);
        return store;
    };
    try {
        await fn(await open(), open);
    }
    finally {
        for (const store of stores)
            await store.close();
        await database.drop();
    }
}
void describe('SQLite writer thread', () => {
    void it('commits file-database writes in a worker thread and reads them on the main thread', () => withFileStore(async (store) => {
        assert.ok(writerThreadOf(store), 'a file database has a writer thread');
        const tx = transfer();
        assert.equal((await store.intake(tx)).kind, 'accepted');
        assert.equal((await store.getTransaction(tx.id))?.amountMinor, 100n, 'a resolved write is visible to the next read');
    }));
    void it('hands errors back with their class and code', () => withFileStore(async (store) => {
        const tx = transfer();
        await store.intake(tx);
        const [unknownMessage, badType, tooBig] = await Promise.allSettled([
            store.setMessageResponse('bank-a', 'never-stored', '{}'),
            store.applyChange({ transactionId: tx.id, expectedVersion: 1, toState: null, at: T0, cause: null, dueAt: null, outbox: [] }),
            store.intake(transfer({ amountMinor: 2n ** 63n })),
        ]);
        assert.equal(unknownMessage?.status, 'rejected');
        assert.ok(unknownMessage.status === 'rejected' && unknownMessage.reason instanceof StoreWriteError);
        assert.ok(badType?.status === 'rejected' && badType.reason instanceof Database.SqliteError);
        assert.equal(badType.reason.code, 'SQLITE_CONSTRAINT_NOTNULL');
        assert.ok(tooBig?.status === 'rejected' && tooBig.reason instanceof RangeError);
        assert.equal((await store.getTransaction(tx.id))?.version, 1);
    }));
    void it('fails only the write whose data cannot cross to the thread', () => withFileStore(async (store) => {
        const tx = transfer();
        await store.intake(tx);
        const other = transfer();
        const [unclonable, fine] = await Promise.allSettled([
            store.applyChange({ transactionId: tx.id, expectedVersion: 1, toState: 'B', at: T0, cause: null, dueAt: null, data: { f: () => 1 }, outbox: [] }),
            store.intake(other),
        ]);
        assert.equal(unclonable?.status, 'rejected');
        assert.deepEqual(fine, { status: 'fulfilled', value: { kind: 'accepted', transactionId: other.id, leased: [] } });
        assert.equal((await store.getTransaction(tx.id))?.version, 1);
    }));
    void it('when the writer thread dies, every waiting write is rejected, later writes and ping fail, and nothing resolved is lost', () => withFileStore(async (store, reopen) => {
        const thread = writerThreadOf(store);
        assert.ok(thread);
        const txs = Array.from({ length: 300 }, () => transfer());
        const settling = Promise.allSettled(txs.map((tx) => store.intake(tx)));
        // Let the first batch reach the thread, then kill it with that batch in flight and more queued.
        await new Promise((resolve) => setImmediate(resolve));
        await thread.terminate();
        const settled = await settling;
        const rejected = settled.filter((outcome) => outcome.status === 'rejected');
        assert.ok(rejected.length > 0, 'writes in flight or queued are rejected');
        for (const outcome of rejected)
            assert.ok(outcome.reason instanceof StoreUnavailableError, String(outcome.reason));
        await assert.rejects(store.ping(), StoreUnavailableError);
        await assert.rejects(store.intake(transfer()), StoreUnavailableError);
        assert.equal(await store.findMessage('bank-a', 'never-stored'), undefined, 'reads still answer');
        await store.close();
        const reopened = await reopen();
        await reopened.ping();
        for (const [index, outcome] of settled.entries()) {
            if (outcome.status === 'fulfilled')
                assert.ok(await reopened.getTransaction(txs[index].id), `accepted intake ${index} is stored`);
        }
        assert.equal((await reopened.intake(transfer())).kind, 'accepted');
    }));
    void it('copies committed pages into the database file in the background, long before the writer would checkpoint', async () => {
        const database = fileDatabase();
        const store = await database.open();
        try {
            const filename = database.url.slice('sqlite:'.length);
            const before = statSync(filename).size;
            // About 6 MiB of committed pages: well under the writer's own automatic checkpoint (40 MiB).
            const body = 'x'.repeat(3_000);
            await Promise.all(Array.from({ length: 2_000 }, () => store.intake(transfer({ rawBody: body }))));
            const deadline = Date.now() + 10_000;
            while (statSync(filename).size < before + 4_000_000) {
                assert.ok(Date.now() < deadline, `the database file stayed at ${statSync(filename).size} bytes: nothing checkpointed the WAL`);
                await new Promise((resolve) => setTimeout(resolve, 50));
            }
        }
        finally {
            await store.close();
            await database.drop();
        }
    });
    void it('keeps a memory database on the main thread', async () => {
        const store = await openStore('sqlite::memory:');
        try {
            assert.equal(writerThreadOf(store), undefined);
            const tx = transfer();
            assert.equal((await store.intake(tx)).kind, 'accepted');
            assert.deepEqual(await store.applyChange({ transactionId: tx.id, expectedVersion: 1, via: [{ state: 'A', cause: null }], toState: 'B', at: T0, cause: null, dueAt: null, outbox: [] }), {
                ok: true,
                version: 3,
                leased: [],
            });
            assert.equal((await store.history(tx.id)).length, 3);
        }
        finally {
            await store.close();
        }
    });
});
void describe('SQLite schema upgrade', () => {
    void it('migration 2 leaves only the heads of queues written by an older build due, and the rest follow in order', async () => {
        const database = fileDatabase();
        const file = database.url.slice('sqlite:'.length);
        try {
            // A database as the build before migration 2 left it: every PENDING row due at once.
            const raw = new Database(file);
            raw.exec(schemaMigrationsTableSql('sqlite'));
            const [first] = MIGRATIONS;
            assert.ok(first);
            for (const statement of migrationSql(first, 'sqlite'))
                raw.exec(statement);
            raw.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(first.version, first.name, T0);
            raw
                .prepare(`INSERT INTO transactions (id, integrator_id, kind, uetr, scheme, message_id, state, version, created_at, updated_at, data)
           VALUES ('tx', 'bank-a', 'CREDIT_TRANSFER', 'uetr', 'ZA_RPP', 'msg', 'S', 1, ?, ?, '{}')`)
                .run(T0, T0);
            const insert = raw.prepare(`INSERT INTO outbox (id, transaction_id, integrator_id, seq, channel, url, body, headers, available_at, status, attempts, next_attempt_at, created_at)
         VALUES (?, 'tx', 'bank-a', ?, ?, 'https://bank.example/e', '{}', '{}', ?, ?, 0, ?, ?)`);
            const rows = [
                ['delivered', 1, 'event', 'DELIVERED'],
                ['e2', 2, 'event', 'PENDING'],
                ['e3', 3, 'event', 'PENDING'],
                ['c4', 4, 'callback', 'PENDING'],
                ['e5', 5, 'event', 'PENDING'],
            ];
            for (const [id, seq, channel, status] of rows)
                insert.run(id, seq, channel, T0 + seq, status, T0 + seq, T0);
            raw.close();
            const store = await openStore(database.url);
            try {
                const check = new Database(file, { readonly: true });
                const stored = check.prepare('SELECT id, next_attempt_at FROM outbox ORDER BY seq').all();
                check.close();
                assert.deepEqual(stored.map((row) => [row.id, row.next_attempt_at === OUTBOX_BLOCKED_AT ? 'blocked' : row.next_attempt_at - T0]), [
                    ['delivered', 1],
                    ['e2', 2],
                    ['e3', 'blocked'],
                    ['c4', 4],
                    ['e5', 'blocked'],
                ]);
                assert.deepEqual((await store.outbox('tx')).map((row) => row.nextAttemptAt - T0), [1, 2, 3, 4, 5], 'operators see each waiting row\'s availableAt');
                const claim = async (now) => (await store.claimOutbox({ now, limit: 10, owner: 'w', leaseMs: 30_000 })).map((row) => row.id).sort();
                assert.deepEqual(await claim(T0 + 10), ['c4', 'e2']);
                await store.recordDelivery({ outboxId: 'e2', at: T0 + 11, durationMs: 1, httpStatus: 200, error: null, delivered: true, nextAttemptAt: null });
                assert.deepEqual(await claim(T0 + 11), ['e3']);
                await store.recordDelivery({ outboxId: 'e3', at: T0 + 12, durationMs: 1, httpStatus: 200, error: null, delivered: true, nextAttemptAt: null });
                assert.deepEqual(await claim(T0 + 12), ['e5']);
            }
            finally {
                await store.close();
            }
        }
        finally {
            await database.drop();
        }
    });
});
//# sourceMappingURL=store-sqlite.test.js.map