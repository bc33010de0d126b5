import { createHash } from 'node:crypto';
import type { Config, IntegratorConfig } from '../config/types.js';
import { assert } from '../lib/assert.js';
import { verifySecretAsync } from '../lib/password-hash.js';
import { open, seal } from '../lib/sealed-box.js';
import type { Clock, Ids } from '../ports/clock.js';
import type { RefreshTokenRecord, Store } from '../ports/store.js';
import type { AccessTokenSigner } from '../ports/tokens.js';

/**
 * The embedded identity provider's token endpoint (CONTRACT §7, spec "OAuth2 password grant"):
 * `grant_type=password` and `grant_type=refresh_token`, which the spec requires, and
 * `grant_type=client_credentials` (RFC 6749 §4.4), the grant for a client acting for itself that
 * RFC 9700 leaves in place of the password grant. All three authenticate the client.
 *
 * A client-credentials token gets no refresh token (RFC 6749 §4.4.3): the client asks again with
 * its credentials. So it belongs to no session: it has no `sid` and no `preferred_username`, and
 * lives `accessTokenTtlS` like every access token.
 *
 * A `scope` parameter is not checked, for any grant: every token grants the one scope `api`, and
 * every answer says so in `scope`, as RFC 6749 §3.3 asks of a server granting other than asked.
 *
 * Refresh tokens are opaque random strings; only their SHA-256 is stored. Every refresh rotates
 * the token. Presenting a spent one again within `refreshTokenReuseIntervalS` of its rotation
 * answers the pair it was spent for (two threads of one client refreshing at once both go on with
 * one pair; see refreshGrant); presenting it later is refused and revokes every token descended
 * from the same password grant (its family), because a reused refresh token means two parties
 * hold it. Each new refresh token is valid for the full `refreshTokenTtlS` (a sliding session).
 * `session_state` is the family id, and the access tokens' `sid`: a revoked family is a revoked
 * session, whose access tokens the API refuses (http/plugins/revoked-sessions.ts).
 */
export type OAuthErrorCode = 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unsupported_grant_type';

/** The grants answered, as the metadata document advertises them (`grant_types_supported`). */
export const GRANT_TYPES = ['client_credentials', 'password', 'refresh_token'] as const;
type GrantType = (typeof GRANT_TYPES)[number];

/** The form fields each grant needs besides the client's credentials. */
const GRANT_FIELDS: Readonly<Record<GrantType, readonly string[]>> = {
  client_credentials: [],
  password: ['username', 'password'],
  refresh_token: ['refresh_token'],
};

/** A password or refresh grant's answer: exactly the fields CONTRACT §7 lists. */
export interface SessionTokenResponse {
  readonly access_token: string;
  readonly expires_in: number;
  readonly refresh_expires_in: number;
  readonly refresh_token: string;
  readonly token_type: 'bearer';
  readonly 'not-before-policy': number;
  readonly session_state: string;
  readonly scope: string;
}

/** A client-credentials grant's answer (RFC 6749 §4.4.3, §5.1): no refresh token, so no session. */
export interface ClientTokenResponse {
  readonly access_token: string;
  readonly token_type: 'bearer';
  readonly expires_in: number;
  readonly scope: string;
}

export type TokenResponse = SessionTokenResponse | ClientTokenResponse;

export type TokenOutcome =
  | { readonly kind: 'issued'; readonly integrator: IntegratorConfig; readonly response: TokenResponse }
  | { readonly kind: 'error'; readonly error: OAuthErrorCode; readonly description: string }
  /** The client belongs to an integrator whose allowlist does not hold the caller's address. */
  | { readonly kind: 'hold' };

export interface TokenRequest {
  /** The form fields; a field sent twice arrives as an array (and is refused, RFC 6749 §3.2). */
  readonly form: Readonly<Record<string, string | readonly string[] | undefined>>;
  /** Client credentials from an `Authorization: Basic` header (client_secret_basic), when sent. */
  readonly basicClient?: { readonly clientId: string; readonly clientSecret: string };
  /** Whether the caller's address is in this integrator's allowlist. */
  readonly addressAllowed: (integrator: IntegratorConfig) => boolean;
  /** The `iss` of the access token issued (the provider's issuer for the origin asked). */
  readonly issuer: string;
}

export interface IssueTokenDeps {
  readonly config: Config;
  readonly store: Store;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly signer: AccessTokenSigner;
  /** A fresh unguessable opaque token (at least 256 bits of entropy). */
  readonly randomToken: () => string;
  /** A hash of a secret nobody knows: unknown clients and users are checked against it so timing tells nothing. */
  readonly dummyHash: string;
  /** Told of each session this instance revoked (committed at `at`), so its access tokens are refused here at once. */
  readonly sessionRevoked: (sessionId: string, at: number) => void;
}

/** The one scope every token grants: the integrator API. */
export const TOKEN_SCOPE = 'api';

/**
 * How long after its revocation a session's access tokens must still be refused: twice the
 * longest an access token is accepted (its lifetime and the clock tolerance), so a token issued
 * by a refresh racing the revocation, a little after it, is covered too.
 */
export function revocationWindowMs(auth: { readonly accessTokenTtlS: number; readonly clockToleranceS: number }): number {
  return 2 * (auth.accessTokenTtlS + auth.clockToleranceS) * 1000;
}

export function refreshTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

type Fields = Record<string, string>;
type Step<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly outcome: TokenOutcome };

function fail(error: OAuthErrorCode, description: string): { ok: false; outcome: TokenOutcome } {
  return { ok: false, outcome: { kind: 'error', error, description } };
}

/** Every named field present exactly once and non-empty. */
function requireFields(form: TokenRequest['form'], names: readonly string[]): Step<Fields> {
  const missing: string[] = [];
  const repeated: string[] = [];
  const fields: Fields = {};
  for (const name of names) {
    const value = form[name];
    if (Array.isArray(value)) repeated.push(name);
    else if (typeof value !== 'string' || value === '') missing.push(name);
    else fields[name] = value;
  }
  if (repeated.length > 0) return fail('invalid_request', `parameters sent more than once: ${repeated.join(', ')}`);
  if (missing.length > 0) return fail('invalid_request', `missing parameters: ${missing.join(', ')}`);
  return { ok: true, value: fields };
}

/** client_id/client_secret from the form, or from a Basic header, never from both (RFC 6749 §2.3). */
function clientCredentials(request: TokenRequest): Step<{ clientId: string; clientSecret: string }> {
  const { basicClient, form } = request;
  if (basicClient === undefined) {
    const fields = requireFields(form, ['client_id', 'client_secret']);
    if (!fields.ok) return fields;
    return { ok: true, value: { clientId: fields.value['client_id'] ?? '', clientSecret: fields.value['client_secret'] ?? '' } };
  }
  if (form['client_secret'] !== undefined) return fail('invalid_request', 'use one client authentication method: the Authorization header or client_secret');
  const formId = form['client_id'];
  if (formId !== undefined && formId !== basicClient.clientId) return fail('invalid_request', 'client_id differs from the Authorization header');
  return { ok: true, value: basicClient };
}

export async function issueToken(deps: IssueTokenDeps, request: TokenRequest): Promise<TokenOutcome> {
  const grantType = request.form['grant_type'];
  if (Array.isArray(grantType)) return { kind: 'error', error: 'invalid_request', description: 'grant_type sent more than once' };
  if (typeof grantType !== 'string' || grantType === '') return { kind: 'error', error: 'invalid_request', description: 'missing parameters: grant_type' };
  if (!isGrantType(grantType)) {
    return { kind: 'error', error: 'unsupported_grant_type', description: `grant_type must be one of ${GRANT_TYPES.join(', ')}` };
  }

  // All parameters are checked before any secret is, so a malformed request costs no scrypt work.
  const grantFields = requireFields(request.form, GRANT_FIELDS[grantType]);
  const client = clientCredentials(request);
  if (!client.ok) return client.outcome;
  if (!grantFields.ok) return grantFields.outcome;

  const authenticated = await authenticateClient(deps, request, client.value);
  if (!authenticated.ok) return authenticated.outcome;
  const integrator = authenticated.value;

  if (grantType === 'client_credentials') return { kind: 'issued', integrator, response: await issueClientToken(deps, integrator, request.issuer) };
  const grant =
    grantType === 'password'
      ? await passwordGrant(deps, integrator, grantFields.value['username'] ?? '', grantFields.value['password'] ?? '', request.issuer)
      : await refreshGrant(deps, integrator, grantFields.value['refresh_token'] ?? '', request.issuer);
  if (!grant.ok) return grant.outcome;
  return { kind: 'issued', integrator, response: grant.value };
}

function isGrantType(value: string): value is GrantType {
  return (GRANT_TYPES as readonly string[]).includes(value);
}

async function authenticateClient(deps: IssueTokenDeps, request: TokenRequest, client: { clientId: string; clientSecret: string }): Promise<Step<IntegratorConfig>> {
  const integrator = deps.config.integrators.find((candidate) => candidate.credentials.clientId === client.clientId);
  // Checked before the secret: an integrator's client used from elsewhere learns nothing, not even "wrong secret".
  if (integrator !== undefined && !request.addressAllowed(integrator)) return { ok: false, outcome: { kind: 'hold' } };
  const hash = integrator?.credentials.clientSecretHash?.reveal();
  const ok = await verifySecretAsync(client.clientSecret, hash ?? deps.dummyHash);
  if (!ok || integrator === undefined || hash === undefined) return fail('invalid_client', 'client authentication failed');
  return { ok: true, value: integrator };
}

async function passwordGrant(deps: IssueTokenDeps, integrator: IntegratorConfig, username: string, password: string, issuer: string): Promise<Step<SessionTokenResponse>> {
  // The username must be this client's own user: all four credentials belong to one integrator.
  const hash = username === integrator.credentials.username ? integrator.credentials.passwordHash?.reveal() : undefined;
  const ok = await verifySecretAsync(password, hash ?? deps.dummyHash);
  if (!ok || hash === undefined) return fail('invalid_grant', 'invalid user credentials');
  const now = deps.clock.now();
  const pair = await newPair(deps, integrator, deps.ids.uuid(), issuer, now);
  const forget = forgetBefore(deps.config.auth, now);
  await deps.store.saveRefreshToken(pair.record, forget.expiredBefore, forget.revokedBefore, forget.sealedBefore);
  return { ok: true, value: pair.response };
}

/** The purpose a successor pair is sealed for, under the refresh token spent for it (lib/sealed-box.ts). */
const SUCCESSOR_PURPOSE = 'refresh-token successor';

/**
 * Spend the presented refresh token for a new pair of its session. The new pair is made before
 * the one write that spends the token (its access token names the session, read first), and kept
 * with the spent token sealed under a key only the spent token yields: a second refresh with the
 * same token within `refreshTokenReuseIntervalS` (two threads of one client refreshing at once)
 * gets that same pair, its lifetimes counted from when it was issued; after the interval, the
 * reuse revokes the session. The database never holds the pair, nor the spent token, in clear,
 * and holds the sealed pair only until the next token write after the interval (none at all
 * with an interval of 0).
 */
async function refreshGrant(deps: IssueTokenDeps, integrator: IntegratorConfig, token: string, issuer: string): Promise<Step<SessionTokenResponse>> {
  const tokenHash = refreshTokenHash(token);
  const stored = await deps.store.refreshToken(tokenHash);
  if (stored === undefined) return fail('invalid_grant', 'the refresh token is not valid');
  if (stored.integratorId !== integrator.id) return fail('invalid_grant', 'the refresh token was not issued to this client');
  const now = deps.clock.now();
  const pair = await newPair(deps, integrator, stored.familyId, issuer, now);
  const forget = forgetBefore(deps.config.auth, now);
  const reuseIntervalMs = deps.config.auth.refreshTokenReuseIntervalS * 1000;
  const rotation = await deps.store.rotateRefreshToken({
    tokenHash,
    now,
    successor: pair.record,
    sealedSuccessor: reuseIntervalMs === 0 ? undefined : seal(token, SUCCESSOR_PURPOSE, JSON.stringify(pair.response)),
    reuseIntervalMs,
    forgetExpiredBefore: forget.expiredBefore,
    forgetRevokedBefore: forget.revokedBefore,
  });
  switch (rotation.kind) {
    case 'rotated':
      return { ok: true, value: pair.response };
    case 'replayed': {
      const opened = open(token, SUCCESSOR_PURPOSE, rotation.sealedSuccessor);
      // Stored with the token whose hash found it, sealed under that very token.
      assert(opened !== undefined, 'the successor of a spent refresh token does not open with that token');
      return { ok: true, value: aged(JSON.parse(opened) as SessionTokenResponse, now - rotation.usedAt) };
    }
    case 'reused':
      deps.sessionRevoked(rotation.familyId, now);
      return fail('invalid_grant', 'the refresh token was already used; its session is revoked');
    case 'unknown':
      return fail('invalid_grant', stored.expiresAt <= now ? 'the refresh token has expired' : 'the refresh token is not valid');
  }
}

/** A pair answered again `elapsedMs` after it was issued: the same tokens, their lifetimes what is left of them. */
function aged(response: SessionTokenResponse, elapsedMs: number): SessionTokenResponse {
  const left = (seconds: number): number => Math.max(0, Math.floor((seconds * 1000 - elapsedMs) / 1000));
  return { ...response, expires_in: left(response.expires_in), refresh_expires_in: left(response.refresh_expires_in) };
}

/**
 * A token is kept one more lifetime after it expired: a used one presented again meanwhile still
 * revokes its family (theft detection); after that it is forgotten. A revocation is kept while its
 * session's access tokens must be refused, and while a token of it is kept. The pair a token was
 * spent for is kept sealed only for the reuse interval: past it, the pair is never answered again,
 * and a thief holding both a backup and the spent token must find nothing to open.
 */
function forgetBefore(auth: Config['auth'], now: number): { expiredBefore: number; revokedBefore: number; sealedBefore: number } {
  return {
    expiredBefore: now - auth.refreshTokenTtlS * 1000,
    revokedBefore: now - revocationWindowMs(auth),
    sealedBefore: now - auth.refreshTokenReuseIntervalS * 1000,
  };
}

/** A new access and refresh token of session `familyId`, and the record of the refresh token (stored by the caller). */
async function newPair(
  deps: IssueTokenDeps,
  integrator: IntegratorConfig,
  familyId: string,
  issuer: string,
  now: number,
): Promise<{ record: RefreshTokenRecord; response: SessionTokenResponse }> {
  const { accessTokenTtlS, refreshTokenTtlS } = deps.config.auth;
  const refreshToken = deps.randomToken();
  const accessToken = await deps.signer.sign(
    {
      issuer,
      integratorId: integrator.id,
      username: integrator.credentials.username,
      clientId: integrator.credentials.clientId ?? '',
      sessionId: familyId,
      scope: TOKEN_SCOPE,
    },
    now,
    accessTokenTtlS,
  );
  return {
    record: { tokenHash: refreshTokenHash(refreshToken), familyId, integratorId: integrator.id, expiresAt: now + refreshTokenTtlS * 1000 },
    response: {
      access_token: accessToken,
      expires_in: accessTokenTtlS,
      refresh_expires_in: refreshTokenTtlS,
      refresh_token: refreshToken,
      token_type: 'bearer',
      'not-before-policy': 0,
      session_state: familyId,
      scope: TOKEN_SCOPE,
    },
  };
}

/** An access token for the client itself: nothing is stored, so there is nothing to refresh or revoke. */
async function issueClientToken(deps: IssueTokenDeps, integrator: IntegratorConfig, issuer: string): Promise<ClientTokenResponse> {
  const { accessTokenTtlS } = deps.config.auth;
  const accessToken = await deps.signer.sign(
    { issuer, integratorId: integrator.id, clientId: integrator.credentials.clientId ?? '', scope: TOKEN_SCOPE },
    deps.clock.now(),
    accessTokenTtlS,
  );
  return { access_token: accessToken, token_type: 'bearer', expires_in: accessTokenTtlS, scope: TOKEN_SCOPE };
}
