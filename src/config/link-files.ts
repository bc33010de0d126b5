import { readFileSync } from 'node:fs';
import { createPrivateKey } from 'node:crypto';
import { normalizeFingerprint, parseCertificates, parseLinkPrivateKey, parseLinkPublicKey } from '../lib/link-keys.js';
import { Secret } from '../lib/secret.js';

/**
 * The files of one end of the operator link (docs/operator-link.md), read and checked at load by
 * the service's configuration (schemes.<SCHEME>.operatorLink) and by the operator simulator's
 * (src/operator/config.ts), so both refuse a bad file the same way, naming its key. Contents of key
 * files are never echoed.
 */
export interface LinkFileNames {
  readonly caFile: string;
  readonly certFile: string;
  readonly keyFile: string;
  readonly signingKeyFile: string;
  /** The other end's public keys; named `peerKeysKey` in errors. */
  readonly peerKeyFiles: readonly string[];
  /** Pinned SHA-256 fingerprints of the other end's client certificates; named `pinsKey` in errors. */
  readonly peerFingerprints: readonly string[];
}

export interface LinkFiles {
  readonly ca: string;
  readonly cert: string;
  readonly key: Secret<string>;
  readonly signingKey: Secret<string>;
  readonly peerKeys: readonly string[];
  /** `AB:CD:...` */
  readonly peerFingerprints: readonly string[];
}

/** Every file read and checked; each problem is pushed as `<at>.<key>: <reason>`. Undefined when any was found. */
export function readLinkFiles(names: LinkFileNames, at: string, keys: { readonly peerKeysKey: string; readonly pinsKey: string }, problems: string[]): LinkFiles | undefined {
  const before = problems.length;
  const read = (key: string, path: string): string | undefined => {
    try {
      return readFileSync(path, 'utf8');
    } catch (error) {
      problems.push(`${at}.${key}: cannot read "${path}" (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
      return undefined;
    }
  };
  const ca = read('caFile', names.caFile);
  if (ca !== undefined) {
    const parsed = parseCertificates(ca);
    if (!parsed.ok) problems.push(`${at}.caFile: "${names.caFile}" ${parsed.reason}`);
  }
  const cert = read('certFile', names.certFile);
  const key = read('keyFile', names.keyFile);
  if (cert !== undefined && key !== undefined) checkIdentity(cert, key, names, at, problems);
  const signingKey = read('signingKeyFile', names.signingKeyFile);
  if (signingKey !== undefined) {
    const parsed = parseLinkPrivateKey(signingKey);
    if (!parsed.ok) problems.push(`${at}.signingKeyFile: "${names.signingKeyFile}" ${parsed.reason}`);
  }
  const peerKeys = names.peerKeyFiles.map((path, index) => {
    const text = read(`${keys.peerKeysKey}[${index}]`, path);
    if (text === undefined) return '';
    const parsed = parseLinkPublicKey(text);
    if (!parsed.ok) problems.push(`${at}.${keys.peerKeysKey}[${index}]: "${path}" ${parsed.reason}`);
    return text;
  });
  const peerFingerprints = names.peerFingerprints.map((text, index) => {
    const normalized = normalizeFingerprint(text);
    if (normalized === undefined) problems.push(`${at}.${keys.pinsKey}[${index}]: is not a SHA-256 fingerprint (64 hex digits, colons allowed)`);
    return normalized ?? '';
  });
  if (problems.length > before || ca === undefined || cert === undefined || key === undefined || signingKey === undefined) return undefined;
  return { ca, cert, key: new Secret(key), signingKey: new Secret(signingKey), peerKeys, peerFingerprints };
}

/** The certificate readable and the key its private key. */
function checkIdentity(cert: string, key: string, names: LinkFileNames, at: string, problems: string[]): void {
  const certificates = parseCertificates(cert);
  if (!certificates.ok) {
    problems.push(`${at}.certFile: "${names.certFile}" ${certificates.reason}`);
    return;
  }
  let privateKey;
  try {
    privateKey = createPrivateKey(key);
  } catch {
    problems.push(`${at}.keyFile: "${names.keyFile}" is not a PEM private key`);
    return;
  }
  if (certificates.value[0]?.checkPrivateKey(privateKey) !== true) problems.push(`${at}.keyFile: "${names.keyFile}" is not the private key of the certificate in certFile`);
}
