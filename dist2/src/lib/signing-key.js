import { createPrivateKey, createPublicKey } from 'node:crypto';
/**
 * The embedded token provider signs with ES256 (EC P-256) or RS256 (RSA of 2048 bits or more);
 * the key is given as PEM (PKCS#8 or SEC1/PKCS#1) or as JWK text. Used by config validation and
 * by the token adapter, so a key that passes one passes the other.
 */
export function parseSigningKey(text) {
    let key;
    try {
        const trimmed = text.trim();
        key = trimmed.startsWith('{') ? createPrivateKey({ key: JSON.parse(trimmed), format: 'jwk' }) : createPrivateKey(trimmed);
    }
    catch {
        return { ok: false, reason: 'is not a PEM or JWK private key' };
    }
    return usable(key, 'private');
}
/**
 * A further key whose tokens the embedded provider accepts (auth.verificationKeys, for rotating
 * the signing key): a public key only, as PEM (SPKI) or JWK text, e.g. a key exactly as
 * /oauth/jwks publishes it (its kid, alg and use members are ignored). A private key is refused,
 * so that no secret is ever needed, or kept, just to accept tokens.
 */
export function parseVerificationKey(text) {
    const trimmed = text.trim();
    let jwk;
    if (trimmed.startsWith('{')) {
        try {
            jwk = JSON.parse(trimmed);
        }
        catch {
            return { ok: false, reason: 'is not a PEM or JWK public key' };
        }
    }
    if ((jwk !== undefined && jwk.d !== undefined) || /-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----/.test(trimmed)) {
        return { ok: false, reason: 'is a private key: give its public key (PEM, or the JWK that /oauth/jwks publishes)' };
    }
    let key;
    try {
        key = jwk === undefined ? createPublicKey(trimmed) : createPublicKey({ key: jwk, format: 'jwk' });
    }
    catch {
        return { ok: false, reason: 'is not a PEM or JWK public key' };
    }
    return usable(key, 'public');
}
function usable(key, kind) {
    const details = key.asymmetricKeyDetails;
    if (key.asymmetricKeyType === 'ec' && details?.namedCurve === 'prime256v1')
        return { ok: true, key };
    if (key.asymmetricKeyType === 'rsa' && (details?.modulusLength ?? 0) >= 2048)
        return { ok: true, key };
    return { ok: false, reason: `must be an EC P-256 or an RSA (2048 bits or more) ${kind} key` };
}
//# sourceMappingURL=signing-key.js.map