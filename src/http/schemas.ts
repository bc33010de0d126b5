import { Type, type TSchema } from '@sinclair/typebox';
import { DIRECTIONS } from '../domain/events.js';
import { TRANSACTION_KINDS } from '../domain/kinds.js';
import { StringEnum } from '../domain/messages/common.js';
import { IdentifierDeterminationResponseSchema } from '../domain/messages/identifier-determination.js';
import { AuthorisationReportSchema } from '../domain/messages/inbound-answers.js';
import { RequestToPayResponseSchema } from '../domain/messages/request-to-pay.js';

/**
 * Schemas of the routes' requests and answers beyond the messages. Each has an `$id`: routes name
 * it by reference (`Type.Ref('ErrorDetail')`) and the document publishes it as a named component.
 */
export const ErrorDetailSchema = Type.Object(
  {
    schema: Type.Literal('ErrorDetail'),
    message: Type.String({ description: 'Concise description of the problem' }),
    detail: Type.Optional(Type.String({ description: 'Longer explanation' })),
    errors: Type.Array(
      Type.Object({
        field: Type.String({ description: 'JSON pointer to the offending field of the request body' }),
        message: Type.String(),
      }),
      { description: 'Every violated field, not only the first' },
    ),
  },
  { $id: 'ErrorDetail', description: 'Error response body (CONTRACT §5)' },
);

const header = (description: string) => ({ type: 'string', description });

/** An ErrorDetail answer with `description`, and the response headers that come with it. */
export function errorResponse(description: string, headers: Readonly<Record<string, { type: string; description: string }>> = {}) {
  return {
    description,
    ...(Object.keys(headers).length === 0 ? {} : { headers }),
    content: { 'application/json': { schema: Type.Ref('ErrorDetail') } },
  };
}

const RETRY_AFTER = { 'Retry-After': header('Seconds to wait before sending the identical request again') };
const WWW_AUTHENTICATE = { 'WWW-Authenticate': header('The authentication scheme the service expects (RFC 9110 §11.6.1)') };

/** The error responses every authenticated API operation may give (CONTRACT §5). */
export const commonErrorResponses = {
  400: errorResponse('Unparseable JSON or a broken interface rule; `errors` names every bad field'),
  401: errorResponse('Missing or bad credentials or token', WWW_AUTHENTICATE),
  403: errorResponse('Authenticated but not allowed (other institution, scheme not enabled)'),
  409: errorResponse('messageIdentification or uetr already used with a different payload'),
  413: errorResponse('Body too large'),
  415: errorResponse('Content-Type is not application/json'),
  422: errorResponse('Well formed, but not processable by the scheme: it does not carry the operation, or its rules refuse the message (SCHEME_REFUSES names the field)'),
  429: errorResponse('Rate limit exceeded, or too many failed authentications from this address', RETRY_AFTER),
  500: errorResponse('A bug in the service; never an answer to bad input'),
  503: errorResponse('Not ready or overloaded; the identical request may be retried', RETRY_AFTER),
} as const;

// ---------------------------------------------------------------------------------------------
// Operations

export const HealthStatusSchema = Type.Object(
  {
    status: StringEnum(['ok', 'unavailable'], { description: 'ok, or unavailable (with the reason)' }),
    reason: Type.Optional(Type.String({ description: 'Why the instance does not take traffic, e.g. "store unreachable"' })),
  },
  { $id: 'HealthStatus', description: 'Answer of a health probe' },
);

// ---------------------------------------------------------------------------------------------
// Admin API (docs/delivery.md, "Admin API")

const DateTimeText = (description: string) => Type.String({ format: 'date-time', description });
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

const deliverySummaryProperties = {
  id: Type.String({ description: 'Delivery id: the webhook-id header of every attempt' }),
  transactionId: Type.String({ description: 'Internal id of the transaction the message is about' }),
  integratorId: Type.String({ description: 'The integrator it is sent to' }),
  channel: StringEnum(['callback', 'event'], { description: 'callback (must-deliver) or event' }),
  url: Type.String({ description: 'Where it is POSTed' }),
  seq: Type.Integer({ minimum: 1, description: 'Order of the message within its transaction (one sequence for both channels)' }),
  status: StringEnum(['PENDING', 'DELIVERED', 'UNDELIVERED'], {
    description: 'PENDING (being retried), DELIVERED (acknowledged) or UNDELIVERED (retry schedule spent; replayable)',
  }),
  attempts: Type.Integer({ minimum: 0, description: 'Attempts since it was written or last replayed' }),
  createdAt: DateTimeText('When the message was written'),
  nextAttemptAt: Nullable(DateTimeText('When it is next due; null unless PENDING')),
  deliveredAt: Nullable(DateTimeText('When it was acknowledged; null until then')),
  lastError: Nullable(Type.String({ description: 'The last failed attempt, e.g. "HTTP 503" or "ECONNREFUSED"; null when none failed' })),
};

export const DeliverySummarySchema = Type.Object(deliverySummaryProperties, { $id: 'DeliverySummary', description: 'One outbox message (callback or event)' });

export const DeliveryListSchema = Type.Object(
  {
    deliveries: Type.Array(Type.Ref('DeliverySummary'), { description: 'Oldest first' }),
    nextCursor: Nullable(Type.String({ description: 'The cursor of the next page; null on the last page' })),
  },
  { $id: 'DeliveryList', description: 'A page of deliveries' },
);

export const DeliveryAttemptSchema = Type.Object(
  {
    at: DateTimeText('When the attempt started'),
    durationMs: Type.Integer({ minimum: 0, description: 'How long it took' }),
    httpStatus: Nullable(Type.Integer({ description: "The integrator's HTTP status; null when no answer came" })),
    error: Nullable(Type.String({ description: 'Why it failed (status, OAuth2 error code or transport error); null when acknowledged' })),
    delivered: Type.Boolean({ description: 'Whether the attempt was acknowledged (2xx)' }),
  },
  { $id: 'DeliveryAttempt', description: 'One recorded delivery attempt' },
);

export const DeliveryDetailSchema = Type.Object(
  {
    ...deliverySummaryProperties,
    headers: Type.Record(Type.String(), Type.String(), { description: 'Headers stored with the message (e.g. traceparent)' }),
    body: Type.String({ description: 'The exact JSON text sent' }),
    attemptHistory: Type.Array(Type.Ref('DeliveryAttempt'), { description: 'Every recorded attempt, oldest first' }),
  },
  { $id: 'DeliveryDetail', description: 'One outbox message with its body and every recorded attempt' },
);

export const ReplayRequestSchema = Type.Union(
  [
    Type.Object({ outboxId: Type.String({ description: 'The one delivery to replay' }) }, { additionalProperties: false, description: 'One message' }),
    Type.Object(
      {
        integratorId: Type.Optional(Type.String({ description: 'Only messages to this configured integrator' })),
        since: Type.Optional(DateTimeText('Only messages written at or after this time (RFC 3339)')),
      },
      { additionalProperties: false, minProperties: 1, description: 'Every UNDELIVERED message matching the filter (at least one of the two)' },
    ),
  ],
  { $id: 'ReplayRequest', description: 'Which UNDELIVERED messages to make PENDING again; an empty filter is refused' },
);

export const ReplayResultSchema = Type.Object(
  { replayed: Type.Integer({ minimum: 0, description: 'How many messages were made PENDING again' }) },
  { $id: 'ReplayResult', description: 'Outcome of a replay' },
);

const transactionSummaryProperties = {
  id: Type.String({ description: 'Internal id of the transaction' }),
  integratorId: Type.String({ description: 'The integrator that sent it, or whose institution received it' }),
  kind: StringEnum(TRANSACTION_KINDS, { description: 'What kind of transaction' }),
  direction: StringEnum(DIRECTIONS, { description: 'INBOUND when the scheme started it for the integrator’s institution (the receiving kinds), OUTBOUND when the integrator sent it' }),
  scheme: Type.String({ description: 'The payment scheme' }),
  uetr: Type.String({ description: 'The UETR the integrator gave' }),
  messageId: Type.String({ description: "The request's messageIdentification" }),
  endToEndId: Nullable(Type.String({ description: 'The end-to-end identification, when the message carries one' })),
  state: Type.String({ description: 'The current state (docs/state-machine.md)' }),
  outcome: Nullable(Type.String({ description: 'The final answer (APPROVED, REJECTED, PAID, FAILED…); null until decided' })),
  reasonCode: Nullable(Type.String({ description: 'ISO 20022 reason code of the outcome, when it has one' })),
  amount: Nullable(
    Type.Object({ value: Type.String({ description: 'Decimal amount, as the currency writes it' }), currency: Type.String() }, { description: 'The amount, when the transaction has one' }),
  ),
  createdAt: DateTimeText('When it was accepted'),
  updatedAt: DateTimeText('When it last changed'),
};

export const TransactionSummarySchema = Type.Object(transactionSummaryProperties, { $id: 'TransactionSummary', description: 'One transaction, as listed' });

export const TransactionListSchema = Type.Object(
  {
    transactions: Type.Array(Type.Ref('TransactionSummary'), { description: 'Newest first' }),
    nextCursor: Nullable(Type.String({ description: 'The cursor of the next page; null on the last page' })),
  },
  { $id: 'TransactionList', description: 'A page of transactions' },
);

export const TransactionDetailSchema = Type.Object(
  {
    ...transactionSummaryProperties,
    traceparent: Nullable(Type.String({ description: 'The W3C trace context the transaction carries' })),
    dueAt: Nullable(DateTimeText('When its next timer is due; null when none')),
    request: Type.Unknown({ description: 'The request as received (JSON)' }),
    history: Type.Array(
      Type.Object({
        version: Type.Integer({ minimum: 1 }),
        fromState: Nullable(Type.String()),
        toState: Type.String(),
        at: DateTimeText('When the state was entered'),
        cause: Type.Unknown({ description: "What caused it (the scheme's answer or the decision), as JSON; null for the request itself" }),
        timeout: Type.Optional(Type.Ref('TimeoutCause')),
      }),
      { description: 'Every state entered, in order' },
    ),
    deliveries: Type.Array(
      Type.Object({
        ...deliverySummaryProperties,
        headers: Type.Record(Type.String(), Type.String()),
        body: Type.Unknown({ description: 'The JSON sent' }),
        attemptHistory: Type.Array(Type.Ref('DeliveryAttempt')),
      }),
      { description: 'Every callback and event, with each delivery attempt' },
    ),
    schemeMessages: Type.Array(
      Type.Object({
        direction: StringEnum(['sent', 'received'], { description: 'sent to the scheme, or received from it' }),
        messageName: Type.String({ description: 'ISO 20022 message name, e.g. pacs.008.001.08' }),
        messageId: Type.String(),
        at: DateTimeText('When it was sent or received'),
        document: Type.String({ description: 'The XML document' }),
      }),
      { description: 'The scheme messages sent and received, in order' },
    ),
  },
  { $id: 'TransactionDetail', description: 'One transaction with everything that happened to it' },
);

export const DemoInboxPageSchema = Type.Object(
  {
    messages: Type.Array(
      Type.Object({
        seq: Type.Integer({ minimum: 1, description: 'Arrival order' }),
        receivedAt: DateTimeText('When it arrived'),
        channel: StringEnum(['callback', 'event'], { description: 'callback or event' }),
        path: Type.String({ description: "The path under the integrator's base URL" }),
        webhookId: Nullable(Type.String()),
        signatureHeaders: Type.Object(
          { 'webhook-id': Nullable(Type.String()), 'webhook-timestamp': Nullable(Type.String()), 'webhook-signature': Nullable(Type.String()) },
          { description: 'The Standard Webhooks headers exactly as received (null when absent): with rawBody and the webhook secret, any Standard Webhooks library can check the signature' },
        ),
        signatureValid: Type.Boolean({ description: "The webhook-signature matched the demo's secret" }),
        traceparent: Nullable(Type.String()),
        rawBody: Type.String({ description: 'The body exactly as received (what was signed)' }),
        body: Type.Unknown({ description: 'The body, as JSON when it is JSON' }),
        answer: Type.Optional(Type.Unknown({ description: "The demo bank's 200 answer to a sync lookup or credit authorisation (docs/simulator.md, the demo bank's customers)" })),
        status: Nullable(Type.String({ description: "The outcome or status the message reports (an event: its payload's; a sync call: the demo bank's answer's), e.g. APPROVED, REJECTED, PRESENTED, SUCCESSFUL" })),
        reason: Nullable(
          Type.Object({ code: Type.String({ description: 'ISO 20022 reason code, e.g. AC04' }), text: Nullable(Type.String({ description: 'Its text, when the message gave one' })) }, { description: 'The reason given with the status' }),
        ),
      }),
      { description: 'Oldest first' },
    ),
    next: Type.Integer({ minimum: 0, description: 'Pass as `after` for what arrives next' }),
  },
  { $id: 'DemoInboxPage', description: 'What the demo integrator was sent' },
);

const Count = (description: string) => Type.Integer({ minimum: 0, description });

export const SchemeListSchema = Type.Object(
  {
    schemes: Type.Array(
      Type.Object({
        scheme: Type.String({ description: 'The scheme' }),
        connector: Type.String({ description: 'Its connector (simulator, operator-link...)' }),
        operations: Type.Array(Type.String(), { description: 'What it carries (creditTransfer, identifierDetermination, requestToPay); none for ZA_AC and ZA_RMS' }),
      }),
      { description: 'Every configured scheme, in the order of the scheme enumeration' },
    ),
  },
  { $id: 'SchemeList', description: 'The configured schemes' },
);

export const SchemeHealthReportSchema = Type.Object(
  {
    from: DateTimeText('Start of the window'),
    to: DateTimeText('End of the window (now)'),
    schemes: Type.Array(
      Type.Object({
        scheme: Type.String({ description: 'The scheme' }),
        connector: Type.String({ description: 'Its connector (simulator, operator-link...)' }),
        inFlight: Count('Waiting for the scheme now, whenever accepted: a timer runs and no outcome is decided'),
        accepted: Count('Accepted in the window'),
        timeouts: Count("Of those, how many ran past the scheme's time budget: in a timeout state now, or failed by the service with AB06"),
        outcomes: Type.Array(Type.Object({ outcome: Type.String(), count: Count('How many') }), { description: 'Of those, the decided ones by outcome, most first' }),
        rejections: Type.Array(Type.Object({ reasonCode: Type.String(), count: Count('How many') }), { description: 'Of those, the outcomes with a reason code, by code, most first' }),
        latencyMs: Nullable(
          Type.Object(
            { count: Count('Decided'), p50: Count('Median (nearest rank)'), p95: Count('95th percentile (nearest rank)'), max: Count('Slowest') },
            { description: 'Time from acceptance to outcome of the decided ones, in ms; null when none is decided' },
          ),
        ),
        operations: Type.Array(Type.String(), { description: 'What the scheme carries (creditTransfer, identifierDetermination, requestToPay)' }),
        series: Type.Array(
          Type.Object({
            from: DateTimeText('Start of the bucket'),
            accepted: Count('Accepted in the bucket'),
            outcomes: Type.Array(Type.Object({ outcome: Type.String(), count: Count('How many') }), { description: 'Of those, the decided ones by outcome, most first' }),
            p95Ms: Nullable(Count('Of those, the 95th percentile (nearest rank) of the time from acceptance to outcome, in ms; null when none is decided')),
          }),
          { description: 'The window in buckets of bucketMinutes, oldest first' },
        ),
      }),
      { description: 'One per configured scheme that carries an operation (ZA_AC and ZA_RMS carry none)' },
    ),
    bucketMinutes: Type.Integer({ minimum: 1, description: 'The width of each bucket of `series`: the window in at most 60 buckets' }),
  },
  { $id: 'SchemeHealthReport', description: 'How each scheme is doing' },
);

export const TimeoutCauseSchema = Type.Object(
  {
    budget: Type.String({ description: "Which time budget ran out, in words (the scheme's time budget, the integrator's answer budget)" }),
    setting: Type.String({ description: 'The configuration that sets it, e.g. schemes.ZA_RPP.timeBudgetMs' }),
    countedFrom: Type.String({ description: 'What it is counted from' }),
    budgetMs: Nullable(Count('Its length in ms, as configured now (or as the event carried it)')),
    ranOutAt: Nullable(DateTimeText('When it ran out')),
  },
  { $id: 'TimeoutCause', description: 'Why a *_TIMEOUT state was entered: the time budget that ran out' },
);

export const WaitingListSchema = Type.Object(
  {
    asOf: DateTimeText('The service’s time of the answer; each `waitedMs` is counted to it'),
    transactions: Type.Array(
      Type.Object({
        ...transactionSummaryProperties,
        dueAt: DateTimeText('When its next timer is due'),
        waitedMs: Count('How long it has waited since it was accepted, in ms'),
      }),
      { description: 'Waiting longest first' },
    ),
    nextCursor: Nullable(Type.String({ description: 'The cursor of the next page; null on the last page' })),
  },
  { $id: 'WaitingList', description: 'A page of the transactions not final yet' },
);

export const TransactionStatesSchema = Type.Object(
  {
    kinds: Type.Array(
      Type.Object({
        kind: StringEnum(TRANSACTION_KINDS, { description: 'The kind' }),
        direction: StringEnum(DIRECTIONS, { description: 'INBOUND for the kinds the scheme starts' }),
        initialState: Type.String(),
        states: Type.Array(Type.Object({ state: Type.String(), final: Type.Boolean({ description: 'Nothing leaves it' }) }), { description: 'In the order its machine declares them' }),
      }),
    ),
  },
  { $id: 'TransactionStates', description: "Every kind's states, from its state machine" },
);

export const ReasonCodesSchema = Type.Object(
  { reasonCodes: Type.Array(Type.Object({ code: Type.String(), text: Type.String() }), { description: 'By code' }) },
  { $id: 'ReasonCodes', description: 'The reason codes the service and its schemes give, with what each means' },
);

export const SimulatorTestValuesSchema = Type.Object(
  {
    testValues: Type.Array(
      Type.Object({
        id: Type.String({ description: 'Pass as testValueId to send a sample' }),
        scheme: Type.String(),
        kind: Type.String({ description: 'CREDIT_TRANSFER, IDENTIFIER_DETERMINATION or REQUEST_TO_PAY' }),
        label: Type.String({ description: "The value's name" }),
        value: Type.String({ description: 'The value, as it goes into the request' }),
        description: Type.String({ description: 'What the simulated scheme does' }),
        expected: Type.String({ description: 'What the integrator sees' }),
      }),
    ),
  },
  { $id: 'SimulatorTestValues', description: "The built-in simulator's test values" },
);

export const SimulatorSampleRequestSchema = Type.Object(
  {
    testValueId: Type.String({ minLength: 1, maxLength: 200, description: 'An id from GET /admin/v1/simulator/test-values' }),
    integratorId: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Send as this integrator (default: the first that has the scheme)' })),
  },
  { $id: 'SimulatorSampleRequest', additionalProperties: false, description: 'Which test value to send a sample of, and as whom' },
);

export const SimulatorSampleResultSchema = Type.Object(
  {
    testValueId: Type.String(),
    integratorId: Type.String({ description: 'Sent as this integrator' }),
    status: Type.Integer({ description: 'The status the integrator API answered' }),
    transactionId: Nullable(Type.String({ description: 'The transaction it made; null when it made none' })),
    uetr: Nullable(Type.String({ description: 'The uetr of the sample' })),
    body: Type.Unknown({ description: 'The body the integrator API answered (null for a 202)' }),
  },
  { $id: 'SimulatorSampleResult', description: 'What a sample request was answered' },
);

/**
 * The schemas routes reference by `$ref`, registered with addSchema by the OpenAPI plugin. Keep it
 * to those: Fastify compiles every registered schema into each route's answer serializers.
 */
export const REFERENCED_SCHEMAS: readonly TSchema[] = [
  ErrorDetailSchema,
  HealthStatusSchema,
  DeliverySummarySchema,
  DeliveryListSchema,
  DeliveryAttemptSchema,
  DeliveryDetailSchema,
  ReplayRequestSchema,
  ReplayResultSchema,
  TransactionSummarySchema,
  TransactionListSchema,
  TransactionDetailSchema,
  DemoInboxPageSchema,
  SchemeListSchema,
  SchemeHealthReportSchema,
  TimeoutCauseSchema,
  WaitingListSchema,
  TransactionStatesSchema,
  ReasonCodesSchema,
  SimulatorTestValuesSchema,
  SimulatorSampleRequestSchema,
  SimulatorSampleResultSchema,
  IdentifierDeterminationResponseSchema,
  AuthorisationReportSchema,
  RequestToPayResponseSchema,
];
