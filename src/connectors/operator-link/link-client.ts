import type { KeyObject } from 'node:crypto';
import { createSecureContext } from 'node:tls';
import { Agent } from 'undici';
import { describeError, httpCall } from '../../adapters/partner-http/http-call.js';
import type { Clock } from '../../ports/clock.js';
import { CONTENT_TYPE, HEADER, messagesUrl, signMessage, type LinkMessage } from './protocol.js';

/**
 * The sending end of the operator link: one signed HTTPS POST per message, over mutual TLS (our
 * certificate as the client's, the far end's server certificate checked against the link's CA).
 * Used by the service's transport toward the operator and by the operator simulator toward the
 * service. It never retries by itself: the caller decides, by the outcome.
 */

/** The TLS identity of one end of the link: PEM texts. */
export interface LinkTls {
  /** CA certificate(s) the other end's certificates are checked against. */
  readonly ca: string;
  /** Our certificate (chain), presented as client and as server certificate. */
  readonly cert: string;
  /** Its private key. */
  readonly key: string;
}

export interface LinkClientOptions {
  readonly tls: LinkTls;
  readonly signingKey: KeyObject;
  /** Deadline of one POST: connect, TLS, headers and body together. */
  readonly timeoutMs: number;
  /** Pooled connections per origin. */
  readonly connectionsMax: number;
  readonly clock: Clock;
}

/** What became of one POST: taken (2xx), or failed, with whether sending the same message again may succeed. */
export type LinkOutcome =
  | { readonly kind: 'delivered' }
  | { readonly kind: 'failed'; readonly retryable: boolean; readonly error: string; readonly status?: number };

/** Most of an answer's body read: enough for an error message. */
const ANSWER_BYTES_MAX = 8_192;
const ERROR_CHARS_MAX = 300;

export class LinkClient {
  readonly #options: LinkClientOptions;
  readonly #agent: Agent;

  constructor(options: LinkClientOptions) {
    this.#options = options;
    this.#agent = new Agent({
      // One secure context for every connection: given the PEM texts instead, each new connection
      // parsed the CA, certificate and key again.
      connect: { secureContext: createSecureContext({ ca: options.tls.ca, cert: options.tls.cert, key: options.tls.key }), rejectUnauthorized: true },
      connections: options.connectionsMax,
    });
  }

  /** POST one message to `{base}/v1/schemes/{scheme}/messages`. */
  async send(base: string, message: LinkMessage): Promise<LinkOutcome> {
    const body = Buffer.from(message.document, 'utf8');
    const signature = await signMessage(message, body, this.#options.signingKey, this.#options.clock.now());
    const headers: Record<string, string> = {
      'content-type': CONTENT_TYPE,
      [HEADER.idempotencyKey]: message.idempotencyKey,
      [HEADER.messageName]: message.messageName,
      [HEADER.signature]: signature,
      ...(message.traceparent === null ? {} : { [HEADER.traceparent]: message.traceparent }),
    };
    try {
      const answer = await httpCall(this.#agent, {
        url: messagesUrl(base, message.scheme),
        method: 'POST',
        headers,
        body: message.document,
        timeoutMs: this.#options.timeoutMs,
        responseBytesMax: ANSWER_BYTES_MAX,
      });
      return outcomeOf(answer.status, answer.body);
    } catch (error) {
      // Unreachable, refused at TLS, or out of time: the far end may or may not have it; a resend is safe (same key).
      return { kind: 'failed', retryable: true, error: describeError(error) };
    }
  }

  async close(): Promise<void> {
    await this.#agent.close();
  }
}

/**
 * 2xx: taken. 408, 425, 429 and 5xx: not now, send again. 401 and 403: our certificate or
 * signature was refused, which no change to the message can mend but a fix of either end's keys
 * can, so it is sent again too rather than failed for good. Any other answer refuses this message
 * for good.
 */
function outcomeOf(status: number, body: Buffer): LinkOutcome {
  if (status >= 200 && status < 300) return { kind: 'delivered' };
  const error = `operator link answered ${status}${messageOf(body)}`;
  const retryable = status === 401 || status === 403 || status === 408 || status === 425 || status === 429 || status >= 500;
  return { kind: 'failed', retryable, error, status };
}

/** The `message` of an ErrorDetail answer, as `: <message>`; nothing when there is none. */
function messageOf(body: Buffer): string {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as { message?: unknown };
    return typeof parsed.message === 'string' ? `: ${parsed.message.slice(0, ERROR_CHARS_MAX)}` : '';
  } catch {
    return '';
  }
}
