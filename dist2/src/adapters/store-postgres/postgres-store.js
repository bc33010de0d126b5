/**
 * The PostgreSQL store: opening (pool, migrations), the reads, and the wiring of the write path.
 * Reads go straight to the pool; every write is queued and committed in a group (pg-batch.ts),
 * whose batch pg-execute.ts runs through one module per table group: pg-intake, pg-requests,
 * pg-changes, pg-outbox, pg-claims, pg-tokens. Every statement is named in pg-sql.ts.
 */
import pg from 'pg';
import { BoundedMap } from '../../lib/bounded-map.js';
import { migrationSql, pendingMigrations, schemaMigrationsTableSql } from '../migrations.js';
import { QueuedWrites, pendingWrite } from '../store-ops.js';
import { attemptFromRow, historyFromRow, messageFromRow, outboxFromRow, transactionFromRow, } from '../store-rows.js';
import { WriteQueue } from '../write-queue.js';
import { flush } from './pg-batch.js';
import { recentDeterminations } from './pg-determinations.js';
import { execute } from './pg-execute.js';
import { ChangeListener } from './pg-notices.js';
import { outboxBacklog, schemeHealth, schemeMessages, searchTransactions } from './pg-search.js';
import { SQL } from './pg-sql.js';
/** Outbox messages whose transaction is remembered for keying their delivery record: more than are ever in flight at once. */
const OUTBOX_TRANSACTIONS_MAX = 100_000;
/** Serializes schema migrations of every instance sharing the database. */
const MIGRATION_LOCK_KEY = 0x7265_6770; // "regp"
/**
 * Connect a pool and apply migrations. Times are BIGINT milliseconds since the epoch and
 * amounts BIGINT minor units; both come back from `pg` as strings and are converted explicitly
 * (amounts to bigint, never through a double).
 */
export async function openPostgresStore(connectionString, options = {}) {
    const onBackgroundError = options.onBackgroundError ?? ((error) => console.error('postgres pool error:', error.message));
    const pool = new pg.Pool({
        connectionString,
        max: options.poolMax ?? 10,
        statement_timeout: options.statementTimeoutMs ?? 30_000,
        connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
        application_name: options.applicationName ?? 'regpay',
    });
    pool.on('error', onBackgroundError);
    try {
        await migrate(pool);
    }
    catch (error) {
        await pool.end();
        throw error;
    }
    const store = new PostgresStore(pool, connectionString, options);
    if (options.listenForChanges === true)
        await store.listen();
    return store;
}
/** An advisory lock held for the migration transaction makes instances starting together migrate one at a time. */
async function migrate(pool) {
    const client = await pool.connect();
    try {
        await client.query('BEGIN');
        try {
            await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
            await client.query(schemaMigrationsTableSql('postgres'));
            const applied = await client.query('SELECT version, name FROM schema_migrations ORDER BY version');
            for (const migration of pendingMigrations(applied.rows)) {
                for (const statement of migrationSql(migration, 'postgres'))
                    await client.query(statement);
                await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [migration.version, migration.name, Date.now()]);
            }
            await client.query('COMMIT');
        }
        catch (error) {
            await client.query('ROLLBACK');
            throw error;
        }
    }
    finally {
        client.release();
    }
}
class PostgresStore extends QueuedWrites {
    kind = 'postgres';
    #pool;
    #queue;
    #connectionString;
    #onBackgroundError;
    /**
     * The transaction of each outbox message this process was handed (claimed, leased as written or
     * handed on by an acknowledgement), so the record of its delivery is known to lock that
     * transaction's row (#lockedRows) before it runs; a message not in it is recorded unkeyed.
     */
    #outboxTransactions = new BoundedMap(OUTBOX_TRANSACTIONS_MAX);
    /** LISTENs for other instances' notices, from the first onChange on. */
    #listener;
    #closed = false;
    constructor(pool, connectionString, options) {
        super();
        this.#pool = pool;
        this.#connectionString = connectionString;
        this.#onBackgroundError = options.onBackgroundError ?? ((error) => console.error('postgres listener error:', error.message));
        const runner = { pool, execute, requeue: (again) => this.#queue.requeue(again), ...(options.onBatchRetried === undefined ? {} : { onRetried: options.onBatchRetried }) };
        this.#queue = new WriteQueue((batch) => flush(runner, batch), {
            batchMax: options.groupCommitBatchMax ?? 256,
            queueMax: options.groupCommitQueueMax ?? 10_000,
            concurrency: Math.max(1, Math.min(options.groupCommitConcurrency ?? 4, (options.poolMax ?? 10) - 1)),
            keysOf: (item) => this.#lockedRows(item.op),
            ...(options.onBatchCommitted === undefined ? {} : { onBatch: options.onBatchCommitted }),
        });
    }
    async findMessage(integratorId, messageId) {
        const result = await this.#pool.query(SQL.messageByKey, [integratorId, messageId]);
        const row = result.rows[0];
        return row && messageFromRow(row);
    }
    async findTransaction(integratorId, uetr, kind = 'CREDIT_TRANSFER') {
        const result = await this.#pool.query(SQL.transactionByUetr, [integratorId, uetr, kind]);
        const row = result.rows[0];
        return row && transactionFromRow(row);
    }
    recentDeterminations(integratorId, lookupKey, since, limit) {
        return recentDeterminations(this.#pool, integratorId, lookupKey, since, limit);
    }
    onChange(listener) {
        void this.listen();
        return super.onChange(listener);
    }
    /** Start listening for notices (once); resolves after the first attempt to LISTEN. */
    listen() {
        if (this.#listener === undefined && !this.#closed) {
            this.#listener = new ChangeListener(this.#connectionString, (transactionId) => this.changed(transactionId), this.#onBackgroundError);
        }
        return this.#listener?.firstAttempt ?? Promise.resolve();
    }
    async getTransaction(id) {
        const result = await this.#pool.query(SQL.transactionById, [id]);
        const row = result.rows[0];
        return row && transactionFromRow(row);
    }
    async history(transactionId) {
        const result = await this.#pool.query(SQL.historyOf, [transactionId]);
        return result.rows.map(historyFromRow);
    }
    async outbox(transactionId) {
        const result = await this.#pool.query(SQL.outboxOf, [transactionId]);
        return result.rows.map(outboxFromRow);
    }
    async outboxMessage(id) {
        const result = await this.#pool.query(SQL.outboxById, [id]);
        const row = result.rows[0];
        return row && outboxFromRow(row);
    }
    async listOutbox(query) {
        const result = await this.#pool.query(query.status === 'UNDELIVERED' ? SQL.listUndelivered : SQL.listPending, [
            query.integratorId ?? null,
            query.after?.createdAt ?? null,
            query.after?.id ?? '',
            query.limit,
        ]);
        return result.rows.map(outboxFromRow);
    }
    async deliveryAttempts(outboxId) {
        const result = await this.#pool.query(SQL.attemptsOf, [outboxId]);
        return result.rows.map(attemptFromRow);
    }
    searchTransactions(query) {
        return searchTransactions(this.#pool, query);
    }
    schemeHealth(from, to) {
        return schemeHealth(this.#pool, from, to);
    }
    schemeMessages(transactionId) {
        return schemeMessages(this.#pool, transactionId);
    }
    outboxBacklog() {
        return outboxBacklog(this.#pool);
    }
    async leaseOwners(now) {
        const result = await this.#pool.query(SQL.leaseOwners, [now]);
        return result.rows.map((row) => row.lease_owner);
    }
    async revokedSessions(since) {
        const result = await this.#pool.query(SQL.revokedSessionsSince, [since]);
        return result.rows.map((row) => ({ sessionId: row.session_id, revokedAt: Number(row.revoked_at) }));
    }
    async getOrCreateSetting(name, create) {
        const existing = await this.#pool.query(SQL.settingByName, [name]);
        const row = existing.rows[0];
        if (row)
            return row.value;
        return this.enqueue({ kind: 'createSetting', name, value: create() });
    }
    async ping() {
        await this.#pool.query('SELECT 1');
    }
    async close() {
        if (this.#closed)
            return;
        this.#closed = true;
        await this.#listener?.close();
        await this.#queue.close();
        await this.#pool.end();
    }
    enqueue(op) {
        const { item, promise } = pendingWrite(op);
        this.#queue.push(item);
        // Registered before the caller's own reaction, so a message is known by the time it is sent.
        if (op.kind === 'intake' || op.kind === 'applyChange' || op.kind === 'claimOutbox' || op.kind === 'recordDelivery') {
            void promise.then((result) => this.#rememberOutbox(op, result), () => undefined);
        }
        return promise;
    }
    /**
     * The transaction rows a write locks in its batch (pg-execute.ts, lockInOrder and applyChanges),
     * as far as known before it runs: the write queue keeps a write out of a batch that runs while
     * another batch of this process holds one of them, since in it the write would wait for that
     * batch's COMMIT holding the locks of its own whole batch, and every write there with it.
     */
    #lockedRows(op) {
        switch (op.kind) {
            case 'applyChange':
                return [op.change.transactionId];
            case 'recordRequest':
                return [op.request.transactionId];
            case 'releaseTransaction':
                return [op.id];
            case 'recordSchemeMessages':
                return op.messages.map((message) => message.transactionId);
            case 'recordDelivery': {
                const transactionId = this.#outboxTransactions.get(op.attempt.outboxId);
                return transactionId === undefined ? [] : [transactionId];
            }
            default:
                return [];
        }
    }
    #rememberOutbox(op, result) {
        const remember = (records) => {
            for (const record of records)
                this.#outboxTransactions.set(record.id, record.transactionId);
        };
        if (op.kind === 'intake' && result.kind === 'accepted')
            remember(result.leased);
        if (op.kind === 'applyChange' && result.ok)
            remember(result.leased);
        if (op.kind === 'claimOutbox')
            remember(result);
        if (op.kind === 'recordDelivery') {
            this.#outboxTransactions.delete(op.attempt.outboxId);
            const next = result;
            if (next !== undefined)
                remember([next]);
        }
    }
}
//# sourceMappingURL=postgres-store.js.map