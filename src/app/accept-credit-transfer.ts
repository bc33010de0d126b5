import type { IntegratorConfig, ProxyPaymentsConfig } from '../config/types.js';
import { ApiError } from '../domain/errors.js';
import { CREDIT_TRANSFER_INITIAL_STATE } from '../domain/machines/credit-transfer.js';
import type { ValidCreditTransfer } from '../domain/messages/validate.js';
import { supports } from '../domain/schemes.js';
import type { TraceContext } from '../lib/trace.js';
import { admit, type AdmitDeps } from './admit.js';
import { checkCreditTransferAtIntake, type SchemeRulesDeps } from './scheme-rules.js';
import { checkOwnInstitution } from './institution.js';
import { linkUnlessRetry, paysProxy } from './proxy-link.js';
import { retryOfStoredMessage } from './stored-message.js';
import { requestToPayPaid } from './request-to-pay-payment.js';
import { REQUEST_TO_PAY_LINK } from '../domain/machines/inbound-request-to-pay.js';

export interface AcceptCreditTransferDeps extends AdmitDeps, SchemeRulesDeps {
  /** Link payments to a proxy to their identifier determination (proxy-link.ts); without it, nothing is linked or required. */
  readonly proxyPayments?: ProxyPaymentsConfig;
}

export interface AcceptCreditTransferInput {
  readonly integrator: IntegratorConfig;
  readonly transfer: ValidCreditTransfer;
  /** The body exactly as received; stored as the raw message. */
  readonly rawBody: string;
  readonly trace: TraceContext;
}

/**
 * Intake of an outbound credit transfer: the 202 is earned only once the raw message, the
 * transaction and its first state (with its event) are committed. A retry of the same message is
 * answered as before without a second transaction (CONTRACT §6).
 */
export async function acceptCreditTransfer(deps: AcceptCreditTransferDeps, input: AcceptCreditTransferInput): Promise<void> {
  const { integrator, transfer } = input;
  if (!supports(transfer.scheme, 'creditTransfer')) {
    throw new ApiError('OPERATION_NOT_SUPPORTED', `${transfer.scheme} does not carry credit transfers`, [
      { field: '/paymentScheme/schema', message: `${transfer.scheme} does not support credit transfers` },
    ]);
  }
  if (!integrator.schemes.includes(transfer.scheme)) {
    throw new ApiError('SCHEME_NOT_ENABLED', `${transfer.scheme} is not enabled for this integrator`);
  }
  checkOwnInstitution(integrator, [{ agent: transfer.message.debtorAgent, pointer: '/debtorAgent' }]);
  await checkCreditTransferAtIntake(deps, integrator, transfer);
  // Beyond the instance's bounds the 202 would wait behind minutes of queueing: refused at once, nothing stored.
  deps.admission?.refuseWhenOverloaded('intake');
  const requestToPayId = await requestToPayPaid(deps, integrator, transfer);
  const link = deps.proxyPayments === undefined || !paysProxy(transfer) ? undefined : await linkUnlessRetry({ ...deps, proxyPayments: deps.proxyPayments }, integrator, transfer);

  const outcome = await admit(deps, {
    integrator,
    kind: 'CREDIT_TRANSFER',
    state: CREDIT_TRANSFER_INITIAL_STATE,
    scheme: transfer.scheme,
    uetr: transfer.uetr,
    messageId: transfer.messageId,
    rawBody: input.rawBody,
    message: transfer.message,
    amount: transfer.settlementAmount,
    trace: input.trace,
    ...(link === undefined && requestToPayId === undefined
      ? {}
      : { data: { ...(link === undefined ? {} : { determination: link }), ...(requestToPayId === undefined ? {} : { [REQUEST_TO_PAY_LINK]: requestToPayId }) } }),
  });
  switch (outcome.kind) {
    case 'accepted':
      return;
    case 'duplicate':
    case 'message_differs':
      retryOfStoredMessage(outcome, transfer.message, transfer.messageId);
      return;
    case 'uetr_conflict':
      throw new ApiError('UETR_CONFLICT', `uetr ${transfer.uetr} already identifies another transaction`, [
        { field: '/transactionIdentifiers/uetr', message: 'already identifies another transaction' },
      ]);
  }
}
