import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * A text sealed under a key derived from a secret the sealer does not keep (AES-256-GCM, the key
 * by HKDF-SHA256 from the secret): whoever holds the sealed text but not the secret learns
 * nothing of it and cannot alter it unnoticed. The refresh-token rotation seals the new token
 * pair under the spent refresh token (app/issue-token.ts), which is stored only as its SHA-256:
 * HKDF with its own `info` is a key no hash of the store reveals.
 *
 * Written `v1.<iv>.<ciphertext>.<tag>`, each base64url; the random 96-bit IV makes two sealings of
 * one text under one secret differ.
 */
const VERSION = 'v1';
const IV_BYTES = 12;
const KEY_BYTES = 32;

function keyOf(secret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'utf8'), Buffer.alloc(0), `regpay sealed-box ${purpose}`, KEY_BYTES));
}

/** `text` sealed under `secret` for `purpose` (a purpose binds the key: a box opens only for the purpose it was sealed for). */
export function seal(secret: string, purpose: string, text: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keyOf(secret, purpose), iv);
  const sealed = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64url'), sealed.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
}

/** The text `box` holds, or undefined when it was not sealed under `secret` for `purpose`, or was altered. */
export function open(secret: string, purpose: string, box: string): string | undefined {
  const [version, iv, sealed, tag, ...rest] = box.split('.');
  if (version !== VERSION || iv === undefined || sealed === undefined || tag === undefined || rest.length > 0) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(secret, purpose), Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
