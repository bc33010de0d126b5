import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { childTraceparent, newTraceparent, traceFromHeaders } from '../../src/lib/trace.js';
const TRACEPARENT = /^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/;
describe('W3C trace context', () => {
    it('continues a valid incoming trace and keeps its tracestate', () => {
        const incoming = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
        assert.deepEqual(traceFromHeaders(incoming, 'vendor=1'), { traceparent: incoming, tracestate: 'vendor=1' });
    });
    it('starts a new trace for a missing, malformed or all-zero traceparent', () => {
        for (const header of [undefined, 'garbage', '00-00000000000000000000000000000000-00f067aa0ba902b7-01', '00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01']) {
            const trace = traceFromHeaders(header, 'vendor=1');
            assert.match(trace.traceparent, TRACEPARENT);
            assert.notEqual(trace.traceparent, header);
            assert.equal(trace.tracestate, null);
        }
    });
    it('gives each child span a new id in the same trace, never repeating across pool refills', () => {
        const parent = newTraceparent();
        const spans = new Set();
        for (let i = 0; i < 2_000; i += 1) {
            const child = childTraceparent(parent);
            assert.match(child, TRACEPARENT);
            assert.equal(child.slice(3, 35), parent.slice(3, 35), 'same trace id');
            spans.add(child.slice(36, 52));
        }
        assert.equal(spans.size, 2_000);
    });
});
//# sourceMappingURL=trace.test.js.map