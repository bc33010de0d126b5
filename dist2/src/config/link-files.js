import { readFileSync } from 'node:fs';
import { createPrivateKey } from 'node:crypto';
import { normalizeFingerprint, parseCertificates, parseLinkPrivateKey, parseLinkPublicKey } from '../lib/link-keys.js';
import { Secret } from '../lib/secret.js';
/** Every file read and checked; each problem is pushed as `<at>.<key>: <reason>`. Undefined when any was found. */
export function readLinkFiles(names, at, keys, problems) {
    const before = problems.length;
    const read = (key, path) => {
        try {
            return readFileSync(path, 'utf8');
        }
        catch (error) {
            problems.push(`${at}.${key}: cannot read "${path}" (${error.code ?? 'error'})`);
            return undefined;
        }
    };
    const ca = read('caFile', names.caFile);
    if (ca !== undefined) {
        const parsed = parseCertificates(ca);
        if (!parsed.ok)
            problems.push(`${at}.caFile: "${names.caFile}" ${parsed.reason}`);
    }
    const cert = read('certFile', names.certFile);
    const key = read('keyFile', names.keyFile);
    if (cert !== undefined && key !== undefined)
        checkIdentity(cert, key, names, at, problems);
    const signingKey = read('signingKeyFile', names.signingKeyFile);
    if (signingKey !== undefined) {
        const parsed = parseLinkPrivateKey(signingKey);
        if (!parsed.ok)
            problems.push(`${at}.signingKeyFile: "${names.signingKeyFile}" ${parsed.reason}`);
    }
    const peerKeys = names.peerKeyFiles.map((path, index) => {
        const text = read(`${keys.peerKeysKey}[${index}]`, path);
        if (text === undefined)
            return '';
        const parsed = parseLinkPublicKey(text);
        if (!parsed.ok)
            problems.push(`${at}.${keys.peerKeysKey}[${index}]: "${path}" ${parsed.reason}`);
        return text;
    });
    const peerFingerprints = names.peerFingerprints.map((text, index) => {
        const normalized = normalizeFingerprint(text);
        if (normalized === undefined)
            problems.push(`${at}.${keys.pinsKey}[${index}]: is not a SHA-256 fingerprint (64 hex digits, colons allowed)`);
        return normalized ?? '';
    });
    if (problems.length > before || ca === undefined || cert === undefined || key === undefined || signingKey === undefined)
        return undefined;
    return { ca, cert, key: new Secret(key), signingKey: new Secret(signingKey), peerKeys, peerFingerprints };
}
/** The certificate readable and the key its private key. */
function checkIdentity(cert, key, names, at, problems) {
    const certificates = parseCertificates(cert);
    if (!certificates.ok) {
        problems.push(`${at}.certFile: "${names.certFile}" ${certificates.reason}`);
        return;
    }
    let privateKey;
    try {
        privateKey = createPrivateKey(key);
    }
    catch {
        problems.push(`${at}.keyFile: "${names.keyFile}" is not a PEM private key`);
        return;
    }
    if (certificates.value[0]?.checkPrivateKey(privateKey) !== true)
        problems.push(`${at}.keyFile: "${names.keyFile}" is not the private key of the certificate in certFile`);
}
//# sourceMappingURL=link-files.js.map