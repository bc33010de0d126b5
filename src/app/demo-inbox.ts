import { timingSafeEqual } from 'node:crypto';
import type { Secret } from '../lib/secret.js';
import { webhookSignature } from '../lib/webhook-signature.js';
import type { Clock } from '../ports/clock.js';
import { demoBankAnswer } from './demo-customers.js';

/**
 * The demo integrator's receiver, run by the service itself (config/demo.ts points its callback
 * and events URLs here): what an integrator would be sent becomes visible without anything else
 * running. Each POST is checked as a receiver should check it (Standard Webhooks signature over
 * the raw body) and kept in memory, the latest `capacity` only; the admin API lists them. As the
 * receiving bank it answers the scheme's sync lookups and credit authorisations from the demo
 * bank's directory of customers (demo-customers.ts), once the signature checks out.
 */
export interface InboxEntry {
  /** Arrival order, from 1; the admin API pages by it. */
  readonly seq: number;
  readonly receivedAt: number;
  readonly channel: 'callback' | 'event';
  /** The path under the integrator's base URL, e.g. `/transactions/outbound/credit-transfer-response`. */
  readonly path: string;
  readonly webhookId: string | null;
  /** The Standard Webhooks headers exactly as received, so the signature can be checked again with any webhook library. */
  readonly signatureHeaders: SignatureHeaders;
  /** The webhook-signature matched the demo's secret for this id, timestamp and body. */
  readonly signatureValid: boolean;
  readonly traceparent: string | null;
  /** The body exactly as received: the text its UTF-8 bytes decode to, which is what was signed. */
  readonly rawBody: string;
  /** The body as JSON when it is JSON, else as text. */
  readonly body: unknown;
  /** What the demo bank answered with its 200 (a sync lookup or authorisation); absent when it only acknowledged. */
  readonly answer?: Record<string, unknown>;
  /** What the message says happened (or, for a sync call, what the demo bank answered): outcome or status, null when it says none. */
  readonly status: string | null;
  /** The ISO 20022 reason given with that status, with its text when one was sent; null when none was. */
  readonly reason: { readonly code: string; readonly text: string | null } | null;
}

export interface SignatureHeaders {
  readonly 'webhook-id': string | null;
  readonly 'webhook-timestamp': string | null;
  readonly 'webhook-signature': string | null;
}

export const DEMO_INBOX_CAPACITY = 1_000;

export class DemoInbox {
  readonly #secret: Secret<string> | undefined;
  readonly #clock: Clock;
  readonly #capacity: number;
  readonly #entries: InboxEntry[] = [];
  #seq = 0;

  constructor(secret: Secret<string> | undefined, clock: Clock, capacity = DEMO_INBOX_CAPACITY) {
    this.#secret = secret;
    this.#clock = clock;
    this.#capacity = capacity;
  }

  /** Keep one POST, with the demo bank's answer when it is a sync call; the route acknowledges only those whose signature was valid. */
  receive(channel: InboxEntry['channel'], path: string, headers: Readonly<Record<string, string | string[] | undefined>>, rawBody: string): InboxEntry {
    const webhookId = single(headers['webhook-id']);
    const timestamp = single(headers['webhook-timestamp']);
    const signature = single(headers['webhook-signature']);
    const receivedAt = this.#clock.now();
    const signatureValid = this.#verify(webhookId, timestamp, signature, rawBody);
    const body = parsed(rawBody);
    // Only a genuine call is answered; the answer's id follows from the call's, so a retry of the call gets the same answer.
    const answer =
      signatureValid && channel === 'callback' && webhookId !== undefined
        ? demoBankAnswer(path, body, { messageIdentification: `D${webhookId.replaceAll('-', '').slice(0, 34)}`, creationDateTime: new Date(receivedAt).toISOString() })
        : undefined;
    const entry: InboxEntry = {
      seq: (this.#seq += 1),
      receivedAt,
      channel,
      path,
      webhookId: webhookId ?? null,
      signatureHeaders: { 'webhook-id': webhookId ?? null, 'webhook-timestamp': timestamp ?? null, 'webhook-signature': signature ?? null },
      signatureValid,
      traceparent: single(headers['traceparent']) ?? null,
      rawBody,
      body,
      ...(answer === undefined ? {} : { answer }),
      ...statusOf(body, answer),
    };
    this.#entries.push(entry);
    if (this.#entries.length > this.#capacity) this.#entries.splice(0, this.#entries.length - this.#capacity);
    return entry;
  }

  /** Entries after `afterSeq`, oldest first, at most `limit`. */
  list(afterSeq: number, limit: number): InboxEntry[] {
    return this.#entries.filter((entry) => entry.seq > afterSeq).slice(0, limit);
  }

  #verify(id: string | undefined, timestamp: string | undefined, signatures: string | undefined, body: string): boolean {
    if (this.#secret === undefined || id === undefined || timestamp === undefined || signatures === undefined || !/^[0-9]{1,12}$/.test(timestamp)) return false;
    const expected = Buffer.from(webhookSignature(this.#secret.reveal(), id, Number(timestamp), body));
    // Standard Webhooks: several space-separated signatures may be sent (key rotation); one must match.
    return signatures.split(' ').some((candidate) => {
      const given = Buffer.from(candidate);
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
  }
}

/**
 * The status a message reports and its reason, read the same way from every message the
 * integrator is sent: an outcome callback or completion (`status.outcome`), a request-to-pay
 * status (`status.status`), a cancellation answer (`cancellationStatus`), an identifier
 * determination report (`report.reportInformation`); an event from its payload. A sync call
 * carries no status of its own: the demo bank's answer to it does.
 */
export function statusOf(body: unknown, answer?: unknown): Pick<InboxEntry, 'status' | 'reason'> {
  const message = record(body);
  const own = reportedStatus(record(message?.['payload']) ?? message);
  return own.status === null && answer !== undefined ? reportedStatus(record(answer)) : own;
}

function reportedStatus(message: Record<string, unknown> | undefined): Pick<InboxEntry, 'status' | 'reason'> {
  const status = record(message?.['status']) ?? record(message?.['cancellationStatus']);
  if (status !== undefined) {
    const first = record(array(status['reasonInfo'])[0]);
    const code = text(record(first?.['reason'])?.['value']);
    return {
      status: text(status['outcome']) ?? text(status['status']),
      reason: code === null ? null : { code, text: text(array(first?.['additionalInformation'])[0]) },
    };
  }
  const report = record(record(message?.['report'])?.['reportInformation']);
  const code = text(report?.['reasonCode']);
  return { status: text(report?.['outcome']), reason: code === null ? null : { code, text: text(report?.['reasonDescription']) } };
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function array(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
