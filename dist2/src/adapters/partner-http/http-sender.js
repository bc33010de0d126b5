import { performance } from 'node:perf_hooks';
import { Agent } from 'undici';
import { childTraceparent, newTraceparent } from '../../lib/trace.js';
import { webhookSignature } from '../../lib/webhook-signature.js';
import { SEND_ABORTED } from '../../ports/partner.js';
import { ClientCredentialsTokens, TokenError } from './client-credentials.js';
import { HttpCallError, headerValue, httpCall } from './http-call.js';
export const USER_AGENT = 'regpay-delivery/1';
/** Headers the sender sets itself; stored headers of these names are ignored. */
const RESERVED_HEADERS = new Set(['content-type', 'content-length', 'host', 'authorization', 'connection', 'transfer-encoding', 'user-agent', 'traceparent']);
/** The Retry-After honoured, at most (a day): a receiver cannot park a message for longer. */
const RETRY_AFTER_MS_MAX = 86_400_000;
export class HttpPartnerSender {
    #options;
    #agent;
    #tokens;
    #userAgent;
    constructor(options) {
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
    async send(message, integrator, options = {}) {
        const started = performance.now();
        const done = (result) => ({ ...result, durationMs: performance.now() - started });
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
        }
        catch (error) {
            if (error instanceof HttpCallError || error instanceof TokenError) {
                return done({ delivered: false, httpStatus: null, error: error.aborted ? SEND_ABORTED : error.message, retryAfterMs: null });
            }
            throw error;
        }
    }
    async call(call, integrator, options = {}) {
        const started = performance.now();
        const done = (result) => ({ ...result, durationMs: performance.now() - started });
        try {
            const token = await this.#token(integrator, options.signal);
            const answer = await this.#post(call, integrator, token, options, { timeoutMs: call.timeoutMs, discardBody: false });
            return done({ ...this.#outcome(answer), body: answer.body.toString('utf8') });
        }
        catch (error) {
            if (error instanceof HttpCallError || error instanceof TokenError) {
                return done({ delivered: false, httpStatus: null, error: error.aborted ? SEND_ABORTED : error.message, retryAfterMs: null, body: null });
            }
            throw error;
        }
    }
    async close() {
        await this.#agent.close();
    }
    async #token(integrator, signal) {
        const auth = integrator.callbackAuth;
        if (auth.type !== 'oauth2')
            return undefined;
        return this.#tokens.token(integrator.id, auth, signal);
    }
    #post(message, integrator, token, options, 
    // A delivery is judged by its status (and Retry-After) alone; a call's answer is read.
    how = { timeoutMs: this.#options.timeoutMs, discardBody: true }) {
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
    #headers(message, integrator, token, ownTrace) {
        const headers = {};
        let parentTrace;
        for (const [name, value] of Object.entries(message.headers)) {
            const lower = name.toLowerCase();
            if (lower === 'traceparent')
                parentTrace = value;
            else if (!RESERVED_HEADERS.has(lower) && !lower.startsWith('webhook-'))
                headers[lower] = value;
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
        }
        else if (token !== undefined) {
            headers.authorization = `Bearer ${token.accessToken.reveal()}`;
        }
        return headers;
    }
    #outcome(answer) {
        const { status } = answer;
        if (status >= 200 && status <= 299)
            return { delivered: true, httpStatus: status, error: null, retryAfterMs: null };
        const retryAfterMs = status === 429 || status === 503 ? this.#retryAfterMs(headerValue(answer.headers, 'retry-after')) : null;
        if (status >= 300 && status <= 399)
            return { delivered: false, httpStatus: status, error: `redirect not followed (HTTP ${status})`, retryAfterMs };
        return { delivered: false, httpStatus: status, error: null, retryAfterMs };
    }
    /** Retry-After as delay-seconds or an HTTP date (RFC 9110 §10.2.3); null when absent or unreadable. */
    #retryAfterMs(value) {
        if (value === undefined)
            return null;
        const text = value.trim();
        let ms;
        if (/^[0-9]{1,9}$/.test(text))
            ms = Number(text) * 1000;
        else {
            const at = Date.parse(text);
            if (Number.isNaN(at))
                return null;
            ms = at - this.#options.clock.now();
        }
        return Math.min(Math.max(0, ms), RETRY_AFTER_MS_MAX);
    }
}
//# sourceMappingURL=http-sender.js.map