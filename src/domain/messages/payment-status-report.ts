import type { Verdict } from '../machines/credit-transfer.js';
import type { CreditTransfer } from './credit-transfer.js';

/**
 * The body of the credit-transfer-response callback (CONTRACT §3): a PaymentStatusReport naming
 * the original message and transaction, and the outcome with ISO 20022 reason information.
 * Shape documented in docs/delivery.md.
 */
export interface PaymentStatusReportInput {
  readonly original: CreditTransfer;
  readonly verdict: Verdict;
  /** This report's own message id (max 35 characters). */
  readonly messageIdentification: string;
  readonly createdAt: number;
}

export function paymentStatusReportJson(input: PaymentStatusReportInput): string {
  const { original, verdict } = input;
  const reasonInfo =
    verdict.reasonCode === undefined
      ? []
      : [
          {
            reason: { schema: 'CODE', value: verdict.reasonCode },
            ...(verdict.reasonText === undefined ? {} : { additionalInformation: [verdict.reasonText] }),
          },
        ];
  return JSON.stringify({
    schema: 'PaymentStatusReport',
    messageIdentifiers: { messageIdentification: input.messageIdentification, creationDateTime: new Date(input.createdAt).toISOString() },
    originalMessageIdentifiers: original.messageIdentifiers,
    transactionIdentifiers: original.transactionIdentifiers,
    paymentScheme: { schema: original.paymentScheme.schema },
    status: { outcome: verdict.outcome, reasonInfo },
  });
}
