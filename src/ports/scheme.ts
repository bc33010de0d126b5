import type { CreditTransfer } from '../domain/messages/credit-transfer.js';
import type { IdentifierDeterminationRequest, ResolvedAccount } from '../domain/messages/identifier-determination.js';
import type { RequestToPay } from '../domain/messages/request-to-pay.js';
import type { SchemeName } from '../domain/schemes.js';
import type { Money } from '../lib/money.js';

/**
 * The scheme connector port: how the engine talks to a payment scheme (through its operator)
 * and how the scheme's asynchronous answers come back. One connector per scheme family
 * (src/connectors/<family>/), one registry line each, all passing one contract suite.
 */

/** A credit transfer as the engine hands it to a connector. */
export interface OutboundTransfer {
  readonly transactionId: string;
  readonly integratorId: string;
  readonly scheme: SchemeName;
  readonly uetr: string;
  /**
   * Derived from the transaction, never random per attempt: every (re)submission and status
   * enquiry of one transaction carries the same key, so the scheme can de-duplicate.
   */
  readonly idempotencyKey: string;
  /** The integrator's message as accepted (validated). */
  readonly message: CreditTransfer;
  readonly amount: Money;
  readonly traceparent: string | null;
  /**
   * For a payment to a proxy: the account the proxy resolved to, by the identifier determination
   * the payment is linked to. The scheme message then carries both the proxy and this account.
   */
  readonly resolvedAccount?: string;
}

/** An identifier determination (proxy or account resolution) as the engine hands it to a connector. */
export interface OutboundLookup {
  readonly transactionId: string;
  readonly integratorId: string;
  readonly scheme: SchemeName;
  readonly uetr: string;
  /** Derived from the transaction, never random per attempt: every (re)send of one lookup carries the same key. */
  readonly idempotencyKey: string;
  /** The integrator's request as accepted (validated). */
  readonly message: IdentifierDeterminationRequest;
  readonly traceparent: string | null;
}

/** The scheme's answer to an identifier determination (acmt.024 for ZA_RPP). */
export interface IdentificationReport {
  readonly kind: 'identification';
  readonly scheme: SchemeName;
  readonly idempotencyKey: string;
  readonly outcome: 'SUCCESSFUL' | 'FAILED';
  /** On failure: the reason code of the spec's table (e.g. PX03, AC04). */
  readonly reasonCode?: string;
  readonly reasonText?: string;
  readonly account?: ResolvedAccount;
  /** The scheme message as received, in a JSON form (element names as keys), used as event payload. */
  readonly message: Readonly<Record<string, unknown>>;
  readonly receivedAt: number;
}

/** A request-to-pay as the engine hands it to a connector (pain.013 for ZA_RPP). */
export interface OutboundRequestToPay {
  readonly transactionId: string;
  readonly integratorId: string;
  readonly scheme: SchemeName;
  readonly uetr: string;
  /** Derived from the transaction, never random per attempt: every (re)send of one request carries the same key. */
  readonly idempotencyKey: string;
  /** The integrator's RequestToPay as accepted (validated). */
  readonly message: RequestToPay;
  readonly amount: Money;
  /** expiryDateTime (ms since epoch). */
  readonly expiresAt: number;
  readonly traceparent: string | null;
}

/** Asking the scheme to withdraw a request-to-pay (camt.056 for ZA_RPP): the integrator's cancellation, or its expiry. */
export interface OutboundRequestToPayCancellation {
  readonly request: OutboundRequestToPay;
  /** Identifies this cancellation (its message id at the scheme derives from it); the same on every resend. */
  readonly cancellationKey: string;
  /** ISO 20022 cancellation reason, e.g. CUST, DUPL, AM09; for an expiry the service's own. */
  readonly reasonCode: string;
}

/** A request-to-pay status as the scheme reports it (pain.014), mapped exhaustively: an unknown code is PENDING, never final. */
export type ReportedRequestToPayStatus = 'PENDING' | 'PRESENTED' | 'ACCEPTED' | 'PAID' | 'REJECTED';

export interface RequestToPayReport {
  readonly kind: 'request_to_pay';
  readonly scheme: SchemeName;
  readonly idempotencyKey: string;
  readonly status: ReportedRequestToPayStatus;
  readonly reasonCode?: string;
  readonly reasonText?: string;
  /** The scheme message as received, in a JSON form, used as event payload. */
  readonly message: Readonly<Record<string, unknown>>;
  readonly receivedAt: number;
}

/** The scheme's answer to a cancellation (camt.029): withdrawn, or not (with its reason). */
export interface CancellationReport {
  readonly kind: 'cancellation';
  readonly scheme: SchemeName;
  /** The request-to-pay's idempotency key. */
  readonly idempotencyKey: string;
  readonly cancellationKey: string;
  readonly accepted: boolean;
  readonly reasonCode?: string;
  readonly reasonText?: string;
  readonly message: Readonly<Record<string, unknown>>;
  readonly receivedAt: number;
}

/** A scheme message as it went over the wire: kept for operators (Store.recordSchemeMessages). */
export interface WireMessage {
  /** ISO 20022 message name, e.g. `pacs.008.001.08`. */
  readonly messageName: string;
  readonly messageId: string;
  /** The XML document. */
  readonly document: string;
}

/** Every answer a scheme sends, whatever kind of transaction it answers, with the message it came in when the connector has it. */
export type InboundReport = (SchemeReport | IdentificationReport | RequestToPayReport | CancellationReport) & { readonly received?: WireMessage };

/** Limits that vary per integrator (from configuration), applied by the scheme rules. */
export interface SchemeLimits {
  /** Maximum amount of one transfer in minor units of the scheme's currency, when the scheme or integrator sets one. */
  readonly amountMaxMinor?: bigint;
}

/** Result of a scheme's own rules, checked before anything is sent: a failure is a REJECTED outcome, not an HTTP error. */
export type SchemeRuleOutcome =
  | { readonly ok: true }
  | { readonly ok: false; readonly reasonCode: string; readonly reasonText: string };

/** The scheme's verdict, mapped exhaustively from its status codes. Unknown codes map to PENDING (then enquire), never to ACCEPTED. */
export type SchemeStatus = 'ACCEPTED' | 'REJECTED' | 'PENDING';

/** An answer from the scheme, delivered through the inbound side of the port. */
export interface SchemeReport {
  readonly scheme: SchemeName;
  readonly uetr: string;
  readonly idempotencyKey: string;
  /**
   * `status`: the scheme's verdict on the transfer (answer to a submission or to an enquiry).
   * `not_found`: answer to an enquiry saying the scheme never received the transfer (NOOR):
   * the engine may safely resubmit with the same idempotency key.
   */
  readonly kind: 'status' | 'not_found';
  readonly status: SchemeStatus;
  /** ISO 20022 reason code on rejection (e.g. AC01, AM02). */
  readonly reasonCode?: string;
  /** Human-readable reason; schemes may truncate at 35 characters. */
  readonly reasonText?: string;
  /** The scheme message as received, in a JSON form (e.g. pacs.002 fields), used as event payload. */
  readonly message: Readonly<Record<string, unknown>>;
  readonly receivedAt: number;
}

/** What happened to one outbound call at the transport level (not the payment's outcome); `sent`: the message handed to the transport, when one was written. */
export type SubmitOutcome = (

  /** The scheme (operator) took the message; its verdict follows as a SchemeReport. */
  | { readonly kind: 'delivered' }
  /**
   * Technical failure; `retryable` false means retrying the same message cannot help. A message
   * the scheme's format cannot carry names the ISO 20022 reason (e.g. RC05, AC01) as `reasonCode`.
   */
  | { readonly kind: 'failed'; readonly retryable: boolean; readonly error: string; readonly reasonCode?: string }
) & { readonly sent?: WireMessage };

/**
 * Implemented by the engine: connectors hand every scheme answer to it, whatever kind of
 * transaction it answers. Resolves once durably recorded; rejects when it was not (the transport
 * then refuses the message, 503 on the operator link, so the operator delivers it again).
 */
export interface SchemeInbound {
  receive(report: InboundReport): Promise<void>;
}

export interface ConnectorCapabilities {
  readonly creditTransfer: boolean;
  readonly statusEnquiry: boolean;
  /** Proxy and account resolution (`resolve`). */
  readonly identifierDetermination?: boolean;
  /** Request-to-pay and its cancellation (`requestToPay`, `cancelRequestToPay`). */
  readonly requestToPay?: boolean;
}

export interface SchemeConnector {
  /** Family name, e.g. `za-rtc`. */
  readonly family: string;
  readonly schemes: readonly SchemeName[];
  readonly capabilities: ConnectorCapabilities;
  /** The scheme's own rules (currency, amount limits, required BICs...). Pure. */
  check(transfer: OutboundTransfer, limits: SchemeLimits): SchemeRuleOutcome;
  /** Send the transfer; idempotent by `transfer.idempotencyKey`. */
  submit(transfer: OutboundTransfer): Promise<SubmitOutcome>;
  /** Ask for the status of a transfer submitted earlier; the answer comes back as a SchemeReport. */
  enquire(transfer: OutboundTransfer): Promise<SubmitOutcome>;
  /**
   * Send an identifier determination (acmt.023 for ZA_RPP); idempotent by `lookup.idempotencyKey`.
   * The answer comes back as an IdentificationReport. A connector without the capability answers
   * `failed`, not retryable.
   */
  resolve(lookup: OutboundLookup): Promise<SubmitOutcome>;
  /** Send a request-to-pay (pain.013 for ZA_RPP); idempotent by its idempotency key. Status reports come back as RequestToPayReports. */
  requestToPay(request: OutboundRequestToPay): Promise<SubmitOutcome>;
  /** Ask the scheme to withdraw a request-to-pay (camt.056); idempotent by the cancellation key. The answer comes back as a CancellationReport. */
  cancelRequestToPay(cancellation: OutboundRequestToPayCancellation): Promise<SubmitOutcome>;
  /** Begin passing scheme answers to `inbound`. */
  start(inbound: SchemeInbound): Promise<void>;
  /** Stop; answers not yet passed on are dropped (the engine enquires again after restart). */
  stop(): Promise<void>;
}
