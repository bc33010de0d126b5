import { createHash } from 'node:crypto';
/**
 * The transaction id of a message the scheme originated for an integrator (an acmt.023, pacs.008
 * or pain.013), derived from the scheme, the message's family and its MsgId, never drawn at random:
 * a resend of the message is the same transaction, and whatever the scheme later says about it
 * (the final pacs.002 of a credit, the camt.056 withdrawing a request-to-pay, naming the original
 * MsgId) leads back to the transaction without any lookup. A UUID in form (version nibble 8, RFC
 * 9562 custom), so every transaction id has one shape.
 */
export function inboundTransactionId(scheme, messageName, messageId) {
    const family = messageName.slice(0, 8);
    const hex = createHash('sha256').update(`${scheme}\u0000${family}\u0000${messageId}`, 'utf8').digest('hex');
    const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
//# sourceMappingURL=inbound-id.js.map