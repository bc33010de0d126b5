import type { IntegratorConfig } from '../config/types.js';
import { ApiError } from '../domain/errors.js';
import { RTP, type RtpData } from '../domain/machines/request-to-pay.js';
import {
  expiryProblem,
  type ValidRequestToPay,
  type ValidRequestToPayCancellation,
  type ValidRequestToPayStatusRequest,
} from '../domain/messages/request-to-pay.js';
import { supports } from '../domain/schemes.js';
import type { TraceContext } from '../lib/trace.js';
import { admit, type AdmitDeps } from './admit.js';
import { checkRequestToPayAtIntake, type SchemeRulesDeps } from './scheme-rules.js';
import { checkOwnInstitution } from './institution.js';
import { askMachine, type MachineRequestDeps } from './ask-machine.js';
import { retryOfStoredMessage } from './stored-message.js';

export type { MachineRequestDeps } from './ask-machine.js';

/** Requests about a request-to-pay name it by its uetr, as the original's. */
const ABOUT_REQUEST_TO_PAY = { kind: 'REQUEST_TO_PAY', what: 'request-to-pay', uetrField: '/originalTransactionIdentifiers/uetr' } as const;

export interface RequestToPayDeps extends AdmitDeps, SchemeRulesDeps {
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
  checkOwnInstitution(integrator, [{ agent: message.creditorAgent, pointer: '/creditorAgent' }]);
  await checkRequestToPayAtIntake(deps, integrator, request);
  deps.admission?.refuseWhenOverloaded('intake');
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

/** The integrator asks for the current status of its request-to-pay: its machine pushes it again, in order behind its other pushes (CONTRACT §2). */
export async function requestToPayStatus(
  deps: MachineRequestDeps,
  input: { integrator: IntegratorConfig; request: ValidRequestToPayStatusRequest; rawBody: string; trace: TraceContext },
): Promise<void> {
  const { request } = input;
  await askMachine(deps, { ...input, ...ABOUT_REQUEST_TO_PAY, uetr: request.uetr, messageId: request.messageId, message: request.message, ask: { type: 'status', trace: input.trace } });
}

/**
 * The integrator asks to cancel its request-to-pay: 202 once the machine has taken the
 * cancellation (committed); its answer, a RequestToPayCancellationResponse, follows once decided
 * (the scheme's answer, or at once when the request is already final).
 */
export async function cancelRequestToPay(
  deps: MachineRequestDeps,
  input: { integrator: IntegratorConfig; request: ValidRequestToPayCancellation; rawBody: string; trace: TraceContext },
): Promise<void> {
  const { request } = input;
  await askMachine(deps, {
    ...input,
    ...ABOUT_REQUEST_TO_PAY,
    uetr: request.uetr,
    messageId: request.messageId,
    message: request.message,
    ask: { type: 'cancel', messageId: request.messageId, messageIdentifiers: request.message.messageIdentifiers, reasonCode: request.reasonCode, trace: input.trace },
  });
}

