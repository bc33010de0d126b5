import { createHash } from 'node:crypto';
import { parseJson } from './json.js';
/**
 * Canonical JSON in the manner of RFC 8785 (JCS): object keys sorted by UTF-16 code units, no
 * white space, numbers in ECMAScript shortest form. Two payloads are "identical" for duplicate
 * detection (CONTRACT §6) exactly when their canonical forms are equal, so key order and
 * formatting of a retry never turn it into a conflict.
 */
export function canonicalJson(value) {
    if (value === null || typeof value !== 'object') {
        if (typeof value === 'number' && !Number.isFinite(value))
            throw new TypeError('non-finite number');
        if (value === undefined)
            throw new TypeError('undefined has no JSON form');
        return JSON.stringify(value);
    }
    if (Array.isArray(value))
        return `[${value.map((item) => canonicalJson(item)).join(',')}]`;
    const record = value;
    const keys = Object.keys(record)
        .filter((key) => record[key] !== undefined)
        .sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(',')}}`;
}
/**
 * SHA-256 of a body exactly as received, hex encoded: the stored fingerprint of a message. Equal
 * fingerprints settle a retry as a duplicate at the cost of one hash; only a retry whose bytes
 * differ pays for the canonical comparison (samePayload).
 */
export function bodyHash(rawBody) {
    return createHash('sha256').update(rawBody).digest('hex');
}
/** Whether `payload` (a parsed request) is the payload of a stored body: equal canonical forms. */
export function samePayload(storedRawBody, payload) {
    const stored = parseJson(storedRawBody);
    return stored.ok && canonicalJson(stored.value) === canonicalJson(payload);
}
//# sourceMappingURL=canonical-json.js.map