import type {
  ChangeOutcome,
  ClaimOptions,
  CommitHolding,
  DeliveryAttempt,
  EnteredState,
  IntakeOutcome,
  NewRequest,
  NewSchemeMessage,
  NewTransaction,
  OutboxClaimOptions,
  OutboxRecord,
  RecordedDeliveries,
  RefreshTokenRecord,
  RefreshTokenRotation,
  RefreshTokenRotationOutcome,
  RequestOutcome,
  StateChange,
  StoredMessageOutcome,
  TransactionRecord,
} from '../ports/store.js';
import { isDeepStrictEqual } from 'node:util';
import { withEventPayload } from '../domain/events.js';
import { AssertionError } from '../lib/assert.js';
import type { Settleable } from './write-queue.js';

/**
 * `next_attempt_at` of an outbox row that waits behind an earlier PENDING row of its
 * (transaction, channel) queue: the largest integer both a JavaScript number and a BIGINT hold
 * exactly, so the row sorts after every real time and claimOutbox's due-time range (along
 * `outbox_pending_endpoint`) never reaches it. Only queue heads carry a real due time; a row is unblocked (given
 * `max(now, available_at)`) when the row ahead of it leaves PENDING. Stores report a blocked
 * row's `nextAttemptAt` as its `availableAt`, never as this value. Migration 2 writes the same
 * number as a literal (a released migration never changes).
 */
export const OUTBOX_BLOCKED_AT = Number.MAX_SAFE_INTEGER;

/**
 * The payload of an outbox row read as `${alias}` (NewOutboxMessage.payloadVersion): the cause of
 * that history version, or the transaction's original request when the cause is null. The same
 * SQL in both dialects; NULL for a row without payload_version. Reads select it as `payload`.
 * COALESCE evaluates its second argument only when the first is null (both databases), so the
 * request is looked up (two more index seeks) for the version whose cause it is, not for every
 * event: every claim and every delivery that leases the next event reads this.
 */
export function outboxPayloadSql(alias: string): string {
  return `(SELECT COALESCE(h.cause, (
       SELECT m.raw_body FROM transactions t
       JOIN messages m ON m.integrator_id = t.integrator_id AND m.message_id = t.message_id
       WHERE t.id = h.transaction_id))
     FROM state_history h
     WHERE h.transaction_id = ${alias}.transaction_id AND h.version = ${alias}.payload_version)`;
}

/** What the stored message under a new message's (integrator, messageId) means for it, judged by their body hashes. */
export function storedMessageOutcome(
  stored: { readonly transaction_id: string; readonly payload_hash: string; readonly raw_body: string; readonly response: string | null },
  payloadHash: string,
): StoredMessageOutcome {
  return stored.payload_hash === payloadHash
    ? { kind: 'duplicate', transactionId: stored.transaction_id, response: stored.response }
    : { kind: 'message_differs', transactionId: stored.transaction_id, response: stored.response, storedRawBody: stored.raw_body };
}

/** An outbox row's body as it is POSTed: complete as stored, or an event envelope with its payload spliced in. */
export function outboxBody(row: { readonly id: string; readonly body: string; readonly payload_version: number | null; readonly payload: string | null }): string {
  if (row.payload_version === null) return row.body;
  if (row.payload === null) throw new AssertionError(`outbox ${row.id}: history version ${row.payload_version} of its transaction is missing`);
  return withEventPayload(row.body, row.payload);
}

/** Every write the stores group-commit, as data, so one batch can hold any mix of them. */
export type WriteOp =
  | { readonly kind: 'intake'; readonly tx: NewTransaction }
  | { readonly kind: 'recordRequest'; readonly request: NewRequest }
  | { readonly kind: 'setMessageResponse'; readonly integratorId: string; readonly messageId: string; readonly response: string }
  | { readonly kind: 'applyChange'; readonly change: StateChange }
  | { readonly kind: 'claimDue'; readonly options: ClaimOptions }
  | { readonly kind: 'releaseTransaction'; readonly id: string; readonly owner: string }
  | { readonly kind: 'releaseLeases'; readonly owners: readonly string[]; readonly now: number }
  | { readonly kind: 'wakeDeliveredCallbacks'; readonly now: number }
  | { readonly kind: 'claimOutbox'; readonly options: OutboxClaimOptions }
  | { readonly kind: 'recordDelivery'; readonly attempt: DeliveryAttempt }
  | { readonly kind: 'recordDeliveries'; readonly attempts: readonly DeliveryAttempt[] }
  | { readonly kind: 'replayUndelivered'; readonly filter: ReplayFilter; readonly now: number }
  | {
      readonly kind: 'saveRefreshToken';
      readonly record: RefreshTokenRecord;
      readonly forgetExpiredBefore: number | null;
      readonly forgetRevokedBefore: number | null;
      readonly forgetSealedBefore: number | null;
    }
  | { readonly kind: 'rotateRefreshToken'; readonly rotation: RefreshTokenRotation }
  | { readonly kind: 'createSetting'; readonly name: string; readonly value: string }
  | { readonly kind: 'recordSchemeMessages'; readonly messages: readonly NewSchemeMessage[] }
  | { readonly kind: 'pruneSchemeMessages'; readonly before: number; readonly limit: number };

/**
 * What a commit holds, for Store.durableCounts: `transactions` when any of its writes records a
 * transaction's state, request, answer or scheme messages (the commits on a transaction's path),
 * else `deliveries` when any claims or records callbacks and events, else `other` (the engine's
 * claims and leases, tokens, settings, pruning).
 */
export function commitHolding(ops: Iterable<WriteOp>): CommitHolding {
  let holding: CommitHolding = 'other';
  for (const op of ops) {
    switch (op.kind) {
      case 'intake':
      case 'recordRequest':
      case 'setMessageResponse':
      case 'applyChange':
      case 'recordSchemeMessages':
        return 'transactions';
      case 'claimOutbox':
      case 'recordDelivery':
      case 'wakeDeliveredCallbacks':
      case 'replayUndelivered':
        holding = 'deliveries';
        break;
      default:
        break;
    }
  }
  return holding;
}

export interface ReplayFilter {
  readonly integratorId?: string;
  readonly since?: number;
  readonly outboxId?: string;
}

export interface WriteResults {
  intake: IntakeOutcome;
  recordRequest: RequestOutcome;
  setMessageResponse: undefined;
  applyChange: ChangeOutcome;
  claimDue: TransactionRecord[];
  releaseTransaction: undefined;
  releaseLeases: number;
  wakeDeliveredCallbacks: number;
  claimOutbox: OutboxRecord[];
  recordDelivery: OutboxRecord | undefined;
  recordDeliveries: RecordedDeliveries;
  replayUndelivered: number;
  saveRefreshToken: undefined;
  rotateRefreshToken: RefreshTokenRotationOutcome;
  createSetting: string;
  recordSchemeMessages: undefined;
  pruneSchemeMessages: number;
}

export type OpOf<K extends WriteOp['kind']> = Extract<WriteOp, { kind: K }>;

/**
 * Writes someone is waiting on over HTTP right now (an intake's 202, a token, an operator's
 * replay): they go into the next batch ahead of the engine's and the dispatcher's background
 * writes, so an API answer never queues behind a burst of processing.
 */
const URGENT_WRITES: ReadonlySet<WriteOp['kind']> = new Set([
  'intake',
  'recordRequest',
  'setMessageResponse',
  'replayUndelivered',
  'saveRefreshToken',
  'rotateRefreshToken',
  'createSetting',
]);

export interface PendingWrite extends Settleable {
  readonly op: WriteOp;
  /** How many times the adapter has put this write back for another batch. */
  retries: number;
}

/** A caller's error for a write the database refused as a bug (unknown id, duplicate key): only that caller sees it. */
export class StoreWriteError extends Error {
  override readonly name = 'StoreWriteError';
}

/**
 * The store can no longer write (its SQLite writer thread died): every write still waiting and
 * every later one fails with this, and `ping` rejects, so readiness fails and the instance gets
 * restarted. A write in flight when it happened may or may not have committed.
 */
export class StoreUnavailableError extends Error {
  override readonly name = 'StoreUnavailableError';
  readonly code = 'STORE_UNAVAILABLE';
}

/** A state change a held request waits on (StateChange.urgent). */
function urgentChange(op: WriteOp): boolean {
  return op.kind === 'applyChange' && op.change.urgent === true;
}

/** Wrap a write as a queue item whose promise resolves with the op's typed result. */
export function pendingWrite<K extends WriteOp['kind']>(op: OpOf<K>): { item: PendingWrite; promise: Promise<WriteResults[K]> } {
  let resolve!: (value: WriteResults[K]) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<WriteResults[K]>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  const item: PendingWrite = {
    op,
    urgent: URGENT_WRITES.has(op.kind) || urgentChange(op),
    retries: 0,
    resolve: (value: unknown) => resolve(value as WriteResults[K]),
    reject,
  };
  return { item, promise };
}

/** One row of state_history to write. */
export interface HistoryStep {
  readonly version: number;
  readonly fromState: string | null;
  readonly toState: string;
  readonly cause: string | null;
}

/**
 * The states a change enters and the version it ends on, given the row's current state and
 * version. Each of `via`, then `toState`, is entered in turn and takes the next version; a change
 * to the current state without `via` enters nothing but still moves the version by one, so a
 * decision made before a timer-only change is stale afterwards.
 */
export function changeSteps(change: StateChange, currentState: string): { readonly steps: HistoryStep[]; readonly version: number } {
  const entered = [...(change.via ?? []), { state: change.toState, cause: change.cause }];
  if (entered.length === 1 && change.toState === currentState) return { steps: [], version: change.expectedVersion + 1 };
  const steps = historyRows(currentState, change.expectedVersion, entered);
  return { steps, version: change.expectedVersion + steps.length };
}

/** The history rows of a new transaction (its first state, version 1, caused by the request itself; then NewTransaction.entered), and the state and version its row is written in. */
export function intakeSteps(tx: NewTransaction): { readonly steps: HistoryStep[]; readonly state: string; readonly version: number } {
  const steps = historyRows(null, 0, [{ state: tx.state, cause: null }, ...(tx.entered ?? [])]);
  return { steps, state: steps.at(-1)?.toState ?? tx.state, version: steps.length };
}

/** One history row per state entered in turn from `fromState`, each taking the next version after `version`. */
function historyRows(fromState: string | null, version: number, entered: readonly EnteredState[]): HistoryStep[] {
  let from = fromState;
  return entered.map((step, index) => {
    const row = { version: version + index + 1, fromState: from, toState: step.state, cause: step.cause };
    from = step.state;
    return row;
  });
}

/** What becomes of a change that `commutes` with the changes made since its version (StateChange.commutes). */
export type Commuted =
  /** Applied on the current version, its first `skipped` states (and their events) left out. */
  | { readonly kind: 'rebased'; readonly change: StateChange; readonly skipped: number }
  /** Already made: only its scheme messages are kept. */
  | { readonly kind: 'made'; readonly skipped: number };

/**
 * A change refused by its version that may still apply (StateChange.commutes), given the row's
 * version and working data now and the states entered by the versions since the change's, in
 * order (its history rows: a version that entered no state writes none, and keeps the change
 * stale). Undefined: stale.
 */
export function commuted(change: StateChange, current: { readonly version: number; readonly data: unknown }, enteredSince: readonly string[]): Commuted | undefined {
  const basis = change.commutes;
  if (basis === undefined || current.version <= change.expectedVersion || enteredSince.length !== current.version - change.expectedVersion) return undefined;
  const states = [...(change.via ?? []).map((step) => step.state), change.toState];
  const startsWith = (longer: readonly string[], shorter: readonly string[]): boolean => shorter.every((state, index) => longer[index] === state);
  if (enteredSince.length < states.length) {
    if (!startsWith(states, enteredSince) || !sameJson(current.data, basis.data)) return undefined;
    const skipped = enteredSince.length;
    return {
      kind: 'rebased',
      skipped,
      change: {
        ...change,
        expectedVersion: current.version,
        via: (change.via ?? []).slice(skipped),
        // The events of the states left out were written with the versions that entered them.
        outbox: change.outbox.filter((message) => message.payloadVersion === undefined || message.payloadVersion > current.version),
      },
    };
  }
  if (!startsWith(enteredSince, states)) return undefined;
  const bringsNothingElse =
    (change.data === undefined || sameJson(change.data, basis.data)) && change.outcome === undefined && change.outbox.every((message) => message.payloadVersion !== undefined);
  return bringsNothingElse ? { kind: 'made', skipped: states.length } : undefined;
}

/** Equal as JSON values (working data as read back from either store). */
function sameJson(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(JSON.parse(JSON.stringify(a)), JSON.parse(JSON.stringify(b)));
}

/** `last_error` text for a failed attempt: the transport error, else the HTTP status. */
export function attemptErrorText(attempt: DeliveryAttempt): string | null {
  if (attempt.error !== null) return attempt.error;
  if (attempt.httpStatus !== null) return `HTTP ${attempt.httpStatus}`;
  return null;
}

/**
 * The write half of the Store port, said once for both stores: every write is an op queued for
 * group commit, so the stores differ only in how they queue and run a batch (`enqueue`).
 */
export abstract class QueuedWrites {
  readonly #changeListeners = new Set<(transactionId: string) => void>();

  protected abstract enqueue<K extends WriteOp['kind']>(op: OpOf<K>): Promise<WriteResults[K]>;

  onChange(listener: (transactionId: string) => void): () => void {
    this.#changeListeners.add(listener);
    return () => this.#changeListeners.delete(listener);
  }

  /** A committed change someone may wait on: tell this instance's listeners. */
  protected changed(transactionId: string): void {
    for (const listener of this.#changeListeners) listener(transactionId);
  }

  intake(tx: NewTransaction): Promise<IntakeOutcome> {
    return this.enqueue({ kind: 'intake', tx });
  }

  recordRequest(request: NewRequest): Promise<RequestOutcome> {
    return this.enqueue({ kind: 'recordRequest', request });
  }

  setMessageResponse(integratorId: string, messageId: string, response: string): Promise<void> {
    return this.enqueue({ kind: 'setMessageResponse', integratorId, messageId, response });
  }

  async applyChange(change: StateChange): Promise<ChangeOutcome> {
    const outcome = await this.enqueue({ kind: 'applyChange', change });
    if (outcome.ok && change.notify === true) this.changed(change.transactionId);
    return outcome;
  }

  claimDue(options: ClaimOptions): Promise<TransactionRecord[]> {
    return this.enqueue({ kind: 'claimDue', options });
  }

  releaseTransaction(id: string, owner: string): Promise<void> {
    return this.enqueue({ kind: 'releaseTransaction', id, owner });
  }

  releaseLeases(owners: readonly string[], now: number): Promise<number> {
    return this.enqueue({ kind: 'releaseLeases', owners, now });
  }

  wakeDeliveredCallbacks(now: number): Promise<number> {
    return this.enqueue({ kind: 'wakeDeliveredCallbacks', now });
  }

  claimOutbox(options: OutboxClaimOptions): Promise<OutboxRecord[]> {
    return this.enqueue({ kind: 'claimOutbox', options });
  }

  recordDelivery(attempt: DeliveryAttempt): Promise<OutboxRecord | undefined> {
    return this.enqueue({ kind: 'recordDelivery', attempt });
  }

  async recordDeliveries(attempts: readonly DeliveryAttempt[]): Promise<RecordedDeliveries> {
    if (attempts.length === 0) return { leased: [], unknown: [] };
    return this.enqueue({ kind: 'recordDeliveries', attempts });
  }

  replayUndelivered(filter: ReplayFilter, now: number): Promise<number> {
    return this.enqueue({ kind: 'replayUndelivered', filter, now });
  }

  saveRefreshToken(record: RefreshTokenRecord, forgetExpiredBefore?: number, forgetRevokedBefore?: number, forgetSealedBefore?: number): Promise<void> {
    return this.enqueue({
      kind: 'saveRefreshToken',
      record,
      forgetExpiredBefore: forgetExpiredBefore ?? null,
      forgetRevokedBefore: forgetRevokedBefore ?? null,
      forgetSealedBefore: forgetSealedBefore ?? null,
    });
  }

  rotateRefreshToken(rotation: RefreshTokenRotation): Promise<RefreshTokenRotationOutcome> {
    return this.enqueue({ kind: 'rotateRefreshToken', rotation });
  }

  async recordSchemeMessages(messages: readonly NewSchemeMessage[]): Promise<void> {
    if (messages.length > 0) await this.enqueue({ kind: 'recordSchemeMessages', messages });
  }

  pruneSchemeMessages(before: number, limit: number): Promise<number> {
    return this.enqueue({ kind: 'pruneSchemeMessages', before, limit });
  }
}

/** SQLite result codes of a database that failed for the moment: locked, out of space or memory, an I/O error. */
const TRANSIENT_SQLITE = /^SQLITE_(BUSY|LOCKED|IOERR|FULL|NOMEM|CANTOPEN|PROTOCOL)/;
/**
 * PostgreSQL SQLSTATEs of the same: a connection exception (class 08), insufficient resources
 * (53), an operator's intervention such as a shutdown (57P), a deadlock or serialization failure
 * the adapter's own retries did not get past (40P01, 40001).
 */
const TRANSIENT_POSTGRES = /^(08|53|57P|40001$|40P01$)/;
const TRANSIENT_NETWORK = new Set(['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH']);
/** node-postgres's own errors for a connection that broke or never came, which carry no code. */
const TRANSIENT_PG_MESSAGES = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;

/**
 * True for an error of the database rather than of the request: the store is unavailable or
 * closing, or the database refused for the moment. A write that failed so may or may not have
 * committed; the identical request, sent again, is answered as the first one was (duplicate
 * detection), so callers answer 503 with Retry-After. A StoreWriteError (a bug: an unknown id, a
 * duplicate key) is not transient.
 */
export function isTransientStoreError(error: unknown): boolean {
  if (error instanceof StoreUnavailableError) return true;
  if (!(error instanceof Error) || error instanceof StoreWriteError) return false;
  const code = (error as { code?: unknown }).code;
  if (code === 'STORE_CLOSED') return true;
  if (typeof code === 'string') return TRANSIENT_SQLITE.test(code) || TRANSIENT_POSTGRES.test(code) || TRANSIENT_NETWORK.has(code);
  return TRANSIENT_PG_MESSAGES.test(error.message);
}
