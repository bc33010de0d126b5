import { createPublicKey, generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { SignJWT, calculateJwkThumbprint, createRemoteJWKSet, errors, jwtVerify, type JWK, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { parseSigningKey, parseVerificationKey } from '../../lib/signing-key.js';
import type { AuthConfig } from '../../config/types.js';
import type { AccessTokenClaims, AccessTokenSigner, AccessTokenVerifier, VerifyOutcome } from '../../ports/tokens.js';
import type { Store } from '../../ports/store.js';

/**
 * The embedded identity provider's keys and the verifiers for both token sources.
 *
 * The signing key comes from `auth.signingKey` when configured; otherwise one EC P-256 key is
 * generated the first time any instance needs it and kept as the store setting
 * `oauth.signingKey`, so every instance and every restart signs and verifies with the same key.
 * ES256 for EC keys, RS256 for RSA keys. Tokens carry `typ: at+jwt` (RFC 9068) and the kid of
 * their key; tokens of the public keys in `auth.verificationKeys` are accepted too, so the signing
 * key can be rotated without refusing tokens issued under the old one (docs/configuration.md).
 *
 * The issuer identifier is `auth.publicUrl`; without it, the origin each request was made to
 * (http/request-origin.ts), so the provider is discoverable at whatever URL a client reaches it
 * (RFC 8414 §3.3), and a token is accepted where it was issued: by every instance behind the
 * same URL, as they all see the same Host.
 */
export const SIGNING_KEY_SETTING = 'oauth.signingKey';
/** Audience of embedded tokens when `auth.audience` is not configured. */
export const DEFAULT_AUDIENCE = 'regpay-api';
const ACCESS_TOKEN_TYPE = 'at+jwt';
/** Algorithms accepted from an external issuer: asymmetric only, so a JWKS can never hold an HMAC secret we would accept. */
const EXTERNAL_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'EdDSA'];
const JWKS_TIMEOUT_MS = 5_000;
const JWKS_COOLDOWN_MS = 30_000;
const JWKS_CACHE_MAX_AGE_MS = 600_000;

export interface EmbeddedProvider extends AccessTokenSigner, AccessTokenVerifier {
  /** The issuer identifier for a request made to `origin`; undefined only without auth.publicUrl and without an origin. */
  issuerFor(origin: string | undefined): string | undefined;
  readonly audience: string;
  readonly algorithm: 'ES256' | 'RS256';
  /** The public key set published at /oauth/jwks. */
  jwks(): { readonly keys: readonly JWK[] };
}

function generatedKey(): string {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return JSON.stringify(privateKey.export({ format: 'jwk' }));
}

function verifyFailure(error: unknown): VerifyOutcome {
  if (error instanceof errors.JWTExpired) return { ok: false, reason: 'the access token has expired' };
  if (error instanceof errors.JWTClaimValidationFailed) return { ok: false, reason: `the access token's ${error.claim} claim is not acceptable` };
  if (error instanceof errors.JWSSignatureVerificationFailed) return { ok: false, reason: 'the access token signature is invalid' };
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid) {
    return { ok: false, reason: 'the token issuer keys could not be fetched' };
  }
  if (error instanceof errors.JWKSNoMatchingKey) return { ok: false, reason: 'the access token was signed by an unknown key' };
  return { ok: false, reason: 'the access token is malformed or not acceptable' };
}

function claimText(payload: JWTPayload, name: string): string | undefined {
  const value = payload[name];
  return typeof value === 'string' ? value : undefined;
}

function outcome(payload: JWTPayload): VerifyOutcome {
  return {
    ok: true,
    token: {
      clientId: claimText(payload, 'azp') ?? claimText(payload, 'client_id'),
      username: claimText(payload, 'preferred_username'),
      subject: payload.sub,
      sessionId: claimText(payload, 'sid'),
    },
  };
}

/** A key the embedded provider verifies with, by its kid (RFC 7638 thumbprint). */
interface VerificationKey {
  readonly key: KeyObject;
  readonly algorithm: 'ES256' | 'RS256';
  /** As published at /oauth/jwks. */
  readonly jwk: JWK;
}

function algorithmOf(key: KeyObject): 'ES256' | 'RS256' {
  return key.asymmetricKeyType === 'ec' ? 'ES256' : 'RS256';
}

async function verificationKey(publicKey: KeyObject): Promise<VerificationKey> {
  const exported = publicKey.export({ format: 'jwk' }) as JWK;
  const algorithm = algorithmOf(publicKey);
  return { key: publicKey, algorithm, jwk: { ...exported, kid: await calculateJwkThumbprint(exported, 'sha256'), alg: algorithm, use: 'sig' } };
}

class Embedded implements EmbeddedProvider {
  readonly algorithm: 'ES256' | 'RS256';
  readonly #privateKey: KeyObject;
  readonly #kid: string;
  /** The signing key's public half first, then auth.verificationKeys; by kid. */
  readonly #keys: ReadonlyMap<string, VerificationKey>;
  readonly #getKey: JWTVerifyGetKey;
  readonly #algorithms: string[];

  constructor(
    privateKey: KeyObject,
    keys: readonly VerificationKey[],
    /** auth.publicUrl: the one issuer, whatever origin a request names. */
    readonly publicUrl: string | undefined,
    readonly audience: string,
    readonly clockToleranceS: number,
  ) {
    this.#privateKey = privateKey;
    this.algorithm = algorithmOf(privateKey);
    this.#kid = keys[0]?.jwk.kid ?? '';
    this.#keys = new Map(keys.map((key) => [key.jwk.kid ?? '', key]));
    this.#algorithms = [...new Set(keys.map((key) => key.algorithm))];
    // A token names its key by kid, and that key's algorithm must be the token's: no other key is tried.
    this.#getKey = (header) => {
      const key = this.#keys.get(header.kid ?? '');
      if (key === undefined || key.algorithm !== header.alg) throw new errors.JWKSNoMatchingKey();
      return key.key;
    };
  }

  issuerFor(origin: string | undefined): string | undefined {
    return this.publicUrl ?? origin;
  }

  async sign(claims: AccessTokenClaims, nowMs: number, ttlS: number): Promise<string> {
    const nowS = Math.floor(nowMs / 1000);
    return new SignJWT({
      azp: claims.clientId,
      client_id: claims.clientId,
      ...(claims.username === undefined ? {} : { preferred_username: claims.username }),
      ...(claims.sessionId === undefined ? {} : { sid: claims.sessionId }),
      scope: claims.scope,
    })
      .setProtectedHeader({ alg: this.algorithm, kid: this.#kid, typ: ACCESS_TOKEN_TYPE })
      .setIssuer(claims.issuer)
      .setAudience(this.audience)
      .setSubject(claims.integratorId)
      .setIssuedAt(nowS)
      .setNotBefore(nowS)
      .setExpirationTime(nowS + ttlS)
      .setJti(randomUUID())
      .sign(this.#privateKey);
  }

  async verify(token: string, nowMs: number, origin: string | undefined): Promise<VerifyOutcome> {
    const issuer = this.issuerFor(origin);
    if (issuer === undefined) return { ok: false, reason: "the access token's issuer cannot be checked: the request's Host names no host" };
    try {
      const { payload } = await jwtVerify(token, this.#getKey, {
        issuer,
        audience: this.audience,
        algorithms: this.#algorithms,
        typ: ACCESS_TOKEN_TYPE,
        currentDate: new Date(nowMs),
        clockTolerance: this.clockToleranceS,
        requiredClaims: ['exp', 'sub'],
      });
      return outcome(payload);
    } catch (error) {
      return verifyFailure(error);
    }
  }

  jwks(): { readonly keys: readonly JWK[] } {
    return { keys: [...this.#keys.values()].map((key) => key.jwk) };
  }
}

/** By store, then by the auth settings it was made from (their keys, issuer and audience). */
const providers = new WeakMap<Store, WeakMap<AuthConfig, Promise<EmbeddedProvider>>>();

async function createEmbedded(auth: AuthConfig, store: Store): Promise<EmbeddedProvider> {
  const text = auth.signingKey?.reveal() ?? (await store.getOrCreateSetting(SIGNING_KEY_SETTING, generatedKey));
  const parsed = parseSigningKey(text);
  // Config validation checks configured keys; a stored one was generated by this code.
  if (!parsed.ok) throw new Error(`the embedded token signing key ${parsed.reason}`);
  const others = auth.verificationKeys.map((keyText, index) => {
    const other = parseVerificationKey(keyText);
    if (!other.ok) throw new Error(`auth.verificationKeys[${index}] ${other.reason}`);
    return other.key;
  });
  const keys = await Promise.all([createPublicKey(parsed.key), ...others].map(verificationKey));
  return new Embedded(parsed.key, keys, auth.publicUrl, auth.audience ?? DEFAULT_AUDIENCE, auth.clockToleranceS);
}

/**
 * The embedded provider for this store and these auth settings. The token route and the auth
 * plugin both ask for it; they share one instance (and one read of the setting). Another
 * configuration on the same store (another instance in one process, as tests run) gets its own.
 */
export function embeddedProvider(auth: AuthConfig, store: Store): Promise<EmbeddedProvider> {
  let byAuth = providers.get(store);
  if (byAuth === undefined) {
    byAuth = new WeakMap();
    providers.set(store, byAuth);
  }
  let provider = byAuth.get(auth);
  if (provider === undefined) {
    provider = createEmbedded(auth, store);
    byAuth.set(auth, provider);
    provider.catch(() => byAuth.delete(auth));
  }
  return provider;
}

/**
 * Verifies tokens of an external issuer (e.g. Keycloak) against its JWKS, fetched and cached by
 * jose. `jwksTimeoutMs` is for tests, which need not wait 5 s for an issuer that never answers.
 */
export function externalVerifier(auth: AuthConfig & { issuer: string; jwksUrl: string }, jwksTimeoutMs = JWKS_TIMEOUT_MS): AccessTokenVerifier {
  const keys: JWTVerifyGetKey = createRemoteJWKSet(new URL(auth.jwksUrl), {
    timeoutDuration: jwksTimeoutMs,
    cooldownDuration: JWKS_COOLDOWN_MS,
    cacheMaxAge: JWKS_CACHE_MAX_AGE_MS,
  });
  return {
    async verify(token: string, nowMs: number): Promise<VerifyOutcome> {
      try {
        const { payload } = await jwtVerify(token, keys, {
          issuer: auth.issuer,
          ...(auth.audience === undefined ? {} : { audience: auth.audience }),
          algorithms: EXTERNAL_ALGORITHMS,
          currentDate: new Date(nowMs),
          clockTolerance: auth.clockToleranceS,
          requiredClaims: ['exp'],
        });
        return outcome(payload);
      } catch (error) {
        return verifyFailure(error);
      }
    },
  };
}

/** The verifier for the configured oauth2 mode: external issuer when named, else the embedded provider. */
export async function accessTokenVerifier(auth: AuthConfig, store: Store): Promise<AccessTokenVerifier> {
  if (auth.issuer !== undefined && auth.jwksUrl !== undefined) return externalVerifier({ ...auth, issuer: auth.issuer, jwksUrl: auth.jwksUrl });
  return embeddedProvider(auth, store);
}
