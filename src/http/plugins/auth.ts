import { createHmac, randomBytes } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { accessTokenVerifier } from '../../adapters/tokens/jose-tokens.js';
import type { Config, IntegratorConfig } from '../../config/types.js';
import { ApiError } from '../../domain/errors.js';
import { hashSecretAsync, verifySecretAsync } from '../../lib/password-hash.js';
import type { Clock } from '../../ports/clock.js';
import type { Store } from '../../ports/store.js';
import type { AccessTokenVerifier } from '../../ports/tokens.js';
import { requestOrigin } from '../request-origin.js';
import { holdRequest, integratorAllows } from './allowlist.js';
import { tooManyFailures, type FailedAuthentications } from './failed-auth.js';
import type { RevokedSessions } from './revoked-sessions.js';

/**
 * Layer 2 of authentication (CONTRACT §7) for the routes of the scope it is registered in
 * (`/api/v1`): resolves `request.integrator` from the Authorization header, then applies that
 * integrator's own allowlist, holding the connection unanswered when the address is not in it
 * (one integrator's credentials from another integrator's address do not work).
 *
 * - basic: RFC 7617; the username selects the integrator, the password is checked against its
 *   scrypt hash in constant time. An unknown username is checked against a dummy hash, so the
 *   answer takes as long either way.
 * - oauth2: `Bearer` JWT, verified against the embedded provider's key or an external issuer's
 *   JWKS; the integrator is the one whose `clientId` equals the token's `azp` (or `client_id`)
 *   claim, and when the token has `preferred_username` it must be that integrator's username
 *   (a client-credentials token has none). An embedded token's `iss` must be the provider's
 *   issuer for the origin this request was made to (adapters/tokens/jose-tokens.ts).
 *   A token whose session (`sid`) was revoked is refused (revoked-sessions.ts).
 */
declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated integrator; set on every request that reaches a route behind authPlugin (null elsewhere). */
    integrator: IntegratorConfig;
  }
}

export interface AuthPluginOptions {
  readonly config: Config;
  /** Holds the embedded provider's signing key (oauth2 without an external issuer). */
  readonly store: Store;
  readonly clock: Clock;
  /** Overrides the verifier built from config (tests). */
  readonly verifier?: AccessTokenVerifier;
}

export const REALM = 'regpay';
/** Successful Basic checks are remembered this long, so a busy integrator does not pay scrypt per request. */
const BASIC_CACHE_TTL_MS = 300_000;
const BASIC_CACHE_ENTRIES_MAX = 10_000;

function unauthenticated(detail: string, challenge: string): ApiError {
  return new ApiError('UNAUTHENTICATED', detail, [], { 'WWW-Authenticate': challenge });
}

/** Quote a value for an auth-param (RFC 9110 quoted-string). */
function quoted(value: string): string {
  return `"${value.replace(/[\\"]/g, '\\$&')}"`;
}

function parseAuthorization(header: string | undefined): { scheme: string; value: string } | undefined {
  if (header === undefined) return undefined;
  const match = /^([A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*) +(\S+) *$/.exec(header);
  if (match === null) return undefined;
  return { scheme: (match[1] ?? '').toLowerCase(), value: match[2] ?? '' };
}

/** RFC 7617 credentials; undefined when the value is not base64 of `user:password`. */
export function decodeBasic(value: string): { username: string; password: string } | undefined {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return undefined;
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** A Basic check that succeeded, and until when it is trusted without checking again. */
interface BasicSuccess {
  readonly integrator: IntegratorConfig;
  readonly expiresAt: number;
}

/**
 * Basic verification with a bounded cache of recent successes. The cache key is an HMAC of the
 * whole header under a key that lives only in this process, so the cache holds nothing an
 * attacker reading memory dumps or timing map lookups could turn back into a password.
 */
class BasicVerifier {
  readonly #byUsername: ReadonlyMap<string, IntegratorConfig>;
  readonly #cacheKey = randomBytes(32);
  readonly #cache = new Map<string, BasicSuccess>();
  readonly #inFlight = new Map<string, Promise<BasicSuccess | undefined>>();

  constructor(
    integrators: readonly IntegratorConfig[],
    readonly dummyHash: string,
    readonly clock: Clock,
  ) {
    this.#byUsername = new Map(integrators.map((integrator) => [integrator.credentials.username, integrator]));
  }

  /** The key a header is remembered by. */
  keyOf(headerValue: string): string {
    return createHmac('sha256', this.#cacheKey).update(headerValue).digest('base64url');
  }

  /** The success remembered for this header, if it has not expired. */
  remembered(key: string): BasicSuccess | undefined {
    const cached = this.#cache.get(key);
    if (cached !== undefined && cached.expiresAt > this.clock.now()) return cached;
    if (cached !== undefined) this.#cache.delete(key);
    return undefined;
  }

  /**
   * The check of this header already running, if any: requests arriving together with the same
   * header (a client opening many connections at once) share one scrypt check instead of
   * queueing one each on the thread pool.
   */
  running(key: string): Promise<BasicSuccess | undefined> | undefined {
    return this.#inFlight.get(key);
  }

  /** Checks the credentials against the stored hash (scrypt); a success is remembered. */
  check(key: string, credentials: { username: string; password: string }): Promise<BasicSuccess | undefined> {
    const pending = this.#check(key, credentials).finally(() => this.#inFlight.delete(key));
    this.#inFlight.set(key, pending);
    return pending;
  }

  async #check(key: string, credentials: { username: string; password: string }): Promise<BasicSuccess | undefined> {
    const integrator = this.#byUsername.get(credentials.username);
    const hash = integrator?.credentials.passwordHash?.reveal();
    const ok = await verifySecretAsync(credentials.password, hash ?? this.dummyHash);
    if (!ok || integrator === undefined || hash === undefined) return undefined;
    if (this.#cache.size >= BASIC_CACHE_ENTRIES_MAX) {
      const oldest = this.#cache.keys().next();
      if (oldest.done !== true) this.#cache.delete(oldest.value);
    }
    const success = { integrator, expiresAt: this.clock.now() + BASIC_CACHE_TTL_MS };
    this.#cache.set(key, success);
    return success;
  }
}

async function basicAuthenticator(config: Config, clock: Clock, failures: FailedAuthentications): Promise<(request: FastifyRequest) => Promise<IntegratorConfig>> {
  const challenge = `Basic realm=${quoted(REALM)}, charset="UTF-8"`;
  // A hash of a random secret nobody knows: checking an unknown username against it costs the
  // same scrypt work as a real check and can never succeed.
  const verifier = new BasicVerifier(config.integrators, await hashSecretAsync(randomBytes(32).toString('base64url')), clock);
  // The header a connection was last admitted with: a keep-alive client sends the same one on
  // every request, which is then admitted without decoding or hashing it again. It is compared
  // only with what later arrives on that same connection, from the same peer.
  const admittedBySocket = new WeakMap<object, { readonly header: string; readonly success: BasicSuccess }>();
  return async (request) => {
    const header = request.headers.authorization;
    const admitted = admittedBySocket.get(request.raw.socket);
    if (admitted !== undefined && admitted.header === header && admitted.success.expiresAt > clock.now()) return admitted.success.integrator;
    const authorization = parseAuthorization(header);
    if (authorization === undefined || authorization.scheme !== 'basic') {
      throw unauthenticated('Send Authorization: Basic with the issued username and password', challenge);
    }
    const credentials = decodeBasic(authorization.value);
    if (credentials === undefined) throw unauthenticated('The Basic credentials are not base64 of username:password', challenge);
    const key = verifier.keyOf(authorization.value);
    let success = verifier.remembered(key);
    const running = success === undefined ? verifier.running(key) : undefined;
    if (running !== undefined) {
      // Joining a check already counted: the same guess costs neither a check nor a failure.
      success = await running;
      if (success === undefined) throw unauthenticated('Unknown username or wrong password', challenge);
    } else if (success === undefined) {
      const admitted = failures.attempt(request.clientAddress);
      if (!admitted.ok) throw tooManyFailures(admitted.retryAfterS);
      success = await verifier.check(key, credentials);
      if (success === undefined) throw unauthenticated('Unknown username or wrong password', challenge);
      failures.succeeded(request.clientAddress);
    }
    if (header !== undefined) admittedBySocket.set(request.raw.socket, { header, success });
    return success.integrator;
  };
}

function bearerAuthenticator(
  config: Config,
  verifier: AccessTokenVerifier,
  revoked: RevokedSessions,
  clock: Clock,
): (request: FastifyRequest) => Promise<IntegratorConfig> {
  const byClientId = new Map<string, IntegratorConfig>();
  for (const integrator of config.integrators) {
    if (integrator.credentials.clientId !== undefined) byClientId.set(integrator.credentials.clientId, integrator);
  }
  const invalid = (description: string): ApiError =>
    unauthenticated(description, `Bearer realm=${quoted(REALM)}, error="invalid_token", error_description=${quoted(description)}`);
  return async (request) => {
    const authorization = parseAuthorization(request.headers.authorization);
    if (authorization === undefined || authorization.scheme !== 'bearer') {
      // RFC 6750 §3.1: a request without credentials gets the challenge without an error code.
      throw unauthenticated('Send Authorization: Bearer with an access token from the token endpoint', `Bearer realm=${quoted(REALM)}`);
    }
    const outcome = await verifier.verify(authorization.value, clock.now(), requestOrigin(request));
    if (!outcome.ok) throw invalid(outcome.reason);
    const { clientId, username, sessionId } = outcome.token;
    if (sessionId !== undefined && revoked.has(sessionId)) throw invalid("the access token's session is revoked");
    const integrator = clientId === undefined ? undefined : byClientId.get(clientId);
    if (integrator === undefined) throw invalid('the access token names no known client');
    if (username !== undefined && username !== integrator.credentials.username) throw invalid('the access token user does not belong to its client');
    return integrator;
  };
}

export const authPlugin = fp(
  async (app: FastifyInstance, options: AuthPluginOptions) => {
    const { config, clock } = options;
    const authenticate =
      config.auth.mode === 'basic'
        ? await basicAuthenticator(config, clock, app.failedAuthentications)
        : bearerAuthenticator(config, options.verifier ?? (await accessTokenVerifier(config.auth, options.store)), app.revokedSessions, clock);

    if (!app.hasRequestDecorator('integrator')) app.decorateRequest('integrator', null as unknown as IntegratorConfig);

    app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
      const integrator = await authenticate(request);
      if (!integratorAllows(integrator, request.clientAddress)) {
        holdRequest(request, reply);
        return;
      }
      request.integrator = integrator;
    });
  },
  { name: 'regpay-auth', fastify: '5.x', dependencies: ['regpay-allowlist', 'regpay-failed-auth', 'regpay-revoked-sessions'] },
);
