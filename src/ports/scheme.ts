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

/**
 * The scheme's withdrawal of a request-to-pay it brought to an integrator's customer (camt.056
 * about an inbound pain.013): the creditor withdrew it, or it expired. The service answers it itself
 * (camt.029 through `answerWithdrawal`) and tells the integrator.
 */
export interface WithdrawalReport {
  readonly kind: 'withdrawal';
  readonly scheme: SchemeName;
  /** The inbound request-to-pay's transaction id (inboundTransactionId of the pain.013 it names). */
  readonly idempotencyKey: string;
  /** The camt.056's Case/Id, which the camt.029 repeats as RslvdCase/Id. */
  readonly caseId: string;
  /** The camt.056 itself (its Assgnmt/Id as messageId), which the camt.029 answers. */
  readonly original: SchemeOriginal;
  /** CxlRsnInf/Rsn: an ISO 20022 cancellation reason (CUST, DUPL, AM09...) or EXPIRED for an expiry. */
  readonly reasonCode: string;
  readonly message: Readonly<Record<string, unknown>>;
  readonly receivedAt: number;
}

/** Every answer a scheme sends, whatever kind of transaction it answers, with the message it came in when the connector has it. */
export type InboundReport = (SchemeReport | IdentificationReport | RequestToPayReport | CancellationReport | WithdrawalReport) & { readonly received?: WireMessage };

/**
 * The identity of a message the scheme originated, as every answer to it repeats it (OrgnlGrpInf,
 * OrgnlInstrId, OrgnlEndToEndId, OrgnlTxId, OrgnlUETR).
 */
export interface SchemeOriginal {
  /** GrpHdr/MsgId (camt.056: Assgnmt/Id). */
  readonly messageId: string;
  /** ISO 20022 message name, e.g. `pacs.008.001.08`. */
  readonly messageName: string;
  /** GrpHdr/CreDtTm as sent. */
  readonly createdAt?: string;
  readonly instructionId?: string;
  readonly endToEndId?: string;
  readonly transactionId?: string;
  /** Lowercased. */
  readonly uetr?: string;
}

/** The institution a scheme message is addressed to (creditor agent, account agent, debtor agent), as the message names it. */
export interface AddressedInstitution {
  readonly bicfi?: string;
  readonly memberId?: string;
}

/**
 * A message the scheme originates for an integrator's institution (the receiving direction,
 * CONTRACT §11): a lookup of its customer (acmt.023), a credit to authorise (pacs.008), a
 * request-to-pay addressed to its customer (pain.013).
 */
export interface SchemeRequest {
  readonly kind: 'lookup' | 'credit' | 'request_to_pay';
  readonly scheme: SchemeName;
  readonly original: SchemeOriginal;
  readonly institution: AddressedInstitution;
  /**
   * The message in the integrator API's shape, as JSON text whose amounts are exact decimal
   * literals: an IdentifierDeterminationRequest (lookup), a CreditTransfer (credit) or a
   * RequestToPay (request_to_pay).
   */
  readonly bodyJson: string;
  readonly received: WireMessage;
  readonly receivedAt: number;
}

/**
 * What the service did with a SchemeRequest. `accepted`: durably recorded (or a resend of one
 * recorded), its answer follows through the connector's answer methods. `refused`: nothing was
 * recorded; the connector answers the scheme at once with the reason (a FAILED acmt.024, a RJCT
 * pacs.002 or pain.014).
 */
export type OriginateOutcome =
  | { readonly kind: 'accepted' }
  | { readonly kind: 'refused'; readonly reasonCode: string; readonly reasonText: string };

/** What every answer to a scheme-originated message carries. */
export interface SchemeAnswer {
  /** The service's transaction for the original message. */
  readonly transactionId: string;
  /** Identifies this answer: the same on every resend of it (its MsgId derives from it), another for each answer. */
  readonly answerKey: string;
  readonly original: SchemeOriginal;
  readonly traceparent: string | null;
}

/** The answer to an inbound lookup (acmt.024). */
export interface LookupAnswer extends SchemeAnswer {
  readonly outcome: 'SUCCESSFUL' | 'FAILED';
  /** On success: the account, with both names (PayShap makes both mandatory). */
  readonly account?: ResolvedAccount;
  readonly reasonCode?: string;
  readonly reasonText?: string;
  /** The lookup as the integrator was asked it (the acmt.023 rendered), for the parts the answer repeats. */
  readonly request: IdentifierDeterminationRequest;
}

/** The decision on an inbound credit (pacs.002): ACSP/ACCP approved, RJCT with the reason. */
export interface CreditAnswer extends SchemeAnswer {
  readonly status: 'ACSP' | 'ACCP' | 'RJCT';
  readonly reasonCode?: string;
  readonly reasonText?: string;
}

/** The debtor's decision on an inbound request-to-pay, or its payment (pain.014). */
export interface RequestToPayStatusAnswer extends SchemeAnswer {
  readonly status: 'PDNG' | 'PRES' | 'ACCP' | 'ACSC' | 'RJCT';
  readonly reasonCode?: string;
  readonly reasonText?: string;
}

/** The answer to a withdrawal (camt.029): CNCL, or RJCR with the reason (ARDT: already paid). */
export interface WithdrawalAnswer extends SchemeAnswer {
  /** The camt.056's Case/Id. */
  readonly caseId: string;
  readonly accepted: boolean;
  readonly reasonCode?: string;
}

/** Limits that vary per integrator (from configuration), applied by the scheme rules. */
export interface SchemeLimits {
  /** Maximum amount of one transfer in minor units of the scheme's currency, when the scheme or integrator sets one. */
  readonly amountMaxMinor?: bigint;
}

/**
 * Result of a scheme's own rules and of what its message can carry, judged from the message alone
 * (and the integrator's configured limits). Intake asks it before accepting a message and refuses
 * a failure with 422 naming `field` (a JSON pointer into the integrator's message) and the scheme;
 * the engine asks again before sending (a failure then is a REJECTED outcome with the reason code).
 */
export type SchemeRuleOutcome =
  | { readonly ok: true }
  | { readonly ok: false; readonly reasonCode: string; readonly reasonText: string; readonly field?: string };

/** The pure rules of a scheme, which intake asks before accepting and a connector again before sending. */
export interface SchemeRules {
  /** A credit transfer: the scheme's rules (currency, amount limits, required BICs...) and the pacs.008 it becomes. */
  check(transfer: OutboundTransfer, limits: SchemeLimits): SchemeRuleOutcome;
  /** An identifier determination: the acmt.023 it becomes (refused where the scheme performs none). */
  checkLookup(lookup: OutboundLookup): SchemeRuleOutcome;
  /** A request-to-pay: the pain.013 it becomes (refused where the scheme carries none). */
  checkRequestToPay(request: OutboundRequestToPay): SchemeRuleOutcome;
}

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
  /**
   * The inbound credit this report may be about instead (inboundTransactionId of the pacs.008 it
   * names), when the MsgId it names is not one this connector remembers writing: the engine takes
   * `idempotencyKey` when such a transaction exists, else this one. A scheme's final word on a
   * credit to an integrator's customer comes as a pacs.002 like any other.
   */
  readonly inboundKey?: string;
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
export interface SchemeAnswers {
  receive(report: InboundReport): Promise<void>;
}

/**
 * Everything a connector hands the service: the scheme's answers (to the engine) and the messages
 * the scheme originates for an integrator's institution (to the receiving use case).
 */
export interface SchemeInbound extends SchemeAnswers {
  /**
   * A message the scheme originates for an integrator's institution. Resolves once it is durably
   * recorded (or refused); rejects when it could not be, and the transport then refuses the
   * message so the operator delivers it again.
   */
  originate(request: SchemeRequest): Promise<OriginateOutcome>;
}

export interface ConnectorCapabilities {
  readonly creditTransfer: boolean;
  readonly statusEnquiry: boolean;
  /** Proxy and account resolution (`resolve`). */
  readonly identifierDetermination?: boolean;
  /** Request-to-pay and its cancellation (`requestToPay`, `cancelRequestToPay`). */
  readonly requestToPay?: boolean;
  /**
   * The receiving direction (CONTRACT §11): the scheme's acmt.023, pacs.008, pain.013 and camt.056
   * for an integrator's institution reach `SchemeInbound.originate` / `receive`, and the answer
   * methods write acmt.024, pacs.002, pain.014 and camt.029.
   */
  readonly receiving?: boolean;
}

export interface SchemeConnector extends SchemeRules {
  /** Family name, e.g. `za-rtc`. */
  readonly family: string;
  readonly schemes: readonly SchemeName[];
  readonly capabilities: ConnectorCapabilities;
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
  /** Answer an inbound lookup (acmt.024); idempotent by `answerKey`. Without `receiving`: failed, not retryable. */
  answerLookup(answer: LookupAnswer): Promise<SubmitOutcome>;
  /** Answer an inbound credit (pacs.002); idempotent by `answerKey`. */
  answerCredit(answer: CreditAnswer): Promise<SubmitOutcome>;
  /** Report on an inbound request-to-pay (pain.014); idempotent by `answerKey`. */
  reportRequestToPay(answer: RequestToPayStatusAnswer): Promise<SubmitOutcome>;
  /** Answer the withdrawal of an inbound request-to-pay (camt.029); idempotent by `answerKey`. */
  answerWithdrawal(answer: WithdrawalAnswer): Promise<SubmitOutcome>;
  /** Begin passing scheme answers to `inbound`. */
  start(inbound: SchemeInbound): Promise<void>;
  /** Stop; answers not yet passed on are dropped (the engine enquires again after restart). */
  stop(): Promise<void>;
}
