import Database from 'better-sqlite3';
import type {
  ChangeOutcome,
  ClaimOptions,
  DeliveryAttempt,
  DeliveryAttemptRecord,
  HistoryRecord,
  IntakeOutcome,
  NewOutboxMessage,
  NewRequest,
  NewTransaction,
  OutboxChannel,
  OutboxClaimOptions,
  OutboxEndpoint,
  OutboxQuery,
  OutboxRecord,
  OutboxStatus,
  RefreshTokenRecord,
  RefreshTokenUse,
  RequestOutcome,
  StateChange,
  Store,
  StoredMessage,
  TransactionKind,
  TransactionRecord,
} from '../../ports/store.js';
import type { SchemeName } from '../../domain/schemes.js';
import { unreachable } from '../../lib/assert.js';
import { migrationSql, pendingMigrations, schemaMigrationsTableSql, type AppliedMigration } from '../migrations.js';
import { attemptErrorText, changeSteps, pendingWrite, StoreWriteError, type OpOf, type PendingWrite, type ReplayFilter, type WriteOp, type WriteResults } from '../store-ops.js';
import { WriteQueue } from '../write-queue.js';

export interface SqliteStoreOptions {
  /** Most writes committed in one transaction. */
  readonly groupCommitBatchMax?: number;
  /** Most writes waiting for a commit before new ones are refused (StoreOverloadedError). */
  readonly groupCommitQueueMax?: number;
  /** How long to wait for another connection's write lock before failing (SQLITE_BUSY). */
  readonly busyTimeoutMs?: number;
}

type Db = Database.Database;
type Statement = Database.Statement;

interface TransactionRow {
  id: string;
  integrator_id: string;
  kind: string;
  uetr: string;
  scheme: string;
  message_id: string;
  state: string;
  version: bigint;
  amount_minor: bigint | null;
  currency: string | null;
  created_at: bigint;
  updated_at: bigint;
  due_at: bigint | null;
  traceparent: string | null;
  tracestate: string | null;
  data: string;
}

interface MessageRow {
  integrator_id: string;
  message_id: string;
  transaction_id: string;
  payload_hash: string;
  raw_body: string;
  response: string | null;
  received_at: number;
}

interface AttemptRow {
  outbox_id: string;
  at: number;
  duration_ms: number;
  http_status: number | null;
  error: string | null;
  delivered: number;
}

interface OutboxRow {
  id: string;
  transaction_id: string;
  integrator_id: string;
  seq: number;
  channel: string;
  url: string;
  body: string;
  headers: string;
  available_at: number;
  status: string;
  attempts: number;
  next_attempt_at: number;
  created_at: number;
  delivered_at: number | null;
  last_error: string | null;
}

interface HistoryRow {
  transaction_id: string;
  version: number;
  from_state: string | null;
  to_state: string;
  at: number;
  cause: string | null;
}

interface RefreshTokenRow {
  token_hash: string;
  family_id: string;
  integrator_id: string;
  expires_at: number;
  used_at: number | null;
  revoked: number;
}

const TRANSACTION_COLUMNS =
  'id, integrator_id, kind, uetr, scheme, message_id, state, version, amount_minor, currency, created_at, updated_at, due_at, traceparent, tracestate, data';
const OUTBOX_COLUMNS =
  'id, transaction_id, integrator_id, seq, channel, url, body, headers, available_at, status, attempts, next_attempt_at, created_at, delivered_at, last_error';

/**
 * Open (creating if needed) a SQLite database and apply migrations. `filename` is a path or
 * `:memory:`. WAL with synchronous=FULL: a commit is durable once it returns (the WAL is fsynced
 * on every commit), and readers never block the writer.
 */
export function openSqliteStore(filename: string, options: SqliteStoreOptions = {}): Store {
  const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
  const db = new Database(filename, { timeout: busyTimeoutMs });
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    db.pragma(`busy_timeout = ${Math.trunc(busyTimeoutMs)}`);
    migrate(db);
    return new SqliteStore(db, options);
  } catch (error) {
    db.close();
    throw error;
  }
}

/** BEGIN IMMEDIATE takes the write lock first, so two processes opening one file migrate one after the other. */
function migrate(db: Db): void {
  db.exec('BEGIN IMMEDIATE');
  try {
    db.exec(schemaMigrationsTableSql('sqlite'));
    const applied = db.prepare('SELECT version, name FROM schema_migrations ORDER BY version').all() as AppliedMigration[];
    const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
    for (const migration of pendingMigrations(applied)) {
      for (const statement of migrationSql(migration, 'sqlite')) db.exec(statement);
      record.run(migration.version, migration.name, Date.now());
    }
    db.exec('COMMIT');
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw error;
  }
}

class SqliteStore implements Store {
  readonly kind = 'sqlite' as const;
  readonly #db: Db;
  readonly #queue: WriteQueue<PendingWrite>;
  readonly #sql: ReturnType<typeof prepareStatements>;

  constructor(db: Db, options: SqliteStoreOptions) {
    this.#db = db;
    this.#sql = prepareStatements(db);
    this.#queue = new WriteQueue<PendingWrite>((batch) => this.#flush(batch), {
      batchMax: options.groupCommitBatchMax ?? 256,
      queueMax: options.groupCommitQueueMax ?? 10_000,
      // One connection, one writer: batches run one after another.
      concurrency: 1,
    });
  }

  intake(tx: NewTransaction): Promise<IntakeOutcome> {
    return this.#write({ kind: 'intake', tx });
  }

  recordRequest(request: NewRequest): Promise<RequestOutcome> {
    return this.#write({ kind: 'recordRequest', request });
  }

  setMessageResponse(integratorId: string, messageId: string, response: string): Promise<void> {
    return this.#write({ kind: 'setMessageResponse', integratorId, messageId, response });
  }

  findMessage(integratorId: string, messageId: string): Promise<StoredMessage | undefined> {
    return read(() => {
      const row = this.#sql.messageByKey.get(integratorId, messageId) as MessageRow | undefined;
      return row && messageFromRow(row);
    });
  }

  findTransaction(integratorId: string, uetr: string): Promise<TransactionRecord | undefined> {
    return read(() => {
      const row = this.#sql.transactionByUetr.get(integratorId, uetr) as TransactionRow | undefined;
      return row && transactionFromRow(row);
    });
  }

  getTransaction(id: string): Promise<TransactionRecord | undefined> {
    return read(() => {
      const row = this.#sql.transactionById.get(id) as TransactionRow | undefined;
      return row && transactionFromRow(row);
    });
  }

  history(transactionId: string): Promise<HistoryRecord[]> {
    return read(() => (this.#sql.historyOf.all(transactionId) as HistoryRow[]).map(historyFromRow));
  }

  applyChange(change: StateChange): Promise<ChangeOutcome> {
    return this.#write({ kind: 'applyChange', change });
  }

  claimDue(options: ClaimOptions): Promise<TransactionRecord[]> {
    return this.#write({ kind: 'claimDue', options });
  }

  releaseTransaction(id: string, owner: string): Promise<void> {
    return this.#write({ kind: 'releaseTransaction', id, owner });
  }

  claimOutbox(options: OutboxClaimOptions): Promise<OutboxRecord[]> {
    return this.#write({ kind: 'claimOutbox', options });
  }

  recordDelivery(attempt: DeliveryAttempt): Promise<void> {
    return this.#write({ kind: 'recordDelivery', attempt });
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

  replayUndelivered(filter: ReplayFilter, now: number): Promise<number> {
    return this.#write({ kind: 'replayUndelivered', filter, now });
  }

  saveRefreshToken(record: RefreshTokenRecord): Promise<void> {
    return this.#write({ kind: 'saveRefreshToken', record });
  }

  useRefreshToken(tokenHash: string, now: number): Promise<RefreshTokenUse> {
    return this.#write({ kind: 'useRefreshToken', tokenHash, now });
  }

  async getOrCreateSetting(name: string, create: () => string): Promise<string> {
    const existing = await read(() => this.#sql.settingByName.get(name) as { value: string } | undefined);
    if (existing) return existing.value;
    return this.#write({ kind: 'createSetting', name, value: create() });
  }

  ping(): Promise<void> {
    return read(() => {
      this.#sql.ping.get();
    });
  }

  async close(): Promise<void> {
    if (!this.#db.open) return;
    await this.#queue.close();
    this.#db.close();
  }

  #write<K extends WriteOp['kind']>(op: OpOf<K>): Promise<WriteResults[K]> {
    const { item, promise } = pendingWrite(op);
    this.#queue.push(item);
    return promise;
  }

  /**
   * One batch, one transaction, one fsync. Each item runs inside its own SAVEPOINT so an item
   * that throws is rolled back alone and rejects only its own caller; the others still commit.
   * Promises are settled only after COMMIT returned, so nobody is told "done" before it is durable
   * (and a duplicate answer is never given for an original that is not yet committed).
   */
  #flush(batch: PendingWrite[]): void {
    const sql = this.#sql;
    try {
      sql.begin.run();
    } catch (error) {
      for (const item of batch) item.reject(error);
      return;
    }
    const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
    for (const item of batch) {
      sql.savepoint.run();
      try {
        const value = this.#execute(item.op);
        sql.releaseSavepoint.run();
        outcomes.push({ ok: true, value });
      } catch (error) {
        if (!this.#db.inTransaction) {
          // SQLite rolled the whole transaction back itself (disk full, I/O error): every
          // item of the batch is lost, including the ones that had succeeded.
          for (const each of batch) each.reject(error);
          return;
        }
        sql.rollbackToSavepoint.run();
        sql.releaseSavepoint.run();
        outcomes.push({ ok: false, error });
      }
    }
    try {
      sql.commit.run();
    } catch (error) {
      if (this.#db.inTransaction) sql.rollback.run();
      for (const item of batch) item.reject(error);
      return;
    }
    batch.forEach((item, index) => {
      const outcome = outcomes[index];
      if (outcome === undefined) item.reject(new Error('batch outcome missing'));
      else if (outcome.ok) item.resolve(outcome.value);
      else item.reject(outcome.error);
    });
  }

  #execute(op: WriteOp): unknown {
    switch (op.kind) {
      case 'intake':
        return this.#intake(op.tx);
      case 'recordRequest':
        return this.#recordRequest(op.request);
      case 'setMessageResponse':
        return this.#setMessageResponse(op);
      case 'applyChange':
        return this.#applyChange(op.change);
      case 'claimDue':
        return this.#claimDue(op.options);
      case 'releaseTransaction':
        this.#sql.release.run(op.id, op.owner);
        return undefined;
      case 'claimOutbox':
        return this.#claimOutbox(op.options);
      case 'recordDelivery':
        return this.#recordDelivery(op.attempt);
      case 'replayUndelivered':
        return this.#replay(op.filter, op.now);
      case 'saveRefreshToken':
        return this.#saveRefreshToken(op.record);
      case 'useRefreshToken':
        return this.#useRefreshToken(op.tokenHash, op.now);
      case 'createSetting':
        this.#sql.insertSetting.run(op.name, op.value);
        return (this.#sql.settingByName.get(op.name) as { value: string }).value;
      default:
        return unreachable(op, 'write op');
    }
  }

  #intake(tx: NewTransaction): IntakeOutcome {
    const sql = this.#sql;
    const message = sql.messageByKey.get(tx.integratorId, tx.messageId) as MessageRow | undefined;
    if (message) {
      return message.payload_hash === tx.payloadHash
        ? { kind: 'duplicate', transactionId: message.transaction_id, response: message.response }
        : { kind: 'message_conflict' };
    }
    if (sql.transactionIdByUetr.get(tx.integratorId, tx.uetr) !== undefined) return { kind: 'uetr_conflict' };
    sql.insertTransaction.run({
      id: tx.id,
      integratorId: tx.integratorId,
      kind: tx.kind,
      uetr: tx.uetr,
      scheme: tx.scheme,
      messageId: tx.messageId,
      state: tx.state,
      amountMinor: tx.amountMinor,
      currency: tx.currency,
      at: tx.receivedAt,
      dueAt: tx.dueAt,
      traceparent: tx.traceparent,
      tracestate: tx.tracestate,
    });
    sql.insertMessage.run(tx.integratorId, tx.messageId, tx.id, tx.payloadHash, tx.rawBody, tx.receivedAt);
    // Version 1's cause is the request itself, kept verbatim in messages.raw_body.
    sql.insertHistory.run(tx.id, 1, null, tx.state, tx.receivedAt, null);
    this.#insertOutbox(tx.id, tx.integratorId, tx.outbox, 0, tx.receivedAt);
    return { kind: 'accepted', transactionId: tx.id };
  }

  #setMessageResponse(op: OpOf<'setMessageResponse'>): undefined {
    const result = this.#sql.setResponse.run(op.response, op.integratorId, op.messageId);
    if (result.changes === 0) throw new StoreWriteError(`no stored message ${op.messageId} for integrator ${op.integratorId}`);
    return undefined;
  }

  #recordRequest(request: NewRequest): RequestOutcome {
    const sql = this.#sql;
    const message = sql.messageByKey.get(request.integratorId, request.messageId) as MessageRow | undefined;
    if (message) return message.payload_hash === request.payloadHash ? { kind: 'duplicate', response: message.response } : { kind: 'message_conflict' };
    const current = sql.versionOf.get(request.transactionId) as { integrator_id: string } | undefined;
    // The caller found the transaction under this integrator before asking: anything else is a bug upstream.
    if (current === undefined) throw new StoreWriteError(`no transaction ${request.transactionId}`);
    if (current.integrator_id !== request.integratorId) throw new StoreWriteError(`transaction ${request.transactionId} belongs to another integrator`);
    sql.insertMessage.run(request.integratorId, request.messageId, request.transactionId, request.payloadHash, request.rawBody, request.receivedAt);
    const { seq } = sql.maxSeq.get(request.transactionId) as { seq: number };
    this.#insertOutbox(request.transactionId, request.integratorId, request.outbox, seq, request.receivedAt);
    return { kind: 'accepted' };
  }

  #applyChange(change: StateChange): ChangeOutcome {
    const sql = this.#sql;
    const current = sql.versionOf.get(change.transactionId) as { version: number; state: string; integrator_id: string } | undefined;
    if (current === undefined) return { ok: false, reason: 'not_found' };
    if (current.version !== change.expectedVersion) return { ok: false, reason: 'stale' };
    const { steps, version } = changeSteps(change, current.state);
    sql.updateState.run({
      id: change.transactionId,
      expected: change.expectedVersion,
      version,
      state: change.toState,
      at: change.at,
      dueAt: change.dueAt,
      data: change.data === undefined ? null : JSON.stringify(change.data),
    });
    for (const step of steps) sql.insertHistory.run(change.transactionId, step.version, step.fromState, step.toState, change.at, step.cause);
    const { seq } = sql.maxSeq.get(change.transactionId) as { seq: number };
    this.#insertOutbox(change.transactionId, current.integrator_id, change.outbox, seq, change.at);
    return { ok: true, version };
  }

  #insertOutbox(transactionId: string, integratorId: string, messages: readonly NewOutboxMessage[], lastSeq: number, at: number): void {
    messages.forEach((message, index) => {
      this.#sql.insertOutbox.run({
        id: message.id,
        transactionId,
        integratorId,
        seq: lastSeq + index + 1,
        channel: message.channel,
        url: message.url,
        body: message.body,
        headers: JSON.stringify(message.headers),
        availableAt: message.availableAt,
        at,
      });
    });
  }

  #claimDue(options: ClaimOptions): TransactionRecord[] {
    const rows = this.#sql.claimDue.all({
      now: options.now,
      limit: options.limit,
      owner: options.owner,
      leaseUntil: options.now + options.leaseMs,
    }) as TransactionRow[];
    // RETURNING gives rows in storage order; callers get them oldest timer first.
    return rows.map(transactionFromRow).sort((a, b) => (a.dueAt ?? 0) - (b.dueAt ?? 0) || compareText(a.id, b.id));
  }

  #claimOutbox(options: OutboxClaimOptions): OutboxRecord[] {
    const rows = this.#sql.claimOutbox.all({
      now: options.now,
      limit: options.limit,
      owner: options.owner,
      leaseUntil: options.now + options.leaseMs,
      excluded: JSON.stringify((options.excludeEndpoints ?? []).map(endpointKey)),
    }) as OutboxRow[];
    return rows.map(outboxFromRow).sort((a, b) => a.nextAttemptAt - b.nextAttemptAt || compareText(a.transactionId, b.transactionId) || a.seq - b.seq);
  }

  #recordDelivery(attempt: DeliveryAttempt): undefined {
    const sql = this.#sql;
    const params = {
      id: attempt.outboxId,
      at: attempt.at,
      durationMs: Math.max(0, Math.round(attempt.durationMs)),
      httpStatus: attempt.httpStatus,
      error: attempt.error,
      delivered: attempt.delivered ? 1 : 0,
      nextAttemptAt: attempt.nextAttemptAt,
      lastError: attemptErrorText(attempt),
    };
    const updated = attempt.delivered ? sql.markDelivered.run(params) : sql.markFailed.run(params);
    if (updated.changes === 0) throw new StoreWriteError(`no outbox message ${attempt.outboxId}`);
    sql.insertAttempt.run(params);
    return undefined;
  }

  #replay(filter: ReplayFilter, now: number): number {
    return this.#sql.replay.run({
      now,
      outboxId: filter.outboxId ?? null,
      integratorId: filter.integratorId ?? null,
      since: filter.since ?? null,
    }).changes;
  }

  #saveRefreshToken(record: RefreshTokenRecord): undefined {
    const result = this.#sql.insertRefreshToken.run(record.tokenHash, record.familyId, record.integratorId, record.expiresAt);
    if (result.changes === 0) throw new StoreWriteError('refresh token hash already stored');
    return undefined;
  }

  #useRefreshToken(tokenHash: string, now: number): RefreshTokenUse {
    const sql = this.#sql;
    const row = sql.refreshTokenByHash.get(tokenHash) as RefreshTokenRow | undefined;
    if (row === undefined) return { kind: 'unknown' };
    if (row.used_at !== null) {
      sql.revokeFamily.run(row.family_id);
      return { kind: 'reused', familyId: row.family_id };
    }
    if (row.revoked !== 0 || row.expires_at <= now) return { kind: 'unknown' };
    sql.markRefreshTokenUsed.run(now, tokenHash);
    return {
      kind: 'ok',
      record: { tokenHash: row.token_hash, familyId: row.family_id, integratorId: row.integrator_id, expiresAt: row.expires_at },
    };
  }
}

function prepareStatements(db: Db) {
  const bigints = (statement: Statement): Statement => statement.safeIntegers(true);
  return {
    begin: db.prepare('BEGIN IMMEDIATE'),
    commit: db.prepare('COMMIT'),
    rollback: db.prepare('ROLLBACK'),
    savepoint: db.prepare('SAVEPOINT item'),
    releaseSavepoint: db.prepare('RELEASE item'),
    rollbackToSavepoint: db.prepare('ROLLBACK TO item'),
    ping: db.prepare('SELECT 1'),

    // Rows carrying amount_minor are read with safeIntegers so money never passes through a double.
    transactionById: bigints(db.prepare(`SELECT ${TRANSACTION_COLUMNS} FROM transactions WHERE id = ?`)),
    transactionByUetr: bigints(db.prepare(`SELECT ${TRANSACTION_COLUMNS} FROM transactions WHERE integrator_id = ? AND uetr = ?`)),
    transactionIdByUetr: db.prepare('SELECT id FROM transactions WHERE integrator_id = ? AND uetr = ?').pluck(),
    versionOf: db.prepare('SELECT version, state, integrator_id FROM transactions WHERE id = ?'),
    insertTransaction: db.prepare(
      `INSERT INTO transactions (id, integrator_id, kind, uetr, scheme, message_id, state, version, amount_minor, currency,
         created_at, updated_at, due_at, traceparent, tracestate, data)
       VALUES (@id, @integratorId, @kind, @uetr, @scheme, @messageId, @state, 1, @amountMinor, @currency,
         @at, @at, @dueAt, @traceparent, @tracestate, '{}')`,
    ),
    updateState: db.prepare(
      `UPDATE transactions SET state = @state, version = @version, updated_at = @at, due_at = @dueAt,
         data = COALESCE(@data, data)
       WHERE id = @id AND version = @expected`,
    ),
    claimDue: bigints(
      db.prepare(
        `UPDATE transactions SET lease_owner = @owner, lease_until = @leaseUntil
         WHERE id IN (
           SELECT id FROM transactions
           WHERE due_at <= @now AND (lease_until IS NULL OR lease_until < @now)
           ORDER BY due_at LIMIT @limit)
         RETURNING ${TRANSACTION_COLUMNS}`,
      ),
    ),
    release: db.prepare('UPDATE transactions SET lease_owner = NULL, lease_until = NULL WHERE id = ? AND lease_owner = ?'),

    messageByKey: db.prepare('SELECT * FROM messages WHERE integrator_id = ? AND message_id = ?'),
    insertMessage: db.prepare(
      'INSERT INTO messages (integrator_id, message_id, transaction_id, payload_hash, raw_body, response, received_at) VALUES (?, ?, ?, ?, ?, NULL, ?)',
    ),
    setResponse: db.prepare('UPDATE messages SET response = ? WHERE integrator_id = ? AND message_id = ?'),

    historyOf: db.prepare('SELECT * FROM state_history WHERE transaction_id = ? ORDER BY version'),
    insertHistory: db.prepare('INSERT INTO state_history (transaction_id, version, from_state, to_state, at, cause) VALUES (?, ?, ?, ?, ?, ?)'),

    outboxOf: db.prepare(`SELECT ${OUTBOX_COLUMNS} FROM outbox WHERE transaction_id = ? ORDER BY seq`),
    maxSeq: db.prepare('SELECT COALESCE(MAX(seq), 0) AS seq FROM outbox WHERE transaction_id = ?'),
    insertOutbox: db.prepare(
      `INSERT INTO outbox (id, transaction_id, integrator_id, seq, channel, url, body, headers, available_at, status, attempts,
         next_attempt_at, created_at)
       VALUES (@id, @transactionId, @integratorId, @seq, @channel, @url, @body, @headers, @availableAt, 'PENDING', 0,
         @availableAt, @at)`,
    ),
    // Only the head of each (transaction, channel) queue is deliverable: the lowest-seq PENDING row.
    // UNDELIVERED rows are not PENDING, so a message given up on no longer holds back the ones
    // after it; it waits for an operator replay, and the receiver orders by seq/webhook-id.
    claimOutbox: db.prepare(
      `UPDATE outbox SET lease_owner = @owner, lease_until = @leaseUntil
       WHERE id IN (
         SELECT o.id FROM outbox o
         WHERE o.status = 'PENDING' AND o.next_attempt_at <= @now
           AND (o.lease_until IS NULL OR o.lease_until < @now)
           AND NOT EXISTS (
             SELECT 1 FROM outbox p
             WHERE p.status = 'PENDING' AND p.transaction_id = o.transaction_id AND p.channel = o.channel AND p.seq < o.seq)
           AND (o.channel || ' ' || o.integrator_id) NOT IN (SELECT value FROM json_each(@excluded))
         ORDER BY o.next_attempt_at, o.seq LIMIT @limit)
       RETURNING ${OUTBOX_COLUMNS}`,
    ),
    outboxById: db.prepare(`SELECT ${OUTBOX_COLUMNS} FROM outbox WHERE id = ?`),
    // One statement per status, each naming its status literally, so each can use its partial index.
    listUndelivered: db.prepare(
      `SELECT ${OUTBOX_COLUMNS} FROM outbox
       WHERE status = 'UNDELIVERED' AND (@integratorId IS NULL OR integrator_id = @integratorId)
         AND (@afterCreatedAt IS NULL OR created_at > @afterCreatedAt OR (created_at = @afterCreatedAt AND id > @afterId))
       ORDER BY created_at, id LIMIT @limit`,
    ),
    listPending: db.prepare(
      `SELECT ${OUTBOX_COLUMNS} FROM outbox
       WHERE status = 'PENDING' AND (@integratorId IS NULL OR integrator_id = @integratorId)
         AND (@afterCreatedAt IS NULL OR created_at > @afterCreatedAt OR (created_at = @afterCreatedAt AND id > @afterId))
       ORDER BY created_at, id LIMIT @limit`,
    ),
    attemptsOf: db.prepare('SELECT outbox_id, at, duration_ms, http_status, error, delivered FROM delivery_attempts WHERE outbox_id = ? ORDER BY at, id'),
    // A late acknowledgement still counts, even for a message already given up on.
    markDelivered: db.prepare(
      `UPDATE outbox SET status = 'DELIVERED', delivered_at = COALESCE(delivered_at, @at), attempts = attempts + 1,
         lease_owner = NULL, lease_until = NULL
       WHERE id = @id`,
    ),
    // A failure reported after another instance delivered the message changes nothing but the count.
    markFailed: db.prepare(
      `UPDATE outbox SET attempts = attempts + 1,
         last_error = CASE WHEN status = 'PENDING' THEN @lastError ELSE last_error END,
         next_attempt_at = CASE WHEN status = 'PENDING' AND @nextAttemptAt IS NOT NULL THEN @nextAttemptAt ELSE next_attempt_at END,
         status = CASE WHEN status = 'PENDING' AND @nextAttemptAt IS NULL THEN 'UNDELIVERED' ELSE status END,
         lease_owner = NULL, lease_until = NULL
       WHERE id = @id`,
    ),
    insertAttempt: db.prepare(
      `INSERT INTO delivery_attempts (outbox_id, at, duration_ms, http_status, error, delivered)
       VALUES (@id, @at, @durationMs, @httpStatus, @error, @delivered)`,
    ),
    // attempts restarts at 0: a replayed message gets a whole new retry schedule; the full
    // record of earlier attempts stays in delivery_attempts.
    replay: db.prepare(
      `UPDATE outbox SET status = 'PENDING', next_attempt_at = @now, attempts = 0, lease_owner = NULL, lease_until = NULL
       WHERE status = 'UNDELIVERED'
         AND (@outboxId IS NULL OR id = @outboxId)
         AND (@integratorId IS NULL OR integrator_id = @integratorId)
         AND (@since IS NULL OR created_at >= @since)`,
    ),

    insertRefreshToken: db.prepare(
      `INSERT INTO refresh_tokens (token_hash, family_id, integrator_id, expires_at, used_at, revoked)
       VALUES (?, ?, ?, ?, NULL, 0) ON CONFLICT (token_hash) DO NOTHING`,
    ),
    refreshTokenByHash: db.prepare('SELECT * FROM refresh_tokens WHERE token_hash = ?'),
    markRefreshTokenUsed: db.prepare('UPDATE refresh_tokens SET used_at = ? WHERE token_hash = ? AND used_at IS NULL'),
    revokeFamily: db.prepare('UPDATE refresh_tokens SET revoked = 1 WHERE family_id = ?'),

    settingByName: db.prepare('SELECT value FROM settings WHERE name = ?'),
    insertSetting: db.prepare('INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING'),
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

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function toNumber(value: bigint | null): number | null {
  return value === null ? null : Number(value);
}

function transactionFromRow(row: TransactionRow): TransactionRecord {
  return {
    id: row.id,
    integratorId: row.integrator_id,
    kind: row.kind as TransactionKind,
    uetr: row.uetr,
    scheme: row.scheme as SchemeName,
    messageId: row.message_id,
    state: row.state,
    version: Number(row.version),
    amountMinor: row.amount_minor,
    currency: row.currency,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    dueAt: toNumber(row.due_at),
    traceparent: row.traceparent,
    tracestate: row.tracestate,
    data: JSON.parse(row.data) as Record<string, unknown>,
  };
}

function messageFromRow(row: MessageRow): StoredMessage {
  return {
    integratorId: row.integrator_id,
    messageId: row.message_id,
    transactionId: row.transaction_id,
    payloadHash: row.payload_hash,
    rawBody: row.raw_body,
    response: row.response,
    receivedAt: row.received_at,
  };
}

function historyFromRow(row: HistoryRow): HistoryRecord {
  return {
    transactionId: row.transaction_id,
    version: row.version,
    fromState: row.from_state,
    toState: row.to_state,
    at: row.at,
    cause: row.cause,
  };
}

/** The key an excluded endpoint is compared by in SQL: `channel integratorId`. */
function endpointKey(endpoint: OutboxEndpoint): string {
  return `${endpoint.channel} ${endpoint.integratorId}`;
}

function attemptFromRow(row: AttemptRow): DeliveryAttemptRecord {
  return {
    outboxId: row.outbox_id,
    at: row.at,
    durationMs: row.duration_ms,
    httpStatus: row.http_status,
    error: row.error,
    delivered: row.delivered !== 0,
  };
}

function outboxFromRow(row: OutboxRow): OutboxRecord {
  return {
    id: row.id,
    transactionId: row.transaction_id,
    integratorId: row.integrator_id,
    seq: row.seq,
    channel: row.channel as OutboxChannel,
    url: row.url,
    body: row.body,
    headers: JSON.parse(row.headers) as Record<string, string>,
    availableAt: row.available_at,
    status: row.status as OutboxStatus,
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at,
    createdAt: row.created_at,
    deliveredAt: row.delivered_at,
    lastError: row.last_error,
  };
}
