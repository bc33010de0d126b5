import type { IntegratorConfig } from '../../config/types.js';
import { isStateOf, type MachineDefinition, type Step } from '../../domain/machines/machine.js';
import { AssertionError } from '../../lib/assert.js';
import type { Money } from '../../lib/money.js';
import type { Ids } from '../../ports/clock.js';
import type { PartnerSender } from '../../ports/partner.js';
import type { TransactionRequest } from '../../ports/processing.js';
import type { InboundReport, SchemeConnector, SubmitOutcome } from '../../ports/scheme.js';
import type { DeliveryAttempt, NewOutboxMessage, Store, TransactionOutcome, TransactionRecord } from '../../ports/store.js';

/**
 * What the engine needs of one transaction kind (STYLE.md rule 14): its machine, and the glue
 * between the engine's inputs and the machine's pure decide() — the lookups a decision needs, the
 * messages it writes (callbacks, answers), the scheme calls its commands make. The engine itself
 * knows only this interface and the registry (kinds/registry.ts), never a kind.
 */
export interface KindDriver {
  readonly machine: MachineDefinition;
  /** Whether a scheme report is about this transaction (the engine found it by the report's idempotency key). */
  answers(transaction: TransactionRecord, report: InboundReport): boolean;
  /** The machine's decision on one input; undefined when the input does not concern the transaction's machine. */
  decide(context: KindContext, input: EngineInput, env: DriverEnv): Promise<KindDecision | undefined>;
  /** Carry out one command of a committed decision (a scheme call, a call to the integrator); its outcome comes back as a `sent` input. */
  execute(context: KindContext, command: string, now: number): Promise<CommandOutcome>;
}

/** What a command did: a scheme call's transport outcome; a call to the integrator also brings its answer. */
export type CommandOutcome = SubmitOutcome & {
  /** The integrator's answer to a call (its status and body), when it answered. */
  readonly reply?: { readonly httpStatus: number; readonly body: string };
};

/** The inputs the engine hands a transaction's machine, whatever its kind. */
export type EngineInput =
  /** The transaction's timer is due, or it was just accepted; `urgent`: a held request asked (decideNow), so its change is written ahead of others. */
  | { readonly type: 'tick'; readonly urgent?: boolean }
  /** What the scheme's transport (or the integrator) did with a command's message. */
  | { readonly type: 'sent'; readonly command: string; readonly outcome: CommandOutcome }
  /** An answer from the scheme. */
  | { readonly type: 'scheme'; readonly report: InboundReport }
  /** The integrator asks something of the transaction (a cancellation). */
  | { readonly type: 'request'; readonly request: TransactionRequest }
  /** An attempt to deliver one of the transaction's callbacks was recorded; `body` is the callback's, as sent. */
  | {
      readonly type: 'callback';
      readonly outboxId: string;
      readonly delivered: boolean;
      readonly body: string;
      /** The acknowledgement itself, not yet recorded: the decision's change records it (StateChange.deliveries). */
      readonly attempt?: DeliveryAttempt;
    };

/** What a decision needs to know of its transaction. */
export interface KindContext {
  readonly transaction: TransactionRecord;
  readonly integrator: IntegratorConfig;
  readonly connector: SchemeConnector;
  /** The request that started the transaction, as received and as parsed (losslessly). */
  readonly rawBody: string;
  readonly message: unknown;
  /** Calls to the integrator whose answer matters (the receiving direction). */
  readonly partner?: PartnerSender;
}

export interface DriverEnv {
  readonly now: number;
  readonly ids: Ids;
  /** The scheme's time budget. */
  readonly timeBudgetMs: number;
  readonly delays: EngineDelays;
  /** Read access for the lookups a decision needs (a callback's outbox row, a transaction it is linked to). */
  readonly store: Pick<Store, 'outbox' | 'findTransaction'>;
}

/** Retry and check intervals, from the engine's options. */
export interface EngineDelays {
  /** Sending again what the scheme's transport did not take: first delay, doubled per attempt up to the max. */
  readonly resendDelayMs: (attempts: number) => number;
  /** Status enquiries after the time budget: first delay, doubled per enquiry up to the max. */
  readonly enquiryDelayMs: (enquiries: number) => number;
  /** How often an undelivered callback is compared with its outbox row. */
  readonly callbackCheckMs: number;
}

/** A machine's decision, with the messages it writes rendered (events are added by the engine, one per step). */
export interface KindDecision {
  readonly steps: readonly Step[];
  readonly data: Readonly<Record<string, unknown>>;
  readonly dueAt: number | null;
  readonly commands: readonly string[];
  /** Callbacks to queue in the same commit. */
  readonly outbox: readonly NewOutboxMessage[];
  /** Someone waits on this change (a held request): tell every instance once committed. */
  readonly notify?: boolean;
  /** An input the machine refused as an illegal transition (never reported): the engine logs and counts it. */
  readonly refused?: string;
  /** The transaction's final answer, when this decision gives it (kept with the change, logged, counted). */
  readonly outcome?: TransactionOutcome;
  /**
   * Transactions linked to this one (by ids in its working data) whose machines must look at it
   * again: once the change is committed, the engine decides on each as its timer would (a tick).
   * A wake lost to a crash is made up by the woken transaction's own timer, which must read the
   * link itself.
   */
  readonly wake?: readonly string[];
}

/**
 * The trace headers of a message the transaction causes: the trace of the request that started it,
 * whose span is the parent of every delivery attempt (each attempt is a span of its own: the
 * sender sends a new span id every time).
 */
export function traceHeaders(transaction: { readonly traceparent: string | null; readonly tracestate: string | null }): Record<string, string> {
  if (transaction.traceparent === null) return {};
  const headers: Record<string, string> = { traceparent: transaction.traceparent };
  if (transaction.tracestate !== null) headers.tracestate = transaction.tracestate;
  return headers;
}

/**
 * A callback message to the integrator's partner API, written with the change that decides it.
 * `id` is its webhook-id; without dashes, the message identification inside `body`.
 */
export function callbackMessage(
  context: KindContext,
  id: string,
  path: string,
  body: string,
  now: number,
  trace: { readonly traceparent: string | null; readonly tracestate: string | null } = context.transaction,
): NewOutboxMessage {
  return { id, channel: 'callback', url: `${context.integrator.partnerApiUrl}${path}`, body, headers: traceHeaders(trace), availableAt: now };
}

/**
 * A machine that waits for a callback's acknowledgement names its outbox id `callbackId` in its
 * working data (crash recovery wakes exactly those transactions: Store.wakeDeliveredCallbacks).
 * While it waits, the callback's outbox row is the truth (the dispatcher's notice of it may have died with a process): a delivered row, or a
 * failed attempt while still pending, becomes the callback input the notice would have been.
 */
export async function callbackRowInput(env: DriverEnv, transactionId: string, callbackId: string, pending: boolean): Promise<EngineInput | undefined> {
  const row = (await env.store.outbox(transactionId)).find((message) => message.id === callbackId);
  if (row?.status === 'DELIVERED') return { type: 'callback', outboxId: callbackId, delivered: true, body: row.body };
  if (row !== undefined && row.attempts > 0 && pending) return { type: 'callback', outboxId: callbackId, delivered: false, body: row.body };
  return undefined;
}

/**
 * The steps of a decision with `payloadJson` as the payload of each whose state is in `states`:
 * the message the driver rendered or sent for them (a callback, an answer), which a pure machine
 * cannot write. The event of such a state carries that message (CONTRACT §4: the payload is the
 * message of the operation that caused the transition).
 */
export function carrying(steps: readonly Step[], states: ReadonlySet<string>, payloadJson: string | undefined): Step[] {
  if (payloadJson === undefined) return [...steps];
  return steps.map((step) => (states.has(step.state) ? { state: step.state, payloadJson } : step));
}

/**
 * What every scheme request of a transaction carries: its ids, trace, and the idempotency key,
 * derived from the transaction and never random per attempt (STYLE.md rule 6).
 */
export function outboundOf(transaction: TransactionRecord) {
  return {
    transactionId: transaction.id,
    integratorId: transaction.integratorId,
    scheme: transaction.scheme,
    uetr: transaction.uetr,
    idempotencyKey: transaction.id,
    traceparent: transaction.traceparent,
  };
}

/** A transaction's amount, which a kind that carries one always has. */
export function amountOf(transaction: TransactionRecord): Money {
  if (transaction.amountMinor === null || transaction.currency === null) throw new AssertionError(`${transaction.kind} ${transaction.id} has no amount`);
  return { currency: transaction.currency, minor: transaction.amountMinor };
}

/** The transaction's state as one of its machine's (an unknown one is a bug). */
export function stateIn<State extends string>(machine: MachineDefinition<State>, transaction: TransactionRecord): State {
  const { state } = transaction;
  if (!isStateOf(machine, state)) throw new AssertionError(`unknown ${machine.name} state ${state}`);
  return state;
}

/** A transport outcome as a machine's `sent` input. */
export function sentInput(outcome: SubmitOutcome): { readonly ok: true } | { readonly ok: false; readonly retryable: boolean; readonly error: string; readonly reasonCode?: string } {
  if (outcome.kind === 'delivered') return { ok: true };
  return { ok: false, retryable: outcome.retryable, error: outcome.error, ...(outcome.reasonCode === undefined ? {} : { reasonCode: outcome.reasonCode }) };
}
