import { CALLBACK_PATHS } from '../domain/callback-paths.js';
import { paymentStatusReportJson } from '../domain/messages/payment-status-report.js';
import { resendStatus } from './status-request.js';
/**
 * The integrator asks for the current status of one of its credit transfers: the status is
 * re-sent as a credit-transfer-response callback (must-deliver). Until the scheme gave a verdict
 * the status is PENDING, never a guess. The request is idempotent by its message id.
 */
export async function requestCreditTransferStatus(deps, input) {
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
            const verdict = transaction.data.verdict ?? { outcome: 'PENDING' };
            return {
                path: CALLBACK_PATHS.creditTransferResponse,
                body: paymentStatusReportJson({ original: original, verdict, messageIdentification, createdAt: now }),
            };
        },
    });
}
//# sourceMappingURL=request-credit-transfer-status.js.map