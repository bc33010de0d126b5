import { randomFillSync } from 'node:crypto';
/**
 * Random bytes from a pooled buffer: one call for entropy per 4 KiB instead of one per id. Trace
 * and span ids (one per delivery attempt) and UUIDs (one per transaction and outbox message) are
 * all taken from it. The bytes are the system CSPRNG's; each is handed out once.
 */
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;
function take(length) {
    if (poolOffset + length > pool.length) {
        randomFillSync(pool);
        poolOffset = 0;
    }
    const start = poolOffset;
    poolOffset += length;
    return start;
}
/** `length` random bytes written into `target` at `offset`. */
export function randomInto(target, offset, length) {
    const start = take(length);
    pool.copy(target, offset, start, start + length);
}
/** `length` random bytes as lowercase hex. */
export function randomHex(length) {
    const start = take(length);
    return pool.toString('hex', start, start + length);
}
//# sourceMappingURL=random.js.map