import { CT, type CtState } from '../../domain/machines/credit-transfer.js';
import { ID, type IdState } from '../../domain/machines/identifier-determination.js';
import { RTP, type RtpState } from '../../domain/machines/request-to-pay.js';
import type { TransactionKind } from '../../domain/kinds.js';
import { COMPLETION, inboundStates, type InboundPrefix } from '../../domain/machines/inbound.js';
import { IRTP, type IrtpState } from '../../domain/machines/inbound-request-to-pay.js';

/**
 * What the document says about each event type (CONTRACT §4; docs/state-machine.md has the full
 * machines, docs/api.md's "Event payloads" the payloads, checked against the service by
 * test/unit/event-payloads.test.ts): when the state is entered, what its payload is, and which
 * example payload shows it.
 * Keyed by each machine's state type, so a state added to a machine does not compile until it
 * is described here.
 */

/** The example payload of an event: a message of the examples (examples.ts picks it per kind). */
export type PayloadExample =
  | 'request'
  | 'response'
  | 'schemeReport'
  | 'transportFailure'
  | 'timeout'
  | 'capability'
  | 'ruleViolation'
  | 'answer'
  | 'problem'
  | 'callFailure'
  | 'integratorTimeout'
  | 'payment'
  | 'notice'
  | { readonly push: 'PENDING' | 'PRESENTED' | 'ACCEPTED' | 'PAID' | 'REJECTED' | 'EXPIRED' | 'CANCELLED' };

export interface EventDoc {
  /** When the state is entered. */
  readonly when: string;
  /** What the payload is, in words. */
  readonly payload: string;
  readonly example: PayloadExample;
}

const TRANSPORT_FAILURE = '{"schema":"SchemeTransportFailure","error":…}';

const CREDIT_TRANSFER_EVENTS: Readonly<Record<CtState, EventDoc>> = {
  [CT.RECEIVED]: { when: 'the credit transfer is stored (its 202)', payload: 'the CreditTransfer', example: 'request' },
  [CT.ACCEPTED]: { when: "the scheme's rules pass (limits, currency)", payload: 'the CreditTransfer', example: 'request' },
  [CT.REJECTED]: { when: 'a scheme rule is broken (e.g. AM02: over the limit); a REJECTED outcome follows', payload: '{"schema":"SchemeRuleViolation","reasonCode":…,"reasonText":…}', example: 'ruleViolation' },
  [CT.REQUEST_PENDING]: { when: 'the transfer is about to be sent to the scheme', payload: 'the CreditTransfer', example: 'request' },
  [CT.REQUEST_DELIVERED]: { when: "the scheme's transport took the transfer, or a verdict proved the scheme has it", payload: "the CreditTransfer, or the scheme's report", example: 'request' },
  [CT.REQUEST_DELIVERY_FAILURE]: { when: 'the first technical failure toward the scheme (the transfer is sent again), or a permanent one', payload: TRANSPORT_FAILURE, example: 'transportFailure' },
  [CT.TIMEOUT]: { when: "the scheme's time budget is spent without a verdict; status enquiries follow, no outcome is guessed", payload: '{"schema":"SchemeTimeout","timeBudgetMs":…}', example: 'timeout' },
  [CT.RESPONSE_RECEIVED]: { when: "the scheme's verdict arrives", payload: "the scheme's status report as JSON (pacs.002), or a permanent transport failure", example: 'schemeReport' },
  [CT.RESPONSE_ACCEPTED]: { when: 'the verdict is matched to the transfer (same commit as RESPONSE_RECEIVED)', payload: 'as RESPONSE_RECEIVED', example: 'schemeReport' },
  [CT.RESPONSE_PENDING]: { when: 'the outcome (PaymentStatusReport) is queued for the credit-transfer-response callback', payload: 'the PaymentStatusReport, the callback', example: 'response' },
  [CT.RESPONSE_DELIVERED]: { when: 'the integrator acknowledged the outcome callback', payload: 'the PaymentStatusReport, the callback', example: 'response' },
  [CT.RESPONSE_DELIVERY_FAILURE]: { when: "the outcome callback's first failed attempt (retries go on)", payload: 'the PaymentStatusReport, the callback', example: 'response' },
};

const IDENTIFIER_DETERMINATION_EVENTS: Readonly<Record<IdState, EventDoc>> = {
  [ID.RECEIVED]: { when: 'the determination request is stored', payload: 'the IdentifierDeterminationRequest', example: 'request' },
  [ID.ACCEPTED]: { when: 'the scheme connector can resolve identifiers (same commit as REQUEST_PENDING)', payload: 'the IdentifierDeterminationRequest', example: 'request' },
  [ID.REJECTED]: { when: 'the scheme connector cannot resolve identifiers (answer FAILED AG03)', payload: '{"schema":"SchemeCapability","error":…}', example: 'capability' },
  [ID.REQUEST_PENDING]: { when: 'the acmt.023 is about to be sent to the scheme', payload: 'the IdentifierDeterminationRequest', example: 'request' },
  [ID.REQUEST_DELIVERY_FAILURE]: { when: 'the first technical failure toward the scheme (sent again, same message id), or a permanent one', payload: TRANSPORT_FAILURE, example: 'transportFailure' },
  [ID.TIMEOUT]: { when: "the scheme's time budget is spent without a report (answer FAILED AB06)", payload: '{"schema":"SchemeTimeout","timeBudgetMs":…}', example: 'timeout' },
  [ID.RESPONSE_RECEIVED]: { when: "the scheme's report arrives (or a permanent transport failure)", payload: 'the acmt.024 as JSON (or the failure)', example: 'schemeReport' },
  [ID.RESPONSE_ACCEPTED]: { when: 'the report is matched to the determination (same commit as RESPONSE_RECEIVED)', payload: 'as RESPONSE_RECEIVED', example: 'schemeReport' },
  [ID.RESPONSE_PENDING]: { when: 'the answer is decided and stored; async: the report callback is queued', payload: 'the IdentifierDeterminationResponse', example: 'response' },
  [ID.RESPONSE_DELIVERED]: { when: 'sync: with RESPONSE_PENDING (the answer is the 200); async: the report callback is acknowledged', payload: 'the IdentifierDeterminationResponse', example: 'response' },
  [ID.RESPONSE_DELIVERY_FAILURE]: { when: "async: the report callback's first failed attempt (retries go on)", payload: 'the IdentifierDeterminationResponse', example: 'response' },
};

const REQUEST_TO_PAY_EVENTS: Readonly<Record<RtpState, EventDoc>> = {
  [RTP.RECEIVED]: { when: 'the request-to-pay is stored (its 202)', payload: 'the RequestToPay', example: 'request' },
  [RTP.ACCEPTED]: { when: 'the scheme connector carries request-to-pay (same commit as REQUEST_PENDING)', payload: 'the RequestToPay', example: 'request' },
  [RTP.REJECTED]: { when: 'the scheme connector does not carry request-to-pay; STATUS_REJECTED (AG03) follows', payload: '{"schema":"SchemeCapability","error":…}', example: 'capability' },
  [RTP.REQUEST_PENDING]: { when: 'the pain.013 is about to be sent to the scheme', payload: 'the RequestToPay', example: 'request' },
  [RTP.REQUEST_DELIVERY_FAILURE]: { when: 'the first technical failure toward the scheme (sent again, same message id), or a permanent one', payload: TRANSPORT_FAILURE, example: 'transportFailure' },
  [RTP.REQUEST_DELIVERED]: { when: 'the transport took the pain.013, or a report proved the scheme holds it; STATUS_PENDING follows', payload: 'the RequestToPay, or the pain.014 as JSON', example: 'request' },
  [RTP.PENDING]: { when: 'with REQUEST_DELIVERED: a RequestToPayResponse PENDING is pushed', payload: 'the RequestToPayResponse, the push', example: { push: 'PENDING' } },
  [RTP.PRESENTED]: { when: 'the scheme reports PRES (shown to the payer): PRESENTED is pushed', payload: 'the RequestToPayResponse, the push', example: { push: 'PRESENTED' } },
  [RTP.ACCEPTED_BY_PAYER]: { when: 'the scheme reports ACCP (the payer agreed): ACCEPTED is pushed', payload: 'the RequestToPayResponse, the push', example: { push: 'ACCEPTED' } },
  [RTP.PAID]: { when: 'the scheme reports ACSC: PAID is pushed (final)', payload: 'the RequestToPayResponse, the push', example: { push: 'PAID' } },
  [RTP.STATUS_REJECTED]: {
    when: 'the scheme reports RJCT, the transport fails for good (AB10), or after REQUEST_REJECTED (AG03): REJECTED is pushed (final)',
    payload: 'the RequestToPayResponse, the push (with the reason)',
    example: { push: 'REJECTED' },
  },
  [RTP.EXPIRED]: { when: 'expiryDateTime passed with the request still open: EXPIRED is pushed (final)', payload: 'the RequestToPayResponse, the push', example: { push: 'EXPIRED' } },
  [RTP.CANCELLED]: {
    when: "the scheme's camt.029 accepts a cancellation, or the request was withdrawn before it was sent: CANCELLED is pushed (final)",
    payload: 'the RequestToPayResponse, the push',
    example: { push: 'CANCELLED' },
  },
};

/** The states both inbound kinds share (domain/machines/inbound.ts): `message` names the scheme's message, `answer` the integrator's. */
function inboundEvents(prefix: InboundPrefix, message: string, answer: string, scheme: string): Record<string, EventDoc> {
  const S = inboundStates(prefix);
  return {
    [S.RECEIVED]: { when: `the scheme's ${scheme} for the integrator's institution is stored`, payload: `the ${message} rendered from it`, example: 'request' },
    [S.ACCEPTED]: { when: 'the message is taken on (same commit as REQUEST_PENDING, or as RESPONSE_ACCEPTED under auto-authorisation)', payload: `the ${message}`, example: 'request' },
    [S.REQUEST_PENDING]: { when: 'the integrator is about to be called', payload: `the ${message}`, example: 'request' },
    [S.REQUEST_DELIVERED]: { when: 'the integrator took the call (its 200 in sync mode, its 2xx in async mode)', payload: `the ${message}`, example: 'request' },
    [S.REQUEST_DELIVERY_FAILURE]: { when: "the call to the integrator failed (called again while the answer's budget lasts)", payload: '{"schema":"IntegratorCallFailure","error":…}', example: 'callFailure' },
    [S.TIMEOUT]: { when: 'no valid answer came within the answer budget: the scheme is answered with AB06', payload: '{"schema":"IntegratorTimeout","deadline":…}', example: 'integratorTimeout' },
    [S.RESPONSE_RECEIVED]: {
      when: "the integrator's answer arrives (the sync call's 200, or its report)",
      payload: `the integrator's ${answer} as it came, or {"schema":"IntegratorAnswerText","text":…} when it is not one`,
      example: 'answer',
    },
    [S.RESPONSE_REJECTED]: { when: "the integrator's answer breaks the message rules: the scheme is answered with AB06 (CH21 for a lookup without both names)", payload: '{"schema":"IntegratorAnswerProblem","problem":…}', example: 'problem' },
    [S.RESPONSE_ACCEPTED]: { when: "the integrator's answer is valid (or the service approved by arrangement)", payload: `the ${answer}: the integrator's, or the service's own`, example: 'answer' },
    [S.RESPONSE_PENDING]: { when: 'the answer to the scheme is decided and stored, and about to be sent', payload: `the answer as a ${answer}: the integrator's, or the service's own when it decided`, example: 'answer' },
    [S.RESPONSE_DELIVERED]: { when: "the scheme's transport took the answer", payload: `the answer as a ${answer}`, example: 'answer' },
    [S.RESPONSE_DELIVERY_FAILURE]: { when: "the scheme's transport did not take the answer (sent again, same message id)", payload: TRANSPORT_FAILURE, example: 'transportFailure' },
  };
}

const INBOUND_CREDIT_TRANSFER_EVENTS: Readonly<Record<string, EventDoc>> = {
  ...inboundEvents('PAYMENT_AUTH', 'CreditTransfer', 'PaymentStatusReport', 'pacs.008'),
  [COMPLETION.RECEIVED]: { when: "the scheme's final word on the approved credit arrives: settled (ACSC) or cancelled (RJCT)", payload: "the scheme's pacs.002 as JSON", example: 'schemeReport' },
  [COMPLETION.PENDING]: { when: 'the inboundCreditTransferCompletion callback is queued (for a rejected credit, right after the answer)', payload: 'the PaymentStatusReport, the callback', example: 'answer' },
  [COMPLETION.DELIVERED]: { when: 'the integrator acknowledged the completion callback', payload: 'the PaymentStatusReport, the callback', example: 'answer' },
  [COMPLETION.DELIVERY_FAILURE]: { when: "the completion callback's first failed attempt (retries go on)", payload: 'the PaymentStatusReport, the callback', example: 'answer' },
};

const INBOUND_IDENTIFIER_DETERMINATION_EVENTS = inboundEvents('IDENTIFIER_DETERMINATION', 'IdentifierDeterminationRequest', 'IdentifierDeterminationResponse', 'acmt.023');

const INBOUND_REQUEST_TO_PAY_EVENTS: Readonly<Record<IrtpState, EventDoc>> = {
  [IRTP.RECEIVED]: { when: "the scheme's pain.013 for a customer of the integrator's institution (the debtor) is stored", payload: 'the RequestToPay rendered from it', example: 'request' },
  [IRTP.ACCEPTED]: { when: 'the request is taken on (same commit as REQUEST_PENDING, or as the end of a request withdrawn or expired before it was handed over)', payload: 'the RequestToPay', example: 'request' },
  [IRTP.REQUEST_PENDING]: { when: 'the inboundRequestToPay callback (the RequestToPay) is queued', payload: 'the RequestToPay', example: 'request' },
  [IRTP.REQUEST_DELIVERED]: { when: 'the integrator acknowledged the inboundRequestToPay callback', payload: 'the RequestToPay', example: 'request' },
  [IRTP.REQUEST_DELIVERY_FAILURE]: { when: "the inboundRequestToPay callback's first failed attempt (retries go on)", payload: 'the RequestToPay', example: 'request' },
  [IRTP.PRESENTED]: { when: 'the integrator reports PRESENTED (request-to-pay-response): a pain.014 PRES goes to the scheme', payload: "the integrator's RequestToPayResponse", example: 'answer' },
  [IRTP.ACCEPTED_BY_PAYER]: { when: 'the integrator reports ACCEPTED: a pain.014 ACCP goes to the scheme', payload: "the integrator's RequestToPayResponse", example: 'answer' },
  [IRTP.REJECTED]: { when: 'the integrator reports REJECTED with a reason: a pain.014 RJCT goes to the scheme (final)', payload: "the integrator's RequestToPayResponse", example: 'answer' },
  [IRTP.PAID]: { when: "the integrator's credit transfer carrying the request's uetr is approved: a pain.014 ACSC goes to the scheme (final)", payload: '{"schema":"RequestToPayPayment","transactionId":…} (the transfer)', example: 'payment' },
  [IRTP.CANCELLED]: {
    when: 'the scheme withdraws the request (camt.056): answered CNCL, and the integrator gets the cancellation-request notice (final)',
    payload: 'the RequestToPayCancellation, the notice; the camt.056 as JSON when withdrawn before it was handed over (no notice)',
    example: 'notice',
  },
  [IRTP.EXPIRED]: {
    when: "the request's expiryDateTime passed unpaid (or the scheme's camt.056 says EXPIRED): the integrator gets the cancellation-request notice (final)",
    payload: 'the RequestToPayCancellation, the notice; before it was handed over {"schema":"RequestToPayExpiry","expiryDateTime":…} or the camt.056 as JSON',
    example: 'notice',
  },
};

export const EVENT_DOCS: Readonly<Record<TransactionKind, Readonly<Record<string, EventDoc>>>> = {
  CREDIT_TRANSFER: CREDIT_TRANSFER_EVENTS,
  IDENTIFIER_DETERMINATION: IDENTIFIER_DETERMINATION_EVENTS,
  REQUEST_TO_PAY: REQUEST_TO_PAY_EVENTS,
  INBOUND_CREDIT_TRANSFER: INBOUND_CREDIT_TRANSFER_EVENTS,
  INBOUND_IDENTIFIER_DETERMINATION: INBOUND_IDENTIFIER_DETERMINATION_EVENTS,
  INBOUND_REQUEST_TO_PAY: INBOUND_REQUEST_TO_PAY_EVENTS,
};
