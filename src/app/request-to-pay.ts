import type { IntegratorConfig } from '../config/types.js';
import { CALLBACK_PATHS } from '../domain/callback-paths.js';
import { ApiError } from '../domain/errors.js';
import { RTP, statusOf, type RtpData, type RtpState } from '../domain/machines/request-to-pay.js';
import {
  expiryProblem,
  requestToPayResponseJson,
  type RequestToPay,
  type ValidRequestToPay,
  type ValidRequestToPayCancellation,
  type ValidRequestToPayStatusRequest,
} from '../domain/messages/request-to-pay.js';
import { supports } from '../domain/schemes.js';
import { bodyHash } from '../lib/canonical-json.js';
import type { TraceContext } from '../lib/trace.js';
import { admit, type AdmitDeps } from './admit.js';
import { checkOwnInstitution } from './institution.js';
import { resendStatus, type StatusRequestDeps } from './status-request.js';
import { retryOfStoredMessage } from './stored-message.js';

export interface RequestToPayDeps extends AdmitDeps {
  /** How far ahead expiryDateTime may lie. */
  readonly expiryHorizonMs: number;
}

/**
 * Outbound request-to-pay (PayShap): the integrator's customer, the creditor, asks the debtor to
 * pay. 202 once the request, its first state and its event are committed; the engine then sends
 * it to the scheme and pushes a RequestToPayResponse on every status change until a final one.
 * Retries of the same message are answered as before (CONTRACT §6).
 */
export async function requestToPay(deps: RequestToPayDeps, input: { integrator: IntegratorConfig; request: ValidRequestToPay; rawBody: string; trace: TraceContext }): Promise<void> {
  const { integrator, request } = input;
  const { message } = request;
  if (!supports(request.scheme, 'requestToPay')) {
    throw new ApiError('OPERATION_NOT_SUPPORTED', `${request.scheme} does not carry request-to-pay (ZA_RPP does)`, [
      { field: '/paymentScheme/schema', message: `${request.scheme} does not support request-to-pay` },
    ]);
  }
  if (!integrator.schemes.includes(request.scheme)) throw new ApiError('SCHEME_NOT_ENABLED', `${request.scheme} is not enabled for this integrator`);
  checkOwnInstitution(integrator, message.creditorAgent, '/creditorAgent');
  const problem = expiryProblem(message.expiryDateTime, deps.clock.now(), deps.expiryHorizonMs);
  // The expiry is judged when the request is first made: a retry of a stored one is answered as it was.
  if (problem !== undefined && (await deps.store.findMessage(integrator.id, request.messageId)) === undefined) {
    throw new ApiError('VALIDATION_FAILED', '1 field of the RequestToPay violates the interface rules', [{ field: '/expiryDateTime', message: problem }]);
  }

  const outcome = await admit(deps, {
    integrator,
    kind: 'REQUEST_TO_PAY',
    state: RTP.RECEIVED,
    scheme: request.scheme,
    uetr: request.uetr,
    messageId: request.messageId,
    rawBody: input.rawBody,
    message,
    amount: request.amount,
    trace: input.trace,
    data: { expiresAt: request.expiresAt } satisfies RtpData,
  });
  switch (outcome.kind) {
    case 'accepted':
      return;
    case 'duplicate':
    case 'message_differs':
      retryOfStoredMessage(outcome, message, request.messageId);
      return;
    case 'uetr_conflict':
      throw new ApiError('UETR_CONFLICT', `uetr ${request.uetr} already identifies another request-to-pay`, [
        { field: '/transactionIdentifiers/uetr', message: 'already identifies another request-to-pay' },
      ]);
  }
}

/** The status request-to-pay reports in a state: PENDING until the scheme holds it and reports. */
export function reportedStatus(state: string) {
  return statusOf(state as RtpState) ?? 'PENDING';
}

/** The integrator asks for the current status of its request-to-pay: re-sent as a RequestToPayResponse (CONTRACT §2). */
export async function requestToPayStatus(
  deps: StatusRequestDeps,
  input: { integrator: IntegratorConfig; request: ValidRequestToPayStatusRequest; rawBody: string; trace: TraceContext },
): Promise<void> {
  const { request } = input;
  await resendStatus(deps, {
    integrator: input.integrator,
    kind: 'REQUEST_TO_PAY',
    what: 'request-to-pay',
    uetr: request.uetr,
    messageId: request.messageId,
    message: request.message,
    rawBody: input.rawBody,
    trace: input.trace,
    callback: (transaction, original, messageIdentification, now) => ({
      path: CALLBACK_PATHS.requestToPayResponse,
      body: requestToPayResponseJson({ original: original as RequestToPay, status: reportedStatus(transaction.state), messageIdentification, createdAt: now }),
    }),
  });
}

/**
 * The integrator asks to cancel its request-to-pay: 202 once the machine has taken the
 * cancellation (committed); its answer, a RequestToPayCancellationResponse, follows once decided
 * (the scheme's answer, or at once when the request is already final). A retry of the same
 * message is handed to the machine again, which knows it and changes nothing.
 */
export async function cancelRequestToPay(
  deps: StatusRequestDeps & Required<Pick<AdmitDeps, 'processing'>>,
  input: { integrator: IntegratorConfig; request: ValidRequestToPayCancellation; rawBody: string },
): Promise<void> {
  const { integrator, request } = input;
  const transaction = await deps.store.findTransaction(integrator.id, request.uetr, 'REQUEST_TO_PAY');
  if (transaction === undefined) {
    throw new ApiError('TRANSACTION_NOT_FOUND', `no request-to-pay with uetr ${request.uetr}`, [
      { field: '/originalTransactionIdentifiers/uetr', message: 'names no request-to-pay of this integrator' },
    ]);
  }
  const stored = await deps.store.findMessage(integrator.id, request.messageId);
  if (stored !== undefined) {
    // Its id is taken: the same cancellation again is answered as before (its machine has it), anything else is a 409.
    retryOfStoredMessage({ kind: 'message_differs', transactionId: stored.transactionId, response: null, storedRawBody: stored.rawBody }, request.message, request.messageId);
    return;
  }
  // Decided and committed first, then recorded: should the process die in between, the retry finds
  // no message and hands the machine the cancellation again, which it knows and ignores.
  await deps.processing.request(transaction.id, {
    type: 'cancel',
    messageId: request.messageId,
    messageIdentifiers: request.message.messageIdentifiers,
    reasonCode: request.reasonCode,
  });
  const outcome = await deps.store.recordRequest({
    integratorId: integrator.id,
    messageId: request.messageId,
    transactionId: transaction.id,
    payloadHash: bodyHash(input.rawBody),
    rawBody: input.rawBody,
    receivedAt: deps.clock.now(),
    outbox: [],
  });
  if (outcome.kind !== 'accepted') retryOfStoredMessage(outcome, request.message, request.messageId);
}
