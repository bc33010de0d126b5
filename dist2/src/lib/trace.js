import { randomHex } from './random.js';
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);
/** W3C limits tracestate to 32 list members; 512 characters is the size vendors must propagate. */
const TRACESTATE_CHARS_MAX = 512;
/** The trace of an incoming request: its own when valid, otherwise a new one (invalid headers are ignored per W3C). */
export function traceFromHeaders(traceparent, tracestate) {
    const match = typeof traceparent === 'string' ? TRACEPARENT.exec(traceparent.trim()) : null;
    if (match === null || match[1] === ZERO_TRACE || match[2] === ZERO_SPAN) {
        return { traceparent: newTraceparent(), tracestate: null };
    }
    const state = typeof tracestate === 'string' && tracestate.length <= TRACESTATE_CHARS_MAX ? tracestate : null;
    return { traceparent: match[0], tracestate: state };
}
export function newTraceparent() {
    return `00-${randomHex(16)}-${randomHex(8)}-01`;
}
/** A new trace whose ids are drawn from a UUID (the Ids port's, so a simulation controls them): its 32 hex digits as trace id, 16 of them as span id. */
export function traceparentFromUuid(uuid) {
    const hex = uuid.replaceAll('-', '').toLowerCase();
    return `00-${hex}-${hex.slice(16)}-01`;
}
/** A child span of the given trace: same trace id and flags, new span id. */
export function childTraceparent(parent) {
    const match = TRACEPARENT.exec(parent);
    if (match === null)
        return newTraceparent();
    return `00-${match[1]}-${randomHex(8)}-${match[3]}`;
}
//# sourceMappingURL=trace.js.map