import { createPrivateKey, createPublicKey, X509Certificate } from 'node:crypto';
/** The JWS algorithm a key signs with on the link; undefined for a key the link does not take. */
export function linkAlgorithm(key) {
    const details = key.asymmetricKeyDetails;
    if (key.asymmetricKeyType === 'ec' && details?.namedCurve === 'prime256v1')
        return 'ES256';
    if (key.asymmetricKeyType === 'ed25519')
        return 'EdDSA';
    if (key.asymmetricKeyType === 'rsa' && (details?.modulusLength ?? 0) >= 2_048)
        return 'PS256';
    return undefined;
}
const UNUSABLE = 'must be an EC P-256, Ed25519 or RSA (2048 bits or more) key';
/** A private key in PEM (PKCS#8, SEC1 or PKCS#1) the link can sign with. */
export function parseLinkPrivateKey(pem) {
    let key;
    try {
        key = createPrivateKey(pem);
    }
    catch {
        return { ok: false, reason: 'is not a PEM private key' };
    }
    return linkAlgorithm(key) === undefined ? { ok: false, reason: UNUSABLE } : { ok: true, value: key };
}
/** A public key in PEM (SPKI, or a certificate's) the link verifies with; a private key is refused, so none is kept just to verify. */
export function parseLinkPublicKey(pem) {
    if (/-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----/.test(pem))
        return { ok: false, reason: 'is a private key: give the public key' };
    let key;
    try {
        key = pem.includes('-----BEGIN CERTIFICATE-----') ? new X509Certificate(pem).publicKey : createPublicKey(pem);
    }
    catch {
        return { ok: false, reason: 'is not a PEM public key or certificate' };
    }
    return linkAlgorithm(key) === undefined ? { ok: false, reason: UNUSABLE } : { ok: true, value: key };
}
const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;
/** One or more PEM certificates (a chain, or a bundle of CAs), each readable. */
export function parseCertificates(pem) {
    const blocks = pem.match(PEM_CERTIFICATE) ?? [];
    if (blocks.length === 0)
        return { ok: false, reason: 'holds no PEM certificate' };
    try {
        return { ok: true, value: blocks.map((block) => new X509Certificate(block)) };
    }
    catch {
        return { ok: false, reason: 'holds a PEM certificate that cannot be read' };
    }
}
/** A SHA-256 certificate fingerprint in any common spelling (colons or not, any case), written as Node's `fingerprint256`: `AB:CD:...`. */
export function normalizeFingerprint(text) {
    const hex = text.replaceAll(':', '').toUpperCase();
    if (!/^[0-9A-F]{64}$/.test(hex))
        return undefined;
    return hex.match(/../g)?.join(':');
}
//# sourceMappingURL=link-keys.js.map