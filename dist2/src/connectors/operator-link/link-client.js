import { createSecureContext } from 'node:tls';
import { Agent } from 'undici';
import { describeError, httpCall } from '../../adapters/partner-http/http-call.js';
import { CONTENT_TYPE, HEADER, messagesUrl, signMessage } from './protocol.js';
/** Most of an answer's body read: enough for an error message. */
const ANSWER_BYTES_MAX = 8_192;
const ERROR_CHARS_MAX = 300;
export class LinkClient {
    #options;
    #agent;
    constructor(options) {
        this.#options = options;
        this.#agent = new Agent({
            // One secure context for every connection: given the PEM texts instead, each new connection
            // parsed the CA, certificate and key again.
            connect: { secureContext: createSecureContext({ ca: options.tls.ca, cert: options.tls.cert, key: options.tls.key }), rejectUnauthorized: true },
            connections: options.connectionsMax,
        });
    }
    /** POST one message to `{base}/v1/schemes/{scheme}/messages`. */
    async send(base, message) {
        const body = Buffer.from(message.document, 'utf8');
        const signature = await signMessage(message, body, this.#options.signingKey, this.#options.clock.now());
        const headers = {
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
        }
        catch (error) {
            // Unreachable, refused at TLS, or out of time: the far end may or may not have it; a resend is safe (same key).
            return { kind: 'failed', retryable: true, error: describeError(error) };
        }
    }
    async close() {
        await this.#agent.close();
    }
}
/**
 * 2xx: taken. 408, 425, 429 and 5xx: not now, send again. 401 and 403: our certificate or
 * signature was refused, which no change to the message can mend but a fix of either end's keys
 * can, so it is sent again too rather than failed for good. Any other answer refuses this message
 * for good.
 */
function outcomeOf(status, body) {
    if (status >= 200 && status < 300)
        return { kind: 'delivered' };
    const error = `operator link answered ${status}${messageOf(body)}`;
    const retryable = status === 401 || status === 403 || status === 408 || status === 425 || status === 429 || status >= 500;
    return { kind: 'failed', retryable, error, status };
}
/** The `message` of an ErrorDetail answer, as `: <message>`; nothing when there is none. */
function messageOf(body) {
    try {
        const parsed = JSON.parse(body.toString('utf8'));
        return typeof parsed.message === 'string' ? `: ${parsed.message.slice(0, ERROR_CHARS_MAX)}` : '';
    }
    catch {
        return '';
    }
}
//# sourceMappingURL=link-client.js.map