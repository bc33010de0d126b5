import { createHash } from 'node:crypto';
/**
 * Scheme-level references derived from the port's idempotency key, never random per attempt
 * (STYLE.md rule 6): every submission of one transfer carries the same pacs.008 MsgId, so the
 * scheme de-duplicates a resubmission, and the MsgId leads back to the key when an answer comes.
 *
 * ISO 20022 references are Max35Text. Three forms, chosen by the key's shape:
 * - `U` + the 32 hex digits of a lowercase UUID key (the engine's transaction id): reversible;
 * - `K` + the key itself, for keys of at most 34 letters and digits: reversible;
 * - `H` + 34 base32 characters of the key's SHA-256: any other key; not reversible, so the
 *   connector remembers it (see IsoSchemeConnector) for the answers that follow.
 */
const LOWER_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SHORT_KEY = /^[A-Za-z0-9]{1,34}$/;
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
export const MAX35 = 35;
export function schemeMessageId(idempotencyKey) {
    if (LOWER_UUID.test(idempotencyKey))
        return `U${idempotencyKey.replaceAll('-', '')}`;
    if (SHORT_KEY.test(idempotencyKey))
        return `K${idempotencyKey}`;
    return `H${digest32(idempotencyKey).slice(0, MAX35 - 1)}`;
}
/** The key behind a reversible MsgId; undefined for hashed ones and for MsgIds not made here. */
export function idempotencyKeyOf(messageId) {
    if (/^U[0-9a-f]{32}$/.test(messageId)) {
        const hex = messageId.slice(1);
        return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    }
    if (/^K[A-Za-z0-9]{1,34}$/.test(messageId))
        return messageId.slice(1);
    return undefined;
}
/**
 * MsgId of a status enquiry (pacs.028). Each enquiry is a new message, so the id is unique per
 * enquiry, yet still derived (from the key, the time and a per-connector sequence), not drawn at random.
 */
export function enquiryMessageId(idempotencyKey, at, sequence) {
    return `Q${digest32(`${idempotencyKey}\u0000${at}\u0000${sequence}`).slice(0, MAX35 - 1)}`;
}
/** RFC 4648 base32 (no padding) of the SHA-256 of `text`: 52 characters. */
function digest32(text) {
    const bytes = createHash('sha256').update(text, 'utf8').digest();
    let out = '';
    let buffer = 0;
    let bits = 0;
    for (const byte of bytes) {
        buffer = (buffer << 8) | byte;
        bits += 8;
        while (bits >= 5) {
            out += BASE32[(buffer >>> (bits - 5)) & 31];
            bits -= 5;
        }
        buffer &= (1 << bits) - 1;
    }
    if (bits > 0)
        out += BASE32[(buffer << (5 - bits)) & 31];
    return out;
}
//# sourceMappingURL=ids.js.map