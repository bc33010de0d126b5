import { createHmac, randomBytes } from 'node:crypto';
import { ApiError } from '../../domain/errors.js';
import { hashSecretAsync, verifySecretAsync } from '../../lib/password-hash.js';
import { tooManyFailures } from './failed-auth.js';
/**
 * RFC 7617 Basic credentials checked against scrypt hashes, shared by the integrator API
 * (auth.ts) and the admin API (admin-auth.ts). An unknown username is checked against a dummy
 * hash, so the answer takes as long either way. A success is remembered for a while, so a busy
 * client (an integrator, or the console polling the admin API) does not pay scrypt per request.
 */
/** Successful checks are remembered this long. */
const BASIC_CACHE_TTL_MS = 300_000;
const BASIC_CACHE_ENTRIES_MAX = 10_000;
export function unauthenticated(detail, challenge) {
    return new ApiError('UNAUTHENTICATED', detail, [], { 'WWW-Authenticate': challenge });
}
export function parseAuthorization(header) {
    if (header === undefined)
        return undefined;
    const match = /^([A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*) +(\S+) *$/.exec(header);
    if (match === null)
        return undefined;
    return { scheme: (match[1] ?? '').toLowerCase(), value: match[2] ?? '' };
}
/** RFC 7617 credentials; undefined when the value is not base64 of `user:password`. */
export function decodeBasic(value) {
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value))
        return undefined;
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0)
        return undefined;
    return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}
/**
 * Verification with a bounded cache of recent successes. The cache key is an HMAC of the whole
 * header value under a key that lives only in this process, so the cache holds nothing an
 * attacker reading memory dumps or timing map lookups could turn back into a password.
 */
class BasicVerifier {
    dummyHash;
    clock;
    #byUsername;
    #cacheKey = randomBytes(32);
    #cache = new Map();
    #inFlight = new Map();
    constructor(accounts, dummyHash, clock) {
        this.dummyHash = dummyHash;
        this.clock = clock;
        this.#byUsername = new Map(accounts.map((account) => [account.username, account]));
    }
    keyOf(headerValue) {
        return createHmac('sha256', this.#cacheKey).update(headerValue).digest('base64url');
    }
    /** The success remembered for this header, if it has not expired. */
    remembered(key) {
        const cached = this.#cache.get(key);
        if (cached !== undefined && cached.expiresAt > this.clock.now())
            return cached;
        if (cached !== undefined)
            this.#cache.delete(key);
        return undefined;
    }
    /**
     * The check of this header already running, if any: requests arriving together with the same
     * header (a client opening many connections at once) share one scrypt check instead of
     * queueing one each on the thread pool.
     */
    running(key) {
        return this.#inFlight.get(key);
    }
    /** Checks the credentials against the stored hash (scrypt); a success is remembered. */
    check(key, credentials) {
        const pending = this.#check(key, credentials).finally(() => this.#inFlight.delete(key));
        this.#inFlight.set(key, pending);
        return pending;
    }
    async #check(key, credentials) {
        const account = this.#byUsername.get(credentials.username);
        const hash = account?.passwordHash;
        const ok = await verifySecretAsync(credentials.password, hash ?? this.dummyHash);
        if (!ok || account === undefined || hash === undefined)
            return undefined;
        if (this.#cache.size >= BASIC_CACHE_ENTRIES_MAX) {
            const oldest = this.#cache.keys().next();
            if (oldest.done !== true)
                this.#cache.delete(oldest.value);
        }
        const success = { value: account.value, expiresAt: this.clock.now() + BASIC_CACHE_TTL_MS };
        this.#cache.set(key, success);
        return success;
    }
}
/**
 * Checks a request's `Authorization: Basic` header against the accounts: resolves to the
 * account's value, or throws 401 (with `challenge`) or 429 once the address failed too often
 * (failed-auth.ts). Only checks that run scrypt count as attempts: a remembered success costs
 * nothing, and joining a check already running costs neither a check nor a failure.
 */
export async function basicAuthenticator(accounts, challenge, clock, failures) {
    // A hash of a random secret nobody knows: checking an unknown username against it costs the
    // same scrypt work as a real check and can never succeed.
    const verifier = new BasicVerifier(accounts, await hashSecretAsync(randomBytes(32).toString('base64url')), clock);
    return async (request) => {
        const authorization = parseAuthorization(request.headers.authorization);
        if (authorization === undefined || authorization.scheme !== 'basic') {
            throw unauthenticated('Send Authorization: Basic with the issued username and password', challenge);
        }
        const credentials = decodeBasic(authorization.value);
        if (credentials === undefined)
            throw unauthenticated('The Basic credentials are not base64 of username:password', challenge);
        const key = verifier.keyOf(authorization.value);
        const remembered = verifier.remembered(key);
        if (remembered !== undefined)
            return remembered;
        const running = verifier.running(key);
        let success;
        if (running !== undefined) {
            success = await running;
        }
        else {
            const admitted = failures.attempt(request.clientAddress);
            if (!admitted.ok)
                throw tooManyFailures(admitted.retryAfterS);
            success = await verifier.check(key, credentials);
            if (success !== undefined)
                failures.succeeded(request.clientAddress);
        }
        if (success === undefined)
            throw unauthenticated('Unknown username or wrong password', challenge);
        return success;
    };
}
//# sourceMappingURL=basic-credentials.js.map