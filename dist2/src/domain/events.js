import { INBOUND_KINDS } from './kinds.js';
/**
 * The Event envelope posted to the integrator's events API (spec "Event"; CONTRACT §4).
 * `payload` is the message that caused the transition, spliced in as JSON text so the event
 * carries it exactly as stored (by the store, when it reads the event back: see
 * NewOutboxMessage.payloadVersion).
 */
export const EVENTS_API_VERSION = '1.0.0';
export const EVENT_CLASS = 'TRANSACTION_STATE';
export const DIRECTIONS = ['OUTBOUND', 'INBOUND'];
/** `service` names the scheme family and direction, as in the seed system's sample (`RTC_INBOUND`). */
export function serviceName(scheme, direction) {
    return `${scheme.replace(/^ZA_/, '')}_${direction}`;
}
/** The event without its `payload` (a JSON object); withEventPayload completes it. */
export function eventEnvelopeJson(input) {
    const envelope = {
        name: `${EVENT_CLASS}_${input.type}`,
        apiVersion: EVENTS_API_VERSION,
        class: EVENT_CLASS,
        type: input.type,
        stageVersion: input.stageVersion ?? 1,
        tranInfo: {
            tranUetr: input.uetr,
            direction: input.direction,
            paymentScheme: input.scheme,
            service: serviceName(input.scheme, input.direction),
        },
        messageInfo: {
            messageIdentification: input.messageIdentification,
            creationDateTime: new Date(input.createdAt).toISOString(),
        },
    };
    return JSON.stringify(envelope);
}
/** The complete event: `payloadJson` (JSON text of the message that caused the transition) spliced in as it is, last. */
export function withEventPayload(envelopeJson, payloadJson) {
    return `${envelopeJson.slice(0, -1)},"payload":${payloadJson}}`;
}
/** Which way a transaction of this kind goes: the scheme starts the inbound kinds. */
export function directionOf(kind) {
    return INBOUND_KINDS.has(kind) ? 'INBOUND' : 'OUTBOUND';
}
/**
 * The seed system's older names of credit-transfer event types, which an integrator may ask for
 * (`events: { typeNames: legacy }`): the authorisation stages are `CREDIT_AUTH_*`, the request's
 * receipt `CREDIT_AUTH_RECEIVED` as in the spec's sample. Types without an older name keep theirs.
 */
export function legacyTypeName(type) {
    if (type === 'PAYMENT_AUTH_REQUEST_RECEIVED')
        return 'CREDIT_AUTH_RECEIVED';
    if (type.startsWith('PAYMENT_AUTH_REQUEST_'))
        return `CREDIT_AUTH_${type.slice('PAYMENT_AUTH_REQUEST_'.length)}`;
    if (type.startsWith('PAYMENT_AUTH_'))
        return `CREDIT_AUTH_${type.slice('PAYMENT_AUTH_'.length)}`;
    if (type.startsWith('PAYMENT_COMPLETION_'))
        return `CREDIT_COMPLETION_${type.slice('PAYMENT_COMPLETION_'.length)}`;
    return type;
}
/**
 * The outbox message of one event (structurally a NewOutboxMessage): `id` is its webhook-id and,
 * without dashes, its own message identification. Its payload is history version
 * `payloadVersion` of the transaction, spliced in by the store when read back.
 */
export function eventMessage(input) {
    return {
        id: input.id,
        channel: 'event',
        url: `${input.eventsApiUrl}/events`,
        body: eventEnvelopeJson({
            type: input.typeNames === 'legacy' ? legacyTypeName(input.type) : input.type,
            uetr: input.uetr,
            direction: directionOf(input.kind),
            scheme: input.scheme,
            messageIdentification: input.id.replaceAll('-', ''),
            createdAt: input.createdAt,
        }),
        payloadVersion: input.payloadVersion,
        headers: input.headers,
        availableAt: input.createdAt,
    };
}
//# sourceMappingURL=events.js.map