import { CALLBACK_PATHS } from '../../domain/callback-paths.js';
import { EVENT_CLASS } from '../../domain/events.js';
import { directionOf } from '../../domain/events.js';
import { CALLBACK_EXAMPLES, eventExampleName } from './examples.js';
import { EVENT_DOCS } from './events.js';
import { PARAMETERS, SCHEME_NAMES, TAG_NAMES, exampleRefs, schemaRef } from './document.js';
/**
 * The `webhooks` of the document (OpenAPI 3.1): every callback the service POSTs under the
 * integrator's partnerApiUrl (CONTRACT §3) and every event type it POSTs to
 * `{eventsApiUrl}/events` (CONTRACT §4), with the headers each delivery carries
 * (docs/delivery.md, "What goes on the wire").
 */
/** How the service authenticates to the integrator (`callbackAuth`): nothing, Basic, or an OAuth2 client-credentials bearer token. */
const CALLBACK_SECURITY = [{}, { [SCHEME_NAMES.callbackBasic]: [] }, { [SCHEME_NAMES.callbackBearer]: [] }];
const DELIVERY_PARAMETERS = [PARAMETERS.webhookId, PARAMETERS.webhookTimestamp, PARAMETERS.webhookSignature, PARAMETERS.traceparent, PARAMETERS.tracestate].map((name) => ({ $ref: `#/components/parameters/${name}` }));
const ACKNOWLEDGEMENT = {
    '2XX': { description: 'Acknowledged: any 2xx; the body is not read beyond 64 KiB' },
    '4XX': { description: 'Not acknowledged: the attempt failed and is retried on the schedule (429 with Retry-After lengthens the wait)' },
    '5XX': { description: 'Not acknowledged: the attempt failed and is retried on the schedule (503 with Retry-After lengthens the wait)' },
};
function webhook(delivery) {
    return {
        post: {
            operationId: delivery.operationId,
            summary: delivery.summary,
            description: delivery.description,
            tags: [delivery.tag],
            security: CALLBACK_SECURITY,
            parameters: DELIVERY_PARAMETERS,
            requestBody: { required: true, content: { 'application/json': { schema: schemaRef(delivery.schema), examples: exampleRefs(delivery.examples) } } },
            responses: ACKNOWLEDGEMENT,
        },
    };
}
const MUST_DELIVER = 'Must-deliver: retried with backoff until acknowledged, then kept UNDELIVERED for an operator to replay; delivered in order per transaction.';
const CALLBACKS = {
    creditTransferResponse: {
        summary: 'Credit-transfer outcome',
        description: 'The outcome of a credit transfer once the scheme decided, and again for every status request.',
        schema: 'PaymentStatusReport',
    },
    identifierDeterminationReport: {
        summary: 'Identifier-determination report (async mode)',
        description: 'The answer to an identifier determination made in async mode (integrator configuration, or `Prefer: respond-async`).',
        schema: 'IdentifierDeterminationResponse',
    },
    requestToPayResponse: {
        summary: 'Request-to-pay status',
        description: 'The status of a request-to-pay: one per status change (PENDING, PRESENTED, ACCEPTED, PAID, REJECTED, EXPIRED, CANCELLED), and one per status request.',
        schema: 'RequestToPayResponse',
    },
    requestToPayCancellationResponse: {
        summary: 'Request-to-pay cancellation outcome',
        description: 'The outcome of a RequestToPayCancellation: ACCEPTED (the request is CANCELLED) or REJECTED with the reason.',
        schema: 'RequestToPayCancellationResponse',
    },
};
const EVENT_TAGS = {
    CREDIT_TRANSFER: TAG_NAMES.creditTransferEvents,
    IDENTIFIER_DETERMINATION: TAG_NAMES.identifierDeterminationEvents,
    REQUEST_TO_PAY: TAG_NAMES.requestToPayEvents,
    INBOUND_CREDIT_TRANSFER: TAG_NAMES.inboundEvents,
    INBOUND_IDENTIFIER_DETERMINATION: TAG_NAMES.inboundEvents,
    INBOUND_REQUEST_TO_PAY: TAG_NAMES.inboundEvents,
};
/** Inbound kinds share type names with outbound ones (their direction tells them apart): their webhooks are named apart. */
function inboundPrefix(kind) {
    return directionOf(kind) === 'INBOUND' ? 'INBOUND_' : '';
}
/** lowerCamelCase of an UPPER_SNAKE event type, for an operationId. */
function camel(type) {
    return type.toLowerCase().replace(/_([a-z])/g, (_match, letter) => letter.toUpperCase());
}
export function webhooks() {
    const callbacks = Object.entries(CALLBACKS).map(([name, callback]) => [
        name,
        webhook({
            ...callback,
            operationId: `${name}Callback`,
            tag: TAG_NAMES.callbacks,
            description: `POST {partnerApiUrl}${CALLBACK_PATHS[name]}. ${callback.description} ${MUST_DELIVER}`,
            examples: CALLBACK_EXAMPLES[name],
        }),
    ]);
    const events = Object.entries(EVENT_DOCS).flatMap(([kind, docs]) => Object.entries(docs).map(([type, doc]) => [
        `${inboundPrefix(kind)}${EVENT_CLASS}_${type}`,
        webhook({
            operationId: `${inboundPrefix(kind) === '' ? 'event' : 'inboundEvent'}${camel(`_${type}`)}`,
            summary: `${inboundPrefix(kind) === '' ? 'Event' : 'Inbound event'} ${type}`,
            description: `POST {eventsApiUrl}/events, to integrators with events on. Entered when ${doc.when}. Payload: ${doc.payload}. ` +
                'Best effort with long retries, never holding up processing; in order per transaction; de-duplicate on webhook-id.',
            tag: EVENT_TAGS[kind],
            schema: 'Event',
            examples: [eventExampleName(kind, type)],
        }),
    ]));
    return Object.fromEntries([...callbacks, ...events]);
}
//# sourceMappingURL=webhooks.js.map