import type { IntegratorConfig } from '../config/types.js';
import { CALLBACK_PATHS } from '../domain/callback-paths.js';
import type { CtData, Verdict } from '../domain/machines/credit-transfer.js';
import type { CreditTransfer } from '../domain/messages/credit-transfer.js';
import { paymentStatusReportJson } from '../domain/messages/payment-status-report.js';
import type { ValidPaymentStatusRequest } from '../domain/messages/payment-status-request.js';
import type { TraceContext } from '../lib/trace.js';
import { resendStatus, type StatusRequestDeps } from './status-request.js';

export type { StatusRequestDeps } from './status-request.js';

/**
 * The integrator asks for the current status of one of its credit transfers: the status is
 * re-sent as a credit-transfer-response callback (must-deliver). Until the scheme gave a verdict
 * the status is PENDING, never a guess. The request is idempotent by its message id.
 */
export async function requestCreditTransferStatus(
  deps: StatusRequestDeps,
  input: { integrator: IntegratorConfig; request: ValidPaymentStatusRequest; rawBody: string; trace: TraceContext },
): Promise<void> {
  const { request } = input;
  await resendStatus(deps, {
    integrator: input.integrator,
    kind: 'CREDIT_TRANSFER',
    what: 'credit transfer',
    uetr: request.uetr,
    messageId: request.messageId,
    message: request.message,
    rawBody: input.rawBody,
    trace: input.trace,
    callback: (transaction, original, messageIdentification, now) => {
      const verdict: Verdict = (transaction.data as CtData).verdict ?? { outcome: 'PENDING' };
      return {
        path: CALLBACK_PATHS.creditTransferResponse,
        body: paymentStatusReportJson({ original: original as CreditTransfer, verdict, messageIdentification, createdAt: now }),
      };
    },
  });
}
