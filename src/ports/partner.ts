import type { IntegratorConfig } from '../config/types.js';
import type { OutboxRecord } from './store.js';

/**
 * Delivery of one outbox message to an integrator (callbacks to its partner API, events to its
 * events API). One call is one attempt: the sender never retries on its own, because retries are
 * scheduled durably by the dispatcher (a due time in the outbox, never a timer in memory).
 */
export interface SendResult {
  /** true: the integrator acknowledged with a 2xx. */
  readonly delivered: boolean;
  /** Status of the integrator's answer; null when there was none (connection refused, timeout). */
  readonly httpStatus: number | null;
  /**
   * Why the attempt failed, for the delivery record and operators; null when delivered or when
   * the status says it all. Never contains a secret (credentials, tokens, signatures).
   */
  readonly error: string | null;
  /** Wall time of the attempt, token fetches included. */
  readonly durationMs: number;
  /** The integrator asked (Retry-After on a 429 or 503) not to be called again before this many ms; null when it did not. */
  readonly retryAfterMs?: number | null;
}

export interface SendOptions {
  /**
   * Aborts the attempt (shutdown). It then resolves with `error` SEND_ABORTED, which is not the
   * integrator's failure and is not recorded as an attempt.
   */
  readonly signal?: AbortSignal;
  /** This attempt's own span (W3C traceparent), sent as the `traceparent` header; without it the sender makes a new child of the stored one. */
  readonly traceparent?: string;
}

/**
 * A call to the integrator whose answer matters (the receiving direction's sync authorisation or
 * lookup, CONTRACT §11): one attempt with its own deadline, the answer's body read. It carries what
 * a callback carries (webhook-id, signature, trace, the integrator's callback credentials).
 */
export interface PartnerCall {
  /** The webhook-id: the same on every call about one question, so the integrator can de-duplicate. */
  readonly id: string;
  readonly url: string;
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Deadline of this call (whatever is left of the answer's budget). */
  readonly timeoutMs: number;
}

export interface CallResult extends SendResult {
  /** The answer's body (UTF-8), when there was an answer; cut at the sender's responseBytesMax. */
  readonly body: string | null;
}

export interface PartnerSender {
  /** Attempt one delivery. Every outcome of the world (refused, timed out, non-2xx) resolves; only a bug rejects. */
  send(message: OutboxRecord, integrator: IntegratorConfig, options?: SendOptions): Promise<SendResult>;
  /** Make one call and read its answer. Every outcome of the world resolves; only a bug rejects. */
  call(call: PartnerCall, integrator: IntegratorConfig, options?: SendOptions): Promise<CallResult>;
  /** Close pooled connections. */
  close(): Promise<void>;
}

/** The `error` text of an attempt cut short by the caller's signal (not the integrator's fault). */
export const SEND_ABORTED = 'aborted by shutdown';
