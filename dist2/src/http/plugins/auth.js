import fp from 'fastify-plugin';
import { accessTokenVerifier } from '../../adapters/tokens/jose-tokens.js';
import { requestOrigin } from '../request-origin.js';
import { holdRequest, integratorAllows } from './allowlist.js';
import { basicAuthenticator, parseAuthorization, unauthenticated } from './basic-credentials.js';
export const REALM = 'regpay';
/** Quote a value for an auth-param (RFC 9110 quoted-string). */
function quoted(value) {
    return `"${value.replace(/[\\"]/g, '\\$&')}"`;
}
/**
 * Basic for integrators (basic-credentials.ts). The header a connection was last admitted with is
 * remembered too: a keep-alive client sends the same one on every request, which is then admitted
 * without decoding or hashing it again. It is compared only with what later arrives on that same
 * connection, from the same peer.
 */
async function integratorBasicAuthenticator(config, clock, failures) {
    const challenge = `Basic realm=${quoted(REALM)}, charset="UTF-8"`;
    const accounts = config.integrators.map((integrator) => ({ username: integrator.credentials.username, passwordHash: integrator.credentials.passwordHash?.reveal(), value: integrator }));
    const authenticate = await basicAuthenticator(accounts, challenge, clock, failures);
    const admittedBySocket = new WeakMap();
    return async (request) => {
        const header = request.headers.authorization;
        const admitted = admittedBySocket.get(request.raw.socket);
        if (admitted !== undefined && admitted.header === header && admitted.success.expiresAt > clock.now())
            return admitted.success.value;
        const success = await authenticate(request);
        if (header !== undefined)
            admittedBySocket.set(request.raw.socket, { header, success });
        return success.value;
    };
}
function bearerAuthenticator(config, verifier, revoked, clock) {
    const byClientId = new Map();
    for (const integrator of config.integrators) {
        if (integrator.credentials.clientId !== undefined)
            byClientId.set(integrator.credentials.clientId, integrator);
    }
    const invalid = (description) => unauthenticated(description, `Bearer realm=${quoted(REALM)}, error="invalid_token", error_description=${quoted(description)}`);
    return async (request) => {
        const authorization = parseAuthorization(request.headers.authorization);
        if (authorization === undefined || authorization.scheme !== 'bearer') {
            // RFC 6750 §3.1: a request without credentials gets the challenge without an error code.
            throw unauthenticated('Send Authorization: Bearer with an access token from the token endpoint', `Bearer realm=${quoted(REALM)}`);
        }
        const outcome = await verifier.verify(authorization.value, clock.now(), requestOrigin(request));
        if (!outcome.ok)
            throw invalid(outcome.reason);
        const { clientId, username, sessionId } = outcome.token;
        if (sessionId !== undefined && revoked.has(sessionId))
            throw invalid("the access token's session is revoked");
        const integrator = clientId === undefined ? undefined : byClientId.get(clientId);
        if (integrator === undefined)
            throw invalid('the access token names no known client');
        if (username !== undefined && username !== integrator.credentials.username)
            throw invalid('the access token user does not belong to its client');
        return integrator;
    };
}
export const authPlugin = fp(async (app, options) => {
    const { config, clock } = options;
    const authenticate = config.auth.mode === 'basic'
        ? await integratorBasicAuthenticator(config, clock, app.failedAuthentications)
        : bearerAuthenticator(config, options.verifier ?? (await accessTokenVerifier(config.auth, options.store)), app.revokedSessions, clock);
    if (!app.hasRequestDecorator('integrator'))
        app.decorateRequest('integrator', null);
    app.addHook('onRequest', async (request, reply) => {
        const integrator = await authenticate(request);
        if (!integratorAllows(integrator, request.clientAddress)) {
            holdRequest(request, reply);
            return;
        }
        request.integrator = integrator;
    });
}, { name: 'regpay-auth', fastify: '5.x', dependencies: ['regpay-allowlist', 'regpay-failed-auth', 'regpay-revoked-sessions'] });
//# sourceMappingURL=auth.js.map