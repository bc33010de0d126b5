import { performance } from 'node:perf_hooks';
import { Agent } from 'undici';
import type { IntegratorConfig } from '../../config/types.js';
import { childTraceparent, newTraceparent } from '../../lib/trace.js';
import { webhookSignature } from '../../lib/webhook-signature.js';
import type { Clock } from '../../ports/clock.js';
import { SEND_ABORTED, type CallResult, type PartnerCall, type PartnerSender, type SendOptions, type SendResult } from '../../ports/partner.js';
import type { OutboxRecord } from '../../ports/store.js';
import { ClientCredentialsTokens, TokenError, type CachedToken } from './client-credentials.js';
import { HttpCallError, headerValue, httpCall, type HttpAnswer } from './http-call.js';

/**
 * Delivers outbox messages over HTTP with undici: one shared connection pool (keep-alive, a
 * bounded number of connections per origin), a deadline on every call, redirects never followed.
 *
 * Each request carries, besides the message's own stored headers (trace context):
 * - `content-type: application/json` and the body exactly as stored;
 * - Standard Webhooks headers: `webhook-id` (the outbox id, the same on every attempt),
 *   `webhook-timestamp` (Unix seconds of this attempt) and, when the integrator has a
 *   `webhookSecret`, `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`;
 * - `traceparent` with the stored trace id and a new span id per attempt, and `tracestate`;
 * - the integrator's callback credentials: nothing, Basic, or an OAuth2 client-credentials
 *   bearer token (cached; on a 401 it is fetched again once and the request repeated once).
 */
export interface HttpPartnerSenderOptions {
  readonly clock: Clock;
  /** Deadline of each HTTP call (connect, headers and body together). */
  readonly timeoutMs: number;
  /** Connections kept per origin (scheme, host and port); further requests queue for one. */
  readonly connectionsPerOriginMax: number;
  /** Largest part of an answer read; the rest is discarded with its connection. */
  readonly responseBytesMax: number;
  readonly userAgent?: string;
  /** How long an idle pooled connection is kept. */
  readonly keepAliveMs?: number;
  /** OAuth2 tokens are renewed this long before they expire (at most a tenth of their lifetime). */
  readonly tokenRefreshMarginMs?: number;
}

export const USER_AGENT = 'regpay-delivery/1';

/** What the sender needs of a message, whether an outbox row or a call. */
type Outgoing = Pick<OutboxRecord, 'id' | 'url' | 'body' | 'headers'>;

/** Headers the sender sets itself; stored headers of these names are ignored. */
const RESERVED_HEADERS = new Set(['content-type', 'content-length', 'host', 'authorization', 'connection', 'transfer-encoding', 'user-agent', 'traceparent']);

/** The Retry-After honoured, at most (a day): a receiver cannot park a message for longer. */
const RETRY_AFTER_MS_MAX = 86_400_000;

export class HttpPartnerSender implements PartnerSender {
  readonly #options: HttpPartnerSenderOptions;
  readonly #agent: Agent;
  readonly #tokens: ClientCredentialsTokens;
  readonly #userAgent: string;

  constructor(options: HttpPartnerSenderOptions) {
    this.#options = options;
    this.#userAgent = options.userAgent ?? USER_AGENT;
    this.#agent = new Agent({
      connections: options.connectionsPerOriginMax,
      keepAliveTimeout: options.keepAliveMs ?? 4_000,
      connect: { timeout: options.timeoutMs },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
    this.#tokens = new ClientCredentialsTokens({
      dispatcher: this.#agent,
      clock: options.clock,
      timeoutMs: options.timeoutMs,
      userAgent: this.#userAgent,
      refreshMarginMs: options.tokenRefreshMarginMs ?? 30_000,
      defaultLifetimeMs: 300_000,
    });
  }

  async send(message: OutboxRecord, integrator: IntegratorConfig, options: SendOptions = {}): Promise<SendResult> {
    const started = performance.now();
    const done = (result: Omit<SendResult, 'durationMs'>): SendResult => ({ ...result, durationMs: performance.now() - started });
    try {
      let token = await this.#token(integrator, options.signal);
      let answer = await this.#post(message, integrator, token, options);
      if (answer.status === 401 && token !== undefined) {
        // The token may have been revoked or expired early: one fresh token, one more try.
        this.#tokens.invalidate(integrator.id, token);
        token = await this.#token(integrator, options.signal);
        answer = await this.#post(message, integrator, token, options);
      }
      return done(this.#outcome(answer));
    } catch (error) {
      if (error instanceof HttpCallError || error instanceof TokenError) {
        return done({ delivered: false, httpStatus: null, error: error.aborted ? SEND_ABORTED : error.message, retryAfterMs: null });
      }
      throw error;
    }
  }

  async call(call: PartnerCall, integrator: IntegratorConfig, options: SendOptions = {}): Promise<CallResult> {
    const started = performance.now();
    const done = (result: Omit<CallResult, 'durationMs'>): CallResult => ({ ...result, durationMs: performance.now() - started });
    try {
      const token = await this.#token(integrator, options.signal);
      const answer = await this.#post(call, integrator, token, options, { timeoutMs: call.timeoutMs, discardBody: false });
      return done({ ...this.#outcome(answer), body: answer.body.toString('utf8') });
    } catch (error) {
      if (error instanceof HttpCallError || error instanceof TokenError) {
        return done({ delivered: false, httpStatus: null, error: error.aborted ? SEND_ABORTED : error.message, retryAfterMs: null, body: null });
      }
      throw error;
    }
  }

  async close(): Promise<void> {
    await this.#agent.close();
  }

  async #token(integrator: IntegratorConfig, signal: AbortSignal | undefined): Promise<CachedToken | undefined> {
    const auth = integrator.callbackAuth;
    if (auth.type !== 'oauth2') return undefined;
    return this.#tokens.token(integrator.id, auth, signal);
  }

  #post(
    message: Outgoing,
    integrator: IntegratorConfig,
    token: CachedToken | undefined,
    options: SendOptions,
    // A delivery is judged by its status (and Retry-After) alone; a call's answer is read.
    how: { readonly timeoutMs: number; readonly discardBody: boolean } = { timeoutMs: this.#options.timeoutMs, discardBody: true },
  ): Promise<HttpAnswer> {
    const { signal } = options;
    return httpCall(this.#agent, {
      url: message.url,
      method: 'POST',
      headers: this.#headers(message, integrator, token, options.traceparent),
      body: message.body,
      timeoutMs: how.timeoutMs,
      responseBytesMax: this.#options.responseBytesMax,
      discardBody: how.discardBody,
      ...(signal === undefined ? {} : { signal }),
    });
  }

  #headers(message: Outgoing, integrator: IntegratorConfig, token: CachedToken | undefined, ownTrace: string | undefined): Record<string, string> {
    const headers: Record<string, string> = {};
    let parentTrace: string | undefined;
    for (const [name, value] of Object.entries(message.headers)) {
      const lower = name.toLowerCase();
      if (lower === 'traceparent') parentTrace = value;
      else if (!RESERVED_HEADERS.has(lower) && !lower.startsWith('webhook-')) headers[lower] = value;
    }
    headers['content-type'] = 'application/json';
    headers['user-agent'] = this.#userAgent;
    // Each attempt is a span of its own under the trace of the request that caused the message.
    headers.traceparent = ownTrace ?? (parentTrace === undefined ? newTraceparent() : childTraceparent(parentTrace));
    const timestampS = Math.floor(this.#options.clock.now() / 1000);
    headers['webhook-id'] = message.id;
    headers['webhook-timestamp'] = String(timestampS);
    if (integrator.webhookSecret !== undefined) {
      headers['webhook-signature'] = webhookSignature(integrator.webhookSecret.reveal(), message.id, timestampS, message.body);
    }
    const auth = integrator.callbackAuth;
    if (auth.type === 'basic') {
      headers.authorization = `Basic ${Buffer.from(`${auth.username}:${auth.password.reveal()}`, 'utf8').toString('base64')}`;
    } else if (token !== undefined) {
      headers.authorization = `Bearer ${token.accessToken.reveal()}`;
    }
    return headers;
  }

  #outcome(answer: HttpAnswer): Omit<SendResult, 'durationMs'> {
    const { status } = answer;
    if (status >= 200 && status <= 299) return { delivered: true, httpStatus: status, error: null, retryAfterMs: null };
    const retryAfterMs = status === 429 || status === 503 ? this.#retryAfterMs(headerValue(answer.headers, 'retry-after')) : null;
    if (status >= 300 && status <= 399) return { delivered: false, httpStatus: status, error: `redirect not followed (HTTP ${status})`, retryAfterMs };
    return { delivered: false, httpStatus: status, error: null, retryAfterMs };
  }

  /** Retry-After as delay-seconds or an HTTP date (RFC 9110 §10.2.3); null when absent or unreadable. */
  #retryAfterMs(value: string | undefined): number | null {
    if (value === undefined) return null;
    const text = value.trim();
    let ms: number;
    if (/^[0-9]{1,9}$/.test(text)) ms = Number(text) * 1000;
    else {
      const at = Date.parse(text);
      if (Number.isNaN(at)) return null;
      ms = at - this.#options.clock.now();
    }
    return Math.min(Math.max(0, ms), RETRY_AFTER_MS_MAX);
  }
}
