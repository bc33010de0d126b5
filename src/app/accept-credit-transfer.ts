import type { IntegratorConfig } from '../config/types.js';
import { ApiError } from '../domain/errors.js';
import { eventMessage } from '../domain/events.js';
import { CREDIT_TRANSFER_INITIAL_STATE } from '../domain/machines/credit-transfer.js';
import type { ValidCreditTransfer } from '../domain/messages/validate.js';
import { supports } from '../domain/schemes.js';
import { bodyHash } from '../lib/canonical-json.js';
import type { TraceContext } from '../lib/trace.js';
import type { Clock, Ids } from '../ports/clock.js';
import type { OutboxDelivery } from '../ports/delivery.js';
import type { TransferProcessing } from '../ports/processing.js';
import type { NewOutboxMessage, NewTransaction, Store, TransactionRecord } from '../ports/store.js';
import { checkOwnInstitution } from './institution.js';
import { retryOfStoredMessage } from './stored-message.js';

export interface AcceptCreditTransferDeps {
  readonly store: Store;
  readonly clock: Clock;
  readonly ids: Ids;
  /**
   * This instance's processing, told of each new transfer once it is committed, with the message
   * as received and as parsed (its engine need not read and parse it again); a transfer it can
   * take up at once is written leased to it, so it starts without a claim.
   */
  readonly processing?: TransferProcessing;
  /** This instance's delivery: the first event is written leased to it when it can take it, else it is woken once the event is committed. */
  readonly delivery?: OutboxDelivery;
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
  checkOwnInstitution(integrator, transfer.message.debtorAgent, '/debtorAgent');

  const now = deps.clock.now();
  const transactionId = deps.ids.uuid();
  const outbox: NewOutboxMessage[] = [];
  if (integrator.events) {
    // Version 1 of the history: its cause is the request itself.
    outbox.push(
      eventMessage({
        id: deps.ids.uuid(),
        eventsApiUrl: integrator.eventsApiUrl,
        type: CREDIT_TRANSFER_INITIAL_STATE,
        uetr: transfer.uetr,
        scheme: transfer.scheme,
        createdAt: now,
        payloadVersion: 1,
        headers: traceHeaders(input.trace),
      }),
    );
  }

  const lease = outbox.length > 0 ? deps.delivery?.leaseForNew() : undefined;
  const transactionLease = deps.processing?.leaseForNew();
  const tx: NewTransaction = {
    id: transactionId,
    integratorId: integrator.id,
    kind: 'CREDIT_TRANSFER',
    uetr: transfer.uetr,
    scheme: transfer.scheme,
    messageId: transfer.messageId,
    payloadHash: bodyHash(input.rawBody),
    rawBody: input.rawBody,
    amountMinor: transfer.settlementAmount.minor,
    currency: transfer.settlementAmount.currency,
    state: CREDIT_TRANSFER_INITIAL_STATE,
    receivedAt: now,
    dueAt: now,
    traceparent: input.trace.traceparent,
    tracestate: input.trace.tracestate,
    outbox,
    ...(lease === undefined ? {} : { leaseOutbox: lease }),
    ...(transactionLease === undefined ? {} : { leaseTransaction: transactionLease }),
  };
  const outcome = await deps.store.intake(tx);

  switch (outcome.kind) {
    case 'accepted':
      deps.processing?.accepted({
        transactionId,
        rawBody: input.rawBody,
        message: transfer.message,
        ...(transactionLease === undefined ? {} : { leased: asWritten(tx) }),
      });
      if (outcome.leased.length > 0) deps.delivery?.take(outcome.leased);
      else if (outbox.length > 0 && lease === undefined) deps.delivery?.wake();
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

function traceHeaders(trace: TraceContext): Record<string, string> {
  return trace.tracestate === null ? { traceparent: trace.traceparent } : { traceparent: trace.traceparent, tracestate: trace.tracestate };
}

/** The transaction record of a transfer as intake writes it (version 1, no working data yet). */
function asWritten(tx: NewTransaction): TransactionRecord {
  return {
    id: tx.id,
    integratorId: tx.integratorId,
    kind: tx.kind,
    uetr: tx.uetr,
    scheme: tx.scheme,
    messageId: tx.messageId,
    state: tx.state,
    version: 1,
    amountMinor: tx.amountMinor,
    currency: tx.currency,
    createdAt: tx.receivedAt,
    updatedAt: tx.receivedAt,
    dueAt: tx.dueAt,
    traceparent: tx.traceparent,
    tracestate: tx.tracestate,
    data: {},
  };
}
