import type { Worker } from 'node:worker_threads';
import type {
  DeliveryAttemptRecord,
  DurableCounts,
  HistoryRecord,
  OutboxBacklog,
  OutboxQuery,
  OutboxRecord,
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
  TransactionWithMessage,
  TransactionSummary,
} from '../../ports/store.js';
import { pendingWrite, QueuedWrites, type OpOf, type PendingWrite, type WriteOp, type WriteResults } from '../store-ops.js';
import { settleInTurns, WriteQueue } from '../write-queue.js';
import { InThreadWriter, WorkerThreadWriter, type BatchWriter } from './sqlite-batch-writer.js';
import { migrate, openConnection, type Db } from './sqlite-connection.js';
import { SqliteCounters } from './sqlite-counters.js';
import { prepareDeterminationReads } from './sqlite-determinations.js';
import { SqliteExecutor } from './sqlite-executor.js';
import type { RefreshTokenRow } from './sqlite-rows.js';
import { prepareSearchReads } from './sqlite-search.js';
import {
  aliasedTransactionColumns,
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
import { LIMIT_PARAM, OUTBOX_COLUMNS, TRANSACTION_COLUMNS } from './sqlite-rows.js';

/** Where batches are committed: `worker` (a writer thread; the default for files) or `main` (the calling thread; always for `:memory:`). */
export type SqliteWriterThread = 'worker' | 'main';

export interface SqliteStoreOptions {
  /** Most writes committed in one transaction. */
  readonly groupCommitBatchMax?: number;
  /** Most writes waiting for a commit before new ones are refused (StoreOverloadedError). */
  readonly groupCommitQueueMax?: number;
  /** How long to wait for another connection's write lock before failing (SQLITE_BUSY). */
  readonly busyTimeoutMs?: number;
  /** `main` only to compare against (bench/store.ts): it blocks the event loop for every commit. */
  readonly writerThread?: SqliteWriterThread;
  /** Told of every group commit: how many writes it held and how long it took, the writer thread's round trip included (metrics). */
  readonly onBatchCommitted?: (writes: number, seconds: number) => void;
}

/**
 * Open (creating if needed) a SQLite database and apply migrations. `filename` is a path or
 * `:memory:`. A file database is written by a worker thread that owns the write connection
 * (sqlite-writer.ts), so a batch's statements and its durable COMMIT never block the event loop;
 * reads run on a read-only connection of the calling thread (WAL: they never wait for the
 * writer and see every committed write). A memory database lives in one connection, which one
 * thread cannot share with another, so it is read and written on the calling thread.
 */
export async function openSqliteStore(filename: string, options: SqliteStoreOptions = {}): Promise<Store> {
  const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
  if (filename === ':memory:' || options.writerThread === 'main') {
    const db = openConnection(filename, busyTimeoutMs, 'read-write');
    try {
      migrate(db);
      const counters = new SqliteCounters();
      return new SqliteStore(db, new InThreadWriter(new SqliteExecutor(db, counters)), counters, filename !== ':memory:', options);
    } catch (error) {
      db.close();
      throw error;
    }
  }
  // The writer opens and migrates first: the read connection must never see an older schema.
  const counters = new SqliteCounters();
  const writer = await WorkerThreadWriter.start({ filename, busyTimeoutMs, counters: counters.buffer });
  try {
    return new SqliteStore(openConnection(filename, busyTimeoutMs, 'read-only'), writer, counters, true, options);
  } catch (error) {
    await writer.close();
    throw error;
  }
}

/** The writer thread of a store opened by openSqliteStore, if it has one: for tests and diagnostics. */
export function writerThreadOf(store: Store): Worker | undefined {
  return store instanceof SqliteStore ? store.writerThread : undefined;
}

class SqliteStore extends QueuedWrites implements Store {
  readonly kind = 'sqlite' as const;
  /** Reads only; writes go through the writer (which, for `:memory:`, runs on this same connection). */
  readonly #db: Db;
  readonly #writer: BatchWriter;
  readonly #queue: WriteQueue<PendingWrite>;
  readonly #sql: ReturnType<typeof prepareReadStatements>;
  readonly #determinations: ReturnType<typeof prepareDeterminationReads>;
  readonly #search: ReturnType<typeof prepareSearchReads>;
  readonly #counters: SqliteCounters;
  /** A file (its commits fsync), not `:memory:`. */
  readonly #durable: boolean;
  #closed = false;

  constructor(db: Db, writer: BatchWriter, counters: SqliteCounters, durable: boolean, options: SqliteStoreOptions) {
    super();
    this.#db = db;
    this.#writer = writer;
    this.#counters = counters;
    this.#durable = durable;
    this.#sql = prepareReadStatements(db);
    this.#determinations = prepareDeterminationReads(db);
    this.#search = prepareSearchReads(db);
    this.#queue = new WriteQueue<PendingWrite>((batch) => this.#flush(batch), {
      batchMax: options.groupCommitBatchMax ?? 1024,
      queueMax: options.groupCommitQueueMax ?? 10_000,
      // SQLite has one writer, which runs batches one after the other; the next batch is
      // already waiting in its inbox when one commits, so it never idles for a round trip to
      // this thread (with one batch in flight it would wait for every such round trip).
      // The ops of two batches in flight are independent: a caller enqueues only after its
      // earlier write settled. For `:memory:` (writer on this thread) batches run in turn anyway.
      concurrency: 2,
      // A commit has a fixed cost to the writer (its WAL frames and fsync) however few writes it
      // holds. Background writes (the engine's, the dispatcher's) that find a batch in flight
      // wait for it unless 64 of them do, so at moderate load they share commits instead of
      // trailing each batch in a small one of their own, and a transfer costs less CPU
      // (bench/README.md). An API caller's write still overlaps at once.
      overlapMin: 64,
      ...(options.onBatchCommitted === undefined ? {} : { onBatch: options.onBatchCommitted }),
    });
  }

  get writerThread(): Worker | undefined {
    return this.#writer instanceof WorkerThreadWriter ? this.#writer.thread : undefined;
  }

  findMessage(integratorId: string, messageId: string): Promise<StoredMessage | undefined> {
    return read(() => {
      const row = this.#sql.messageByKey.get(integratorId, messageId) as MessageRow | undefined;
      return row && messageFromRow(row);
    });
  }

  findTransaction(integratorId: string, uetr: string, kind: TransactionKind = 'CREDIT_TRANSFER'): Promise<TransactionRecord | undefined> {
    return read(() => {
      const row = this.#sql.transactionByUetr.get(integratorId, uetr, kind) as TransactionRow | undefined;
      return row && transactionFromRow(row);
    });
  }

  recentDeterminations(integratorId: string, lookupKey: string, since: number, limit: number): Promise<TransactionRecord[]> {
    return read(() => this.#determinations.recentDeterminations(integratorId, lookupKey, since, limit));
  }

  getTransaction(id: string): Promise<TransactionRecord | undefined> {
    return read(() => {
      const row = this.#sql.transactionById.get(id) as TransactionRow | undefined;
      return row && transactionFromRow(row);
    });
  }

  getTransactionWithMessage(id: string): Promise<TransactionWithMessage | undefined> {
    return read(() => {
      const row = this.#sql.transactionWithMessage.get(id) as TransactionWithMessageRow | undefined;
      return row && { transaction: transactionFromRow(row), rawBody: row.raw_body };
    });
  }

  history(transactionId: string): Promise<HistoryRecord[]> {
    return read(() => (this.#sql.historyOf.all(transactionId) as HistoryRow[]).map(historyFromRow));
  }

  outbox(transactionId: string): Promise<OutboxRecord[]> {
    return read(() => (this.#sql.outboxOf.all(transactionId) as OutboxRow[]).map(outboxFromRow));
  }

  outboxMessage(id: string): Promise<OutboxRecord | undefined> {
    return read(() => {
      const row = this.#sql.outboxById.get(id) as OutboxRow | undefined;
      return row && outboxFromRow(row);
    });
  }

  listOutbox(query: OutboxQuery): Promise<OutboxRecord[]> {
    const statement = query.status === 'UNDELIVERED' ? this.#sql.listUndelivered : this.#sql.listPending;
    return read(() =>
      (
        statement.all({
          integratorId: query.integratorId ?? null,
          afterCreatedAt: query.after?.createdAt ?? null,
          afterId: query.after?.id ?? '',
          limit: query.limit,
        }) as OutboxRow[]
      ).map(outboxFromRow),
    );
  }

  deliveryAttempts(outboxId: string): Promise<DeliveryAttemptRecord[]> {
    return read(() => (this.#sql.attemptsOf.all(outboxId) as AttemptRow[]).map(attemptFromRow));
  }

  searchTransactions(query: TransactionQuery): Promise<TransactionSummary[]> {
    return read(() => this.#search.searchTransactions(query));
  }

  schemeHealth(from: number, to: number): Promise<SchemeHealth[]> {
    return read(() => this.#search.schemeHealth(from, to));
  }

  schemeSeries(from: number, to: number, bucketMs: number): Promise<SchemeSeries[]> {
    return read(() => this.#search.schemeSeries(from, to, bucketMs));
  }

  waitingTransactions(query: WaitingQuery): Promise<WaitingTransaction[]> {
    return read(() => this.#search.waitingTransactions(query));
  }

  schemeMessages(transactionId: string): Promise<SchemeMessageRecord[]> {
    return read(() => this.#search.schemeMessages(transactionId));
  }

  outboxBacklog(): Promise<OutboxBacklog[]> {
    return read(() => this.#search.outboxBacklog());
  }

  leaseOwners(now: number): Promise<string[]> {
    return read(() => this.#sql.leaseOwners.all({ now }) as string[]);
  }

  refreshToken(tokenHash: string): Promise<RefreshTokenRecord | undefined> {
    return read(() => {
      const row = this.#sql.refreshTokenByHash.get(tokenHash) as RefreshTokenRow | undefined;
      return row === undefined ? undefined : { tokenHash: row.token_hash, familyId: row.family_id, integratorId: row.integrator_id, expiresAt: row.expires_at };
    });
  }

  revokedSessions(since: number): Promise<RevokedSession[]> {
    return read(() =>
      (this.#sql.revokedSessionsSince.all(since) as { session_id: string; revoked_at: number }[]).map((row) => ({ sessionId: row.session_id, revokedAt: row.revoked_at })),
    );
  }

  async getOrCreateSetting(name: string, create: () => string): Promise<string> {
    const existing = await read(() => this.#sql.settingByName.get(name) as { value: string } | undefined);
    if (existing) return existing.value;
    return this.enqueue({ kind: 'createSetting', name, value: create() });
  }

  /** Rejects once the writer can no longer write, so readiness fails rather than every write. */
  ping(): Promise<void> {
    return read(() => {
      this.#writer.assertHealthy();
      this.#sql.ping.get();
    });
  }

  writesWaiting(): number {
    return this.#queue.waiting;
  }

  durableCounts(): DurableCounts {
    const commitsHolding = this.#counters.commitsHolding;
    const commits = commitsHolding.transactions + commitsHolding.deliveries + commitsHolding.other;
    if (!this.#durable) return { commits, commitsHolding, fsyncs: 0, checkpointFsyncs: 0 };
    const checkpointFsyncs = this.#counters.checkpointFsyncs;
    return { commits, commitsHolding, fsyncs: commits + checkpointFsyncs, checkpointFsyncs };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#queue.close();
    // For `:memory:` this is the writer's connection too; its InThreadWriter has nothing to close.
    this.#db.close();
    await this.#writer.close();
  }

  protected override enqueue<K extends WriteOp['kind']>(op: OpOf<K>): Promise<WriteResults[K]> {
    const { item, promise } = pendingWrite(op);
    this.#queue.push(item);
    return promise;
  }

  /**
   * Hand a batch to the writer and settle each caller from its op's outcome, which the writer
   * gives only after COMMIT returned: nobody is told "done" before it is durable (and a
   * duplicate answer is never given for an original that is not yet committed). When the batch
   * as a whole fails, the queue rejects every caller of it.
   */
  async #flush(batch: PendingWrite[]): Promise<void> {
    const outcomes = await this.#writer.run(batch.map((item) => item.op));
    await settleInTurns(batch, (item, index) => {
      const outcome = outcomes[index];
      if (outcome === undefined) item.reject(new Error('batch outcome missing'));
      else if (outcome.ok) item.resolve(outcome.value);
      else item.reject(outcome.error);
    });
  }
}

function prepareReadStatements(db: Db) {
  return {
    ping: db.prepare('SELECT 1'),
    // Rows carrying amount_minor are read with safeIntegers so money never passes through a double.
    transactionById: db.prepare(`SELECT ${TRANSACTION_COLUMNS} FROM transactions WHERE id = ?`).safeIntegers(true),
    transactionWithMessage: db
      .prepare(
        `SELECT ${aliasedTransactionColumns(TRANSACTION_COLUMNS)}, m.raw_body
         FROM transactions t LEFT JOIN messages m ON m.integrator_id = t.integrator_id AND m.message_id = t.message_id
         WHERE t.id = ?`,
      )
      .safeIntegers(true),
    transactionByUetr: db.prepare(`SELECT ${TRANSACTION_COLUMNS} FROM transactions WHERE integrator_id = ? AND uetr = ? AND kind = ?`).safeIntegers(true),
    messageByKey: db.prepare('SELECT * FROM messages WHERE integrator_id = ? AND message_id = ?'),
    historyOf: db.prepare('SELECT * FROM state_history WHERE transaction_id = ? ORDER BY version'),
    outboxOf: db.prepare(`SELECT ${OUTBOX_COLUMNS} FROM outbox WHERE transaction_id = ? ORDER BY seq`),
    outboxById: db.prepare(`SELECT ${OUTBOX_COLUMNS} FROM outbox WHERE id = ?`),
    // One statement per status, each naming its status literally, so each can use its partial index.
    listUndelivered: db.prepare(
      `SELECT ${OUTBOX_COLUMNS} FROM outbox
       WHERE status = 'UNDELIVERED' AND (@integratorId IS NULL OR integrator_id = @integratorId)
         AND (@afterCreatedAt IS NULL OR created_at > @afterCreatedAt OR (created_at = @afterCreatedAt AND id > @afterId))
       ORDER BY created_at, id ${LIMIT_PARAM}`,
    ),
    listPending: db.prepare(
      `SELECT ${OUTBOX_COLUMNS} FROM outbox
       WHERE status = 'PENDING' AND (@integratorId IS NULL OR integrator_id = @integratorId)
         AND (@afterCreatedAt IS NULL OR created_at > @afterCreatedAt OR (created_at = @afterCreatedAt AND id > @afterId))
       ORDER BY created_at, id ${LIMIT_PARAM}`,
    ),
    attemptsOf: db.prepare('SELECT outbox_id, at, duration_ms, http_status, error, delivered FROM delivery_attempts WHERE outbox_id = ? ORDER BY at, id'),
    settingByName: db.prepare('SELECT value FROM settings WHERE name = ?'),
    // Along revoked_sessions_at.
    refreshTokenByHash: db.prepare('SELECT * FROM refresh_tokens WHERE token_hash = ?'),
    revokedSessionsSince: db.prepare('SELECT session_id, revoked_at FROM revoked_sessions WHERE revoked_at >= ?'),
    leaseOwners: db.prepare(
      `SELECT lease_owner FROM transactions
       WHERE due_at IS NOT NULL AND MAX(due_at, COALESCE(lease_until + 1, 0)) > @now AND lease_until >= @now
       UNION
       SELECT lease_owner FROM outbox WHERE status = 'PENDING' AND lease_until >= @now
       ORDER BY 1`,
    ).pluck(),
  };
}

/**
 * Reads run directly on the connection (synchronously: SQLite answers from its page cache in
 * microseconds); a failure, such as reading after close, still arrives as a rejection.
 */
function read<T>(fn: () => T): Promise<T> {
  try {
    return Promise.resolve(fn());
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}
