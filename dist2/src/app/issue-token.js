import { createHash } from 'node:crypto';
import { verifySecretAsync } from '../lib/password-hash.js';
/** The grants answered, as the metadata document advertises them (`grant_types_supported`). */
export const GRANT_TYPES = ['client_credentials', 'password', 'refresh_token'];
/** The form fields each grant needs besides the client's credentials. */
const GRANT_FIELDS = {
    client_credentials: [],
    password: ['username', 'password'],
    refresh_token: ['refresh_token'],
};
/** The one scope every token grants: the integrator API. */
export const TOKEN_SCOPE = 'api';
/**
 * How long after its revocation a session's access tokens must still be refused: twice the
 * longest an access token is accepted (its lifetime and the clock tolerance), so a token issued
 * by a refresh racing the revocation, a little after it, is covered too.
 */
export function revocationWindowMs(auth) {
    return 2 * (auth.accessTokenTtlS + auth.clockToleranceS) * 1000;
}
export function refreshTokenHash(token) {
    return createHash('sha256').update(token).digest('hex');
}
function fail(error, description) {
    return { ok: false, outcome: { kind: 'error', error, description } };
}
/** Every named field present exactly once and non-empty. */
function requireFields(form, names) {
    const missing = [];
    const repeated = [];
    const fields = {};
    for (const name of names) {
        const value = form[name];
        if (Array.isArray(value))
            repeated.push(name);
        else if (typeof value !== 'string' || value === '')
            missing.push(name);
        else
            fields[name] = value;
    }
    if (repeated.length > 0)
        return fail('invalid_request', `parameters sent more than once: ${repeated.join(', ')}`);
    if (missing.length > 0)
        return fail('invalid_request', `missing parameters: ${missing.join(', ')}`);
    return { ok: true, value: fields };
}
/** client_id/client_secret from the form, or from a Basic header, never from both (RFC 6749 §2.3). */
function clientCredentials(request) {
    const { basicClient, form } = request;
    if (basicClient === undefined) {
        const fields = requireFields(form, ['client_id', 'client_secret']);
        if (!fields.ok)
            return fields;
        return { ok: true, value: { clientId: fields.value['client_id'] ?? '', clientSecret: fields.value['client_secret'] ?? '' } };
    }
    if (form['client_secret'] !== undefined)
        return fail('invalid_request', 'use one client authentication method: the Authorization header or client_secret');
    const formId = form['client_id'];
    if (formId !== undefined && formId !== basicClient.clientId)
        return fail('invalid_request', 'client_id differs from the Authorization header');
    return { ok: true, value: basicClient };
}
export async function issueToken(deps, request) {
    const grantType = request.form['grant_type'];
    if (Array.isArray(grantType))
        return { kind: 'error', error: 'invalid_request', description: 'grant_type sent more than once' };
    if (typeof grantType !== 'string' || grantType === '')
        return { kind: 'error', error: 'invalid_request', description: 'missing parameters: grant_type' };
    if (!isGrantType(grantType)) {
        return { kind: 'error', error: 'unsupported_grant_type', description: `grant_type must be one of ${GRANT_TYPES.join(', ')}` };
    }
    // All parameters are checked before any secret is, so a malformed request costs no scrypt work.
    const grantFields = requireFields(request.form, GRANT_FIELDS[grantType]);
    const client = clientCredentials(request);
    if (!client.ok)
        return client.outcome;
    if (!grantFields.ok)
        return grantFields.outcome;
    const authenticated = await authenticateClient(deps, request, client.value);
    if (!authenticated.ok)
        return authenticated.outcome;
    const integrator = authenticated.value;
    if (grantType === 'client_credentials')
        return { kind: 'issued', integrator, response: await issueClientToken(deps, integrator, request.issuer) };
    const grant = grantType === 'password'
        ? await passwordGrant(deps, integrator, grantFields.value['username'] ?? '', grantFields.value['password'] ?? '')
        : await refreshGrant(deps, integrator, grantFields.value['refresh_token'] ?? '');
    if (!grant.ok)
        return grant.outcome;
    return { kind: 'issued', integrator, response: await issue(deps, integrator, grant.value, request.issuer) };
}
function isGrantType(value) {
    return GRANT_TYPES.includes(value);
}
async function authenticateClient(deps, request, client) {
    const integrator = deps.config.integrators.find((candidate) => candidate.credentials.clientId === client.clientId);
    // Checked before the secret: an integrator's client used from elsewhere learns nothing, not even "wrong secret".
    if (integrator !== undefined && !request.addressAllowed(integrator))
        return { ok: false, outcome: { kind: 'hold' } };
    const hash = integrator?.credentials.clientSecretHash?.reveal();
    const ok = await verifySecretAsync(client.clientSecret, hash ?? deps.dummyHash);
    if (!ok || integrator === undefined || hash === undefined)
        return fail('invalid_client', 'client authentication failed');
    return { ok: true, value: integrator };
}
async function passwordGrant(deps, integrator, username, password) {
    // The username must be this client's own user: all four credentials belong to one integrator.
    const hash = username === integrator.credentials.username ? integrator.credentials.passwordHash?.reveal() : undefined;
    const ok = await verifySecretAsync(password, hash ?? deps.dummyHash);
    if (!ok || hash === undefined)
        return fail('invalid_grant', 'invalid user credentials');
    return { ok: true, value: deps.ids.uuid() };
}
/** Consume the presented refresh token; its family continues in the token issued next. */
async function refreshGrant(deps, integrator, token) {
    const now = deps.clock.now();
    const use = await deps.store.useRefreshToken(refreshTokenHash(token), now);
    switch (use.kind) {
        case 'unknown':
            return fail('invalid_grant', 'the refresh token is not valid');
        case 'reused':
            deps.sessionRevoked(use.familyId, now);
            return fail('invalid_grant', 'the refresh token was already used; its session is revoked');
        case 'ok':
            if (use.record.integratorId !== integrator.id)
                return fail('invalid_grant', 'the refresh token was not issued to this client');
            if (use.record.expiresAt <= now)
                return fail('invalid_grant', 'the refresh token has expired');
            return { ok: true, value: use.record.familyId };
    }
}
async function issue(deps, integrator, familyId, issuer) {
    const { accessTokenTtlS, refreshTokenTtlS } = deps.config.auth;
    const now = deps.clock.now();
    const refreshToken = deps.randomToken();
    await deps.store.saveRefreshToken({
        tokenHash: refreshTokenHash(refreshToken),
        familyId,
        integratorId: integrator.id,
        expiresAt: now + refreshTokenTtlS * 1000,
    }, 
    // A token is kept one more lifetime after it expired: a used one presented again meanwhile
    // still revokes its family (theft detection); after that it is forgotten. A revocation is
    // kept while its session's access tokens must be refused, and while a token of it is kept.
    now - refreshTokenTtlS * 1000, now - revocationWindowMs(deps.config.auth));
    const accessToken = await deps.signer.sign({
        issuer,
        integratorId: integrator.id,
        username: integrator.credentials.username,
        clientId: integrator.credentials.clientId ?? '',
        sessionId: familyId,
        scope: TOKEN_SCOPE,
    }, now, accessTokenTtlS);
    return {
        access_token: accessToken,
        expires_in: accessTokenTtlS,
        refresh_expires_in: refreshTokenTtlS,
        refresh_token: refreshToken,
        token_type: 'bearer',
        'not-before-policy': 0,
        session_state: familyId,
        scope: TOKEN_SCOPE,
    };
}
/** An access token for the client itself: nothing is stored, so there is nothing to refresh or revoke. */
async function issueClientToken(deps, integrator, issuer) {
    const { accessTokenTtlS } = deps.config.auth;
    const accessToken = await deps.signer.sign({ issuer, integratorId: integrator.id, clientId: integrator.credentials.clientId ?? '', scope: TOKEN_SCOPE }, deps.clock.now(), accessTokenTtlS);
    return { access_token: accessToken, token_type: 'bearer', expires_in: accessTokenTtlS, scope: TOKEN_SCOPE };
}
//# sourceMappingURL=issue-token.js.map