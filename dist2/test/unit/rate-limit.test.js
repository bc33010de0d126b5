import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TokenBucket } from '../../src/http/plugins/rate-limit.js';
void describe('token bucket', () => {
    void it('allows a full burst at once, then one request per refill interval', () => {
        const bucket = new TokenBucket({ requestsPerSecond: 10, burst: 5 }, 0);
        for (let i = 0; i < 5; i += 1)
            assert.equal(bucket.take(0).ok, true);
        assert.deepEqual(bucket.take(0), { ok: false, retryAfterS: 1 });
        assert.equal(bucket.take(100).ok, true);
        assert.equal(bucket.take(100).ok, false);
    });
    void it('never holds more than the burst however long it idles', () => {
        const bucket = new TokenBucket({ requestsPerSecond: 100, burst: 2 }, 0);
        bucket.take(0);
        const later = 3_600_000;
        assert.equal(bucket.take(later).ok, true);
        assert.equal(bucket.take(later).ok, true);
        assert.equal(bucket.take(later).ok, false);
    });
    void it('asks a slow integrator to wait whole seconds until the next token', () => {
        const bucket = new TokenBucket({ requestsPerSecond: 0.2, burst: 1 }, 0);
        bucket.take(0);
        assert.deepEqual(bucket.take(0), { ok: false, retryAfterS: 5 });
        assert.deepEqual(bucket.take(2_500), { ok: false, retryAfterS: 3 });
    });
    void it('is not fooled by a clock that steps back', () => {
        const bucket = new TokenBucket({ requestsPerSecond: 1, burst: 1 }, 10_000);
        bucket.take(10_000);
        assert.equal(bucket.take(5_000).ok, false);
    });
});
//# sourceMappingURL=rate-limit.test.js.map