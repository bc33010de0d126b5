import { FlattenedSign, flattenedVerify } from 'jose';
import { linkAlgorithm } from '../../lib/link-keys.js';
/**
 * The operator link's wire format (docs/operator-link.md), one copy for both ends: the service's
 * `operator-link` transport and the standalone operator simulator (src/operator/) speak it to each
 * other, each side sending with link-client.ts and receiving with link-server.ts.
 *
 * A message is one HTTPS POST (mutual TLS) of one ISO 20022 document to
 * `{base}/v1/schemes/{SCHEME}/messages`, with
 * - `Idempotency-Key`: the document's message id (GrpHdr/MsgId, Assgnmt/Id): the same on every
 *   resend of one message and different for every other message, so a receiver that sees a key
 *   again knows it is a resend (the port's idempotency key would not do: a transfer's pacs.008
 *   and each of its pacs.028 enquiries share it);
 * - `X-Message-Name`: the ISO 20022 message name, e.g. `pacs.008.001.10`;
 * - `X-JWS-Signature`: a detached JWS (RFC 7515 appendix F) with an unencoded payload (RFC 7797,
 *   `b64: false`) over the exact bytes of the body, signed with the sender's private key. Its
 *   protected header names the scheme (`sch`), the message name (`msg`), the idempotency key
 *   (`idk`) and the signing time (`iat`, seconds), so none of them can be changed or the message
 *   replayed long after without the signature failing;
 * - `traceparent` when the message continues a trace.
 */
export const HEADER = {
    idempotencyKey: 'idempotency-key',
    messageName: 'x-message-name',
    signature: 'x-jws-signature',
    traceparent: 'traceparent',
};
export const CONTENT_TYPE = 'application/xml; charset=utf-8';
/** Largest document either end reads; ISO 20022 messages of one transaction are a few kilobytes. */
export const BODY_BYTES_MAX = 1_048_576;
const PATH = /^\/v1\/schemes\/([A-Z][A-Z0-9_]{0,31})\/messages$/;
/** The path a scheme's messages are posted to, below the receiver's base URL. */
export function messagesPath(scheme) {
    return `/v1/schemes/${scheme}/messages`;
}
/** The scheme a request path posts to, when it is a messages path. */
export function schemeOfPath(path) {
    return PATH.exec(path)?.[1];
}
/** `{base}/v1/schemes/{scheme}/messages`, a base given with or without a trailing slash. */
export function messagesUrl(base, scheme) {
    return `${base.replace(/\/+$/, '')}${messagesPath(scheme)}`;
}
/** The `X-JWS-Signature` of a message whose body is `body` (the document's UTF-8 bytes). */
export async function signMessage(message, body, key, nowMs) {
    const alg = linkAlgorithm(key);
    if (alg === undefined)
        throw new RangeError('the link signing key is of a kind the link does not take');
    const claims = { sch: message.scheme, msg: message.messageName, idk: message.idempotencyKey, iat: Math.floor(nowMs / 1_000) };
    const jws = await new FlattenedSign(body).setProtectedHeader({ alg, b64: false, crit: ['b64'], ...claims }).sign(key);
    return `${jws.protected}..${jws.signature}`;
}
/**
 * Whether a received message is signed by one of `keys` (the sender's current and, while it
 * rotates, previous keys), over this very body, for this scheme, message name and idempotency
 * key, at most `maxAgeS` seconds before or after `nowMs`.
 */
export async function verifyMessage(message, keys, nowMs, maxAgeS) {
    if (message.signature === undefined)
        return { ok: false, reason: `no ${HEADER.signature} header` };
    const parts = message.signature.split('.');
    const [protectedHeader, detached, signature] = parts;
    if (parts.length !== 3 || detached !== '' || protectedHeader === undefined || signature === undefined) {
        return { ok: false, reason: `${HEADER.signature} is not a detached JWS (header..signature)` };
    }
    let header;
    for (const key of keys) {
        const alg = linkAlgorithm(key);
        if (alg === undefined)
            continue;
        try {
            const verified = await flattenedVerify({ protected: protectedHeader, payload: message.body, signature }, key, { algorithms: [alg] });
            header = verified.protectedHeader;
            break;
        }
        catch {
            // Not this key (or not a valid JWS at all): try the next.
        }
    }
    if (header === undefined)
        return { ok: false, reason: 'the signature does not verify with any key configured for the sender' };
    if (header.sch !== message.scheme)
        return { ok: false, reason: 'the signature was made for another scheme' };
    if (message.messageName === undefined || header.msg !== message.messageName)
        return { ok: false, reason: `the signature does not cover the ${HEADER.messageName} given` };
    if (message.idempotencyKey === undefined || header.idk !== message.idempotencyKey)
        return { ok: false, reason: `the signature does not cover the ${HEADER.idempotencyKey} given` };
    if (typeof header.iat !== 'number' || Math.abs(nowMs / 1_000 - header.iat) > maxAgeS)
        return { ok: false, reason: `the signature is older or newer than ${maxAgeS} s` };
    return { ok: true };
}
//# sourceMappingURL=protocol.js.map