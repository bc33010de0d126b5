import type { TransactionKind } from '../domain/kinds.js';
import type { SchemeName } from '../domain/schemes.js';

export type { TransactionKind } from '../domain/kinds.js';

/**
 * The durable store the service stands on. Two adapters implement it (SQLite embedded,
 * PostgreSQL scale-out) and both pass one contract suite (test/contract/store.contract.ts).
 *
 * Every method that changes state resolves only after the change is committed (durable), and
 * writes are group-committed: calls made close together share one database transaction, so
 * durability does not cost a disk flush per request.
 */
export type OutboxChannel = 'event' | 'callback';

/** A message to deliver to an integrator, written in the same database transaction as the state change that caused it. */
export interface NewOutboxMessage {
  /** Stable delivery id (the `webhook-id` header); the same on every attempt. */
  readonly id: string;
  readonly channel: OutboxChannel;
  readonly url: string;
  /**
   * JSON text exactly as it will be POSTed; with `payloadVersion`, an event envelope (a JSON
   * object) still without its `payload`.
   */
  readonly body: string;
  /**
   * For an event: the history version of this transaction whose cause is the event's `payload`
   * (the original request when that cause is null, as for version 1). The store splices it into
   * `body` whenever it reads the row back, so the message an event repeats is never written a
   * second time (events carry the full message; a transfer has eight of them).
   */
  readonly payloadVersion?: number;
  /** Headers to send with it (e.g. traceparent); auth and signatures are added at send time. */
  readonly headers: Readonly<Record<string, string>>;
  /** Not before this time (ms since epoch). */
  readonly availableAt: number;
}

export type OutboxStatus = 'PENDING' | 'DELIVERED' | 'UNDELIVERED';

/** An outbox row as read back: `body` is always complete (an event's payload spliced in). */
export interface OutboxRecord extends Omit<NewOutboxMessage, 'payloadVersion'> {
  readonly transactionId: string;
  readonly integratorId: string;
  /** Order of the message within its transaction (all channels share one sequence). */
  readonly seq: number;
  readonly status: OutboxStatus;
  readonly attempts: number;
  /**
   * When the message is next due (ms since epoch): its first attempt (availableAt), the next
   * retry, or when the message ahead of it in its (transaction, channel) queue stopped being
   * PENDING, whichever is later. A PENDING message still waiting behind an earlier one of its
   * queue reports its availableAt: the earliest it may go, once those ahead of it have gone.
   */
  readonly nextAttemptAt: number;
  readonly createdAt: number;
  readonly deliveredAt: number | null;
  readonly lastError: string | null;
}

export interface NewTransaction {
  /** Internal id, assigned by the caller (Ids port). */
  readonly id: string;
  readonly integratorId: string;
  readonly kind: TransactionKind;
  readonly uetr: string;
  readonly scheme: SchemeName;
  /** messageIdentifiers.messageIdentification of the request that started the transaction. */
  readonly messageId: string;
  /** SHA-256 of the body exactly as received (bodyHash): a byte-identical retry is a duplicate without parsing anything. */
  readonly payloadHash: string;
  /** The request body exactly as received. */
  readonly rawBody: string;
  /** Amount in integer minor units of `currency`; never a float. */
  readonly amountMinor: bigint | null;
  readonly currency: string | null;
  /** The first state, e.g. PAYMENT_AUTH_REQUEST_RECEIVED. */
  readonly state: string;
  /**
   * States entered after the first in the same commit (the engine's first decision,
   * Processing.firstDecision), each taking the next version (2, 3, …) with its cause as its
   * history cause; the row is written in the last of them. `dueAt`, `data` and `outbox` are then
   * as that decision leaves them.
   */
  readonly entered?: readonly EnteredState[];
  readonly receivedAt: number;
  /** When the engine should first look at the transaction (ms since epoch); null = never by timer. */
  readonly dueAt: number | null;
  readonly traceparent: string | null;
  readonly tracestate: string | null;
  /** The engine's first working data (empty when absent). */
  readonly data?: Readonly<Record<string, unknown>>;
  /** What an identifier determination looked up, in one spelling (recentDeterminations finds it by this). */
  readonly lookupKey?: string;
  /** transactionIdentifiers.endToEndIdentification of the request, when it has one (operators search by it). */
  readonly endToEndId?: string;
  /** Messages caused by entering the first state (e.g. its event). */
  readonly outbox: readonly NewOutboxMessage[];
  /** The scheme message that started the transaction (one the scheme originated), kept with it. */
  readonly schemeMessages?: readonly NewSchemeMessage[];
  /** As StateChange.leaseOutbox: what of `outbox` is due at once comes back leased in the outcome. */
  readonly leaseOutbox?: Lease;
  /**
   * Written leased to this owner, as claimDue would lease it: the engine of the instance that
   * accepted it takes it up at once without a claim. Should it never do so, the lease lapses and
   * the transaction is claimable again by its timer (`dueAt`).
   */
  readonly leaseTransaction?: Lease;
}

/**
 * The (integrator, messageId) of a new message is already stored. Byte-identical bodies (equal
 * payloadHash) are a duplicate; otherwise the store cannot tell a reformatted retry from a
 * conflict, so it hands back the stored body for the caller to compare payloads (CONTRACT §6).
 */
export type StoredMessageOutcome =
  /** Same body: answer as before, process nothing. */
  | { readonly kind: 'duplicate'; readonly transactionId: string; readonly response: string | null }
  /** Another body under the same message id: the same payload reformatted, or a conflict. */
  | { readonly kind: 'message_differs'; readonly transactionId: string; readonly response: string | null; readonly storedRawBody: string };

export type IntakeOutcome =
  /** Newly stored: the transaction, its raw message, its first state and outbox rows are committed (`leased`: by leaseOutbox). */
  | { readonly kind: 'accepted'; readonly transactionId: string; readonly leased: readonly OutboxRecord[] }
  | StoredMessageOutcome
  /** New messageId, but (integrator, uetr) already identifies a transaction of the same kind. */
  | { readonly kind: 'uetr_conflict' };

export interface TransactionRecord {
  readonly id: string;
  readonly integratorId: string;
  readonly kind: TransactionKind;
  readonly uetr: string;
  readonly scheme: SchemeName;
  readonly messageId: string;
  readonly state: string;
  /** Incremented by every state change; a change names the version it was decided on. */
  readonly version: number;
  readonly amountMinor: bigint | null;
  readonly currency: string | null;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly dueAt: number | null;
  readonly traceparent: string | null;
  readonly tracestate: string | null;
  /** The engine's working data (JSON object), replaced by state changes that carry `data`. */
  readonly data: Readonly<Record<string, unknown>>;
}

/** A transaction and the raw body of its message (Store.getTransactionWithMessage). */
export interface TransactionWithMessage {
  readonly transaction: TransactionRecord;
  readonly rawBody: string | null;
}

export interface StoredMessage {
  readonly integratorId: string;
  readonly messageId: string;
  readonly transactionId: string;
  readonly payloadHash: string;
  readonly rawBody: string;
  /** The answer given to this message, when it must be repeated verbatim to a duplicate (sync identifier determination). */
  readonly response: string | null;
  readonly receivedAt: number;
}

export interface HistoryRecord {
  readonly transactionId: string;
  readonly version: number;
  readonly fromState: string | null;
  readonly toState: string;
  readonly at: number;
  /** JSON text of the message or decision that caused the transition. */
  readonly cause: string | null;
}

/**
 * One decided change of a transaction, committed atomically. Every state entered (each of `via`,
 * then `toState`) gets its own history row and version. A change whose `toState` is the current
 * state and that has no `via` enters no state: it only moves the timer or the working data (and
 * the version, so concurrent decisions still conflict), and writes no history row.
 */
/** A state a change enters, with the JSON text of what caused it (its history row's cause, its event's payload). */
export interface EnteredState {
  readonly state: string;
  readonly cause: string | null;
}

export interface StateChange {
  readonly transactionId: string;
  /** The version the decision was made on; the change is refused as stale if it moved since. */
  readonly expectedVersion: number;
  /** States entered before `toState`, in order, in the same commit. */
  readonly via?: readonly EnteredState[];
  readonly toState: string;
  readonly at: number;
  readonly cause: string | null;
  /** Next timer for the transaction (ms since epoch), or null for none. */
  readonly dueAt: number | null;
  /** Replaces the working data when present. */
  readonly data?: Readonly<Record<string, unknown>>;
  readonly outbox: readonly NewOutboxMessage[];
  /**
   * Lease to this owner, as a claim would, the change's outbox messages that are deliverable the
   * moment they are written (the head of their (transaction, channel) queue, available by `at`);
   * they come back in the outcome's `leased`. The dispatcher of the instance that made the change
   * then sends them without a claim, one commit sooner.
   */
  readonly leaseOutbox?: Lease;
  /** Tell every instance's `onChange` listeners, once committed (someone waits on this transaction: a held request). */
  readonly notify?: boolean;
  /** The transaction's final answer, decided by this change (kept for operators: TransactionSummary). */
  readonly outcome?: TransactionOutcome;
  /** Scheme messages sent or received that this change records (of this transaction). */
  readonly schemeMessages?: readonly NewSchemeMessage[];
  /**
   * Acknowledged deliveries of this transaction's messages recorded with the change (as
   * recordDeliveries records them): the acknowledgement of the callback the change's states
   * follow from. The next message of each queue an attempt lets through comes back in the
   * outcome's `leased`, leased to the attempt's `leaseNext` owner; an attempt whose message the
   * store does not have records nothing.
   */
  readonly deliveries?: readonly DeliveryAttempt[];
  /** A held request waits on it (its deadline came): the writer takes it ahead of the writes that are not urgent, as it takes an intake. */
  readonly urgent?: boolean;
  /**
   * The change records a fact from outside (a transport's acknowledgement, a scheme's answer)
   * that another instance may record at the same moment, and `data` is the working data it was
   * decided on. Only for a change that enters at least one state. When the row moved on since
   * `expectedVersion`, the change is not refused as stale if the versions since entered, one
   * state each, exactly the change's own first states (another decision recorded the same
   * steps first, as a scheme answer does for the submission it proves arrived):
   * - fewer states than the change enters, the working data still `data`: the rest of the change
   *   is applied on the current version, without entering those states again (no history row, no
   *   event: an event of a version already written is left out);
   * - all of them (and maybe more): the change is already made, provided it brings nothing else
   *   (no data of its own, no message but its events, no outcome): only its scheme messages are kept.
   * ChangeOutcome.alreadyEntered says how many of its states were so left out.
   */
  readonly commutes?: { readonly data: Readonly<Record<string, unknown>> };
}

/** A transaction's final answer as its kind states it (APPROVED, REJECTED; SUCCESSFUL, FAILED; PAID, EXPIRED...). */
export interface TransactionOutcome {
  readonly outcome: string;
  /** ISO 20022 reason code given with it, if any. */
  readonly reasonCode: string | null;
}

/**
 * A scheme message (ISO 20022 XML) as sent to the scheme operator or received from it, kept for
 * operators. Idempotent by (transaction, direction, message id): a resend of one message, or one
 * received twice, is kept once.
 */
export interface NewSchemeMessage {
  readonly transactionId: string;
  readonly direction: SchemeMessageDirection;
  /** ISO 20022 message name, e.g. `pacs.008.001.08`. */
  readonly messageName: string;
  /** GrpHdr/MsgId (or the document's own identification). */
  readonly messageId: string;
  readonly at: number;
  readonly document: string;
}

export type SchemeMessageDirection = 'sent' | 'received';

export type SchemeMessageRecord = NewSchemeMessage;

/** A transaction as operators look for it (Store.searchTransactions): no working data, with its keys and outcome. */
export interface TransactionSummary {
  readonly id: string;
  readonly integratorId: string;
  readonly kind: TransactionKind;
  readonly uetr: string;
  readonly scheme: SchemeName;
  readonly messageId: string;
  readonly endToEndId: string | null;
  readonly state: string;
  readonly amountMinor: bigint | null;
  readonly currency: string | null;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly outcome: string | null;
  readonly reasonCode: string | null;
}

/**
 * Operators' search (admin API), newest first by (createdAt, id) with keyset paging. At most one
 * key (id, uetr, messageId, endToEndId) is given; without one the transactions created in
 * [from, to) are listed. Keys are looked up per integrator, along the unique keys the intake
 * already maintains, in `integratorIds` (the one asked for, or every configured integrator).
 */
export interface TransactionQuery {
  readonly integratorIds: readonly string[];
  readonly id?: string;
  readonly uetr?: string;
  /** A message id of any message the integrator sent about the transaction (the request, a status request, a cancellation). */
  readonly messageId?: string;
  readonly endToEndId?: string;
  /** createdAt >= from */
  readonly from?: number;
  /** createdAt < to */
  readonly to?: number;
  readonly state?: string;
  readonly scheme?: string;
  readonly outcome?: string;
  /** Only of one of these kinds (a kind, or the kinds of a direction); an empty list matches none. */
  readonly kinds?: readonly string[];
  /** Continue after this row (the last of the previous page). */
  readonly before?: { readonly createdAt: number; readonly id: string };
  readonly limit: number;
}

/** How one scheme is doing (Store.schemeHealth). */
export interface SchemeHealth {
  readonly scheme: SchemeName;
  /** Waiting for the scheme now, whenever created: a timer runs and no outcome is decided. */
  readonly inFlight: number;
  /** Created in the window. */
  readonly created: number;
  /** Of those, how many ran past the scheme's time budget: in a timeout state now, or failed by the service with AB06. */
  readonly timedOut: number;
  /** Of those, the decided ones by outcome and reason code, most frequent first. */
  readonly outcomes: readonly { readonly outcome: string; readonly reasonCode: string | null; readonly count: number }[];
  /** Of those, the time from acceptance to outcome (ms): nearest-rank p50 and p95, and the slowest; null when none is decided. */
  readonly latencyMs: { readonly count: number; readonly p50: number; readonly p95: number; readonly max: number } | null;
}

/** One scheme's window cut into equal buckets by creation time (Store.schemeSeries), oldest first. */
export interface SchemeSeries {
  readonly scheme: SchemeName;
  readonly buckets: readonly {
    /** Start of the bucket (ms since epoch). */
    readonly from: number;
    /** Created in the bucket. */
    readonly accepted: number;
    /** Of those, the decided ones by outcome, most frequent first. */
    readonly outcomes: readonly { readonly outcome: string; readonly count: number }[];
    /** Of those, the nearest-rank p95 of the time from acceptance to outcome (ms); null when none is decided. */
    readonly p95Ms: number | null;
  }[];
}

/**
 * Operators' view of what still waits (Store.waitingTransactions): transactions with a timer in a
 * state their machine can leave (`open`: the states per kind, from the machines), those waiting
 * longest first by (createdAt, id), with keyset paging.
 */
export interface WaitingQuery {
  /** The states each kind can leave; a transaction of another kind or state is not listed. */
  readonly open: readonly { readonly kind: string; readonly states: readonly string[] }[];
  readonly scheme?: string;
  readonly integratorId?: string;
  readonly state?: string;
  /** Only those whose outcome is decided (true: the callback that tells it is still due) or not yet (false: waiting for an answer). */
  readonly decided?: boolean;
  /** Continue after this row (the last of the previous page). */
  readonly after?: { readonly createdAt: number; readonly id: string };
  readonly limit: number;
}

/** A transaction still waiting, with its next timer. */
export interface WaitingTransaction extends TransactionSummary {
  readonly dueAt: number;
}

/** The outbox messages still PENDING of one endpoint, for the backlog gauges. */
export interface OutboxBacklog {
  readonly integratorId: string;
  readonly channel: OutboxChannel;
  readonly pending: number;
  /** createdAt of the oldest PENDING message (ms since epoch). */
  readonly oldestCreatedAt: number;
}

/** Who takes a lease (of a transaction or an outbox message), and for how long. */
export interface Lease {
  readonly owner: string;
  readonly leaseMs: number;
}

/** A request about an existing transaction (e.g. a status request): stored with the messages it causes, idempotent by (integrator, messageId). */
export interface NewRequest {
  readonly integratorId: string;
  readonly messageId: string;
  readonly transactionId: string;
  readonly payloadHash: string;
  readonly rawBody: string;
  readonly receivedAt: number;
  readonly outbox: readonly NewOutboxMessage[];
}

export type RequestOutcome = { readonly kind: 'accepted' } | StoredMessageOutcome;

export type ChangeOutcome =
  /** `leased`: the messages leased by `leaseOutbox`, in seq order (none without it), then those its `deliveries` let through. */
  | {
      readonly ok: true;
      readonly version: number;
      readonly leased: readonly OutboxRecord[];
      /** Of a change that `commutes`: how many of its first states another change had entered since its version (all: nothing of it was written but its scheme messages). */
      readonly alreadyEntered?: number;
    }
  | { readonly ok: false; readonly reason: 'stale' | 'not_found' };

export interface ClaimOptions {
  readonly now: number;
  readonly limit: number;
  /** Who claims (instance id); a claim is a lease that lapses after leaseMs. */
  readonly owner: string;
  readonly leaseMs: number;
}

/** One integrator's callback queue or events queue: the unit the dispatcher bounds concurrency by. */
export interface OutboxEndpoint {
  readonly integratorId: string;
  readonly channel: OutboxChannel;
}

export interface OutboxClaimOptions extends ClaimOptions {
  /** Endpoints the claimer has no room for: their messages are left unclaimed for now (so they hold no lease). */
  readonly excludeEndpoints?: readonly OutboxEndpoint[];
}

/** A page of the outbox for operators, oldest first by (createdAt, id). */
export interface OutboxQuery {
  readonly status: 'PENDING' | 'UNDELIVERED';
  readonly integratorId?: string;
  /** Continue after this row (keyset paging). */
  readonly after?: { readonly createdAt: number; readonly id: string };
  readonly limit: number;
}

/** A delivery attempt as recorded (`delivery_attempts`). */
export interface DeliveryAttemptRecord {
  readonly outboxId: string;
  readonly at: number;
  readonly durationMs: number;
  readonly httpStatus: number | null;
  readonly error: string | null;
  readonly delivered: boolean;
}

export interface DeliveryAttempt {
  readonly outboxId: string;
  readonly at: number;
  readonly durationMs: number;
  readonly httpStatus: number | null;
  readonly error: string | null;
  /** true: acknowledged (2xx), the message is DELIVERED. */
  readonly delivered: boolean;
  /** When not delivered: the next attempt time, or null to give up (UNDELIVERED, replayable). */
  readonly nextAttemptAt: number | null;
  /**
   * When this attempt takes the message out of PENDING (delivered, or given up on) and so lets
   * the next message of its (transaction, channel) queue through: lease that next message to
   * `owner` in the same commit and hand it back, if it is due at `at` and nobody holds it. The
   * dispatcher then sends it at once, without waiting for a claim: an integrator's events for
   * one transaction go out back to back instead of one claim cycle apart.
   */
  readonly leaseNext?: Lease;
}

/** What recordDeliveries did: the next messages it leased (leaseNext) and the messages it does not have. */
export interface RecordedDeliveries {
  /** The next message of each queue an attempt let through, leased to that attempt's `leaseNext` owner (as recordDelivery returns it). */
  readonly leased: readonly OutboxRecord[];
  /** Outbox ids of attempts whose message the store does not have: nothing is recorded for them (recordDelivery would refuse each). */
  readonly unknown: readonly string[];
}

export interface RefreshTokenRecord {
  /** SHA-256 of the token; the token itself is never stored. */
  readonly tokenHash: string;
  /** All tokens issued by rotation from one password grant share a family. */
  readonly familyId: string;
  readonly integratorId: string;
  readonly expiresAt: number;
}

/**
 * A refresh grant's one write (`rotateRefreshToken`): the presented token is spent and its
 * successor stored, or, when it was spent moments ago, the successor it was spent for is handed
 * back (the reuse interval), or its session is revoked.
 */
export interface RefreshTokenRotation {
  /** SHA-256 of the presented token. */
  readonly tokenHash: string;
  readonly now: number;
  /** The token issued in its place, stored only if the presented one is spent now. */
  readonly successor: RefreshTokenRecord;
  /**
   * The new token pair, sealed under a key only the presented token yields (app/issue-token.ts):
   * kept with the spent token for the reuse interval, so a reuse within it gets the same pair, and
   * useless to anyone who reads the database, which holds the presented token only as its hash.
   * Undefined when the interval is 0: nothing is kept.
   */
  readonly sealedSuccessor: string | undefined;
  /**
   * A spent token presented again less than this long after it was spent gets its sealed successor
   * back; 0: never. The same write erases every sealed successor of a token spent longer ago.
   */
  readonly reuseIntervalMs: number;
  /** As saveRefreshToken's: forget tokens that expired before then, and revocations made before then of which no token is left. */
  readonly forgetExpiredBefore: number;
  readonly forgetRevokedBefore: number;
}

export type RefreshTokenRotationOutcome =
  /** The token was unspent: it is spent now, and the successor stored. */
  | { readonly kind: 'rotated' }
  /** Spent at `usedAt`, less than the reuse interval ago, its session alive: the successor sealed then, stored nothing. */
  | { readonly kind: 'replayed'; readonly sealedSuccessor: string; readonly usedAt: number }
  /** Spent before the reuse interval: the whole family, its session, is revoked now (theft detection). */
  | { readonly kind: 'reused'; readonly familyId: string }
  /** Never stored, forgotten, expired, or of a revoked session. */
  | { readonly kind: 'unknown' };

/** A session (refresh-token family) revoked by the reuse of one of its refresh tokens. */
export interface RevokedSession {
  readonly sessionId: string;
  /** When it was first revoked. */
  readonly revokedAt: number;
}

/** What a commit holds: a transaction's state (its path), callbacks and events (their claims and records), or the rest. */
export type CommitHolding = 'transactions' | 'deliveries' | 'other';

/**
 * What a store has made durable since it opened (Store.durableCounts). SQLite: `commits` are the
 * writer's committed transactions that changed rows, each one fsync of the WAL (synchronous =
 * FULL; one that changed nothing writes nothing and is not counted), and
 * `checkpointFsyncs` the checkpointer thread's (a checkpoint that copied frames syncs the WAL and
 * then the database file); the writer's own backstop checkpoints and a WAL restart's header sync
 * are not counted. PostgreSQL: `commits` are the COMMITs of the store's write batches, those that
 * changed nothing included (its reads autocommit and write nothing); its fsyncs are the server's own, so both fsync counts are undefined.
 */
export interface DurableCounts {
  /** Every commit, and by what it held (commitHolding in src/adapters/store-ops.ts). */
  readonly commits: number;
  readonly commitsHolding: Readonly<Record<CommitHolding, number>>;
  /** Every fsync the store made: one per commit plus the checkpoints'. */
  readonly fsyncs: number | undefined;
  readonly checkpointFsyncs: number | undefined;
}

export interface Store {
  readonly kind: 'sqlite' | 'postgres';

  /** Store a new transaction with its raw message, first state, history row and outbox rows, atomically; or classify it as a duplicate/conflict. */
  intake(tx: NewTransaction): Promise<IntakeOutcome>;
  /** Store a request about an existing transaction and its outbox rows atomically, or classify it as a duplicate/conflict. */
  recordRequest(request: NewRequest): Promise<RequestOutcome>;
  /** Remember the answer given to a message (so a duplicate gets the same answer). */
  setMessageResponse(integratorId: string, messageId: string, response: string): Promise<void>;
  findMessage(integratorId: string, messageId: string): Promise<StoredMessage | undefined>;
  /** The integrator's transaction of this kind (a credit transfer unless said) with this uetr. */
  findTransaction(integratorId: string, uetr: string, kind?: TransactionKind): Promise<TransactionRecord | undefined>;
  /** The integrator's identifier determinations of `lookupKey` created at or after `since`, newest first (at most `limit`). */
  recentDeterminations(integratorId: string, lookupKey: string, since: number, limit: number): Promise<TransactionRecord[]>;
  /**
   * Listen for committed changes made with `notify`, by this instance or (PostgreSQL) any other;
   * returns the function that stops listening. A notice may come more than once or, while a
   * PostgreSQL connection is being re-established, not at all: a waiter also reads the row now
   * and then.
   */
  onChange(listener: (transactionId: string) => void): () => void;
  getTransaction(id: string): Promise<TransactionRecord | undefined>;
  /**
   * A transaction with the raw body of the message that started it, in one read (one query on
   * PostgreSQL): what the engine needs to take up a transaction it does not remember, e.g. a
   * scheme answer that reached this instance for a transfer another instance sent. `rawBody` is
   * null when the message is missing (never, for a transaction stored by intake).
   */
  getTransactionWithMessage(id: string): Promise<TransactionWithMessage | undefined>;
  history(transactionId: string): Promise<HistoryRecord[]>;

  /** Apply one decided state change with its history row and outbox rows, atomically (optimistic on version); with `leaseOutbox`, lease what of them is deliverable at once. */
  applyChange(change: StateChange): Promise<ChangeOutcome>;
  /**
   * Lease transactions whose timer is due and whose lease is not live, in the order they became
   * claimable (the later of timer and lease end, then timer); no two owners hold the same
   * transaction at once.
   */
  claimDue(options: ClaimOptions): Promise<TransactionRecord[]>;
  /** Release a lease early (work done). */
  releaseTransaction(id: string, owner: string): Promise<void>;
  /** Who holds leases still live at `now`, on transactions with a timer or on pending outbox messages. */
  leaseOwners(now: number): Promise<string[]>;
  /**
   * End every such lease of the given owners (instances known to be dead), so their work is
   * claimable at once instead of when the leases lapse; returns how many leases ended.
   */
  releaseLeases(owners: readonly string[], now: number): Promise<number>;
  /**
   * Make due at `now` every transaction that waits on a later timer although the callback it
   * waits for was delivered — the outbox row its working data names as `callbackId` (the engine's
   * convention for a machine that waits on a callback's acknowledgement): the dispatcher's notice
   * of that delivery to the engine died with a process (it is sent after the delivery is
   * recorded). Transactions that wait on no callback are left alone. Returns how many were woken.
   */
  wakeDeliveredCallbacks(now: number): Promise<number>;

  /** Lease deliverable outbox messages: per (transaction, channel) only the oldest pending one, so delivery is in order. */
  claimOutbox(options: OutboxClaimOptions): Promise<OutboxRecord[]>;
  /** Record one delivery attempt and its consequence for the message; with `leaseNext`, the next message of its queue, leased, when there is one to take. */
  recordDelivery(attempt: DeliveryAttempt): Promise<OutboxRecord | undefined>;
  /**
   * Record several attempts in one write (one commit), each exactly as recordDelivery would,
   * in the order given: the dispatcher's batch of acknowledgements. An attempt of an unknown
   * message records nothing and is reported in `unknown`; the others are recorded all the same.
   */
  recordDeliveries(attempts: readonly DeliveryAttempt[]): Promise<RecordedDeliveries>;
  outbox(transactionId: string): Promise<OutboxRecord[]>;
  /** One outbox message by id (the `webhook-id`). */
  outboxMessage(id: string): Promise<OutboxRecord | undefined>;
  /** Pending or undelivered messages, optionally of one integrator, oldest first. */
  listOutbox(query: OutboxQuery): Promise<OutboxRecord[]>;
  /** Every recorded attempt of a message, in order. */
  deliveryAttempts(outboxId: string): Promise<DeliveryAttemptRecord[]>;
  /** Make UNDELIVERED messages pending again (all of an integrator's since a time, or by id); returns how many. */
  replayUndelivered(filter: { integratorId?: string; since?: number; outboxId?: string }, now: number): Promise<number>;
  /** PENDING messages per endpoint (integrator, channel) with the oldest one's age: a few index reads per endpoint. */
  outboxBacklog(): Promise<OutboxBacklog[]>;

  /** Operators' search (TransactionQuery). */
  searchTransactions(query: TransactionQuery): Promise<TransactionSummary[]>;
  /** Each scheme with a transaction in flight or created in [from, to), in scheme order (SchemeHealth). */
  schemeHealth(from: number, to: number): Promise<SchemeHealth[]>;
  /** Each scheme with a transaction created in [from, to), that window in buckets of `bucketMs` (SchemeSeries). */
  schemeSeries(from: number, to: number, bucketMs: number): Promise<SchemeSeries[]>;
  /** Transactions not final yet, waiting longest first (WaitingQuery). */
  waitingTransactions(query: WaitingQuery): Promise<WaitingTransaction[]>;
  /** Record scheme messages of existing transactions (those no state change recorded); a message already kept is skipped. */
  recordSchemeMessages(messages: readonly NewSchemeMessage[]): Promise<void>;
  /** A transaction's scheme messages, in the order they were kept. */
  schemeMessages(transactionId: string): Promise<SchemeMessageRecord[]>;
  /** Forget scheme messages kept before `before`, at most `limit` of them; returns how many. */
  pruneSchemeMessages(before: number, limit: number): Promise<number>;

  /**
   * Store a new refresh token; with `forgetExpiredBefore`, in the same write forget every token
   * that expired before then (used, revoked or not), so the table holds live tokens and recently
   * expired ones only; with `forgetRevokedBefore`, every session revocation made before then of
   * which no refresh token is left; with `forgetSealedBefore`, the sealed successor of every token
   * spent before then (its reuse interval is over: nobody may get that pair again).
   */
  saveRefreshToken(record: RefreshTokenRecord, forgetExpiredBefore?: number, forgetRevokedBefore?: number, forgetSealedBefore?: number): Promise<void>;
  /** The stored refresh token with this hash, spent or not (the family its successor will continue); undefined when none is. */
  refreshToken(tokenHash: string): Promise<RefreshTokenRecord | undefined>;
  /**
   * Atomically spend a refresh token and store its successor (rotation); of two concurrent
   * rotations of one token, the second finds it spent by the first: within the reuse interval it
   * gets the first's sealed successor, after it the session is revoked (recorded at `now`, for
   * revokedSessions) in the same write.
   */
  rotateRefreshToken(rotation: RefreshTokenRotation): Promise<RefreshTokenRotationOutcome>;
  /** The sessions revoked at or after `since`, by this instance or any other. */
  revokedSessions(since: number): Promise<RevokedSession[]>;

  /** A value shared by every instance (e.g. the token signing key): created once, then always the same. */
  getOrCreateSetting(name: string, create: () => string): Promise<string>;

  /** Cheap round trip for readiness. */
  ping(): Promise<void>;
  /** Writes queued in this process and not yet handed to the database (the admission control's writer backlog). */
  writesWaiting(): number;
  /** Durable commits (and, where the store tells them, fsyncs) this process's store made since it opened: metrics and the bench. */
  durableCounts(): DurableCounts;
  /** Flush pending writes and close. */
  close(): Promise<void>;
}
