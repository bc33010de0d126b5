import fp from 'fastify-plugin';
import { ApiError } from '../../domain/errors.js';
import { assert } from '../../lib/assert.js';
export class TokenBucket {
    limits;
    #tokens;
    #updatedAt;
    constructor(limits, now) {
        this.limits = limits;
        this.#tokens = limits.burst;
        this.#updatedAt = now;
    }
    /** Takes a token when there is one. */
    take(now) {
        const elapsedS = Math.max(0, now - this.#updatedAt) / 1000;
        this.#tokens = Math.min(this.limits.burst, this.#tokens + elapsedS * this.limits.requestsPerSecond);
        // A clock stepping back neither refills nor lets the same interval be counted twice later.
        this.#updatedAt = Math.max(this.#updatedAt, now);
        if (this.#tokens >= 1) {
            this.#tokens -= 1;
            return { ok: true, remaining: Math.floor(this.#tokens) };
        }
        // Whole seconds until one token is back (Retry-After has no fractions), at least 1.
        return { ok: false, retryAfterS: Math.max(1, Math.ceil((1 - this.#tokens) / this.limits.requestsPerSecond)) };
    }
    /** Puts back a token taken before (up to the burst). */
    giveBack() {
        this.#tokens = Math.min(this.limits.burst, this.#tokens + 1);
    }
}
export const rateLimitPlugin = fp((app, options) => {
    const { clock } = options;
    const buckets = new Map(options.config.integrators.map((integrator) => [integrator.id, new TokenBucket(integrator.limits, clock.now())]));
    app.addHook('onRequest', (request, _reply, done) => {
        // Held requests never get here (Fastify runs no further hooks for a hijacked reply), so
        // every request this hook sees was authenticated by the hook registered before it.
        const integrator = request.integrator;
        assert(integrator !== null, 'rateLimitPlugin runs only after authPlugin in the same scope');
        const bucket = buckets.get(integrator.id);
        assert(bucket !== undefined, `no rate-limit bucket for integrator ${integrator.id}`);
        const outcome = bucket.take(clock.now());
        if (outcome.ok) {
            done();
            return;
        }
        done(new ApiError('RATE_LIMITED', `Too many requests; retry after ${outcome.retryAfterS} s`, [], { 'Retry-After': String(outcome.retryAfterS) }));
    });
}, { name: 'regpay-rate-limit', fastify: '5.x', dependencies: ['regpay-auth'] });
//# sourceMappingURL=rate-limit.js.map