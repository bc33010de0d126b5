import type { InboundReport, SubmitOutcome } from './scheme.js';
import type { TransactionOutcome, TransactionRecord } from './store.js';

/**
 * What operators are told of a transaction's path (docs/operations.md): one call per milestone,
 * made after the commit that makes it true. The implementation logs and counts; it never throws.
 */
export interface Milestones {
  /** Stored and answered 202 (or held, for a sync identifier determination). */
  accepted(transaction: TransactionRecord): void;
  /** States a committed change entered, in order. */
  statesEntered(transaction: TransactionRecord, states: readonly string[]): void;
  /** An input its machine refused as an illegal transition (never reported to the integrator). */
  transitionRefused(transaction: TransactionRecord, refused: string): void;
  /** A scheme message (a command's) was handed to the scheme's transport, with what it said. */
  submitted(transaction: TransactionRecord, command: string, outcome: SubmitOutcome): void;
  /** The scheme answered about the transaction. */
  answered(transaction: TransactionRecord, report: InboundReport): void;
  /** The change deciding the transaction's final answer committed at `at`. */
  decided(transaction: TransactionRecord, outcome: TransactionOutcome, at: number): void;
  /** An attempt to deliver one of its callbacks was recorded. */
  callback(transaction: TransactionRecord, outboxId: string, delivered: boolean): void;
}

export type SpanAttributes = Readonly<Record<string, string | number | boolean>>;

/** Spans of the service's own work (intake, scheme exchange, delivery), exported when telemetry is configured. */
export interface Tracing {
  /** A span child of `parent` (a W3C traceparent; a new trace when null), started now: `server` for a request served, `client` for a call made. */
  start(name: string, kind: 'server' | 'client', parent: string | null, attributes: SpanAttributes): Span;
}

export interface Span {
  /** This span as a W3C traceparent, to send onward; undefined when nothing is traced. */
  readonly traceparent: string | undefined;
  /** End it now; with `failure`, as failed. */
  end(failure?: string): void;
}

const NO_SPAN: Span = { traceparent: undefined, end: () => undefined };

/** Tracing off: every span is one shared object that records nothing. */
export const NO_TRACING: Tracing = { start: () => NO_SPAN };
