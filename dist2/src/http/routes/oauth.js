import { randomBytes } from 'node:crypto';
import formbody from '@fastify/formbody';
import { embeddedProvider } from '../../adapters/tokens/jose-tokens.js';
import { GRANT_TYPES, issueToken, TOKEN_SCOPE } from '../../app/issue-token.js';
import { ApiError } from '../../domain/errors.js';
import { hashSecretAsync } from '../../lib/password-hash.js';
import { holdRequest, integratorAllows } from '../plugins/allowlist.js';
import { toApiError } from '../plugins/errors.js';
import { requestOrigin } from '../request-origin.js';
const FORM_BYTES_MAX = 16_384;
const TOKEN_PATH = '/oauth/token';
const JWKS_PATH = '/oauth/jwks';
const METADATA_PATHS = ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration'];
const ERROR_STATUS = {
    invalid_request: 400,
    invalid_client: 401,
    invalid_grant: 400,
    unsupported_grant_type: 400,
};
/** Whether the service is its own token issuer: the routes here exist exactly then. */
function servesTokens(auth) {
    return auth.mode === 'oauth2' && auth.issuer === undefined;
}
function randomToken() {
    return randomBytes(32).toString('base64url');
}
/** RFC 6749 §5.1: token responses, success or error, are never cached. */
function noStore(reply) {
    return reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
}
function sendError(reply, error, description) {
    const status = error === 'server_error' ? 500 : ERROR_STATUS[error];
    if (error === 'invalid_client')
        void reply.header('WWW-Authenticate', 'Basic realm="regpay"');
    return noStore(reply).code(status).type('application/json').send({ error, error_description: description });
}
/** client_secret_basic: the Basic header carries form-urlencoded client_id:client_secret (RFC 6749 §2.3.1). */
function basicClient(header) {
    if (header === undefined)
        return undefined;
    const match = /^basic +([A-Za-z0-9+/]+={0,2}) *$/i.exec(header);
    if (match === null)
        return 'malformed';
    const decoded = Buffer.from(match[1] ?? '', 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0)
        return 'malformed';
    try {
        const formDecode = (text) => decodeURIComponent(text.replace(/\+/g, ' '));
        return { clientId: formDecode(decoded.slice(0, colon)), clientSecret: formDecode(decoded.slice(colon + 1)) };
    }
    catch {
        return 'malformed';
    }
}
export async function oauthRoutes(scope, deps) {
    const { config } = deps;
    if (!servesTokens(config.auth))
        return;
    const provider = await embeddedProvider(config.auth, deps.store);
    const dummyHash = await hashSecretAsync(randomToken());
    await scope.register(formbody, { bodyLimit: FORM_BYTES_MAX });
    // Errors here are RFC 6749 §5.2 bodies, not ErrorDetail: token clients parse `error`.
    scope.setErrorHandler((error, request, reply) => {
        const known = toApiError(error);
        if (known.status === 503) {
            // Shutting down, or the store refused the token's write before making it: 503 with the
            // API's Retry-After, in the RFC 6749 form.
            for (const [name, value] of Object.entries(known.headers))
                void reply.header(name, value);
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
        if (client === 'malformed')
            return sendError(reply, 'invalid_request', 'the Authorization header is not Basic client credentials');
        const issuer = provider.issuerFor(requestOrigin(request));
        if (issuer === undefined)
            return sendError(reply, 'invalid_request', 'the Host header names no host, so the token would have no issuer');
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
        const form = (request.body ?? {});
        let outcome;
        try {
            outcome = await issueToken({ ...deps, signer: provider, randomToken, dummyHash, sessionRevoked: (sessionId, at) => scope.revokedSessions.revoked(sessionId, at) }, {
                form,
                ...(client === undefined ? {} : { basicClient: client }),
                addressAllowed: (integrator) => integratorAllows(integrator, request.clientAddress),
                issuer,
            });
        }
        catch (error) {
            failures.succeeded(request.clientAddress); // our failure, not the caller's
            throw error;
        }
        // Only a wrong client secret, password or refresh token counts as a failed check.
        if (outcome.kind !== 'error' || (outcome.error !== 'invalid_client' && outcome.error !== 'invalid_grant'))
            failures.succeeded(request.clientAddress);
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
    scope.get(JWKS_PATH, { schema: { hide: true } }, async (_request, reply) => reply.header('Cache-Control', 'public, max-age=300').send(provider.jwks()));
    // RFC 8414 §2, exactly what is true: no authorization endpoint, so no response types; the grants,
    // client authentication methods and scope the token endpoint takes. The issuer is the one the
    // token endpoint writes into tokens asked at the same origin.
    const metadata = (issuer) => ({
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
            if (issuer === undefined)
                return sendError(reply, 'invalid_request', 'the Host header names no host, so there is no issuer to describe');
            return reply.header('Cache-Control', 'public, max-age=300').send(metadata(issuer));
        });
    }
}
//# sourceMappingURL=oauth.js.map