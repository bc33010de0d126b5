import { EventEmitter } from 'node:events';
import { BoundedMap } from '../../lib/bounded-map.js';
/** Why an exchange produced no answer, in words safe to record (no URL credentials, no header values). */
export class HttpCallError extends Error {
    aborted;
    name = 'HttpCallError';
    constructor(message, 
    /** The caller's signal aborted it (not the remote party's fault). */
    aborted) {
        super(message);
        this.aborted = aborted;
    }
}
const EMPTY = Buffer.alloc(0);
/**
 * A call's own abort signal. undici takes an EventEmitter with `aborted` and an `abort` event
 * as a request's signal; an AbortController per call cost more than the rest of the call's own
 * bookkeeping (its AbortSignal is an EventTarget, and listeners on it are costly to add and remove).
 */
class CallAbort extends EventEmitter {
    aborted = false;
    abort() {
        if (this.aborted)
            return;
        this.aborted = true;
        this.emit('abort');
    }
}
/** Integrators' endpoints are few and called over and over: each URL is parsed once. */
const targets = new BoundedMap(1_000);
function targetOf(url) {
    let target = targets.get(url);
    if (target === undefined) {
        const parsed = new URL(url);
        target = { origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` };
        targets.set(url, target);
    }
    return target;
}
export async function httpCall(dispatcher, call) {
    // One abort per call, linked to the caller's signal by a listener removed afterwards:
    // AbortSignal.any() on a long-lived signal (the dispatcher's, alive for the whole process)
    // keeps every combined signal reachable on Node 20/22 and leaks.
    const abort = new CallAbort();
    let timedOut = false;
    const timer = setTimeout(() => {
        timedOut = true;
        abort.abort();
    }, call.timeoutMs);
    const onAbort = () => abort.abort();
    call.signal?.addEventListener('abort', onAbort, { once: true });
    if (call.signal?.aborted === true)
        abort.abort();
    try {
        const { origin, path } = targetOf(call.url);
        const response = await dispatcher.request({ origin, path, method: call.method, headers: call.headers, body: call.body, signal: abort });
        if (call.discardBody === true) {
            // Beyond the limit the stream (and its connection) is destroyed: an endless answer costs nothing more.
            await response.body.dump({ limit: call.responseBytesMax });
            return { status: response.statusCode, headers: response.headers, body: EMPTY };
        }
        const chunks = [];
        let size = 0;
        for await (const chunk of response.body) {
            const room = call.responseBytesMax - size;
            if (chunk.length > room) {
                chunks.push(chunk.subarray(0, room));
                // Leaving the loop destroys the body stream (and its connection): an endless answer costs nothing more.
                break;
            }
            chunks.push(chunk);
            size += chunk.length;
        }
        return { status: response.statusCode, headers: response.headers, body: Buffer.concat(chunks) };
    }
    catch (error) {
        if (call.signal?.aborted === true)
            throw new HttpCallError('aborted', true);
        if (timedOut)
            throw new HttpCallError(`timed out after ${call.timeoutMs} ms`, false);
        throw new HttpCallError(describeError(error), false);
    }
    finally {
        clearTimeout(timer);
        call.signal?.removeEventListener('abort', onAbort);
    }
}
const TEXT_CHARS_MAX = 300;
/**
 * A transport error as recordable text: its code and message, with any `user:password@` of a URL
 * masked. undici and Node messages name the failing address (`connect ECONNREFUSED 10.0.0.5:443`),
 * which operators need, and never header values.
 */
export function describeError(error) {
    const parts = [];
    let current = error;
    // undici wraps the socket error in `cause`; the innermost code is the telling one.
    for (let depth = 0; depth < 3 && current !== undefined && current !== null; depth += 1) {
        if (current instanceof Error) {
            const code = current.code;
            const text = code !== undefined && !current.message.includes(code) ? `${code}: ${current.message}` : current.message;
            if (text !== '' && !parts.includes(text))
                parts.push(text);
            current = current.cause;
        }
        else {
            parts.push(typeof current === 'string' ? current : 'non-Error failure');
            current = undefined;
        }
    }
    const text = (parts.join(' <- ') || 'unknown error').replace(/\/\/[^/@\s]*@/g, '//***@');
    return text.length > TEXT_CHARS_MAX ? `${text.slice(0, TEXT_CHARS_MAX - 1)}…` : text;
}
/** A header's first value. */
export function headerValue(headers, name) {
    const value = headers[name];
    return Array.isArray(value) ? value[0] : value;
}
//# sourceMappingURL=http-call.js.map