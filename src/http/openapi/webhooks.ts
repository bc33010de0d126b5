import { CALLBACK_PATHS, INBOUND_PATHS } from '../../domain/callback-paths.js';
import { EVENT_CLASS } from '../../domain/events.js';
import type { TransactionKind } from '../../domain/kinds.js';
import { directionOf } from '../../domain/events.js';
import { CALLBACK_EXAMPLES, eventExampleName } from './examples.js';
import { EVENT_DOCS } from './events.js';
import { PARAMETERS, SCHEME_NAMES, TAG_NAMES, exampleRefs, schemaRef } from './document.js';

/**
 * The `webhooks` of the document (OpenAPI 3.1): every callback the service POSTs under the
 * integrator's partnerApiUrl (CONTRACT §3), every call it makes there as the receiving bank's
 * service (CONTRACT §11), and every event type it POSTs to `{eventsApiUrl}/events` (CONTRACT §4),
 * with the headers each delivery carries (docs/delivery.md, "What goes on the wire").
 *
 * A webhook is named by its operation, and the operation is named as the interface names it
 * (the spec's `outboundRequestToPayResponse`, CONTRACT §11's `inboundCreditTransferAuthorisation`
 * and the others), so that a client generated from the document matches the seed system's; the
 * operations neither names follow the same pattern: direction, then the message.
 */

/** How the service authenticates to the integrator (`callbackAuth`): nothing, Basic, or an OAuth2 client-credentials bearer token. */
const CALLBACK_SECURITY = [{}, { [SCHEME_NAMES.callbackBasic]: [] }, { [SCHEME_NAMES.callbackBearer]: [] }];

const DELIVERY_PARAMETERS = [PARAMETERS.webhookId, PARAMETERS.webhookTimestamp, PARAMETERS.webhookSignature, PARAMETERS.traceparent, PARAMETERS.tracestate].map(
  (name) => ({ $ref: `#/components/parameters/${name}` }),
);

const ACKNOWLEDGEMENT = {
  '2XX': { description: 'Acknowledged: any 2xx; the body is not read beyond 64 KiB' },
  '4XX': { description: 'Not acknowledged: the attempt failed and is retried on the schedule (429 with Retry-After lengthens the wait)' },
  '5XX': { description: 'Not acknowledged: the attempt failed and is retried on the schedule (503 with Retry-After lengthens the wait)' },
};

interface Delivery {
  /** Also the webhook's name. */
  readonly operationId: string;
  readonly summary: string;
  readonly description: string;
  readonly tag: string;
  readonly schema: string;
  readonly examples: readonly string[];
  /** What the integrator answers: an acknowledgement unless said. */
  readonly responses?: Record<string, unknown>;
}

function webhook(delivery: Delivery) {
  return {
    post: {
      operationId: delivery.operationId,
      summary: delivery.summary,
      description: delivery.description,
      tags: [delivery.tag],
      security: CALLBACK_SECURITY,
      parameters: DELIVERY_PARAMETERS,
      requestBody: { required: true, content: { 'application/json': { schema: schemaRef(delivery.schema), examples: exampleRefs(delivery.examples) } } },
      responses: delivery.responses ?? ACKNOWLEDGEMENT,
    },
  };
}

const MUST_DELIVER = 'Must-deliver: retried with backoff until acknowledged, then kept UNDELIVERED for an operator to replay; delivered in order per transaction.';

/** The operation each callback is, by callback (CALLBACK_PATHS): the spec names `outboundRequestToPayResponse`. */
export const CALLBACK_OPERATIONS: Readonly<Record<keyof typeof CALLBACK_PATHS, string>> = {
  creditTransferResponse: 'outboundCreditTransferResponse',
  identifierDeterminationReport: 'outboundIdentifierDeterminationReport',
  requestToPayResponse: 'outboundRequestToPayResponse',
  requestToPayCancellationResponse: 'outboundRequestToPayCancellationResponse',
};

const CALLBACKS: Readonly<Record<keyof typeof CALLBACK_PATHS, Omit<Delivery, 'operationId' | 'tag' | 'examples'>>> = {
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

/** The answer of a sync call: the integrator's decision in the 200's body, anything else none (docs/receiving.md). */
function syncAnswer(schema: string, examples: readonly string[], what: string): Record<string, unknown> {
  return {
    '200': { description: `The integrator's answer: ${what}`, content: { 'application/json': { schema: schemaRef(schema), examples: exampleRefs(examples) } } },
    '4XX': { description: 'No answer: the call is made again while the budget lasts; when it runs out the scheme is answered AB06' },
    '5XX': { description: 'No answer: the call is made again while the budget lasts; when it runs out the scheme is answered AB06' },
  };
}

const ASYNC_ANSWER = {
  '2XX': { description: 'Taken: the answer follows by the integrator\'s own POST to the service (202 is usual); anything else is no answer' },
  '4XX': { description: 'Not taken: the call is made again while the budget lasts' },
  '5XX': { description: 'Not taken: the call is made again while the budget lasts' },
};

const BUDGET = "Answered within the scheme's budget (inbound.answerTimeoutMs), else the scheme is answered AB06 (docs/receiving.md).";

/** The calls the service makes to the integrator as the receiving bank, by path (INBOUND_PATHS), named as CONTRACT §11 names them. */
const INBOUND_CALLS: Readonly<Record<keyof typeof INBOUND_PATHS, Omit<Delivery, 'tag'>>> = {
  identifierDeterminationSync: {
    operationId: 'inboundSynchronousIdentifierDetermination',
    summary: 'Look up a customer (sync)',
    description: `The scheme looks up a proxy or account at the integrator's institution (acmt.023). ${BUDGET}`,
    schema: 'IdentifierDeterminationRequest',
    examples: ['IdentifierDeterminationMobile'],
    responses: syncAnswer('IdentifierDeterminationResponse', ['IdentifierDeterminationResponseSuccessful', 'IdentifierDeterminationResponseFailed'], 'SUCCESSFUL with the account and both names, or FAILED with a reason code'),
  },
  identifierDetermination: {
    operationId: 'inboundIdentifierDetermination',
    summary: 'Look up a customer (async, by arrangement)',
    description: `As the sync lookup; the answer follows as POST /api/v1/identifiers/inbound/identifier-determination-report. ${BUDGET}`,
    schema: 'IdentifierDeterminationRequest',
    examples: ['IdentifierDeterminationMobile'],
    responses: ASYNC_ANSWER,
  },
  creditTransferAuthorisationSync: {
    operationId: 'inboundCreditTransferAuthorisation',
    summary: 'Authorise a credit to a customer (sync)',
    description: `The scheme brings a credit to a customer of the integrator's institution (pacs.008). ${BUDGET}`,
    schema: 'CreditTransfer',
    examples: ['CreditTransferZaRtc'],
    responses: syncAnswer('PaymentStatusReport', ['PaymentStatusReportApproved', 'PaymentStatusReportRejected'], 'status.outcome APPROVED, or REJECTED with an ISO 20022 reason'),
  },
  creditTransferAuthorisation: {
    operationId: 'inboundAsynchronousCreditTransferAuthorisation',
    summary: 'Authorise a credit to a customer (async, by arrangement)',
    description: `As the sync authorisation; the answer follows as POST /api/v1/transactions/inbound/credit-transfer-authorisation-response. ${BUDGET}`,
    schema: 'CreditTransfer',
    examples: ['CreditTransferZaRtc'],
    responses: ASYNC_ANSWER,
  },
  creditTransferCompletion: {
    operationId: 'inboundCreditTransferCompletion',
    summary: 'The final word on an authorised credit',
    description: `Exactly one per inbound credit: APPROVED (settled; credit the customer now) or REJECTED with the scheme's reason. ${MUST_DELIVER}`,
    schema: 'PaymentStatusReport',
    examples: ['PaymentStatusReportApproved'],
  },
  requestToPay: {
    operationId: 'inboundRequestToPay',
    summary: 'A request-to-pay to a customer',
    description:
      "The scheme brings a request-to-pay whose payer is a customer of the integrator's institution (pain.013); the customer's decisions " +
      `follow as POST /api/v1/transactions/inbound/request-to-pay-response. ${MUST_DELIVER}`,
    schema: 'RequestToPay',
    examples: ['RequestToPayAccount'],
  },
  requestToPayCancellation: {
    operationId: 'inboundRequestToPayCancellation',
    summary: 'A received request-to-pay is withdrawn',
    description: `The scheme withdrew or expired a request-to-pay it brought (camt.056); the service answers the scheme itself. ${MUST_DELIVER}`,
    schema: 'RequestToPayCancellation',
    examples: ['RequestToPayCancellation'],
  },
};

const EVENT_TAGS: Readonly<Record<TransactionKind, string>> = {
  CREDIT_TRANSFER: TAG_NAMES.creditTransferEvents,
  IDENTIFIER_DETERMINATION: TAG_NAMES.identifierDeterminationEvents,
  REQUEST_TO_PAY: TAG_NAMES.requestToPayEvents,
  INBOUND_CREDIT_TRANSFER: TAG_NAMES.inboundEvents,
  INBOUND_IDENTIFIER_DETERMINATION: TAG_NAMES.inboundEvents,
  INBOUND_REQUEST_TO_PAY: TAG_NAMES.inboundEvents,
};

/** Inbound kinds share type names with outbound ones (their direction tells them apart): their webhooks are named apart. */
function inboundPrefix(kind: TransactionKind): string {
  return directionOf(kind) === 'INBOUND' ? 'INBOUND_' : '';
}

/** lowerCamelCase of an UPPER_SNAKE event type, for an operationId. */
function camel(type: string): string {
  return type.toLowerCase().replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase());
}

export function webhooks(): Record<string, unknown> {
  const callbacks = Object.entries(CALLBACKS).map(([name, callback]): [string, unknown] => [
    CALLBACK_OPERATIONS[name as keyof typeof CALLBACK_PATHS],
    webhook({
      ...callback,
      operationId: CALLBACK_OPERATIONS[name as keyof typeof CALLBACK_PATHS],
      tag: TAG_NAMES.callbacks,
      description: `POST {partnerApiUrl}${CALLBACK_PATHS[name as keyof typeof CALLBACK_PATHS]}. ${callback.description} ${MUST_DELIVER}`,
      examples: CALLBACK_EXAMPLES[name as keyof typeof CALLBACK_PATHS],
    }),
  ]);
  const inbound = Object.entries(INBOUND_CALLS).map(([name, call]): [string, unknown] => [
    call.operationId,
    webhook({
      ...call,
      tag: TAG_NAMES.receivingCalls,
      description: `POST {partnerApiUrl}${INBOUND_PATHS[name as keyof typeof INBOUND_PATHS]}. ${call.description}`,
    }),
  ]);
  const events = (Object.entries(EVENT_DOCS) as Array<[TransactionKind, (typeof EVENT_DOCS)[TransactionKind]]>).flatMap(([kind, docs]) =>
    Object.entries(docs).map(([type, doc]): [string, unknown] => [
      `${inboundPrefix(kind)}${EVENT_CLASS}_${type}`,
      webhook({
        operationId: `${inboundPrefix(kind) === '' ? 'event' : 'inboundEvent'}${camel(`_${type}`)}`,
        summary: `${inboundPrefix(kind) === '' ? 'Event' : 'Inbound event'} ${type}`,
        description:
          `POST {eventsApiUrl}/events, to integrators with events on. Entered when ${doc.when}. Payload: ${doc.payload}. ` +
          'Best effort with long retries, never holding up processing; in order per transaction; de-duplicate on webhook-id.',
        tag: EVENT_TAGS[kind],
        schema: 'Event',
        examples: [eventExampleName(kind, type)],
      }),
    ]),
  );
  return Object.fromEntries([...callbacks, ...inbound, ...events]);
}
