import type { EnteredState, Lease, NewOutboxMessage, TransactionRecord } from './store.js';

/** A transaction about to be written, with the message that started it as received and as parsed. */
export interface NewWorkItem {
  /** The transaction as it is written without a first decision (version 1, in its first state). */
  readonly transaction: TransactionRecord;
  readonly rawBody: string;
  readonly message: unknown;
}

/** A transaction this instance has just committed. */
export interface AcceptedWork extends NewWorkItem {
  /** Whether it was written leased to this instance (Processing.leaseForNew). */
  readonly leased: boolean;
  /** The first decision committed with it (Processing.firstDecision), which this instance's engine carries out. */
  readonly decided?: FirstDecision;
}

/**
 * The engine's first decision on a new transaction, committed in the intake's own transaction
 * (NewTransaction.entered): the states it enters after the first, the timer and working data it
 * leaves, its events and callbacks; its commands are carried out once that commit is durable.
 */
export interface FirstDecision {
  readonly entered: readonly EnteredState[];
  readonly dueAt: number | null;
  readonly data: Readonly<Record<string, unknown>>;
  /** Written after the first state's event: one event per state entered (when the integrator takes events), then the decision's own messages. */
  readonly outbox: readonly NewOutboxMessage[];
  readonly commands: readonly string[];
  /** Linked transactions to wake once committed (KindDecision.wake). */
  readonly wake?: readonly string[];
}

/**
 * This instance's processing of transactions (the Engine), as the intake sees it: a transaction
 * it can take up at once is written leased to it and handed over in memory, without a claim.
 */
export interface Processing {
  /** The lease to write a new transaction with (NewTransaction.leaseTransaction), or undefined to leave it to claims. */
  leaseForNew(): Lease | undefined;
  /**
   * The first decision on a transaction that is to be written leased to this instance, made
   * before its intake so that the intake's commit holds it; undefined when there is none to make
   * now (the engine then decides after the intake, as its timer would).
   */
  firstDecision?(work: NewWorkItem): Promise<FirstDecision | undefined>;
  /** A transaction was committed: taken up at once when it was written leased to this instance, else looked for. */
  accepted(work: AcceptedWork): void;
  /**
   * Decide on a transaction now, whether or not its lease is this instance's (a held request
   * whose deadline passed must not wait for the next claim). Concurrent decisions elsewhere are
   * caught by the version check, so it decides at most once.
   */
  decideNow(transactionId: string): Promise<void>;
  /**
   * Hand the transaction's machine a request about it (e.g. a cancellation) and resolve once the
   * machine's decision is committed; the scheme calls it makes follow (from an instance that
   * processes: one that does not leaves them to the timers of those that do).
   */
  request(transactionId: string, request: TransactionRequest): Promise<RequestOutcome>;
  /** Work the engine has taken on and not finished (Engine.backlog); absent or 0 where nothing is processed. */
  backlog?(): number;
}

/**
 * `decided`: committed (or nothing was to be done); `busy`: the transaction kept moving under it, or
 * the engine's backlog was full (EngineOptions.backlogMax), and nothing was committed — ask again; `refused`: the machine refused it in the state the
 * transaction is in (a report after the answer was given), nothing was committed.
 */
export type RequestOutcome = 'decided' | 'busy' | 'refused';

/** A request of the integrator about an existing transaction, for its machine to decide on. */
export type TransactionRequest = (
  | { readonly type: 'cancel'; readonly messageId: string; readonly messageIdentifiers: Readonly<Record<string, unknown>>; readonly reasonCode: string }
  /** Re-send the current status, in order behind the transaction's other callbacks. */
  | { readonly type: 'status' }
  /** The integrator's answer to a scheme-originated message (its async report): the JSON text as received and as parsed. */
  | { readonly type: 'report'; readonly answerJson: string; readonly answer: unknown }
  /** The scheme sent its message again: answer it again as it was answered. */
  | { readonly type: 'resend' }
) & {
  /** The W3C trace context of the request, which the callbacks it causes continue. */
  readonly trace: { readonly traceparent: string; readonly tracestate: string | null };
};
