import type { IntegratorConfig } from '../config/types.js';
import { ApiError } from '../domain/errors.js';
import type { CtData, Verdict } from '../domain/machines/credit-transfer.js';
import type { CreditTransfer } from '../domain/messages/credit-transfer.js';
import { paymentStatusReportJson } from '../domain/messages/payment-status-report.js';
import type { ValidPaymentStatusRequest } from '../domain/messages/payment-status-request.js';
import { assert } from '../lib/assert.js';
import { bodyHash } from '../lib/canonical-json.js';
import { childTraceparent, type TraceContext } from '../lib/trace.js';
import type { Clock, Ids } from '../ports/clock.js';
import type { OutboxDelivery } from '../ports/delivery.js';
import type { Store } from '../ports/store.js';
import { retryOfStoredMessage } from './stored-message.js';

export interface StatusRequestDeps {
  readonly store: Store;
  readonly clock: Clock;
  readonly ids: Ids;
  /** Woken once the re-sent status is committed to the outbox, so delivery starts at once. */
  readonly delivery?: OutboxDelivery;
}

/**
 * The integrator asks for the current status of one of its credit transfers: the status is
 * re-sent as a credit-transfer-response callback (must-deliver). Until the scheme gave a verdict
 * the status is PENDING, never a guess. The request is idempotent by its message id.
 */
export async function requestCreditTransferStatus(
  deps: StatusRequestDeps,
  input: { integrator: IntegratorConfig; request: ValidPaymentStatusRequest; rawBody: string; trace: TraceContext },
): Promise<void> {
  const { integrator, request } = input;
  // Scoped by integrator: another integrator's uetr is indistinguishable from an unknown one.
  const transaction = await deps.store.findTransaction(integrator.id, request.uetr);
  if (transaction === undefined || transaction.kind !== 'CREDIT_TRANSFER') {
    throw new ApiError('TRANSACTION_NOT_FOUND', `no credit transfer with uetr ${request.uetr}`, [
      { field: '/originalTransactionIdentifiers/uetr', message: 'names no credit transfer of this integrator' },
    ]);
  }
  const original = await deps.store.findMessage(integrator.id, transaction.messageId);
  assert(original !== undefined, `the raw message of transaction ${transaction.id} is stored with it`);

  const now = deps.clock.now();
  const verdict: Verdict = (transaction.data as CtData).verdict ?? { outcome: 'PENDING' };
  const id = deps.ids.uuid();
  const outcome = await deps.store.recordRequest({
    integratorId: integrator.id,
    messageId: request.messageId,
    transactionId: transaction.id,
    payloadHash: bodyHash(input.rawBody),
    rawBody: input.rawBody,
    receivedAt: now,
    outbox: [
      {
        id,
        channel: 'callback',
        url: `${integrator.partnerApiUrl}/transactions/outbound/credit-transfer-response`,
        body: paymentStatusReportJson({
          original: JSON.parse(original.rawBody) as CreditTransfer,
          verdict,
          messageIdentification: id.replaceAll('-', ''),
          createdAt: now,
        }),
        headers: { traceparent: childTraceparent(input.trace.traceparent), ...(input.trace.tracestate === null ? {} : { tracestate: input.trace.tracestate }) },
        availableAt: now,
      },
    ],
  });
  switch (outcome.kind) {
    case 'accepted':
      deps.delivery?.wake();
      return;
    case 'duplicate':
    case 'message_differs':
      retryOfStoredMessage(outcome, request.message, request.messageId);
      return;
  }
}
