/**
 * The admin API's answers as the console reads them (docs/operations.md, docs/delivery.md,
 * docs/simulator.md; GET /admin/openapi.json has them all). Amounts stay the decimal text the API
 * gives: the console never turns money into a number.
 */

export interface Amount {
  readonly value: string;
  readonly currency: string;
}

export type Direction = 'INBOUND' | 'OUTBOUND';

export interface TransactionSummary {
  readonly id: string;
  readonly integratorId: string;
  readonly kind: string;
  /** INBOUND: the scheme started it for the integrator's institution; OUTBOUND: the integrator sent it. */
  readonly direction: Direction;
  readonly scheme: string;
  readonly uetr: string;
  readonly messageId: string;
  readonly endToEndId: string | null;
  readonly state: string;
  readonly outcome: string | null;
  readonly reasonCode: string | null;
  readonly amount: Amount | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface TransactionList {
  readonly transactions: readonly TransactionSummary[];
  readonly nextCursor: string | null;
}

export interface DeliveryAttempt {
  readonly at: string;
  readonly durationMs: number;
  readonly httpStatus: number | null;
  readonly error: string | null;
  readonly delivered: boolean;
}

export interface DeliverySummary {
  readonly id: string;
  readonly transactionId: string;
  readonly integratorId: string;
  readonly channel: 'callback' | 'event';
  readonly url: string;
  readonly seq: number;
  readonly status: 'PENDING' | 'DELIVERED' | 'UNDELIVERED';
  readonly attempts: number;
  readonly createdAt: string;
  readonly nextAttemptAt: string | null;
  readonly deliveredAt: string | null;
  readonly lastError: string | null;
}

export interface DeliveryList {
  readonly deliveries: readonly DeliverySummary[];
  readonly nextCursor: string | null;
}

export interface TransactionDelivery extends DeliverySummary {
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
  readonly attemptHistory: readonly DeliveryAttempt[];
}

/** Why a *_TIMEOUT state was entered: the time budget that ran out. */
export interface TimeoutCause {
  readonly budget: string;
  /** The configuration that sets it. */
  readonly setting: string;
  readonly countedFrom: string;
  readonly budgetMs: number | null;
  readonly ranOutAt: string | null;
}

export interface StateEntered {
  readonly version: number;
  readonly fromState: string | null;
  readonly toState: string;
  readonly at: string;
  readonly cause: unknown;
  readonly timeout?: TimeoutCause;
}

export interface SchemeMessage {
  readonly direction: 'sent' | 'received';
  readonly messageName: string;
  readonly messageId: string;
  readonly at: string;
  readonly document: string;
}

export interface TransactionDetail extends TransactionSummary {
  readonly traceparent: string | null;
  readonly dueAt: string | null;
  readonly request: unknown;
  readonly history: readonly StateEntered[];
  readonly deliveries: readonly TransactionDelivery[];
  readonly schemeMessages: readonly SchemeMessage[];
}

export interface SchemeHealth {
  readonly scheme: string;
  /** simulator, operator-link, … */
  readonly connector: string;
  /** Waiting for the scheme now, whenever accepted. */
  readonly inFlight: number;
  /** The rest counts these: the transactions accepted in the window. */
  readonly accepted: number;
  readonly outcomes: readonly { readonly outcome: string; readonly count: number }[];
  readonly rejections: readonly { readonly reasonCode: string; readonly count: number }[];
  readonly timeouts: number;
  readonly latencyMs: { readonly count: number; readonly p50: number; readonly p95: number; readonly max: number } | null;
  /** creditTransfer, identifierDetermination, requestToPay. */
  readonly operations: readonly string[];
  /** The window in buckets of bucketMinutes, oldest first. */
  readonly series: readonly HealthBucket[];
}

export interface HealthBucket {
  readonly from: string;
  readonly accepted: number;
  readonly outcomes: readonly { readonly outcome: string; readonly count: number }[];
  readonly p95Ms: number | null;
}

export interface SchemesHealth {
  readonly from: string;
  readonly to: string;
  readonly bucketMinutes: number;
  readonly schemes: readonly SchemeHealth[];
}

/** A transaction not final yet (GET /admin/v1/waiting). */
export interface WaitingTransaction extends TransactionSummary {
  readonly dueAt: string;
  readonly waitedMs: number;
}

export interface WaitingList {
  /** The service's time of the answer: waitedMs is counted to it. */
  readonly asOf: string;
  readonly transactions: readonly WaitingTransaction[];
  readonly nextCursor: string | null;
}

/** GET /admin/v1/states: every kind's states, from its machine. */
export interface TransactionStates {
  readonly kinds: readonly {
    readonly kind: string;
    readonly direction: Direction;
    readonly initialState: string;
    readonly states: readonly { readonly state: string; readonly final: boolean }[];
  }[];
}

/** GET /admin/v1/reason-codes. */
/** GET /admin/v1/schemes: the configured schemes. */
export interface SchemeList {
  readonly schemes: readonly { readonly scheme: string; readonly connector: string; readonly operations: readonly string[] }[];
}

export interface ReasonCodes {
  readonly reasonCodes: readonly { readonly code: string; readonly text: string }[];
}

export interface TestValue {
  readonly id: string;
  readonly scheme: string;
  readonly kind: string;
  readonly label: string;
  /** The value itself, as it goes into the request (an account number, a proxy…). */
  readonly value: string;
  readonly description: string;
  readonly expected: string;
}

export interface SampleSent {
  readonly testValueId: string;
  readonly integratorId: string;
  readonly status: number;
  readonly transactionId: string | null;
  readonly uetr: string | null;
  readonly body: unknown;
}

export interface InboxMessage {
  readonly seq: number;
  readonly receivedAt: string;
  readonly channel: 'callback' | 'event';
  readonly path: string;
  readonly webhookId: string | null;
  readonly signatureHeaders: { readonly 'webhook-id': string | null; readonly 'webhook-timestamp': string | null; readonly 'webhook-signature': string | null };
  readonly signatureValid: boolean;
  readonly traceparent: string | null;
  readonly rawBody: string;
  readonly body: unknown;
  readonly answer?: unknown;
  readonly status: string | null;
  readonly reason: { readonly code: string; readonly text: string | null } | null;
}

export interface InboxPage {
  readonly messages: readonly InboxMessage[];
  readonly next: number;
}

/** What POST /admin/v1/simulator/inbound asks the simulated scheme to send an integrator. */
export interface InboundOrder {
  readonly integratorId?: string;
  readonly scheme: string;
  readonly scenario: string;
  readonly accountNumber?: string;
  readonly proxy?: { readonly value: string; readonly schema: 'MOBILE' | 'CUSTOM' };
  readonly amount: string;
  readonly customerName?: string;
  readonly payerName?: string;
}

/** Its 202: the UETR and message ids of what the simulated scheme sends. */
export interface InboundStarted {
  readonly integratorId: string;
  readonly scheme: string;
  readonly scenario: string;
  readonly uetr: string;
  readonly messageIds: readonly string[];
}
