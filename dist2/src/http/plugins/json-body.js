import { isUtf8 } from 'node:buffer';
import fp from 'fastify-plugin';
import { ApiError } from '../../domain/errors.js';
import { parseJson } from '../../lib/json.js';
/** Charset names meaning UTF-8 (RFC 8259 §8.1: JSON exchanged between systems is UTF-8). */
const UTF8_CHARSETS = new Set(['utf-8', 'utf8']);
/** The `charset` parameter of a Content-Type header, unquoted; undefined when there is none. */
function charsetOf(contentType) {
    for (const parameter of (contentType ?? '').split(';').slice(1)) {
        const equals = parameter.indexOf('=');
        if (equals === -1 || parameter.slice(0, equals).trim().toLowerCase() !== 'charset')
            continue;
        return parameter.slice(equals + 1).trim().replace(/^"(.*)"$/, '$1');
    }
    return undefined;
}
/** Offset of the first byte that starts no valid UTF-8 sequence; `bytes` is known not to be valid UTF-8. */
function firstInvalidByte(bytes) {
    // Lossy decoding puts U+FFFD where the bytes are invalid, and also where the sender wrote U+FFFD
    // (EF BF BD); everything before the first invalid sequence is valid, so its length re-encoded is
    // that sequence's offset.
    const lossy = bytes.toString('utf8');
    let offset = 0;
    let from = 0;
    for (let at = lossy.indexOf('\ufffd'); at !== -1; at = lossy.indexOf('\ufffd', at + 1)) {
        offset += Buffer.byteLength(lossy.slice(from, at));
        if (bytes[offset] !== 0xef || bytes[offset + 1] !== 0xbf || bytes[offset + 2] !== 0xbd)
            return offset;
        offset += 3;
        from = at + 1;
    }
    return offset;
}
/** The body's text, or why it is no JSON text: not UTF-8, or led by a byte order mark. */
function decodeBody(bytes) {
    if (!isUtf8(bytes))
        return { ok: false, message: `is not valid UTF-8 at byte ${firstInvalidByte(bytes)}` };
    // Valid UTF-8 decodes to a text that encodes back to the same bytes, so the text is the raw message.
    const text = bytes.toString('utf8');
    // A leading BOM would be kept in the raw message, which every later reading of it would then refuse.
    if (text.startsWith('\ufeff'))
        return { ok: false, message: 'starts with a byte order mark: send UTF-8 without one (RFC 8259 §8.1)' };
    return { ok: true, text };
}
/**
 * Replaces Fastify's JSON parsing so the exact text of every number survives (money is judged
 * from its literal, never from a float) and keeps the raw body for storage exactly as it arrived:
 * the body is read as bytes, and anything but UTF-8 is refused rather than repaired (a body
 * declared in another charset is 415; bytes that are not UTF-8 are 400), so the stored message is
 * never a changed copy of what the integrator signed off. Every other media type is refused with
 * 415 because every operation of the API takes application/json; routes that need another type
 * (the token endpoint) register their own parser in their own scope.
 */
export const jsonBodyPlugin = fp((app, options) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: options.bodyBytesMax }, (request, body, done) => {
        const charset = charsetOf(request.headers['content-type']);
        if (charset !== undefined && !UTF8_CHARSETS.has(charset.toLowerCase())) {
            done(new ApiError('UNSUPPORTED_MEDIA_TYPE', `charset=${charset} is not accepted: JSON is UTF-8 (RFC 8259 §8.1); send charset=utf-8 or none`), undefined);
            return;
        }
        const decoded = decodeBody(body);
        if (!decoded.ok) {
            done(new ApiError('MALFORMED_JSON', `The body ${decoded.message}`, [{ field: '', message: decoded.message }]), undefined);
            return;
        }
        const parsed = parseJson(decoded.text);
        if (!parsed.ok) {
            done(new ApiError('MALFORMED_JSON', parsed.message, [{ field: parsed.pointer, message: parsed.message }]), undefined);
            return;
        }
        request.rawBody = decoded.text;
        done(null, parsed.value);
    });
}, { name: 'regpay-json-body' });
//# sourceMappingURL=json-body.js.map