import fp from 'fastify-plugin';
import { ApiError } from '../../domain/errors.js';
import { BoundedMap } from '../../lib/bounded-map.js';
import { TokenBucket } from './rate-limit.js';
/**
 * Failed credential checks allowed per client address, shared by every place that checks a
 * password or secret: Basic authentication of the API, the token endpoint and the admin API.
 * Each address may fail `burst` checks at once, then `perMinute`; beyond that a request that
 * needs a check gets 429 with Retry-After and no check is made. Guessing is slowed to the
 * refill rate, and a flood of wrong passwords cannot keep the thread pool busy with scrypt: a
 * check counts as failed from the moment it starts until it succeeds, so however many arrive at
 * once, at most `burst` of them run.
 *
 * Only failures are counted: an integrator whose credentials are right is never held back by its
 * own traffic, and one whose success is remembered (the Basic cache, or a kept-alive connection)
 * is admitted without a check while its address is held back. Only addresses the allowlist let
 * through get this far, so the addresses tracked are few; the map is bounded all the same.
 */
export class FailedAuthentications {
    clock;
    #buckets = new BoundedMap(CLIENT_ADDRESSES_MAX);
    #limits;
    constructor(limits, clock) {
        this.clock = clock;
        this.#limits = { requestsPerSecond: limits.perMinute / 60, burst: limits.burst };
    }
    /**
     * A credential check from `address` is about to run: refused when the address has no failures
     * left; otherwise counted as failed until `succeeded` says otherwise.
     */
    attempt(address) {
        let bucket = this.#buckets.get(address);
        if (bucket === undefined) {
            bucket = new TokenBucket(this.#limits, this.clock.now());
            this.#buckets.set(address, bucket);
        }
        return bucket.take(this.clock.now());
    }
    /** The check begun by `attempt` did not fail (it succeeded, or the request was refused for another reason): it no longer counts. */
    succeeded(address) {
        this.#buckets.get(address)?.giveBack();
    }
}
/** The API's and the admin API's answer to an address that has used up its failures. */
export function tooManyFailures(retryAfterS) {
    return new ApiError('TOO_MANY_FAILED_AUTHENTICATIONS', `Too many failed authentications from this address; retry after ${retryAfterS} s`, [], {
        'Retry-After': String(retryAfterS),
    });
}
/** Addresses whose failures are tracked at once; beyond this the oldest are forgotten. */
const CLIENT_ADDRESSES_MAX = 4_096;
/** Decorates the app with one FailedAuthentications for all its scopes; register it before the auth plugin, the token routes and the admin routes. */
export const failedAuthPlugin = fp((app, options, done) => {
    app.decorate('failedAuthentications', new FailedAuthentications(options.auth.failedAuthentications, options.clock));
    done();
}, { name: 'regpay-failed-auth', fastify: '5.x' });
//# sourceMappingURL=failed-auth.js.map