import { randomBytes } from 'node:crypto';
import formbody from '@fastify/formbody';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { embeddedProvider } from '../../adapters/tokens/jose-tokens.js';
import { GRANT_TYPES, issueToken, TOKEN_SCOPE, type OAuthErrorCode } from '../../app/issue-token.js';
import type { AuthConfig, Config } from '../../config/types.js';
import { ApiError } from '../../domain/errors.js';
import { hashSecretAsync } from '../../lib/password-hash.js';
import type { Clock, Ids } from '../../ports/clock.js';
import type { Store } from '../../ports/store.js';
import { holdRequest, integratorAllows } from '../plugins/allowlist.js';
import { toApiError } from '../plugins/errors.js';
import { requestOrigin } from '../request-origin.js';

/**
 * The embedded identity provider (CONTRACT §1, §7): `POST /oauth/token`, `GET /oauth/jwks` and
 * its RFC 8414 metadata at `GET /.well-known/oauth-authorization-server` and
 * `GET /.well-known/openid-configuration`. Registered only with `auth.mode: oauth2` and no
 * external issuer; otherwise the paths do not exist (404), so nobody mistakes the service for
 * the issuer. Register it in its own scope: the form parser and the RFC 6749 error format apply
 * to these routes only.
 *
 * The provider is an OAuth 2.0 authorization server, not an OpenID provider: it issues access
 * tokens only, no ID tokens, and has no authorization endpoint. Both metadata paths answer the
 * one RFC 8414 document, which claims nothing else; RFC 8414 §3 lets a server publish it at
 * several well-known paths, and §5 says `openid-configuration` is a general OAuth name. That path
 * stays because CONTRACT §1 names it and OpenID client libraries try it first.
 *
 * Like the API, the routes sit behind the global allowlist; the token endpoint additionally holds
 * a request whose client_id belongs to an integrator that does not allowlist the caller, and
 * counts wrong secrets against the caller's address like the API does (failed-auth.ts).
 */
export interface OAuthRoutesDeps {
  readonly config: Config;
  readonly store: Store;
  readonly clock: Clock;
  readonly ids: Ids;
}

const FORM_BYTES_MAX = 16_384;
const TOKEN_PATH = '/oauth/token';
const JWKS_PATH = '/oauth/jwks';
const METADATA_PATHS = ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration'] as const;
const ERROR_STATUS: Readonly<Record<OAuthErrorCode, 400 | 401>> = {
  invalid_request: 400,
  invalid_client: 401,
  invalid_grant: 400,
  unsupported_grant_type: 400,
};

/** Whether the service is its own token issuer: the routes here exist exactly then. */
function servesTokens(auth: AuthConfig): boolean {
  return auth.mode === 'oauth2' && auth.issuer === undefined;
}

function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** RFC 6749 §5.1: token responses, success or error, are never cached. */
function noStore(reply: FastifyReply): FastifyReply {
  return reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
}

function sendError(reply: FastifyReply, error: OAuthErrorCode | 'server_error', description: string): FastifyReply {
  const status = error === 'server_error' ? 500 : ERROR_STATUS[error];
  if (error === 'invalid_client') void reply.header('WWW-Authenticate', 'Basic realm="regpay"');
  return noStore(reply).code(status).type('application/json').send({ error, error_description: description });
}

/** client_secret_basic: the Basic header carries form-urlencoded client_id:client_secret (RFC 6749 §2.3.1). */
function basicClient(header: string | undefined): { clientId: string; clientSecret: string } | undefined | 'malformed' {
  if (header === undefined) return undefined;
  const match = /^basic +([A-Za-z0-9+/]+={0,2}) *$/i.exec(header);
  if (match === null) return 'malformed';
  const decoded = Buffer.from(match[1] ?? '', 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return 'malformed';
  try {
    const formDecode = (text: string): string => decodeURIComponent(text.replace(/\+/g, ' '));
    return { clientId: formDecode(decoded.slice(0, colon)), clientSecret: formDecode(decoded.slice(colon + 1)) };
  } catch {
    return 'malformed';
  }
}

export async function oauthRoutes(scope: FastifyInstance, deps: OAuthRoutesDeps): Promise<void> {
  const { config } = deps;
  if (!servesTokens(config.auth)) return;

  const provider = await embeddedProvider(config.auth, deps.store);
  const dummyHash = await hashSecretAsync(randomToken());
  await scope.register(formbody, { bodyLimit: FORM_BYTES_MAX });

  // Errors here are RFC 6749 §5.2 bodies, not ErrorDetail: token clients parse `error`.
  scope.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    const known = toApiError(error);
    if (known.status === 503) {
      // Shutting down, or the store refused the token's write before making it: 503 with the
      // API's Retry-After, in the RFC 6749 form.
      for (const [name, value] of Object.entries(known.headers)) void reply.header(name, value);
      return noStore(reply).code(503).type('application/json').send({ error: 'temporarily_unavailable', error_description: known.detail ?? known.message });
    }
    // Body parsers fail with Fastify errors (statusCode) or, for JSON, with an ApiError (status).
    const status = error instanceof ApiError ? error.status : (error.statusCode ?? 500);
    if (status >= 500) {
      request.log.error({ err: error }, 'token endpoint failed');
      return sendError(reply, 'server_error', 'the token could not be issued; retry later');
    }
    return sendError(reply, 'invalid_request', 'the request body is not a form of at most 16 KiB');
  });

  scope.post(TOKEN_PATH, { schema: { hide: true } }, async (request, reply) => {
    if (request.headers['content-type']?.split(';')[0]?.trim().toLowerCase() !== 'application/x-www-form-urlencoded') {
      return sendError(reply, 'invalid_request', 'Content-Type must be application/x-www-form-urlencoded');
    }
    const client = basicClient(request.headers.authorization);
    if (client === 'malformed') return sendError(reply, 'invalid_request', 'the Authorization header is not Basic client credentials');
    const issuer = provider.issuerFor(requestOrigin(request));
    if (issuer === undefined) return sendError(reply, 'invalid_request', 'the Host header names no host, so the token would have no issuer');
    const failures = scope.failedAuthentications;
    const admitted = failures.attempt(request.clientAddress);
    if (!admitted.ok) {
      request.log.info('token request refused: too many failed authentications from this address');
      // 429 and Retry-After as on the API; the body in the RFC 6749 §5.2 form token clients parse.
      void noStore(reply).header('Retry-After', String(admitted.retryAfterS));
      return reply
        .code(429)
        .type('application/json')
        .send({ error: 'temporarily_unavailable', error_description: `too many failed authentications from this address; retry after ${admitted.retryAfterS} s` });
    }
    const form = (request.body ?? {}) as Record<string, string | string[] | undefined>;
    let outcome: Awaited<ReturnType<typeof issueToken>>;
    try {
      outcome = await issueToken(
        { ...deps, signer: provider, randomToken, dummyHash, sessionRevoked: (sessionId, at) => scope.revokedSessions.revoked(sessionId, at) },
        {
          form,
          ...(client === undefined ? {} : { basicClient: client }),
          addressAllowed: (integrator) => integratorAllows(integrator, request.clientAddress),
          issuer,
        },
      );
    } catch (error) {
      failures.succeeded(request.clientAddress); // our failure, not the caller's
      throw error;
    }
    // Only a wrong client secret, password or refresh token counts as a failed check.
    if (outcome.kind !== 'error' || (outcome.error !== 'invalid_client' && outcome.error !== 'invalid_grant')) failures.succeeded(request.clientAddress);
    switch (outcome.kind) {
      case 'hold':
        holdRequest(request, reply);
        return reply;
      case 'error':
        request.log.info({ error: outcome.error }, 'token request refused');
        return sendError(reply, outcome.error, outcome.description);
      case 'issued':
        request.log.info({ integrator: outcome.integrator.id, grantType: form['grant_type'] }, 'token issued');
        return noStore(reply).code(200).type('application/json').send(outcome.response);
    }
  });

  scope.get(JWKS_PATH, { schema: { hide: true } }, async (_request, reply) =>
    reply.header('Cache-Control', 'public, max-age=300').send(provider.jwks()),
  );

  // RFC 8414 §2, exactly what is true: no authorization endpoint, so no response types; the grants,
  // client authentication methods and scope the token endpoint takes. The issuer is the one the
  // token endpoint writes into tokens asked at the same origin.
  const metadata = (issuer: string): Record<string, unknown> => ({
    issuer,
    token_endpoint: `${issuer}${TOKEN_PATH}`,
    jwks_uri: `${issuer}${JWKS_PATH}`,
    response_types_supported: [],
    grant_types_supported: GRANT_TYPES,
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    scopes_supported: [TOKEN_SCOPE],
  });
  for (const path of METADATA_PATHS) {
    scope.get(path, { schema: { hide: true } }, async (request, reply) => {
      const issuer = provider.issuerFor(requestOrigin(request));
      if (issuer === undefined) return sendError(reply, 'invalid_request', 'the Host header names no host, so there is no issuer to describe');
      return reply.header('Cache-Control', 'public, max-age=300').send(metadata(issuer));
    });
  }
}
