import { createPublicKey, generateKeyPairSync, randomUUID } from 'node:crypto';
import { SignJWT, calculateJwkThumbprint, createRemoteJWKSet, errors, jwtVerify } from 'jose';
import { parseSigningKey, parseVerificationKey } from '../../lib/signing-key.js';
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
function generatedKey() {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    return JSON.stringify(privateKey.export({ format: 'jwk' }));
}
function verifyFailure(error) {
    if (error instanceof errors.JWTExpired)
        return { ok: false, reason: 'the access token has expired' };
    if (error instanceof errors.JWTClaimValidationFailed)
        return { ok: false, reason: `the access token's ${error.claim} claim is not acceptable` };
    if (error instanceof errors.JWSSignatureVerificationFailed)
        return { ok: false, reason: 'the access token signature is invalid' };
    if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid) {
        return { ok: false, reason: 'the token issuer keys could not be fetched' };
    }
    if (error instanceof errors.JWKSNoMatchingKey)
        return { ok: false, reason: 'the access token was signed by an unknown key' };
    return { ok: false, reason: 'the access token is malformed or not acceptable' };
}
function claimText(payload, name) {
    const value = payload[name];
    return typeof value === 'string' ? value : undefined;
}
function outcome(payload) {
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
function algorithmOf(key) {
    return key.asymmetricKeyType === 'ec' ? 'ES256' : 'RS256';
}
async function verificationKey(publicKey) {
    const exported = publicKey.export({ format: 'jwk' });
    const algorithm = algorithmOf(publicKey);
    return { key: publicKey, algorithm, jwk: { ...exported, kid: await calculateJwkThumbprint(exported, 'sha256'), alg: algorithm, use: 'sig' } };
}
class Embedded {
    publicUrl;
    audience;
    clockToleranceS;
    algorithm;
    #privateKey;
    #kid;
    /** The signing key's public half first, then auth.verificationKeys; by kid. */
    #keys;
    #getKey;
    #algorithms;
    constructor(privateKey, keys, 
    /** auth.publicUrl: the one issuer, whatever origin a request names. */
    publicUrl, audience, clockToleranceS) {
        this.publicUrl = publicUrl;
        this.audience = audience;
        this.clockToleranceS = clockToleranceS;
        this.#privateKey = privateKey;
        this.algorithm = algorithmOf(privateKey);
        this.#kid = keys[0]?.jwk.kid ?? '';
        this.#keys = new Map(keys.map((key) => [key.jwk.kid ?? '', key]));
        this.#algorithms = [...new Set(keys.map((key) => key.algorithm))];
        // A token names its key by kid, and that key's algorithm must be the token's: no other key is tried.
        this.#getKey = (header) => {
            const key = this.#keys.get(header.kid ?? '');
            if (key === undefined || key.algorithm !== header.alg)
                throw new errors.JWKSNoMatchingKey();
            return key.key;
        };
    }
    issuerFor(origin) {
        return this.publicUrl ?? origin;
    }
    async sign(claims, nowMs, ttlS) {
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
    async verify(token, nowMs, origin) {
        const issuer = this.issuerFor(origin);
        if (issuer === undefined)
            return { ok: false, reason: "the access token's issuer cannot be checked: the request's Host names no host" };
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
        }
        catch (error) {
            return verifyFailure(error);
        }
    }
    jwks() {
        return { keys: [...this.#keys.values()].map((key) => key.jwk) };
    }
}
/** By store, then by the auth settings it was made from (their keys, issuer and audience). */
const providers = new WeakMap();
async function createEmbedded(auth, store) {
    const text = auth.signingKey?.reveal() ?? (await store.getOrCreateSetting(SIGNING_KEY_SETTING, generatedKey));
    const parsed = parseSigningKey(text);
    // Config validation checks configured keys; a stored one was generated by this code.
    if (!parsed.ok)
        throw new Error(`the embedded token signing key ${parsed.reason}`);
    const others = auth.verificationKeys.map((keyText, index) => {
        const other = parseVerificationKey(keyText);
        if (!other.ok)
            throw new Error(`auth.verificationKeys[${index}] ${other.reason}`);
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
export function embeddedProvider(auth, store) {
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
/** Verifies tokens of an external issuer (e.g. Keycloak) against its JWKS, fetched and cached by jose. */
export function externalVerifier(auth) {
    const keys = createRemoteJWKSet(new URL(auth.jwksUrl), {
        timeoutDuration: JWKS_TIMEOUT_MS,
        cooldownDuration: JWKS_COOLDOWN_MS,
        cacheMaxAge: JWKS_CACHE_MAX_AGE_MS,
    });
    return {
        async verify(token, nowMs) {
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
            }
            catch (error) {
                return verifyFailure(error);
            }
        },
    };
}
/** The verifier for the configured oauth2 mode: external issuer when named, else the embedded provider. */
export async function accessTokenVerifier(auth, store) {
    if (auth.issuer !== undefined && auth.jwksUrl !== undefined)
        return externalVerifier({ ...auth, issuer: auth.issuer, jwksUrl: auth.jwksUrl });
    return embeddedProvider(auth, store);
}
//# sourceMappingURL=jose-tokens.js.map