import { timingSafeEqual } from 'node:crypto';
import { webhookSignature } from '../lib/webhook-signature.js';
import { demoBankAnswer } from './demo-customers.js';
export const DEMO_INBOX_CAPACITY = 1_000;
export class DemoInbox {
    #secret;
    #clock;
    #capacity;
    #entries = [];
    #seq = 0;
    constructor(secret, clock, capacity = DEMO_INBOX_CAPACITY) {
        this.#secret = secret;
        this.#clock = clock;
        this.#capacity = capacity;
    }
    /** Keep one POST, with the demo bank's answer when it is a sync call; the route acknowledges only those whose signature was valid. */
    receive(channel, path, headers, rawBody) {
        const webhookId = single(headers['webhook-id']);
        const timestamp = single(headers['webhook-timestamp']);
        const receivedAt = this.#clock.now();
        const signatureValid = this.#verify(webhookId, timestamp, single(headers['webhook-signature']), rawBody);
        const body = parsed(rawBody);
        // Only a genuine call is answered; the answer's id follows from the call's, so a retry of the call gets the same answer.
        const answer = signatureValid && channel === 'callback' && webhookId !== undefined
            ? demoBankAnswer(path, body, { messageIdentification: `D${webhookId.replaceAll('-', '').slice(0, 34)}`, creationDateTime: new Date(receivedAt).toISOString() })
            : undefined;
        const entry = {
            seq: (this.#seq += 1),
            receivedAt,
            channel,
            path,
            webhookId: webhookId ?? null,
            signatureValid,
            traceparent: single(headers['traceparent']) ?? null,
            body,
            ...(answer === undefined ? {} : { answer }),
        };
        this.#entries.push(entry);
        if (this.#entries.length > this.#capacity)
            this.#entries.splice(0, this.#entries.length - this.#capacity);
        return entry;
    }
    /** Entries after `afterSeq`, oldest first, at most `limit`. */
    list(afterSeq, limit) {
        return this.#entries.filter((entry) => entry.seq > afterSeq).slice(0, limit);
    }
    #verify(id, timestamp, signatures, body) {
        if (this.#secret === undefined || id === undefined || timestamp === undefined || signatures === undefined || !/^[0-9]{1,12}$/.test(timestamp))
            return false;
        const expected = Buffer.from(webhookSignature(this.#secret.reveal(), id, Number(timestamp), body));
        // Standard Webhooks: several space-separated signatures may be sent (key rotation); one must match.
        return signatures.split(' ').some((candidate) => {
            const given = Buffer.from(candidate);
            return given.length === expected.length && timingSafeEqual(given, expected);
        });
    }
}
function single(value) {
    return Array.isArray(value) ? value[0] : value;
}
function parsed(text) {
    try {
        return JSON.parse(text);
    }
    catch {
        return text;
    }
}
//# sourceMappingURL=demo-inbox.js.map