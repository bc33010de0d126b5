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
  /** The webhook-signature matched the demo's secret for this id, timestamp and body. */
  readonly signatureValid: boolean;
  readonly traceparent: string | null;
  /** The body as JSON when it is JSON, else as text. */
  readonly body: unknown;
  /** What the demo bank answered with its 200 (a sync lookup or authorisation); absent when it only acknowledged. */
  readonly answer?: Record<string, unknown>;
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
    const receivedAt = this.#clock.now();
    const signatureValid = this.#verify(webhookId, timestamp, single(headers['webhook-signature']), rawBody);
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
      signatureValid,
      traceparent: single(headers['traceparent']) ?? null,
      body,
      ...(answer === undefined ? {} : { answer }),
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
