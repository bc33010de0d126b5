import type { IntegratorConfig } from '../config/types.js';
import { ApiError } from '../domain/errors.js';
import type { TransactionKind } from '../domain/kinds.js';
import { bodyHash } from '../lib/canonical-json.js';
import type { Processing, TransactionRequest } from '../ports/processing.js';
import type { AdmitDeps } from './admit.js';
import { retryOfStoredMessage } from './stored-message.js';

export type MachineRequestDeps = Pick<AdmitDeps, 'store' | 'clock'> & { readonly processing: Processing };

/**
 * A message of the integrator about one of its transactions (a request-to-pay's status request or
 * cancellation, its answer to a scheme-originated message), decided by that transaction's machine
 * (so what it causes is ordered with everything else the transaction does), then recorded under its
 * message id. Decided first: should the process die in between, the retry finds no message and
 * asks again, and the machine knows what it has taken (a status is merely pushed once more, a
 * second report is refused). A message id already recorded is answered as before (or 409 for
 * another body); another integrator's transaction is indistinguishable from an unknown one (404);
 * a message the machine refuses in its state is 409 ANSWER_NOT_AWAITED, and nothing is recorded.
 */
export async function askMachine(
  deps: MachineRequestDeps,
  input: {
    integrator: IntegratorConfig;
    kind: TransactionKind;
    /** The transaction in words, for messages: `request-to-pay`. */
    what: string;
    /** Where the message names the transaction's uetr. */
    uetrField: string;
    uetr: string;
    messageId: string;
    message: unknown;
    rawBody: string;
    ask: TransactionRequest;
  },
): Promise<void> {
  const { integrator } = input;
  const transaction = await deps.store.findTransaction(integrator.id, input.uetr, input.kind);
  if (transaction === undefined) {
    throw new ApiError('TRANSACTION_NOT_FOUND', `no ${input.what} with uetr ${input.uetr}`, [{ field: input.uetrField, message: `names no ${input.what} of this integrator` }]);
  }
  const stored = await deps.store.findMessage(integrator.id, input.messageId);
  if (stored !== undefined) {
    retryOfStoredMessage({ kind: 'message_differs', transactionId: stored.transactionId, response: null, storedRawBody: stored.rawBody }, input.message, input.messageId);
    return;
  }
  const decided = await deps.processing.request(transaction.id, input.ask);
  if (decided === 'busy') {
    throw new ApiError('OVERLOADED', `the ${input.what} kept changing while this was decided, or the engine is at its backlog bound; retry the identical request`, [], { 'retry-after': '1' });
  }
  if (decided === 'refused') {
    throw new ApiError('ANSWER_NOT_AWAITED', `the ${input.what} awaits no such message in its state ${transaction.state}`, [
      { field: input.uetrField, message: `names a ${input.what} that awaits no answer any more: the scheme was already answered` },
    ]);
  }
  const outcome = await deps.store.recordRequest({
    integratorId: integrator.id,
    messageId: input.messageId,
    transactionId: transaction.id,
    payloadHash: bodyHash(input.rawBody),
    rawBody: input.rawBody,
    receivedAt: deps.clock.now(),
    outbox: [],
  });
  if (outcome.kind !== 'accepted') retryOfStoredMessage(outcome, input.message, input.messageId);
}
