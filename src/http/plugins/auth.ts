import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { accessTokenVerifier } from '../../adapters/tokens/jose-tokens.js';
import type { Config, IntegratorConfig } from '../../config/types.js';
import type { ApiError } from '../../domain/errors.js';
import type { Clock } from '../../ports/clock.js';
import type { Store } from '../../ports/store.js';
import type { AccessTokenVerifier } from '../../ports/tokens.js';
import { requestOrigin } from '../request-origin.js';
import { holdRequest, integratorAllows } from './allowlist.js';
import { basicAuthenticator, parseAuthorization, unauthenticated, type BasicSuccess } from './basic-credentials.js';
import type { FailedAuthentications } from './failed-auth.js';
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

/** Quote a value for an auth-param (RFC 9110 quoted-string). */
function quoted(value: string): string {
  return `"${value.replace(/[\\"]/g, '\\$&')}"`;
}

/**
 * Basic for integrators (basic-credentials.ts). The header a connection was last admitted with is
 * remembered too: a keep-alive client sends the same one on every request, which is then admitted
 * without decoding or hashing it again. It is compared only with what later arrives on that same
 * connection, from the same peer.
 */
async function integratorBasicAuthenticator(config: Config, clock: Clock, failures: FailedAuthentications): Promise<(request: FastifyRequest) => Promise<IntegratorConfig>> {
  const challenge = `Basic realm=${quoted(REALM)}, charset="UTF-8"`;
  const accounts = config.integrators.map((integrator) => ({ username: integrator.credentials.username, passwordHash: integrator.credentials.passwordHash?.reveal(), value: integrator }));
  const authenticate = await basicAuthenticator(accounts, challenge, clock, failures);
  const admittedBySocket = new WeakMap<object, { readonly header: string; readonly success: BasicSuccess<IntegratorConfig> }>();
  return async (request) => {
    const header = request.headers.authorization;
    const admitted = admittedBySocket.get(request.raw.socket);
    if (admitted !== undefined && admitted.header === header && admitted.success.expiresAt > clock.now()) return admitted.success.value;
    const success = await authenticate(request);
    if (header !== undefined) admittedBySocket.set(request.raw.socket, { header, success });
    return success.value;
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
        ? await integratorBasicAuthenticator(config, clock, app.failedAuthentications)
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
