import { createPrivateKey, type JsonWebKey, type KeyObject } from 'node:crypto';

export type ParsedSigningKey = { readonly ok: true; readonly key: KeyObject } | { readonly ok: false; readonly reason: string };

/**
 * The embedded token provider signs with ES256 (EC P-256) or RS256 (RSA of 2048 bits or more);
 * the key is given as PEM (PKCS#8 or SEC1/PKCS#1) or as JWK text. Used by config validation and
 * by the token adapter, so a key that passes one passes the other.
 */
export function parseSigningKey(text: string): ParsedSigningKey {
  let key: KeyObject;
  try {
    const trimmed = text.trim();
    key = trimmed.startsWith('{') ? createPrivateKey({ key: JSON.parse(trimmed) as JsonWebKey, format: 'jwk' }) : createPrivateKey(trimmed);
  } catch {
    return { ok: false, reason: 'is not a PEM or JWK private key' };
  }
  const details = key.asymmetricKeyDetails;
  if (key.asymmetricKeyType === 'ec' && details?.namedCurve === 'prime256v1') return { ok: true, key };
  if (key.asymmetricKeyType === 'rsa' && (details?.modulusLength ?? 0) >= 2048) return { ok: true, key };
  return { ok: false, reason: 'must be an EC P-256 or an RSA (2048 bits or more) private key' };
}
