/**
 * The SQLite write path: runs a batch of write ops (plain data, store-ops.ts) in one transaction
 * on the connection it is given. The same code runs in the writer worker thread (file databases)
 * and on the main thread (`:memory:`, which one thread cannot share with another).
 */
import type { SqliteCounters } from './sqlite-counters.js';
import Database from 'better-sqlite3';
import type {
  ChangeOutcome,
  ClaimOptions,
  DeliveryAttempt,
  IntakeOutcome,
  Lease,
  NewOutboxMessage,
  NewRequest,
  NewSchemeMessage,
  NewTransaction,
  OutboxChannel,
  OutboxClaimOptions,
  OutboxEndpoint,
  OutboxRecord,
  RecordedDeliveries,
  RefreshTokenRecord,
  RefreshTokenRotation,
  RefreshTokenRotationOutcome,
  RequestOutcome,
  StateChange,
  TransactionRecord,
} from '../../ports/store.js';
import { unreachable } from '../../lib/assert.js';
import { attemptErrorText, changeSteps, commitHolding, commuted, intakeSteps, OUTBOX_BLOCKED_AT, StoreWriteError, storedMessageOutcome, type OpOf, type ReplayFilter, type WriteOp } from '../store-ops.js';
import type { Db } from './sqlite-connection.js';
import { compareText, outboxFromRow, transactionFromRow, type MessageRow, type OutboxRow, type TransactionRow } from '../store-rows.js';
import { LIMIT_PARAM, OUTBOX_COLUMNS, TRANSACTION_COLUMNS, type RefreshTokenRow } from './sqlite-rows.js';

/** One op's result, known before COMMIT and handed out only after it. */
export type OpOutcome = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: unknown };

export class SqliteExecutor {
  readonly #db: Db;
  readonly #sql: ReturnType<typeof prepareWriteStatements>;
  readonly #counters: SqliteCounters | undefined;
  /** total_changes() after the last commit counted (or the migrations). */
  #changesCounted: number;

  /** `counters` counts every commit that wrote something (Store.durableCounts). */
  constructor(db: Db, counters?: SqliteCounters) {
    this.#db = db;
    this.#sql = prepareWriteStatements(db);
    this.#counters = counters;
    this.#changesCounted = this.#sql.totalChanges.get() as number;
  }

  /**
   * One batch, one transaction, one fsync. An op that throws fails only itself; the others still
   * commit. Returns each op's outcome after COMMIT returned; throws when the batch as a whole
   * failed (BEGIN or COMMIT failed, or SQLite rolled the transaction back itself), in which case
   * nothing of it committed.
   *
   * Ops almost never throw (a refusal is an outcome, not an error), so the batch first runs as it
   * is. Only when an op throws is that attempt rolled back and the batch run again with each op in
   * a SAVEPOINT of its own, so the failing op is undone alone. A savepoint per op in every batch
   * cost two more statements per op and a copy of every page an op touched first.
   */
  runBatch(ops: readonly WriteOp[]): OpOutcome[] {
    return this.#inOneTransaction(ops, () => this.#runWhole(ops)) ?? this.#inOneTransaction(ops, () => this.#runIsolated(ops))!;
  }

  /** The ops' outcomes, or undefined after rolling back when one of them threw. */
  #runWhole(ops: readonly WriteOp[]): OpOutcome[] | undefined {
    const outcomes: OpOutcome[] = [];
    for (const op of ops) {
      try {
        outcomes.push({ ok: true, value: this.#execute(op) });
      } catch (error) {
        // SQLite rolled the whole transaction back itself (disk full, I/O error): the batch failed.
        if (!this.#db.inTransaction) throw error;
        this.#sql.rollback.run();
        return undefined;
      }
    }
    return outcomes;
  }

  #runIsolated(ops: readonly WriteOp[]): OpOutcome[] {
    const sql = this.#sql;
    const outcomes: OpOutcome[] = [];
    for (const op of ops) {
      sql.savepoint.run();
      try {
        const value = this.#execute(op);
        sql.releaseSavepoint.run();
        outcomes.push({ ok: true, value });
      } catch (error) {
        // SQLite rolled the whole transaction back itself: every op of the batch is lost,
        // including the ones that had succeeded.
        if (!this.#db.inTransaction) throw error;
        sql.rollbackToSavepoint.run();
        sql.releaseSavepoint.run();
        outcomes.push({ ok: false, error });
      }
    }
    return outcomes;
  }

  /** BEGIN, run, COMMIT; undefined (rolled back by `run`) passes through without a commit. */
  #inOneTransaction(ops: readonly WriteOp[], run: () => OpOutcome[] | undefined): OpOutcome[] | undefined {
    const sql = this.#sql;
    sql.begin.run();
    let outcomes: OpOutcome[] | undefined;
    try {
      outcomes = run();
    } catch (error) {
      if (this.#db.inTransaction) sql.rollback.run();
      throw error;
    }
    if (outcomes === undefined) return undefined;
    try {
      sql.commit.run();
    } catch (error) {
      if (this.#db.inTransaction) sql.rollback.run();
      throw error;
    }
    this.#countCommit(ops);
    return outcomes;
  }

  /**
   * A commit that changed rows wrote WAL frames and fsynced them; one that changed none (a claim
   * that found nothing due) wrote nothing, so it is not counted. Rows of an attempt rolled back
   * before its batch ran again count with that batch: close enough for a count of fsyncs.
   */
  #countCommit(ops: readonly WriteOp[]): void {
    if (this.#counters === undefined) return;
    const changes = this.#sql.totalChanges.get() as number;
    if (changes === this.#changesCounted) return;
    this.#changesCounted = changes;
    this.#counters.committed(commitHolding(ops));
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
      case 'wakeDeliveredCallbacks':
        return this.#sql.wakeDeliveredCallbacks.run({ now: op.now }).changes;
      case 'releaseLeases': {
        const owners = JSON.stringify(op.owners);
        return this.#sql.releaseTransactionLeases.run({ owners, now: op.now }).changes + this.#sql.releaseOutboxLeases.run({ owners }).changes;
      }
      case 'claimOutbox':
        return this.#claimOutbox(op.options);
      case 'recordDelivery':
        return this.#recordDelivery(op.attempt);
      case 'recordDeliveries':
        return this.#recordDeliveries(op.attempts);
      case 'replayUndelivered':
        return this.#replay(op.filter, op.now);
      case 'saveRefreshToken':
        return this.#saveRefreshToken(op.record, op.forgetExpiredBefore, op.forgetRevokedBefore, op.forgetSealedBefore);
      case 'rotateRefreshToken':
        return this.#rotateRefreshToken(op.rotation);
      case 'createSetting':
        this.#sql.insertSetting.run(op.name, op.value);
        return (this.#sql.settingByName.get(op.name) as { value: string }).value;
      case 'recordSchemeMessages':
        this.#insertSchemeMessages(op.messages);
        return undefined;
      case 'pruneSchemeMessages':
        return this.#sql.pruneSchemeMessages.run({ before: op.before, limit: op.limit }).changes;
      default:
        return unreachable(op, 'write op');
    }
  }

  #intake(tx: NewTransaction): IntakeOutcome {
    const sql = this.#sql;
    const message = sql.messageByKey.get(tx.integratorId, tx.messageId) as MessageRow | undefined;
    if (message) return storedMessageOutcome(message, tx.payloadHash);
    const { steps, state, version } = intakeSteps(tx);
    if (!this.#insertTransaction(tx, state, version)) return { kind: 'uetr_conflict' };
    sql.insertMessage.run(tx.integratorId, tx.messageId, tx.id, tx.payloadHash, tx.rawBody, tx.receivedAt);
    // Version 1's cause is the request itself, kept verbatim in messages.raw_body.
    for (const step of steps) sql.insertHistory.run(tx.id, step.version, step.fromState, step.toState, tx.receivedAt, step.cause);
    const leasedIds = this.#insertOutbox(tx.id, tx.integratorId, tx.outbox, 0, tx.receivedAt, tx.leaseOutbox, true);
    this.#insertSchemeMessages(tx.schemeMessages ?? []);
    return { kind: 'accepted', transactionId: tx.id, leased: this.#leased(leasedIds) };
  }

  /**
   * Insert the transaction; false when the integrator already has one with its UETR. The unique
   * key itself is the test: looking the UETR up first would seek the same index leaf twice on
   * every intake to catch a conflict that almost never happens. A failed INSERT undoes only
   * itself; the batch's transaction goes on.
   */
  #insertTransaction(tx: NewTransaction, state: string, version: number): boolean {
    try {
      this.#sql.insertTransaction.run({
        id: tx.id,
        integratorId: tx.integratorId,
        kind: tx.kind,
        uetr: tx.uetr,
        scheme: tx.scheme,
        messageId: tx.messageId,
        state,
        version,
        amountMinor: tx.amountMinor,
        currency: tx.currency,
        at: tx.receivedAt,
        dueAt: tx.dueAt,
        leaseOwner: tx.leaseTransaction?.owner ?? null,
        leaseUntil: tx.leaseTransaction === undefined ? null : tx.receivedAt + tx.leaseTransaction.leaseMs,
        traceparent: tx.traceparent,
        tracestate: tx.tracestate,
        data: JSON.stringify(tx.data ?? {}),
        lookupKey: tx.lookupKey ?? null,
        endToEndId: tx.endToEndId ?? null,
      });
      return true;
    } catch (error) {
      // transactions_integrator_uetr_kind is the table's only UNIQUE constraint (its id is the PRIMARY KEY).
      if (error instanceof Database.SqliteError && error.code === 'SQLITE_CONSTRAINT_UNIQUE' && this.#db.inTransaction) return false;
      throw error;
    }
  }

  #recordRequest(request: NewRequest): RequestOutcome {
    const sql = this.#sql;
    const message = sql.messageByKey.get(request.integratorId, request.messageId) as MessageRow | undefined;
    if (message) return storedMessageOutcome(message, request.payloadHash);
    const current = sql.versionOf.get(request.transactionId) as { integrator_id: string } | undefined;
    // The caller found the transaction under this integrator before asking: anything else is a bug upstream.
    if (current === undefined) throw new StoreWriteError(`no transaction ${request.transactionId}`);
    if (current.integrator_id !== request.integratorId) throw new StoreWriteError(`transaction ${request.transactionId} belongs to another integrator`);
    sql.insertMessage.run(request.integratorId, request.messageId, request.transactionId, request.payloadHash, request.rawBody, request.receivedAt);
    const { seq } = sql.maxSeq.get(request.transactionId) as { seq: number };
    this.#insertOutbox(request.transactionId, request.integratorId, request.outbox, seq, request.receivedAt, undefined);
    return { kind: 'accepted' };
  }

  #setMessageResponse(op: OpOf<'setMessageResponse'>): undefined {
    const result = this.#sql.setResponse.run(op.response, op.integratorId, op.messageId);
    if (result.changes === 0) throw new StoreWriteError(`no stored message ${op.messageId} for integrator ${op.integratorId}`);
    return undefined;
  }

  #applyChange(change: StateChange): ChangeOutcome {
    const sql = this.#sql;
    const current = sql.versionOf.get(change.transactionId) as { version: number; state: string; integrator_id: string } | undefined;
    if (current === undefined) return { ok: false, reason: 'not_found' };
    if (current.version !== change.expectedVersion) return this.#commuted(change, current.version);
    const { steps, version } = changeSteps(change, current.state);
    sql.updateState.run({
      id: change.transactionId,
      expected: change.expectedVersion,
      version,
      state: change.toState,
      at: change.at,
      dueAt: change.dueAt,
      data: change.data === undefined ? null : JSON.stringify(change.data),
      outcome: change.outcome?.outcome ?? null,
      reasonCode: change.outcome?.reasonCode ?? null,
    });
    this.#insertSchemeMessages(change.schemeMessages ?? []);
    for (const step of steps) sql.insertHistory.run(change.transactionId, step.version, step.fromState, step.toState, change.at, step.cause);
    const { seq } = sql.maxSeq.get(change.transactionId) as { seq: number };
    const leasedIds = this.#insertOutbox(change.transactionId, current.integrator_id, change.outbox, seq, change.at, change.leaseOutbox);
    const delivered = this.#recordDeliveries(change.deliveries ?? []);
    return { ok: true, version, leased: [...this.#leased(leasedIds), ...delivered.leased] };
  }

  /** A change decided on an older version: applied on the current one, or already made, when it commutes with the versions since; otherwise stale. */
  #commuted(change: StateChange, version: number): ChangeOutcome {
    if (change.commutes === undefined || version < change.expectedVersion) return { ok: false, reason: 'stale' };
    const { data } = this.#sql.dataOf.get(change.transactionId) as { data: string };
    const entered = (this.#sql.enteredSince.all(change.transactionId, change.expectedVersion) as { to_state: string }[]).map((row) => row.to_state);
    const moved = commuted(change, { version, data: JSON.parse(data) as unknown }, entered);
    if (moved === undefined) return { ok: false, reason: 'stale' };
    if (moved.kind === 'made') {
      this.#insertSchemeMessages(change.schemeMessages ?? []);
      return { ok: true, version, leased: [], alreadyEntered: moved.skipped };
    }
    const outcome = this.#applyChange(moved.change);
    return outcome.ok ? { ...outcome, alreadyEntered: moved.skipped } : outcome;
  }

  /** A message already kept (a resend, or one received twice) is skipped; an unknown transaction fails the op (foreign key). */
  #insertSchemeMessages(messages: readonly NewSchemeMessage[]): void {
    for (const message of messages) {
      this.#sql.insertSchemeMessage.run({
        transactionId: message.transactionId,
        direction: message.direction,
        messageId: message.messageId,
        messageName: message.messageName,
        at: message.at,
        document: message.document,
      });
    }
  }

  /** Outbox messages leased as they were written, read back as a claim returns them (the event payload spliced in). */
  #leased(ids: readonly string[]): OutboxRecord[] {
    return ids.map((id) => outboxFromRow(this.#sql.outboxById.get(id) as OutboxRow));
  }

  /**
   * Insert the messages in order, numbered on from `lastSeq`; the ids of those `lease` took. Only
   * a queue's head is due: a message written behind an earlier PENDING one of its (transaction,
   * channel), one written just before it included, is blocked until that one leaves PENDING
   * (unblockHead), so claimOutbox's due-time range never reaches it. With a `lease`, a head
   * available by `at` is leased as it is written (StateChange.leaseOutbox). The queues of a
   * transaction written in this same op (`newTransaction`) are known to be empty.
   */
  #insertOutbox(
    transactionId: string,
    integratorId: string,
    messages: readonly NewOutboxMessage[],
    lastSeq: number,
    at: number,
    lease: Lease | undefined,
    newTransaction = false,
  ): string[] {
    const sql = this.#sql;
    const leased: string[] = [];
    const written = new Set<string>();
    messages.forEach((message, index) => {
      const blocked = written.has(message.channel) || (!newTransaction && sql.queueHasPending.get(transactionId, message.channel) !== undefined);
      written.add(message.channel);
      const leaseNow = lease !== undefined && !blocked && message.availableAt <= at;
      sql.insertOutbox.run({
        id: message.id,
        transactionId,
        integratorId,
        seq: lastSeq + index + 1,
        channel: message.channel,
        url: message.url,
        body: message.body,
        headers: JSON.stringify(message.headers),
        availableAt: message.availableAt,
        nextAttemptAt: blocked ? OUTBOX_BLOCKED_AT : message.availableAt,
        leaseOwner: leaseNow ? lease.owner : null,
        leaseUntil: leaseNow ? at + lease.leaseMs : null,
        at,
        payloadVersion: message.payloadVersion ?? null,
      });
      if (leaseNow) leased.push(message.id);
    });
    return leased;
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

  /**
   * Per endpoint (integrator and channel) that has PENDING rows, found by seeking from one to
   * the next along `outbox_pending_endpoint`, the first `limit` due rows in (next_attempt_at,
   * seq) order; then the first `limit` of all of them in that order are leased. An excluded
   * endpoint costs one index step however many of its rows are due, and only queue heads are due
   * (OUTBOX_BLOCKED_AT), so a claim reads O(endpoints × limit) rows plus the leased ones, not
   * the backlog.
   */
  #claimOutbox(options: OutboxClaimOptions): OutboxRecord[] {
    const sql = this.#sql;
    const excluded = new Set((options.excludeEndpoints ?? []).map(endpointKey));
    const due: DueRow[] = [];
    let endpoint = sql.firstPendingEndpoint.get() as EndpointRow | undefined;
    while (endpoint !== undefined) {
      if (!excluded.has(endpointKey({ channel: endpoint.channel, integratorId: endpoint.integrator_id }))) {
        due.push(...(sql.dueOfEndpoint.all({ integratorId: endpoint.integrator_id, channel: endpoint.channel, now: options.now, limit: options.limit }) as DueRow[]));
      }
      endpoint = (sql.nextPendingChannel.get({ integratorId: endpoint.integrator_id, channel: endpoint.channel }) ??
        sql.nextPendingIntegrator.get({ integratorId: endpoint.integrator_id })) as EndpointRow | undefined;
    }
    if (due.length === 0) return [];
    due.sort((a, b) => a.next_attempt_at - b.next_attempt_at || a.seq - b.seq || compareText(a.id, b.id));
    const rows = sql.lease.all({
      owner: options.owner,
      leaseUntil: options.now + options.leaseMs,
      ids: JSON.stringify(due.slice(0, options.limit).map((row) => row.id)),
    }) as OutboxRow[];
    return rows.map(outboxFromRow).sort((a, b) => a.nextAttemptAt - b.nextAttemptAt || compareText(a.transactionId, b.transactionId) || a.seq - b.seq);
  }

  /** Each attempt as #recordDelivery, in order, in this one op; an unknown message's attempt is reported, not thrown (it wrote nothing). */
  #recordDeliveries(attempts: readonly DeliveryAttempt[]): RecordedDeliveries {
    const leased: OutboxRecord[] = [];
    const unknown: string[] = [];
    for (const attempt of attempts) {
      try {
        const next = this.#recordDelivery(attempt);
        if (next !== undefined) leased.push(next);
      } catch (error) {
        if (!(error instanceof StoreWriteError)) throw error;
        unknown.push(attempt.outboxId);
      }
    }
    return { leased, unknown };
  }

  /** Throws StoreWriteError, having written nothing, when the message is unknown. */
  #recordDelivery(attempt: DeliveryAttempt): OutboxRecord | undefined {
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
    // Only the step out of PENDING lets the next message of the queue through: a late
    // acknowledgement of a message given up on already did so when it was given up on.
    let leftQueue: QueueRow | undefined;
    if (attempt.delivered) {
      // The usual case, a PENDING message delivered, in one statement; a late acknowledgement
      // (the message no longer PENDING) takes the general one.
      leftQueue = sql.markPendingDelivered.get(params) as QueueRow | undefined;
      if (leftQueue === undefined && sql.markDelivered.run(params).changes === 0) throw new StoreWriteError(`no outbox message ${attempt.outboxId}`);
    } else {
      const before = sql.outboxQueueOf.get(attempt.outboxId) as (QueueRow & { status: string }) | undefined;
      if (before === undefined || sql.markFailed.run(params).changes === 0) throw new StoreWriteError(`no outbox message ${attempt.outboxId}`);
      if (before.status === 'PENDING' && attempt.nextAttemptAt === null) leftQueue = before;
    }
    sql.insertAttempt.run(params);
    if (leftQueue === undefined) return undefined;
    const queue = { transactionId: leftQueue.transaction_id, channel: leftQueue.channel, now: attempt.at };
    if (attempt.leaseNext === undefined) {
      sql.unblockHead.run({ ...queue, replay: 0 });
      return undefined;
    }
    const head = sql.unblockAndLeaseHead.get({ ...queue, owner: attempt.leaseNext.owner, leaseUntil: attempt.at + attempt.leaseNext.leaseMs }) as
      | (OutboxRow & { leased_now: number })
      | undefined;
    return head !== undefined && head.leased_now === 1 ? outboxFromRow(head) : undefined;
  }

  /**
   * Replayed rows come back blocked; then the head of each queue they are in is unblocked. A
   * replayed row with no earlier PENDING row in its queue is that head and is due now (whatever
   * its availableAt: the operator asked for it); one behind a PENDING row waits its turn. Rows
   * behind a replayed row keep what they had: if one of them was already due, claimOutbox's head
   * test still holds it back.
   */
  #replay(filter: ReplayFilter, now: number): number {
    const sql = this.#sql;
    const replayed = sql.replay.all({
      outboxId: filter.outboxId ?? null,
      integratorId: filter.integratorId ?? null,
      since: filter.since ?? null,
    }) as { transaction_id: string; channel: string }[];
    const queues = new Set<string>();
    for (const row of replayed) {
      const queue = `${row.channel} ${row.transaction_id}`;
      if (queues.has(queue)) continue;
      queues.add(queue);
      sql.unblockHead.run({ transactionId: row.transaction_id, channel: row.channel, now, replay: 1 });
    }
    return replayed.length;
  }

  #saveRefreshToken(record: RefreshTokenRecord, forgetExpiredBefore: number | null, forgetRevokedBefore: number | null, forgetSealedBefore: number | null): undefined {
    const result = this.#sql.insertRefreshToken.run(record.tokenHash, record.familyId, record.integratorId, record.expiresAt);
    if (result.changes === 0) throw new StoreWriteError('refresh token hash already stored');
    if (forgetSealedBefore !== null) this.#sql.forgetSealedSuccessors.run(forgetSealedBefore);
    if (forgetExpiredBefore !== null) this.#sql.forgetExpiredRefreshTokens.run(forgetExpiredBefore);
    // After the tokens: a revocation is kept while a token of its session is.
    if (forgetRevokedBefore !== null) this.#sql.forgetRevokedSessions.run(forgetRevokedBefore);
    return undefined;
  }

  #rotateRefreshToken(rotation: RefreshTokenRotation): RefreshTokenRotationOutcome {
    const sql = this.#sql;
    const { tokenHash, now } = rotation;
    // First: a successor whose reuse interval is over is nobody's to get again, this token's included.
    sql.forgetSealedSuccessors.run(now - rotation.reuseIntervalMs);
    const row = sql.refreshTokenByHash.get(tokenHash) as RefreshTokenRow | undefined;
    if (row === undefined) return { kind: 'unknown' };
    const sessionAlive = row.revoked === 0 && sql.sessionRevoked.get(row.family_id) === undefined;
    if (row.used_at === null) {
      if (!sessionAlive || row.expires_at <= now) return { kind: 'unknown' };
      this.#saveRefreshToken(rotation.successor, rotation.forgetExpiredBefore, rotation.forgetRevokedBefore, null);
      sql.spendRefreshToken.run(now, rotation.sealedSuccessor ?? null, tokenHash);
      return { kind: 'rotated' };
    }
    if (sessionAlive && row.successor !== null && now - row.used_at < rotation.reuseIntervalMs) {
      return { kind: 'replayed', sealedSuccessor: row.successor, usedAt: row.used_at };
    }
    sql.revokeFamily.run(row.family_id);
    sql.revokeSession.run(row.family_id, now);
    return { kind: 'reused', familyId: row.family_id };
  }
}

interface EndpointRow {
  integrator_id: string;
  channel: OutboxChannel;
}

/** The queue an outbox message is in. */
interface QueueRow {
  transaction_id: string;
  channel: string;
}

interface DueRow {
  id: string;
  next_attempt_at: number;
  seq: number;
}

/** The key an excluded endpoint is compared by: `channel integratorId`. */
function endpointKey(endpoint: OutboxEndpoint): string {
  return `${endpoint.channel} ${endpoint.integratorId}`;
}

/** The head of the (@transactionId, @channel) queue: its lowest-seq PENDING row. */
const QUEUE_HEAD = `SELECT h.id FROM outbox h
         WHERE h.status = 'PENDING' AND h.transaction_id = @transactionId AND h.channel = @channel
         ORDER BY h.seq LIMIT 1`;

/** The head's next_attempt_at once unblocked (as unblockHead without replay): at once, or at its available_at if later. */
const HEAD_DUE_AT = `CASE WHEN next_attempt_at = ${OUTBOX_BLOCKED_AT} THEN MAX(@now, available_at) ELSE next_attempt_at END`;
/** The head, once unblocked, is due and nobody holds it. */
const HEAD_LEASABLE = `${HEAD_DUE_AT} <= @now AND (lease_until IS NULL OR lease_until < @now)`;

function prepareWriteStatements(db: Db) {
  const bigints = (statement: Database.Statement): Database.Statement => statement.safeIntegers(true);
  return {
    begin: db.prepare('BEGIN IMMEDIATE'),
    /** Rows this connection has inserted, updated or deleted since it opened (the writer's: only it writes). */
    totalChanges: db.prepare('SELECT total_changes()').pluck(),
    commit: db.prepare('COMMIT'),
    rollback: db.prepare('ROLLBACK'),
    savepoint: db.prepare('SAVEPOINT item'),
    releaseSavepoint: db.prepare('RELEASE item'),
    rollbackToSavepoint: db.prepare('ROLLBACK TO item'),

    versionOf: db.prepare('SELECT version, state, integrator_id FROM transactions WHERE id = ?'),
    dataOf: db.prepare('SELECT data FROM transactions WHERE id = ?'),
    enteredSince: db.prepare('SELECT to_state FROM state_history WHERE transaction_id = ? AND version > ? ORDER BY version'),
    insertTransaction: db.prepare(
      `INSERT INTO transactions (id, integrator_id, kind, uetr, scheme, message_id, state, version, amount_minor, currency,
         created_at, updated_at, due_at, lease_owner, lease_until, traceparent, tracestate, data, lookup_key, end_to_end_id)
       VALUES (@id, @integratorId, @kind, @uetr, @scheme, @messageId, @state, @version, @amountMinor, @currency,
         @at, @at, @dueAt, @leaseOwner, @leaseUntil, @traceparent, @tracestate, @data, @lookupKey, @endToEndId)`,
    ),
    updateState: db.prepare(
      `UPDATE transactions SET state = @state, version = @version, updated_at = @at, due_at = @dueAt,
         data = COALESCE(@data, data),
         outcome = COALESCE(@outcome, outcome), reason_code = CASE WHEN @outcome IS NULL THEN reason_code ELSE @reasonCode END,
         outcome_at = CASE WHEN @outcome IS NULL THEN outcome_at ELSE COALESCE(outcome_at, @at) END
       WHERE id = @id AND version = @expected`,
    ),
    // Rows carrying amount_minor are read with safeIntegers so money never passes through a double.
    // Claimable from the later of the timer and the lease's end: `due_at <= now` and the lease not
    // live (`lease_until IS NULL OR lease_until < now`), read along transactions_claimable (the
    // expression is the index's), so live leases are never read. Order: that time, then timer.
    claimDue: bigints(
      db.prepare(
        `UPDATE transactions SET lease_owner = @owner, lease_until = @leaseUntil
         WHERE id IN (
           SELECT id FROM transactions
           WHERE due_at IS NOT NULL AND MAX(due_at, COALESCE(lease_until + 1, 0)) <= @now
           ORDER BY MAX(due_at, COALESCE(lease_until + 1, 0)), due_at ${LIMIT_PARAM})
         RETURNING ${TRANSACTION_COLUMNS}`,
      ),
    ),
    release: db.prepare('UPDATE transactions SET lease_owner = NULL, lease_until = NULL WHERE id = ? AND lease_owner = ?'),
    // releaseLeases: along transactions_claimable (rows with a timer whose lease is live lie past
    // now), and along the pending outbox rows; never a scan of the whole history.
    releaseTransactionLeases: db.prepare(
      `UPDATE transactions SET lease_owner = NULL, lease_until = NULL
       WHERE lease_owner IN (SELECT value FROM json_each(@owners))
         AND due_at IS NOT NULL AND MAX(due_at, COALESCE(lease_until + 1, 0)) > @now`,
    ),
    // Waiting transactions (past now along transactions_claimable) whose awaited callback (data.callbackId) is DELIVERED.
    wakeDeliveredCallbacks: db.prepare(
      `UPDATE transactions SET due_at = @now
       WHERE due_at IS NOT NULL AND MAX(due_at, COALESCE(lease_until + 1, 0)) > @now AND due_at > @now
         AND EXISTS (SELECT 1 FROM outbox o WHERE o.id = json_extract(transactions.data, '$.callbackId') AND o.status = 'DELIVERED')`,
    ),
    releaseOutboxLeases: db.prepare(
      `UPDATE outbox SET lease_owner = NULL, lease_until = NULL
       WHERE status = 'PENDING' AND lease_owner IN (SELECT value FROM json_each(@owners))`,
    ),

    messageByKey: db.prepare('SELECT * FROM messages WHERE integrator_id = ? AND message_id = ?'),
    insertMessage: db.prepare(
      'INSERT INTO messages (integrator_id, message_id, transaction_id, payload_hash, raw_body, response, received_at) VALUES (?, ?, ?, ?, ?, NULL, ?)',
    ),
    setResponse: db.prepare('UPDATE messages SET response = ? WHERE integrator_id = ? AND message_id = ?'),

    insertHistory: db.prepare('INSERT INTO state_history (transaction_id, version, from_state, to_state, at, cause) VALUES (?, ?, ?, ?, ?, ?)'),

    maxSeq: db.prepare('SELECT COALESCE(MAX(seq), 0) AS seq FROM outbox WHERE transaction_id = ?'),
    queueHasPending: db.prepare(`SELECT 1 FROM outbox WHERE status = 'PENDING' AND transaction_id = ? AND channel = ? LIMIT 1`).pluck(),
    insertOutbox: db.prepare(
      `INSERT INTO outbox (id, transaction_id, integrator_id, seq, channel, url, body, headers, available_at, status, attempts,
         next_attempt_at, lease_owner, lease_until, created_at, payload_version)
       VALUES (@id, @transactionId, @integratorId, @seq, @channel, @url, @body, @headers, @availableAt, 'PENDING', 0,
         @nextAttemptAt, @leaseOwner, @leaseUntil, @at, @payloadVersion)`,
    ),
    outboxById: db.prepare(`SELECT ${OUTBOX_COLUMNS} FROM outbox WHERE id = ?`),
    outboxQueueOf: db.prepare('SELECT status, transaction_id, channel FROM outbox WHERE id = ?'),
    // The head of a queue (its lowest-seq PENDING row), if blocked, becomes due: at once, or at its
    // available_at if that is later (a replay: at once). A head is never rightly blocked (nothing
    // is ahead of it), so this is safe to run whenever a row of the queue may have stopped being
    // its head; a head that already has a time (a retry scheduled) keeps it.
    unblockHead: db.prepare(
      `UPDATE outbox SET next_attempt_at = CASE WHEN @replay = 1 THEN @now ELSE MAX(@now, available_at) END
       WHERE id = (${QUEUE_HEAD})
         AND next_attempt_at = ${OUTBOX_BLOCKED_AT}`,
    ),
    // recordDelivery with leaseNext: what unblockHead does, and the head leased too if it is then
    // due and nobody holds it. SET expressions all read the row as it was; a blocked row never
    // holds a lease (it has never been due). leased_now tells a head leased by this statement
    // from one it only unblocked (a lease it did not write cannot end at @leaseUntil: a live one
    // was not matched, and a lapsed one ended before @now).
    unblockAndLeaseHead: db.prepare(
      `UPDATE outbox SET
         next_attempt_at = ${HEAD_DUE_AT},
         lease_owner = CASE WHEN ${HEAD_LEASABLE} THEN @owner ELSE lease_owner END,
         lease_until = CASE WHEN ${HEAD_LEASABLE} THEN @leaseUntil ELSE lease_until END
       WHERE id = (${QUEUE_HEAD})
         AND (next_attempt_at = ${OUTBOX_BLOCKED_AT} OR (next_attempt_at <= @now AND (lease_until IS NULL OR lease_until < @now)))
       RETURNING ${OUTBOX_COLUMNS}, lease_owner IS @owner AND lease_until IS @leaseUntil AS leased_now`,
    ),
    // claimOutbox (#claimOutbox): the endpoints (integrator, channel) with PENDING rows, one index
    // seek each (a skip scan along outbox_pending_endpoint), then each one's due rows. The next
    // endpoint is sought in two steps: SQLite seeks a row value `(integrator_id, channel) > (?, ?)`
    // on integrator_id only and then reads every entry of that integrator.
    firstPendingEndpoint: db.prepare(`SELECT integrator_id, channel FROM outbox WHERE status = 'PENDING' ORDER BY integrator_id, channel LIMIT 1`),
    nextPendingChannel: db.prepare(
      `SELECT integrator_id, channel FROM outbox
       WHERE status = 'PENDING' AND integrator_id = @integratorId AND channel > @channel
       ORDER BY channel LIMIT 1`,
    ),
    nextPendingIntegrator: db.prepare(
      `SELECT integrator_id, channel FROM outbox
       WHERE status = 'PENDING' AND integrator_id > @integratorId
       ORDER BY integrator_id, channel LIMIT 1`,
    ),
    // Only the head of each (transaction, channel) queue is deliverable: the lowest-seq PENDING row.
    // Rows behind a head are blocked (next_attempt_at = OUTBOX_BLOCKED_AT), so the due-time range
    // reaches heads only. The NOT EXISTS head test stays as the safety net for the few due rows
    // that are not heads (those behind a replayed message); it runs on those candidates only.
    // UNDELIVERED rows are not PENDING, so a message given up on no longer holds back the ones
    // after it; it waits for an operator replay, and the receiver orders by seq/webhook-id.
    dueOfEndpoint: db.prepare(
      `SELECT o.id, o.next_attempt_at, o.seq FROM outbox o
       WHERE o.status = 'PENDING' AND o.integrator_id = @integratorId AND o.channel = @channel AND o.next_attempt_at <= @now
         AND (o.lease_until IS NULL OR o.lease_until < @now)
         AND NOT EXISTS (
           SELECT 1 FROM outbox p
           WHERE p.status = 'PENDING' AND p.transaction_id = o.transaction_id AND p.channel = o.channel AND p.seq < o.seq)
       ORDER BY o.next_attempt_at, o.seq ${LIMIT_PARAM}`,
    ),
    lease: db.prepare(
      `UPDATE outbox SET lease_owner = @owner, lease_until = @leaseUntil
       WHERE id IN (SELECT value FROM json_each(@ids))
       RETURNING ${OUTBOX_COLUMNS}`,
    ),
    markPendingDelivered: db.prepare(
      `UPDATE outbox SET status = 'DELIVERED', delivered_at = COALESCE(delivered_at, @at), attempts = attempts + 1,
         lease_owner = NULL, lease_until = NULL
       WHERE id = @id AND status = 'PENDING'
       RETURNING transaction_id, channel`,
    ),
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
    // record of earlier attempts stays in delivery_attempts. Rows come back blocked; #replay then
    // unblocks the head of each queue they are in.
    replay: db.prepare(
      `UPDATE outbox SET status = 'PENDING', next_attempt_at = ${OUTBOX_BLOCKED_AT}, attempts = 0, lease_owner = NULL, lease_until = NULL
       WHERE status = 'UNDELIVERED'
         AND (@outboxId IS NULL OR id = @outboxId)
         AND (@integratorId IS NULL OR integrator_id = @integratorId)
         AND (@since IS NULL OR created_at >= @since)
       RETURNING transaction_id, channel`,
    ),

    insertRefreshToken: db.prepare(
      `INSERT INTO refresh_tokens (token_hash, family_id, integrator_id, expires_at, used_at, revoked)
       VALUES (?, ?, ?, ?, NULL, 0) ON CONFLICT (token_hash) DO NOTHING`,
    ),
    refreshTokenByHash: db.prepare('SELECT * FROM refresh_tokens WHERE token_hash = ?'),
    forgetExpiredRefreshTokens: db.prepare('DELETE FROM refresh_tokens WHERE expires_at < ?'),
    forgetSealedSuccessors: db.prepare('UPDATE refresh_tokens SET successor = NULL WHERE successor IS NOT NULL AND used_at < ?'),
    spendRefreshToken: db.prepare('UPDATE refresh_tokens SET used_at = ?, successor = ? WHERE token_hash = ? AND used_at IS NULL'),
    revokeFamily: db.prepare('UPDATE refresh_tokens SET revoked = 1 WHERE family_id = ?'),
    // The first revocation's time stands: a later reuse of the same session's token adds nothing.
    revokeSession: db.prepare('INSERT INTO revoked_sessions (session_id, revoked_at) VALUES (?, ?) ON CONFLICT (session_id) DO NOTHING'),
    sessionRevoked: db.prepare('SELECT 1 FROM revoked_sessions WHERE session_id = ?'),
    forgetRevokedSessions: db.prepare(
      `DELETE FROM revoked_sessions
       WHERE revoked_at < ? AND NOT EXISTS (SELECT 1 FROM refresh_tokens t WHERE t.family_id = revoked_sessions.session_id)`,
    ),

    insertSchemeMessage: db.prepare(
      `INSERT INTO scheme_messages (transaction_id, direction, message_id, message_name, at, document)
       VALUES (@transactionId, @direction, @messageId, @messageName, @at, @document)
       ON CONFLICT (transaction_id, direction, message_id) DO NOTHING`,
    ),
    // The oldest first, along scheme_messages_at.
    pruneSchemeMessages: db.prepare(
      `DELETE FROM scheme_messages WHERE rowid IN (SELECT rowid FROM scheme_messages WHERE at < @before ORDER BY at ${LIMIT_PARAM})`,
    ),

    settingByName: db.prepare('SELECT value FROM settings WHERE name = ?'),
    insertSetting: db.prepare('INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING'),
  };
}
