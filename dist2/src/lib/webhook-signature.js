import { createHmac } from 'node:crypto';
/**
 * Standard Webhooks symmetric signatures (https://www.standardwebhooks.com, "Signature scheme"):
 * the signed content is `{webhook-id}.{webhook-timestamp}.{body}`, HMAC-SHA256 under the secret's
 * key bytes, base64 encoded and prefixed with the version `v1,`. The secret is written
 * `whsec_<base64 of the key>`; the prefix is not part of the key.
 */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
/** The key bytes of a `whsec_…` secret (a bare base64 key is accepted too, as the reference libraries do). */
export function webhookKey(secret) {
    const encoded = secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : secret;
    return Buffer.from(encoded, 'base64');
}
/** The `webhook-signature` header value for one attempt. `timestampS` is the `webhook-timestamp` (Unix seconds). */
export function webhookSignature(secret, id, timestampS, body) {
    const digest = createHmac('sha256', webhookKey(secret)).update(`${id}.${timestampS}.${body}`, 'utf8').digest('base64');
    return `v1,${digest}`;
}
//# sourceMappingURL=webhook-signature.js.map