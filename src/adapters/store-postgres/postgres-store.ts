/**
 * The PostgreSQL store: opening (pool, migrations), the reads, and the wiring of the write path.
 * Reads go straight to the pool; every write is queued and committed in a group (pg-batch.ts),
 * whose batch pg-execute.ts runs through one module per table group: pg-intake, pg-requests,
 * pg-changes, pg-outbox, pg-claims, pg-tokens. Every statement is named in pg-sql.ts.
 */
import pg from 'pg';
import { BoundedMap } from '../../lib/bounded-map.js';
import type {
  ChangeOutcome,
  CommitHolding,
  DeliveryAttemptRecord,
  DurableCounts,
  IntakeOutcome,
  HistoryRecord,
  OutboxBacklog,
  OutboxQuery,
  OutboxRecord,
  RecordedDeliveries,
  RefreshTokenRecord,
  RevokedSession,
  Store,
  SchemeMessageRecord,
  StoredMessage,
  TransactionKind,
  SchemeHealth,
  SchemeSeries,
  WaitingQuery,
  WaitingTransaction,
  TransactionQuery,
  TransactionRecord,
  TransactionSummary,
  TransactionWithMessage,
} from '../../ports/store.js';
import { migrationSql, pendingMigrations, schemaMigrationsTableSql, type AppliedMigration } from '../migrations.js';
import { QueuedWrites, pendingWrite, type OpOf, type PendingWrite, type WriteOp, type WriteResults } from '../store-ops.js';
import {
  attemptFromRow,
  historyFromRow,
  messageFromRow,
  outboxFromRow,
  transactionFromRow,
  type AttemptRow,
  type HistoryRow,
  type MessageRow,
  type OutboxRow,
  type TransactionRow,
  type TransactionWithMessageRow,
} from '../store-rows.js';
import { WriteQueue } from '../write-queue.js';
import { flush, type BatchRetryReason, type BatchRunner } from './pg-batch.js';
import { recentDeterminations } from './pg-determinations.js';
import { execute } from './pg-execute.js';
import { ChangeListener } from './pg-notices.js';
import { outboxBacklog, schemeHealth, schemeMessages, schemeSeries, searchTransactions, waitingTransactions } from './pg-search.js';
import { SQL } from './pg-sql.js';

export interface PostgresStoreOptions {
  /** Most writes committed in one transaction. */
  readonly groupCommitBatchMax?: number;
  /** Most writes waiting for a commit before new ones are refused (StoreOverloadedError). */
  readonly groupCommitQueueMax?: number;
  /** Most group-commit transactions in flight at once, each on its own connection. */
  readonly groupCommitConcurrency?: number;
  /** Connections in the pool (batches and reads share it). */
  readonly poolMax?: number;
  /** Server-side limit on any one statement. */
  readonly statementTimeoutMs?: number;
  /** Limit on waiting for a connection (pool exhausted or server unreachable). */
  readonly connectTimeoutMs?: number;
  readonly applicationName?: string;
  /** Errors with no caller to hand them to (an idle pooled connection dropped by the server). */
  readonly onBackgroundError?: (error: Error) => void;
  /**
   * LISTEN for other instances' change notices from the start (an instance that holds requests):
   * a notice sent before its first listener would otherwise be missed. Without it, listening
   * starts at the first onChange.
   */
  readonly listenForChanges?: boolean;
  /**
   * A batch PostgreSQL aborted as a deadlock (40P01) or a serialization failure (40001) and that
   * is run again: for logs and metrics. Batches take their locks in one order (pg-execute.ts),
   * so a deadlock here means that order was broken somewhere.
   */
  readonly onBatchRetried?: (reason: BatchRetryReason, error: unknown) => void;
  /** Told of every group commit: how many writes it held and how long it took (metrics). */
  readonly onBatchCommitted?: (writes: number, seconds: number) => void;
}

/** Outbox messages whose transaction is remembered for keying their delivery record: more than are ever in flight at once. */
const OUTBOX_TRANSACTIONS_MAX = 100_000;

/** Serializes schema migrations of every instance sharing the database. */
const MIGRATION_LOCK_KEY = 0x7265_6770; // "regp"

/**
 * Connect a pool and apply migrations. Times are BIGINT milliseconds since the epoch and
 * amounts BIGINT minor units; both come back from `pg` as strings and are converted explicitly
 * (amounts to bigint, never through a double).
 */
export async function openPostgresStore(connectionString: string, options: PostgresStoreOptions = {}): Promise<Store> {
  const onBackgroundError = options.onBackgroundError ?? ((error: Error) => console.error('postgres pool error:', error.message));
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
  } catch (error) {
    await pool.end();
    throw error;
  }
  const store = new PostgresStore(pool, connectionString, options);
  if (options.listenForChanges === true) await store.listen();
  return store;
}

/** An advisory lock held for the migration transaction makes instances starting together migrate one at a time. */
async function migrate(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    try {
      await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
      await client.query(schemaMigrationsTableSql('postgres'));
      const applied = await client.query<AppliedMigration>('SELECT version, name FROM schema_migrations ORDER BY version');
      for (const migration of pendingMigrations(applied.rows)) {
        for (const statement of migrationSql(migration, 'postgres')) await client.query(statement);
        await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [migration.version, migration.name, Date.now()]);
      }
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    }
  } finally {
    client.release();
  }
}

class PostgresStore extends QueuedWrites implements Store {
  readonly kind = 'postgres' as const;
  readonly #pool: pg.Pool;
  readonly #queue: WriteQueue<PendingWrite>;
  readonly #connectionString: string;
  readonly #onBackgroundError: (error: Error) => void;
  /**
   * The transaction of each outbox message this process was handed (claimed, leased as written or
   * handed on by an acknowledgement), so the record of its delivery is known to lock that
   * transaction's row (#lockedRows) before it runs; a message not in it is recorded unkeyed.
   */
  readonly #outboxTransactions = new BoundedMap<string, string>(OUTBOX_TRANSACTIONS_MAX);
  /** LISTENs for other instances' notices, from the first onChange on. */
  #listener: ChangeListener | undefined;
  /** COMMITs of write batches so far, by what they held (durableCounts). */
  readonly #commitsHolding: Record<CommitHolding, number> = { transactions: 0, deliveries: 0, other: 0 };
  #closed = false;

  constructor(pool: pg.Pool, connectionString: string, options: PostgresStoreOptions) {
    super();
    this.#pool = pool;
    this.#connectionString = connectionString;
    this.#onBackgroundError = options.onBackgroundError ?? ((error: Error) => console.error('postgres listener error:', error.message));
    const runner: BatchRunner = {
      pool,
      execute,
      requeue: (again) => this.#queue.requeue(again),
      onCommitted: (holding) => {
        this.#commitsHolding[holding] += 1;
      },
      ...(options.onBatchRetried === undefined ? {} : { onRetried: options.onBatchRetried }),
    };
    this.#queue = new WriteQueue<PendingWrite>((batch) => flush(runner, batch), {
      batchMax: options.groupCommitBatchMax ?? 256,
      queueMax: options.groupCommitQueueMax ?? 10_000,
      concurrency: Math.max(1, Math.min(options.groupCommitConcurrency ?? 4, (options.poolMax ?? 10) - 1)),
      keysOf: (item) => this.#lockedRows(item.op),
      ...(options.onBatchCommitted === undefined ? {} : { onBatch: options.onBatchCommitted }),
    });
  }

  async findMessage(integratorId: string, messageId: string): Promise<StoredMessage | undefined> {
    const result = await this.#pool.query<MessageRow>(SQL.messageByKey, [integratorId, messageId]);
    const row = result.rows[0];
    return row && messageFromRow(row);
  }

  async findTransaction(integratorId: string, uetr: string, kind: TransactionKind = 'CREDIT_TRANSFER'): Promise<TransactionRecord | undefined> {
    const result = await this.#pool.query<TransactionRow>(SQL.transactionByUetr, [integratorId, uetr, kind]);
    const row = result.rows[0];
    return row && transactionFromRow(row);
  }

  recentDeterminations(integratorId: string, lookupKey: string, since: number, limit: number): Promise<TransactionRecord[]> {
    return recentDeterminations(this.#pool, integratorId, lookupKey, since, limit);
  }

  override onChange(listener: (transactionId: string) => void): () => void {
    void this.listen();
    return super.onChange(listener);
  }

  /** Start listening for notices (once); resolves after the first attempt to LISTEN. */
  listen(): Promise<void> {
    if (this.#listener === undefined && !this.#closed) {
      this.#listener = new ChangeListener(this.#connectionString, (transactionId) => this.changed(transactionId), this.#onBackgroundError);
    }
    return this.#listener?.firstAttempt ?? Promise.resolve();
  }

  async getTransaction(id: string): Promise<TransactionRecord | undefined> {
    const result = await this.#pool.query<TransactionRow>(SQL.transactionById, [id]);
    const row = result.rows[0];
    return row && transactionFromRow(row);
  }

  async getTransactionWithMessage(id: string): Promise<TransactionWithMessage | undefined> {
    const result = await this.#pool.query<TransactionWithMessageRow>(SQL.transactionWithMessage, [id]);
    const row = result.rows[0];
    return row && { transaction: transactionFromRow(row), rawBody: row.raw_body };
  }

  async history(transactionId: string): Promise<HistoryRecord[]> {
    const result = await this.#pool.query<HistoryRow>(SQL.historyOf, [transactionId]);
    return result.rows.map(historyFromRow);
  }

  async outbox(transactionId: string): Promise<OutboxRecord[]> {
    const result = await this.#pool.query<OutboxRow>(SQL.outboxOf, [transactionId]);
    return result.rows.map(outboxFromRow);
  }

  async outboxMessage(id: string): Promise<OutboxRecord | undefined> {
    const result = await this.#pool.query<OutboxRow>(SQL.outboxById, [id]);
    const row = result.rows[0];
    return row && outboxFromRow(row);
  }

  async listOutbox(query: OutboxQuery): Promise<OutboxRecord[]> {
    const result = await this.#pool.query<OutboxRow>(query.status === 'UNDELIVERED' ? SQL.listUndelivered : SQL.listPending, [
      query.integratorId ?? null,
      query.after?.createdAt ?? null,
      query.after?.id ?? '',
      query.limit,
    ]);
    return result.rows.map(outboxFromRow);
  }

  async deliveryAttempts(outboxId: string): Promise<DeliveryAttemptRecord[]> {
    const result = await this.#pool.query<AttemptRow>(SQL.attemptsOf, [outboxId]);
    return result.rows.map(attemptFromRow);
  }

  searchTransactions(query: TransactionQuery): Promise<TransactionSummary[]> {
    return searchTransactions(this.#pool, query);
  }

  schemeHealth(from: number, to: number): Promise<SchemeHealth[]> {
    return schemeHealth(this.#pool, from, to);
  }

  schemeSeries(from: number, to: number, bucketMs: number): Promise<SchemeSeries[]> {
    return schemeSeries(this.#pool, from, to, bucketMs);
  }

  waitingTransactions(query: WaitingQuery): Promise<WaitingTransaction[]> {
    return waitingTransactions(this.#pool, query);
  }

  schemeMessages(transactionId: string): Promise<SchemeMessageRecord[]> {
    return schemeMessages(this.#pool, transactionId);
  }

  outboxBacklog(): Promise<OutboxBacklog[]> {
    return outboxBacklog(this.#pool);
  }

  async leaseOwners(now: number): Promise<string[]> {
    const result = await this.#pool.query<{ lease_owner: string }>(SQL.leaseOwners, [now]);
    return result.rows.map((row) => row.lease_owner);
  }

  async refreshToken(tokenHash: string): Promise<RefreshTokenRecord | undefined> {
    const row = (await this.#pool.query<{ token_hash: string; family_id: string; integrator_id: string; expires_at: string }>(SQL.refreshTokenByHash, [tokenHash])).rows[0];
    return row === undefined ? undefined : { tokenHash: row.token_hash, familyId: row.family_id, integratorId: row.integrator_id, expiresAt: Number(row.expires_at) };
  }

  async revokedSessions(since: number): Promise<RevokedSession[]> {
    const result = await this.#pool.query<{ session_id: string; revoked_at: string }>(SQL.revokedSessionsSince, [since]);
    return result.rows.map((row) => ({ sessionId: row.session_id, revokedAt: Number(row.revoked_at) }));
  }

  async getOrCreateSetting(name: string, create: () => string): Promise<string> {
    const existing = await this.#pool.query<{ value: string }>(SQL.settingByName, [name]);
    const row = existing.rows[0];
    if (row) return row.value;
    return this.enqueue({ kind: 'createSetting', name, value: create() });
  }

  async ping(): Promise<void> {
    await this.#pool.query('SELECT 1');
  }

  writesWaiting(): number {
    return this.#queue.waiting;
  }
  /** PostgreSQL's fsyncs are the server's own: only the COMMITs this store issued are counted. */
  durableCounts(): DurableCounts {
    const commitsHolding = { ...this.#commitsHolding };
    return { commits: commitsHolding.transactions + commitsHolding.deliveries + commitsHolding.other, commitsHolding, fsyncs: undefined, checkpointFsyncs: undefined };
  }


  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#listener?.close();
    await this.#queue.close();
    await this.#pool.end();
  }

  protected override enqueue<K extends WriteOp['kind']>(op: OpOf<K>): Promise<WriteResults[K]> {
    const { item, promise } = pendingWrite(op);
    this.#queue.push(item);
    // Registered before the caller's own reaction, so a message is known by the time it is sent.
    if (op.kind === 'intake' || op.kind === 'applyChange' || op.kind === 'claimOutbox' || op.kind === 'recordDelivery' || op.kind === 'recordDeliveries') {
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
  #lockedRows(op: WriteOp): readonly string[] {
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
      case 'recordDeliveries':
        return op.attempts.flatMap((attempt) => {
          const transactionId = this.#outboxTransactions.get(attempt.outboxId);
          return transactionId === undefined ? [] : [transactionId];
        });
      default:
        return [];
    }
  }

  #rememberOutbox(op: WriteOp, result: WriteResults[WriteOp['kind']]): void {
    const remember = (records: readonly OutboxRecord[]): void => {
      for (const record of records) this.#outboxTransactions.set(record.id, record.transactionId);
    };
    if (op.kind === 'intake' && (result as IntakeOutcome).kind === 'accepted') remember((result as Extract<IntakeOutcome, { kind: 'accepted' }>).leased);
    if (op.kind === 'applyChange' && (result as ChangeOutcome).ok) remember((result as Extract<ChangeOutcome, { ok: true }>).leased);
    if (op.kind === 'claimOutbox') remember(result as OutboxRecord[]);
    if (op.kind === 'recordDelivery') {
      this.#outboxTransactions.delete(op.attempt.outboxId);
      const next = result as OutboxRecord | undefined;
      if (next !== undefined) remember([next]);
    }
    if (op.kind === 'recordDeliveries') {
      for (const attempt of op.attempts) this.#outboxTransactions.delete(attempt.outboxId);
      remember((result as RecordedDeliveries).leased);
    }
  }
}
