import { randomBytes, scrypt, scryptSync, timingSafeEqual } from 'node:crypto';
/**
 * Password and client-secret hashing (CONTRACT §7: credentials stored hashed, compared in
 * constant time). The stored form is self-describing so parameters can be raised later without
 * invalidating existing hashes:
 *
 *     scrypt$<N>$<r>$<p>$<salt, base64url>$<hash, base64url>
 *
 * e.g. `scrypt$32768$8$1$3q2-7w...$Vd0x...`. N = 2^15, r = 8, p = 1 (128 · N · r bytes, 32 MiB,
 * of memory per hash) is the OWASP-listed scrypt floor; verification always uses the
 * parameters written in the hash, within the bounds below, so a hostile config file cannot ask
 * for gigabytes of memory.
 */
export const SCRYPT_DEFAULTS = { N: 32768, r: 8, p: 1, saltBytes: 16, keyBytes: 32 };
const N_MIN = 1024;
const N_MAX = 1_048_576;
const R_MAX = 32;
const P_MAX = 16;
const MEMORY_BYTES_MAX = 256 * 1024 * 1024;
const BYTES_MIN = 16;
const BYTES_MAX = 64;
const B64URL = /^[A-Za-z0-9_-]+$/;
const DECIMAL = /^[1-9][0-9]{0,9}$/;
/** Memory scrypt needs for these parameters (Node refuses to run above its `maxmem`). */
function memoryBytes(N, r, p) {
    return 128 * N * r * (p + 2);
}
/** Parse and bound-check a stored hash; the reason names what is wrong for the config error. */
export function parseHash(stored) {
    if (stored.startsWith('$argon2')) {
        return { ok: false, reason: 'argon2 hashes are not supported; produce a scrypt hash with npm run --silent secret -- hash' };
    }
    const parts = stored.split('$');
    if (parts.length !== 6 || parts[0] !== 'scrypt') {
        return { ok: false, reason: 'is not a hash of the form scrypt$N$r$p$salt$hash' };
    }
    const [, nText, rText, pText, saltText, hashText] = parts;
    if (!DECIMAL.test(nText) || !DECIMAL.test(rText) || !DECIMAL.test(pText)) {
        return { ok: false, reason: 'has non-numeric scrypt parameters' };
    }
    const N = Number(nText);
    const r = Number(rText);
    const p = Number(pText);
    if (N < N_MIN || N > N_MAX || (N & (N - 1)) !== 0) {
        return { ok: false, reason: `has scrypt N=${N}; it must be a power of two between ${N_MIN} and ${N_MAX}` };
    }
    if (r > R_MAX || p > P_MAX || memoryBytes(N, r, p) > MEMORY_BYTES_MAX) {
        return { ok: false, reason: `has scrypt parameters r=${r}, p=${p} beyond the allowed cost` };
    }
    if (!B64URL.test(saltText) || !B64URL.test(hashText)) {
        return { ok: false, reason: 'has a salt or hash that is not base64url' };
    }
    const salt = Buffer.from(saltText, 'base64url');
    const hash = Buffer.from(hashText, 'base64url');
    if (salt.length < BYTES_MIN || hash.length < BYTES_MIN || salt.length > BYTES_MAX || hash.length > BYTES_MAX) {
        return { ok: false, reason: `has a salt or hash outside ${BYTES_MIN}..${BYTES_MAX} bytes` };
    }
    return { ok: true, value: { N, r, p, salt, hash } };
}
function format(N, r, p, salt, hash) {
    return `scrypt$${N}$${r}$${p}$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}
function parseOrThrow(stored) {
    const parsed = parseHash(stored);
    // Hashes reach this function only after config validation parsed them, so a bad one is a bug.
    if (!parsed.ok)
        throw new TypeError(`stored secret hash ${parsed.reason}`);
    return parsed.value;
}
/** Hash a secret with fresh random salt and the default parameters (blocks the event loop: for tools and tests). */
export function hashSecret(plain) {
    const { N, r, p, saltBytes, keyBytes } = SCRYPT_DEFAULTS;
    const salt = randomBytes(saltBytes);
    const hash = scryptSync(plain.normalize('NFC'), salt, keyBytes, { N, r, p, maxmem: MEMORY_BYTES_MAX });
    return format(N, r, p, salt, hash);
}
function scryptAsync(plain, salt, keyBytes, N, r, p) {
    return new Promise((resolve, reject) => {
        scrypt(plain.normalize('NFC'), salt, keyBytes, { N, r, p, maxmem: MEMORY_BYTES_MAX }, (error, key) => {
            if (error)
                reject(error);
            else
                resolve(key);
        });
    });
}
/** Same as hashSecret, computed on the libuv thread pool so the event loop keeps serving. */
export async function hashSecretAsync(plain) {
    const { N, r, p, saltBytes, keyBytes } = SCRYPT_DEFAULTS;
    const salt = randomBytes(saltBytes);
    return format(N, r, p, salt, await scryptAsync(plain, salt, keyBytes, N, r, p));
}
/** Constant-time check of a secret against a stored hash (blocking; see verifySecretAsync). */
export function verifySecret(plain, stored) {
    const { N, r, p, salt, hash } = parseOrThrow(stored);
    const candidate = scryptSync(plain.normalize('NFC'), salt, hash.length, { N, r, p, maxmem: MEMORY_BYTES_MAX });
    return timingSafeEqual(candidate, hash);
}
/** Constant-time check on the thread pool: what the request path uses. */
export async function verifySecretAsync(plain, stored) {
    const { N, r, p, salt, hash } = parseOrThrow(stored);
    const candidate = await scryptAsync(plain, salt, hash.length, N, r, p);
    return timingSafeEqual(candidate, hash);
}
//# sourceMappingURL=password-hash.js.map