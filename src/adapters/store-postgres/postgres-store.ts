import pg from 'pg';
import type {
  ChangeOutcome,
  ClaimOptions,
  DeliveryAttemptRecord,
  HistoryRecord,
  IntakeOutcome,
  Lease,
  NewOutboxMessage,
  OutboxClaimOptions,
  OutboxQuery,
  OutboxRecord,
  RequestOutcome,
  Store,
  StoredMessage,
  TransactionKind,
  TransactionRecord,
  NewTransaction,
} from '../../ports/store.js';
import { unreachable } from '../../lib/assert.js';
import { migrationSql, pendingMigrations, schemaMigrationsTableSql, type AppliedMigration } from '../migrations.js';
import { recentDeterminations } from './pg-determinations.js';
import { ChangeListener } from './pg-notices.js';
import { SQL } from './pg-sql.js';
import {
  QueuedWrites,
  attemptErrorText,
  changeSteps,
  pendingWrite,
  StoreWriteError,
  storedMessageOutcome,
  type OpOf,
  type PendingWrite,
  type ReplayFilter,
  type WriteOp,
  type WriteResults,
} from '../store-ops.js';
import {
  attemptFromRow,
  compareText,
  historyFromRow,
  messageFromRow,
  outboxFromRow,
  transactionFromRow,
  type AttemptRow,
  type HistoryRow,
  type MessageRow,
  type OutboxRow,
  type TransactionRow,
} from '../store-rows.js';
import { settleInTurns, WriteQueue } from '../write-queue.js';

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
}

type Client = pg.PoolClient;

/** A batch item's result, known before COMMIT and handed out after it. */
type ItemResult = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: unknown } | { readonly retry: true };

interface Entry<K extends WriteOp['kind']> {
  readonly index: number;
  readonly op: OpOf<K>;
}

/** A write that raced another and found neither a row to conflict with nor room to insert is tried again, at most this often. */
const RETRIES_MAX = 3;
/** Deadlock and serialization failures are retried as a whole batch this often before the batch is split up. */
const BATCH_ATTEMPTS_MAX = 3;
const RETRYABLE_SQLSTATES = new Set(['40P01', '40001']);
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
  return new PostgresStore(pool, connectionString, options);
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

/** Where a batch failed decides what may be done about it. */
class BatchError extends Error {
  override readonly name = 'BatchError';
  constructor(
    readonly inner: unknown,
    /**
     * true when a statement failed and the transaction was rolled back cleanly: some item was
     * refused, so re-running the items one by one isolates it. false when the connection failed
     * (connect, BEGIN, ROLLBACK or COMMIT): COMMIT's outcome is then unknown and re-running
     * would only repeat the failure, so every caller gets the error.
     */
    readonly isolatable: boolean,
  ) {
    super(inner instanceof Error ? inner.message : String(inner));
  }
}

class PostgresStore extends QueuedWrites implements Store {
  readonly kind = 'postgres' as const;
  readonly #pool: pg.Pool;
  readonly #queue: WriteQueue<PendingWrite>;
  readonly #connectionString: string;
  readonly #onBackgroundError: (error: Error) => void;
  /** LISTENs for other instances' notices, from the first onChange on. */
  #listener: ChangeListener | undefined;
  #closed = false;

  constructor(pool: pg.Pool, connectionString: string, options: PostgresStoreOptions) {
    super();
    this.#pool = pool;
    this.#connectionString = connectionString;
    this.#onBackgroundError = options.onBackgroundError ?? ((error: Error) => console.error('postgres listener error:', error.message));
    this.#queue = new WriteQueue<PendingWrite>((batch) => this.#flush(batch), {
      batchMax: options.groupCommitBatchMax ?? 256,
      queueMax: options.groupCommitQueueMax ?? 10_000,
      concurrency: Math.max(1, Math.min(options.groupCommitConcurrency ?? 4, (options.poolMax ?? 10) - 1)),
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
    if (this.#listener === undefined && !this.#closed) {
      this.#listener = new ChangeListener(this.#connectionString, (transactionId) => this.changed(transactionId), this.#onBackgroundError);
    }
    return super.onChange(listener);
  }

  async getTransaction(id: string): Promise<TransactionRecord | undefined> {
    const result = await this.#pool.query<TransactionRow>(SQL.transactionById, [id]);
    const row = result.rows[0];
    return row && transactionFromRow(row);
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

  async leaseOwners(now: number): Promise<string[]> {
    const result = await this.#pool.query<{ lease_owner: string }>(SQL.leaseOwners, [now]);
    return result.rows.map((row) => row.lease_owner);
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
    return promise;
  }

  /**
   * Run a batch in one transaction and settle each item after COMMIT. If the batch fails before
   * COMMIT (an item the database refuses in a way no pre-check foresaw), it is rolled back and
   * every item is re-run in a transaction of its own, so only the bad item's caller sees the
   * error. If the connection fails instead (COMMIT included, whose outcome is then unknown), every
   * caller gets the error and may retry: an intake retried after a commit that did happen comes
   * back as `duplicate`.
   */
  async #flush(batch: PendingWrite[]): Promise<void> {
    try {
      await this.#settle(batch, await this.#runWithRetry(batch));
      return;
    } catch (error) {
      if (batch.length === 1 || !(error instanceof BatchError) || !error.isolatable) {
        for (const item of batch) item.reject(unwrap(error));
        return;
      }
    }
    for (const item of batch) {
      try {
        await this.#settle([item], await this.#runWithRetry([item]));
      } catch (error) {
        item.reject(unwrap(error));
      }
    }
  }

  async #settle(batch: readonly PendingWrite[], results: readonly ItemResult[]): Promise<void> {
    const again: PendingWrite[] = [];
    await settleInTurns(batch, (item, index) => {
      const result = results[index];
      if (result === undefined) item.reject(new Error('batch result missing'));
      else if ('retry' in result) {
        item.retries += 1;
        if (item.retries > RETRIES_MAX) item.reject(new Error(`write still racing after ${RETRIES_MAX} retries`));
        else again.push(item);
      } else if (result.ok) item.resolve(result.value);
      else item.reject(result.error);
    });
    if (again.length > 0) this.#queue.requeue(again);
  }

  async #runWithRetry(batch: readonly PendingWrite[]): Promise<ItemResult[]> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.#run(batch);
      } catch (error) {
        const retryable = error instanceof BatchError && error.isolatable && RETRYABLE_SQLSTATES.has(sqlState(error.inner));
        if (!retryable || attempt >= BATCH_ATTEMPTS_MAX) throw error;
      }
    }
  }

  async #run(batch: readonly PendingWrite[]): Promise<ItemResult[]> {
    let client: Client;
    try {
      client = await this.#pool.connect();
    } catch (error) {
      throw new BatchError(error, false);
    }
    let broken: Error | undefined;
    try {
      try {
        await client.query('BEGIN');
      } catch (error) {
        broken = asError(error);
        throw new BatchError(error, false);
      }
      let results: ItemResult[];
      try {
        results = await this.#execute(client, batch);
      } catch (error) {
        try {
          await client.query('ROLLBACK');
        } catch (rollbackError) {
          broken = asError(rollbackError);
        }
        throw new BatchError(error, broken === undefined);
      }
      try {
        await client.query('COMMIT');
      } catch (error) {
        broken = asError(error);
        throw new BatchError(error, false);
      }
      return results;
    } finally {
      // A connection that failed BEGIN, ROLLBACK or COMMIT is in an unknown state: destroy it.
      client.release(broken);
    }
  }

  /**
   * Writes of one kind run together as multi-row statements (a few round trips per batch, not
   * per item). Writes in one batch were all in flight at once, so no caller can have expected an
   * order between them; within a kind, arrival order is kept.
   */
  async #execute(client: Client, batch: readonly PendingWrite[]): Promise<ItemResult[]> {
    const results: ItemResult[] = new Array<ItemResult>(batch.length);
    const groups = groupByKind(batch);
    await this.#intakes(client, groups.intake, results);
    for (const entry of groups.setMessageResponse) results[entry.index] = await this.#setMessageResponse(client, entry.op);
    // Every write that adds to an existing transaction's outbox queues or moves a row of them in
    // or out of PENDING holds that transaction's row lock (FOR UPDATE) until COMMIT, and reads
    // the queue only in statements after taking it; so each sees the queue as the last such
    // write committed it, and a row is never left blocked behind a head that already left (see
    // OUTBOX_BLOCKED_AT). A new transaction's queues are invisible to others until it commits.
    const replayScopes: string[][] = [];
    for (const entry of groups.replayUndelivered) replayScopes.push(await replayScope(client, entry.op.filter));
    // State changes alone lock their rows per round; any other mix takes all its locks first, in
    // one id order, so two batches never each hold a row the other's next lock statement waits for.
    const changesAndRequests = groups.applyChange.length > 0 && groups.recordRequest.length > 0;
    if (changesAndRequests || groups.recordDelivery.length > 0 || groups.replayUndelivered.length > 0) {
      const ids = [
        ...groups.applyChange.map((entry) => entry.op.change.transactionId),
        ...groups.recordRequest.map((entry) => entry.op.request.transactionId),
        ...replayScopes.flat(),
      ];
      await client.query(SQL.lockTransactions, [[...new Set(ids)], groups.recordDelivery.map((entry) => entry.op.attempt.outboxId)]);
    }
    await this.#applyChanges(client, groups.applyChange, results);
    await this.#recordRequests(client, groups.recordRequest, results);
    await this.#recordDeliveries(client, groups.recordDelivery, results);
    for (const [position, entry] of groups.replayUndelivered.entries()) {
      results[entry.index] = await this.#replay(client, entry.op, replayScopes[position] ?? []);
    }
    for (const entry of groups.saveRefreshToken) results[entry.index] = await this.#saveRefreshToken(client, entry.op);
    for (const entry of groups.useRefreshToken) results[entry.index] = await this.#useRefreshToken(client, entry.op);
    for (const entry of groups.createSetting) results[entry.index] = await this.#createSetting(client, entry.op);
    for (const entry of groups.releaseTransaction) {
      await client.query(SQL.release, [entry.op.id, entry.op.owner]);
      results[entry.index] = { ok: true, value: undefined };
    }
    for (const entry of groups.wakeDeliveredCallbacks) {
      const woken = await client.query(SQL.wakeDeliveredCallbacks, [entry.op.now]);
      results[entry.index] = { ok: true, value: woken.rowCount ?? 0 };
    }
    for (const entry of groups.releaseLeases) {
      const transactions = await client.query(SQL.releaseTransactionLeases, [entry.op.owners, entry.op.now]);
      const outbox = await client.query(SQL.releaseOutboxLeases, [entry.op.owners]);
      results[entry.index] = { ok: true, value: (transactions.rowCount ?? 0) + (outbox.rowCount ?? 0) };
    }
    for (const entry of groups.claimDue) results[entry.index] = await this.#claimDue(client, entry.op.options);
    for (const entry of groups.claimOutbox) results[entry.index] = await this.#claimOutbox(client, entry.op.options);
    return results;
  }

  /**
   * Intake without a savepoint per item: insert with ON CONFLICT DO NOTHING and classify only
   * what was not inserted. A conflicting row another connection has not committed yet makes the
   * INSERT wait for that commit, so `duplicate` is only ever answered for a committed original.
   * Items whose key already appeared earlier in the same batch are classified after the first
   * one's insert, against it.
   */
  async #intakes(client: Client, entries: readonly Entry<'intake'>[], results: ItemResult[]): Promise<void> {
    if (entries.length === 0) return;
    const leaders: Entry<'intake'>[] = [];
    const followers: Entry<'intake'>[] = [];
    const seenMessages = new Set<string>();
    const seenUetrs = new Set<string>();
    for (const entry of entries) {
      const { tx } = entry.op;
      const messageKey = key(tx.integratorId, tx.messageId);
      const uetrKey = transactionKey(tx);
      (seenMessages.has(messageKey) || seenUetrs.has(uetrKey) ? followers : leaders).push(entry);
      seenMessages.add(messageKey);
      seenUetrs.add(uetrKey);
    }

    // One insertion order for every instance (by unique key) so two batches cannot deadlock on each other's keys.
    const byUetr = [...leaders].sort((a, b) => compareKeys(a.op.tx.integratorId, transactionKey(a.op.tx), b.op.tx.integratorId, transactionKey(b.op.tx)));
    const insertedTx = await client.query<{ id: string }>(SQL.insertTransactions, transactionColumns(byUetr.map((entry) => entry.op.tx)));
    const txInserted = new Set(insertedTx.rows.map((row) => row.id));

    const withTx = leaders
      .filter((entry) => txInserted.has(entry.op.tx.id))
      .sort((a, b) => compareKeys(a.op.tx.integratorId, a.op.tx.messageId, b.op.tx.integratorId, b.op.tx.messageId));
    const insertedMessages =
      withTx.length === 0 ? [] : (await client.query<{ transaction_id: string }>(SQL.insertMessages, messageColumns(withTx.map((entry) => entry.op.tx)))).rows;
    const accepted = new Set(insertedMessages.map((row) => row.transaction_id));

    // The uetr was free but the message id was taken: undo the transaction row (it has nothing else yet).
    const orphans = withTx.filter((entry) => !accepted.has(entry.op.tx.id)).map((entry) => entry.op.tx.id);
    if (orphans.length > 0) await client.query(SQL.deleteTransactions, [orphans]);

    const acceptedTxs = leaders.filter((entry) => accepted.has(entry.op.tx.id)).map((entry) => entry.op.tx);
    const leasedIds = await insertHistoryAndOutbox(
      client,
      // Version 1's cause is the request itself, kept verbatim in messages.raw_body.
      acceptedTxs.map((tx) => ({ transactionId: tx.id, version: 1, fromState: null, toState: tx.state, at: tx.receivedAt, cause: null })),
      acceptedTxs.flatMap((tx) => outboxRows(tx.id, tx.integratorId, tx.outbox, 0, tx.receivedAt, tx.leaseOutbox)),
    );
    const leased = await leasedByTransaction(client, leasedIds);
    for (const entry of leaders) {
      const { id } = entry.op.tx;
      if (accepted.has(id)) results[entry.index] = { ok: true, value: { kind: 'accepted', transactionId: id, leased: leased.get(id) ?? [] } };
    }

    const others = [...leaders.filter((entry) => !accepted.has(entry.op.tx.id)), ...followers];
    if (others.length > 0) await classifyIntakes(client, others, results);
  }

  async #setMessageResponse(client: Client, op: OpOf<'setMessageResponse'>): Promise<ItemResult> {
    const result = await client.query(SQL.setResponse, [op.response, op.integratorId, op.messageId]);
    if (result.rowCount === 0) return { ok: false, error: new StoreWriteError(`no stored message ${op.messageId} for integrator ${op.integratorId}`) };
    return { ok: true, value: undefined };
  }

  /**
   * Optimistic state changes: lock the named rows (in id order, so batches never deadlock each
   * other), compare versions, then write state, history and outbox for the ones still current.
   */
  async #applyChanges(client: Client, entries: readonly Entry<'applyChange'>[], results: ItemResult[]): Promise<void> {
    for (const round of rounds(entries, (entry) => entry.op.change.transactionId)) {
      const ids = round.map((entry) => entry.op.change.transactionId);
      const locked = await client.query<{ id: string; version: number; state: string; integrator_id: string; max_seq: number }>(SQL.lockForChange, [ids]);
      const current = new Map(locked.rows.map((row) => [row.id, row]));
      const valid: { entry: Entry<'applyChange'>; state: string; integratorId: string; maxSeq: number }[] = [];
      for (const entry of round) {
        const { change } = entry.op;
        const row = current.get(change.transactionId);
        if (row === undefined) results[entry.index] = { ok: true, value: { ok: false, reason: 'not_found' } };
        else if (row.version !== change.expectedVersion) results[entry.index] = { ok: true, value: { ok: false, reason: 'stale' } };
        else valid.push({ entry, state: row.state, integratorId: row.integrator_id, maxSeq: row.max_seq });
      }
      if (valid.length === 0) continue;
      const planned = valid.map(({ entry, state, integratorId, maxSeq }) => ({ entry, change: entry.op.change, integratorId, maxSeq, ...changeSteps(entry.op.change, state) }));
      await client.query(SQL.updateStates, [
        planned.map(({ change }) => change.transactionId),
        planned.map(({ change }) => change.expectedVersion),
        planned.map(({ change }) => change.toState),
        planned.map(({ change }) => change.at),
        planned.map(({ change }) => change.dueAt),
        planned.map(({ change }) => (change.data === undefined ? null : JSON.stringify(change.data))),
        planned.map(({ version }) => version),
      ]);
      const leasedIds = await insertHistoryAndOutbox(
        client,
        planned.flatMap(({ change, steps }) =>
          steps.map((step) => ({ transactionId: change.transactionId, version: step.version, fromState: step.fromState, toState: step.toState, at: change.at, cause: step.cause })),
        ),
        planned.flatMap(({ change, integratorId, maxSeq }) => outboxRows(change.transactionId, integratorId, change.outbox, maxSeq, change.at, change.leaseOutbox)),
      );
      const leased = await leasedByTransaction(client, leasedIds);
      const notify = planned.filter(({ change }) => change.notify === true).map(({ change }) => change.transactionId);
      // Delivered to every listening instance when (and only if) this batch commits.
      if (notify.length > 0) await client.query(SQL.notifyChanged, [notify]);
      for (const { entry, change, version } of planned) {
        results[entry.index] = { ok: true, value: { ok: true, version, leased: leased.get(change.transactionId) ?? [] } satisfies ChangeOutcome };
      }
    }
  }

  /**
   * Requests about existing transactions: lock those transactions (their outbox sequence must
   * not move under us), insert the messages with ON CONFLICT DO NOTHING, and give the ones
   * inserted their outbox rows, numbered on from each transaction's last seq. What was not
   * inserted is classified against the stored message, as for intake: a conflicting row another
   * connection has not committed yet makes the INSERT wait, so `duplicate` always names a
   * committed original.
   */
  async #recordRequests(client: Client, entries: readonly Entry<'recordRequest'>[], results: ItemResult[]): Promise<void> {
    if (entries.length === 0) return;
    const leaders: Entry<'recordRequest'>[] = [];
    const followers: Entry<'recordRequest'>[] = [];
    const seen = new Set<string>();
    for (const entry of entries) {
      const messageKey = key(entry.op.request.integratorId, entry.op.request.messageId);
      (seen.has(messageKey) ? followers : leaders).push(entry);
      seen.add(messageKey);
    }

    const ids = [...new Set(leaders.map((entry) => entry.op.request.transactionId))];
    const locked = await client.query<{ id: string; integrator_id: string; max_seq: number }>(SQL.lockForChange, [ids]);
    const transactions = new Map(locked.rows.map((row) => [row.id, row]));
    const valid: Entry<'recordRequest'>[] = [];
    for (const entry of leaders) {
      const { request } = entry.op;
      const row = transactions.get(request.transactionId);
      // The caller found the transaction under this integrator before asking: anything else is a bug upstream.
      if (row === undefined) results[entry.index] = { ok: false, error: new StoreWriteError(`no transaction ${request.transactionId}`) };
      else if (row.integrator_id !== request.integratorId) {
        results[entry.index] = { ok: false, error: new StoreWriteError(`transaction ${request.transactionId} belongs to another integrator`) };
      } else valid.push(entry);
    }

    // One insertion order for every instance (by unique key) so two batches cannot deadlock on each other's keys.
    const byKey = [...valid].sort((a, b) => compareKeys(a.op.request.integratorId, a.op.request.messageId, b.op.request.integratorId, b.op.request.messageId));
    const inserted =
      byKey.length === 0
        ? []
        : (
            await client.query<{ integrator_id: string; message_id: string }>(SQL.insertMessages, [
              byKey.map((entry) => entry.op.request.integratorId),
              byKey.map((entry) => entry.op.request.messageId),
              byKey.map((entry) => entry.op.request.transactionId),
              byKey.map((entry) => entry.op.request.payloadHash),
              byKey.map((entry) => entry.op.request.rawBody),
              byKey.map((entry) => entry.op.request.receivedAt),
            ])
          ).rows;
    const accepted = new Set(inserted.map((row) => key(row.integrator_id, row.message_id)));

    const lastSeq = new Map(locked.rows.map((row) => [row.id, row.max_seq]));
    const outbox: OutboxInsert[] = [];
    const others: Entry<'recordRequest'>[] = [...followers];
    for (const entry of valid) {
      const { request } = entry.op;
      if (!accepted.has(key(request.integratorId, request.messageId))) {
        others.push(entry);
        continue;
      }
      const seq = lastSeq.get(request.transactionId) ?? 0;
      outbox.push(...outboxRows(request.transactionId, request.integratorId, request.outbox, seq, request.receivedAt));
      lastSeq.set(request.transactionId, seq + request.outbox.length);
      results[entry.index] = { ok: true, value: { kind: 'accepted' } satisfies RequestOutcome };
    }
    await insertHistoryAndOutbox(client, [], outbox);
    if (others.length > 0) await classifyRequests(client, others, results);
  }

  /**
   * Attempts in one statement per round; then, in a statement of its own (so that it sees them),
   * the queues of the messages that left PENDING (delivered, or given up on) let their next
   * message through: their head is unblocked. A late acknowledgement of a message already given
   * up on lets nothing more through: the head of its queue already has its time. An attempt with
   * leaseNext whose message has just left PENDING then gets that head, leased, if it is due and
   * free (as SQLite's recordDelivery).
   */
  async #recordDeliveries(client: Client, entries: readonly Entry<'recordDelivery'>[], results: ItemResult[]): Promise<void> {
    for (const round of rounds(entries, (entry) => entry.op.attempt.outboxId)) {
      const attempts = round.map((entry) => entry.op.attempt).sort((a, b) => compareText(a.outboxId, b.outboxId));
      const updated = await client.query<{ id: string; transaction_id: string; channel: string; status: string; left_pending: boolean }>(SQL.recordDeliveries, [
        attempts.map((attempt) => attempt.outboxId),
        attempts.map((attempt) => attempt.at),
        attempts.map((attempt) => Math.max(0, Math.round(attempt.durationMs))),
        attempts.map((attempt) => attempt.httpStatus),
        attempts.map((attempt) => attempt.error),
        attempts.map((attempt) => attempt.delivered),
        attempts.map((attempt) => attempt.nextAttemptAt),
        attempts.map((attempt) => attemptErrorText(attempt)),
      ]);
      // Every row now out of PENDING asks for its queue's head: for one that just left, that is
      // the next row; for one that had left before (a late acknowledgement, a late failure), the
      // head was unblocked then and this changes nothing.
      const at = new Map(attempts.map((attempt) => [attempt.outboxId, attempt.at]));
      await unblockHeads(
        client,
        updated.rows
          .filter((row) => row.status !== 'PENDING')
          .map((row) => ({ transactionId: row.transaction_id, channel: row.channel, now: at.get(row.id) ?? 0, replay: false })),
      );
      const leased = await leaseHeads(client, round, updated.rows);
      const known = new Set(updated.rows.map((row) => row.id));
      for (const entry of round) {
        const { outboxId } = entry.op.attempt;
        results[entry.index] = known.has(outboxId)
          ? { ok: true, value: leased.get(entry.index) }
          : { ok: false, error: new StoreWriteError(`no outbox message ${outboxId}`) };
      }
    }
  }

  /**
   * Replayed rows come back blocked; then the head of each queue they are in is unblocked. A
   * replayed row with no earlier PENDING row in its queue is that head and is due now (whatever
   * its availableAt: the operator asked for it); one behind a PENDING row waits its turn. Rows behind a replayed row keep what they had: if one
   * of them was already due, claimOutbox's head test still holds it back. Only rows of the
   * transactions locked for it (`scope`) are replayed: one given up on after the lock was taken
   * waits for the next replay.
   */
  async #replay(client: Client, op: OpOf<'replayUndelivered'>, scope: readonly string[]): Promise<ItemResult> {
    if (scope.length === 0) return { ok: true, value: 0 };
    const replayed = await client.query<{ transaction_id: string; channel: string }>(SQL.replay, [
      op.filter.outboxId ?? null,
      op.filter.integratorId ?? null,
      op.filter.since ?? null,
      scope,
    ]);
    await unblockHeads(
      client,
      replayed.rows.map((row) => ({ transactionId: row.transaction_id, channel: row.channel, now: op.now, replay: true })),
    );
    return { ok: true, value: replayed.rowCount ?? 0 };
  }

  async #saveRefreshToken(client: Client, op: OpOf<'saveRefreshToken'>): Promise<ItemResult> {
    const { record } = op;
    const result = await client.query(SQL.insertRefreshToken, [record.tokenHash, record.familyId, record.integratorId, record.expiresAt]);
    if (result.rowCount === 0) return { ok: false, error: new StoreWriteError('refresh token hash already stored') };
    if (op.forgetExpiredBefore !== null) await client.query(SQL.forgetExpiredRefreshTokens, [op.forgetExpiredBefore]);
    return { ok: true, value: undefined };
  }

  /** The conditional UPDATE is the atomic step: of two concurrent uses, the second waits on the row and then finds it used. */
  async #useRefreshToken(client: Client, op: OpOf<'useRefreshToken'>): Promise<ItemResult> {
    const used = await client.query<RefreshTokenRow>(SQL.useRefreshToken, [op.tokenHash, op.now]);
    const row = used.rows[0];
    if (row) {
      return {
        ok: true,
        value: { kind: 'ok', record: { tokenHash: row.token_hash, familyId: row.family_id, integratorId: row.integrator_id, expiresAt: Number(row.expires_at) } },
      };
    }
    const found = (await client.query<RefreshTokenRow>(SQL.refreshTokenByHash, [op.tokenHash])).rows[0];
    if (found === undefined || found.used_at === null) return { ok: true, value: { kind: 'unknown' } };
    await client.query(SQL.revokeFamily, [found.family_id]);
    return { ok: true, value: { kind: 'reused', familyId: found.family_id } };
  }

  /** Insert-if-absent, then read: an instance that lost the race reads the winner's value. */
  async #createSetting(client: Client, op: OpOf<'createSetting'>): Promise<ItemResult> {
    await client.query(SQL.insertSetting, [op.name, op.value]);
    const row = (await client.query<{ value: string }>(SQL.settingByName, [op.name])).rows[0];
    if (row === undefined) return { ok: false, error: new Error(`setting ${op.name} vanished`) };
    return { ok: true, value: row.value };
  }

  async #claimDue(client: Client, options: ClaimOptions): Promise<ItemResult> {
    const result = await client.query<TransactionRow>(SQL.claimDue, [options.now, options.limit, options.owner, options.now + options.leaseMs]);
    const records = result.rows.map(transactionFromRow).sort((a, b) => (a.dueAt ?? 0) - (b.dueAt ?? 0) || compareText(a.id, b.id));
    return { ok: true, value: records };
  }

  async #claimOutbox(client: Client, options: OutboxClaimOptions): Promise<ItemResult> {
    const excluded = (options.excludeEndpoints ?? []).map((endpoint) => `${endpoint.channel} ${endpoint.integratorId}`);
    const result = await client.query<OutboxRow>(SQL.claimOutbox, [options.now, options.limit, options.owner, options.now + options.leaseMs, excluded]);
    const records = result.rows
      .map(outboxFromRow)
      .sort((a, b) => a.nextAttemptAt - b.nextAttemptAt || compareText(a.transactionId, b.transactionId) || a.seq - b.seq);
    return { ok: true, value: records };
  }
}

/** The transactions that hold messages a replay would turn back to PENDING (read before they are locked). */
async function replayScope(client: Client, filter: ReplayFilter): Promise<string[]> {
  const result = await client.query<{ transaction_id: string }>(SQL.replayScope, [filter.outboxId ?? null, filter.integratorId ?? null, filter.since ?? null]);
  return result.rows.map((row) => row.transaction_id);
}

interface QueueHead {
  readonly transactionId: string;
  readonly channel: string;
  /** Due from max(now, available_at); a replay: from now. */
  readonly now: number;
  readonly replay: boolean;
}

/**
 * Make the head (lowest-seq PENDING row) of each queue due if it is blocked. A head is never
 * rightly blocked (nothing is ahead of it), so this is safe whenever a row of the queue may have
 * stopped being its head; a head that already has a time (a retry scheduled) keeps it.
 */
async function unblockHeads(client: Client, queues: readonly QueueHead[]): Promise<void> {
  const unique = new Map<string, QueueHead>();
  for (const queue of queues) unique.set(key(queue.transactionId, queue.channel), queue);
  if (unique.size === 0) return;
  const heads = [...unique.values()].sort((a, b) => compareKeys(a.transactionId, a.channel, b.transactionId, b.channel));
  await client.query(SQL.unblockHeads, [
    heads.map((head) => head.transactionId),
    heads.map((head) => head.channel),
    heads.map((head) => head.now),
    heads.map((head) => head.replay),
  ]);
}

/**
 * recordDelivery's leaseNext: the head of each queue whose message this round took out of PENDING
 * (not a late acknowledgement or failure of one that had left already: that handed its queue on
 * then), leased to the entry's owner if it is due and free; by entry index. Two such entries of
 * one queue ask once, for the first, so one head is never handed to two.
 */
async function leaseHeads(
  client: Client,
  round: readonly Entry<'recordDelivery'>[],
  updated: readonly { id: string; transaction_id: string; channel: string; left_pending: boolean }[],
): Promise<Map<number, OutboxRecord>> {
  const leftPending = new Map(updated.filter((row) => row.left_pending).map((row) => [row.id, row]));
  const askers = new Map<string, { index: number; transactionId: string; channel: string; at: number; owner: string; leaseUntil: number }>();
  for (const entry of round) {
    const { attempt } = entry.op;
    const row = leftPending.get(attempt.outboxId);
    if (attempt.leaseNext === undefined || row === undefined) continue;
    const queue = key(row.transaction_id, row.channel);
    if (askers.has(queue)) continue;
    askers.set(queue, {
      index: entry.index,
      transactionId: row.transaction_id,
      channel: row.channel,
      at: attempt.at,
      owner: attempt.leaseNext.owner,
      leaseUntil: attempt.at + attempt.leaseNext.leaseMs,
    });
  }
  const leased = new Map<number, OutboxRecord>();
  if (askers.size === 0) return leased;
  const heads = [...askers.values()].sort((a, b) => compareKeys(a.transactionId, a.channel, b.transactionId, b.channel));
  const result = await client.query<OutboxRow>(SQL.leaseHeads, [
    heads.map((head) => head.transactionId),
    heads.map((head) => head.channel),
    heads.map((head) => head.at),
    heads.map((head) => head.owner),
    heads.map((head) => head.leaseUntil),
  ]);
  for (const row of result.rows) {
    const asker = askers.get(key(row.transaction_id, row.channel));
    if (asker !== undefined) leased.set(asker.index, outboxFromRow(row));
  }
  return leased;
}

/** A stored message found under the key of a new one. */
interface StoredMessageRow {
  readonly integrator_id: string;
  readonly message_id: string;
  readonly transaction_id: string;
  readonly payload_hash: string;
  readonly raw_body: string;
  readonly response: string | null;
}

/** Classify intakes that were not inserted, against what is now stored (committed by others, or inserted earlier in this batch). */
async function classifyIntakes(client: Client, entries: readonly Entry<'intake'>[], results: ItemResult[]): Promise<void> {
  const txs = entries.map((entry) => entry.op.tx);
  const messages = await client.query<StoredMessageRow>(SQL.messagesByKeys, [txs.map((tx) => tx.integratorId), txs.map((tx) => tx.messageId)]);
  const uetrs = await client.query<{ integrator_id: string; uetr: string; kind: string }>(SQL.transactionsByUetrs, [
    txs.map((tx) => tx.integratorId),
    txs.map((tx) => tx.uetr),
    txs.map((tx) => tx.kind),
  ]);
  const messageByKey = new Map(messages.rows.map((row) => [key(row.integrator_id, row.message_id), row]));
  const takenUetrs = new Set(uetrs.rows.map((row) => transactionKey({ integratorId: row.integrator_id, uetr: row.uetr, kind: row.kind })));
  for (const entry of entries) {
    const { tx } = entry.op;
    const message = messageByKey.get(key(tx.integratorId, tx.messageId));
    let outcome: IntakeOutcome | undefined;
    if (message) outcome = storedMessageOutcome(message, tx.payloadHash);
    else if (takenUetrs.has(transactionKey(tx))) outcome = { kind: 'uetr_conflict' };
    // Neither key is taken any more (the row it collided with was rolled back): insert it in the next batch.
    results[entry.index] = outcome === undefined ? { retry: true } : { ok: true, value: outcome };
  }
}

/** Classify requests that were not inserted against the stored message (committed by others, or inserted earlier in this batch). */
async function classifyRequests(client: Client, entries: readonly Entry<'recordRequest'>[], results: ItemResult[]): Promise<void> {
  const requests = entries.map((entry) => entry.op.request);
  const messages = await client.query<StoredMessageRow>(SQL.messagesByKeys, [
    requests.map((request) => request.integratorId),
    requests.map((request) => request.messageId),
  ]);
  const messageByKey = new Map(messages.rows.map((row) => [key(row.integrator_id, row.message_id), row]));
  for (const entry of entries) {
    const { request } = entry.op;
    const message = messageByKey.get(key(request.integratorId, request.messageId));
    // No message under that key any more (the row it collided with was rolled back): insert it in the next batch.
    if (message === undefined) results[entry.index] = { retry: true };
    else results[entry.index] = { ok: true, value: storedMessageOutcome(message, request.payloadHash) };
  }
}

/** A history row to insert is exactly the port's HistoryRecord. */
type HistoryInsert = HistoryRecord;

interface OutboxInsert {
  readonly message: NewOutboxMessage;
  readonly transactionId: string;
  readonly integratorId: string;
  readonly seq: number;
  readonly at: number;
  /** Lease the row to this owner if it is due as written (StateChange.leaseOutbox). */
  readonly lease: Lease | undefined;
}

function outboxRows(
  transactionId: string,
  integratorId: string,
  messages: readonly NewOutboxMessage[],
  lastSeq: number,
  at: number,
  lease?: Lease,
): OutboxInsert[] {
  return messages.map((message, index) => ({ message, transactionId, integratorId, seq: lastSeq + index + 1, at, lease }));
}

/**
 * Outbox messages leased as they were written, by transaction, read back as a claim returns them
 * (the event payload spliced in): the INSERT's own RETURNING cannot see the history rows written
 * in the same statement.
 */
async function leasedByTransaction(client: Client, ids: readonly string[]): Promise<Map<string, OutboxRecord[]>> {
  const leased = new Map<string, OutboxRecord[]>();
  if (ids.length === 0) return leased;
  for (const record of (await client.query<OutboxRow>(SQL.outboxByIds, [ids])).rows.map(outboxFromRow)) {
    leased.set(record.transactionId, [...(leased.get(record.transactionId) ?? []), record]);
  }
  return leased;
}

/**
 * History rows and outbox rows of any number of transactions in one statement. A row behind an
 * earlier PENDING row of its (transaction, channel) is written blocked: the statement looks for
 * one already stored, and `queued` marks rows behind another row of the same statement (which
 * the statement's own snapshot does not show it). A row with a lease that is due as written is
 * leased; returns the ids of those.
 */
async function insertHistoryAndOutbox(client: Client, history: readonly HistoryInsert[], outbox: readonly OutboxInsert[]): Promise<string[]> {
  if (history.length === 0 && outbox.length === 0) return [];
  const firstSeq = new Map<string, number>();
  for (const row of outbox) {
    const queue = key(row.transactionId, row.message.channel);
    firstSeq.set(queue, Math.min(firstSeq.get(queue) ?? row.seq, row.seq));
  }
  const inserted = await client.query<{ id: string; leased: boolean }>(SQL.insertHistoryAndOutbox, [
    history.map((row) => row.transactionId),
    history.map((row) => row.version),
    history.map((row) => row.fromState),
    history.map((row) => row.toState),
    history.map((row) => row.at),
    history.map((row) => row.cause),
    outbox.map((row) => row.message.id),
    outbox.map((row) => row.transactionId),
    outbox.map((row) => row.integratorId),
    outbox.map((row) => row.seq),
    outbox.map((row) => row.message.channel),
    outbox.map((row) => row.message.url),
    outbox.map((row) => row.message.body),
    outbox.map((row) => JSON.stringify(row.message.headers)),
    outbox.map((row) => row.message.availableAt),
    outbox.map((row) => row.at),
    outbox.map((row) => row.seq > (firstSeq.get(key(row.transactionId, row.message.channel)) ?? row.seq)),
    outbox.map((row) => row.message.payloadVersion ?? null),
    outbox.map((row) => row.lease?.owner ?? null),
    outbox.map((row) => (row.lease === undefined ? null : row.at + row.lease.leaseMs)),
  ]);
  return inserted.rows.filter((row) => row.leased).map((row) => row.id);
}

function transactionColumns(txs: readonly NewTransaction[]): unknown[] {
  return [
    txs.map((tx) => tx.id),
    txs.map((tx) => tx.integratorId),
    txs.map((tx) => tx.kind),
    txs.map((tx) => tx.uetr),
    txs.map((tx) => tx.scheme),
    txs.map((tx) => tx.messageId),
    txs.map((tx) => tx.state),
    txs.map((tx) => (tx.amountMinor === null ? null : tx.amountMinor.toString())),
    txs.map((tx) => tx.currency),
    txs.map((tx) => tx.receivedAt),
    txs.map((tx) => tx.dueAt),
    txs.map((tx) => tx.traceparent),
    txs.map((tx) => tx.tracestate),
    txs.map((tx) => tx.leaseTransaction?.owner ?? null),
    txs.map((tx) => (tx.leaseTransaction === undefined ? null : tx.receivedAt + tx.leaseTransaction.leaseMs)),
    txs.map((tx) => JSON.stringify(tx.data ?? {})),
    txs.map((tx) => tx.lookupKey ?? null),
  ];
}

function messageColumns(txs: readonly NewTransaction[]): unknown[] {
  return [
    txs.map((tx) => tx.integratorId),
    txs.map((tx) => tx.messageId),
    txs.map((tx) => tx.id),
    txs.map((tx) => tx.payloadHash),
    txs.map((tx) => tx.rawBody),
    txs.map((tx) => tx.receivedAt),
  ];
}

type Groups = { [K in WriteOp['kind']]: Entry<K>[] };

function groupByKind(batch: readonly PendingWrite[]): Groups {
  const groups: Groups = {
    intake: [],
    recordRequest: [],
    setMessageResponse: [],
    applyChange: [],
    claimDue: [],
    releaseTransaction: [],
    releaseLeases: [],
    wakeDeliveredCallbacks: [],
    claimOutbox: [],
    recordDelivery: [],
    replayUndelivered: [],
    saveRefreshToken: [],
    useRefreshToken: [],
    createSetting: [],
  };
  batch.forEach((item, index) => {
    const { op } = item;
    switch (op.kind) {
      case 'intake':
        return groups.intake.push({ index, op });
      case 'recordRequest':
        return groups.recordRequest.push({ index, op });
      case 'setMessageResponse':
        return groups.setMessageResponse.push({ index, op });
      case 'applyChange':
        return groups.applyChange.push({ index, op });
      case 'claimDue':
        return groups.claimDue.push({ index, op });
      case 'releaseTransaction':
        return groups.releaseTransaction.push({ index, op });
      case 'releaseLeases':
        return groups.releaseLeases.push({ index, op });
      case 'wakeDeliveredCallbacks':
        return groups.wakeDeliveredCallbacks.push({ index, op });
      case 'claimOutbox':
        return groups.claimOutbox.push({ index, op });
      case 'recordDelivery':
        return groups.recordDelivery.push({ index, op });
      case 'replayUndelivered':
        return groups.replayUndelivered.push({ index, op });
      case 'saveRefreshToken':
        return groups.saveRefreshToken.push({ index, op });
      case 'useRefreshToken':
        return groups.useRefreshToken.push({ index, op });
      case 'createSetting':
        return groups.createSetting.push({ index, op });
      default:
        return unreachable(op, 'write op');
    }
  });
  return groups;
}

/** Split entries so that no round names the same row twice; a multi-row UPDATE would apply only one of them. */
function rounds<E>(entries: readonly E[], rowOf: (entry: E) => string): E[][] {
  const result: E[][] = [];
  const roundOfRow = new Map<string, number>();
  for (const entry of entries) {
    const row = rowOf(entry);
    const round = (roundOfRow.get(row) ?? -1) + 1;
    roundOfRow.set(row, round);
    (result[round] ??= []).push(entry);
  }
  return result;
}

/** A transaction's unique key (integrator, uetr, kind) as one string. */
function transactionKey(tx: { readonly integratorId: string; readonly uetr: string; readonly kind: string }): string {
  return `${tx.integratorId}\u0000${tx.uetr}\u0000${tx.kind}`;
}

function key(a: string, b: string): string {
  return `${a}\u0000${b}`;
}

function compareKeys(a1: string, a2: string, b1: string, b2: string): number {
  return compareText(a1, b1) || compareText(a2, b2);
}

function sqlState(error: unknown): string {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : '';
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

function unwrap(error: unknown): unknown {
  return error instanceof BatchError ? error.inner : error;
}


interface RefreshTokenRow {
  token_hash: string;
  family_id: string;
  integrator_id: string;
  expires_at: string;
  used_at: string | null;
  revoked: boolean;
}
