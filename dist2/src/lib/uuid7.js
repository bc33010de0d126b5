import { randomInto } from './random.js';
/**
 * UUID version 7 (RFC 9562 §5.7): 48 bits of Unix milliseconds, then random bits. Ids made later
 * sort later, so rows keyed by them are appended at the end of their B-tree indexes instead of
 * landing on a random page each: a batch of inserts then dirties (and writes to the WAL) a few
 * pages instead of one page per row and index. Within one millisecond the random part decides
 * the order, which costs nothing but a little locality.
 */
const bytes = Buffer.alloc(16);
export function uuid7(now = Date.now()) {
    bytes.writeUIntBE(now, 0, 6);
    randomInto(bytes, 6, 10);
    bytes[6] = (bytes[6] & 0x0f) | 0x70; // version 7
    bytes[8] = (bytes[8] & 0x3f) | 0x80; // variant 10
    const hex = bytes.toString('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
//# sourceMappingURL=uuid7.js.map