import type { IntegratorConfig } from '../config/types.js';
import { eventMessage } from '../domain/events.js';
import type { SchemeName } from '../domain/schemes.js';
import { bodyHash } from '../lib/canonical-json.js';
import type { Money } from '../lib/money.js';
import type { TraceContext } from '../lib/trace.js';
import type { Clock, Ids } from '../ports/clock.js';
import type { Admission } from './admission.js';
import type { OutboxDelivery } from '../ports/delivery.js';
import type { NewWorkItem, Processing } from '../ports/processing.js';
import type { WireMessage } from '../ports/scheme.js';
import type { IntakeOutcome, NewOutboxMessage, NewTransaction, Store, TransactionKind, TransactionRecord } from '../ports/store.js';

export interface AdmitDeps {
  readonly store: Store;
  readonly clock: Clock;
  readonly ids: Ids;
  /**
   * This instance's processing, told of each new transaction once it is committed, with the
   * message as received and as parsed (its engine need not read and parse it again); one it can
   * take up at once is written leased to it, so it starts without a claim.
   */
  readonly processing?: Processing;
  /** This instance's delivery: the first event is written leased to it when it can take it, else it is woken once the event is committed. */
  readonly delivery?: OutboxDelivery;
  /** Refuses integrators' new work beyond this instance's bounds (503 OVERLOADED), and counts held lookups; absent, nothing is refused. */
  readonly admission?: Admission;
}

/** A new transaction as a use case describes it; admit() adds ids, times, its first event and the leases. */
export interface NewWork {
  /** The transaction's id when the message itself determines it (one the scheme originated); a new one otherwise. */
  readonly id?: string;
  readonly integrator: IntegratorConfig;
  readonly kind: TransactionKind;
  readonly state: string;
  readonly scheme: SchemeName;
  readonly uetr: string;
  readonly messageId: string;
  /** The body exactly as received; stored as the raw message. */
  readonly rawBody: string;
  /** The body as parsed and validated, handed to this instance's engine. */
  readonly message: unknown;
  readonly amount?: Money;
  readonly trace: TraceContext;
  readonly data?: Readonly<Record<string, unknown>>;
  readonly lookupKey?: string;
  /** The scheme message that started it (one the scheme originated), kept with it in the same commit. */
  readonly received?: WireMessage;
}

/**
 * The one way a new transaction enters the service: its raw message, the transaction, its first
 * state and that state's event are committed together (or the message is classified as a
 * duplicate or a conflict). What is due at once is written leased to this instance and handed
 * over in memory (the transaction to its engine, the event to its dispatcher), so neither waits
 * for a claim. Resolves only after the commit.
 */
export async function admit(deps: AdmitDeps, work: NewWork): Promise<IntakeOutcome> {
  const { integrator } = work;
  const now = deps.clock.now();
  const id = work.id ?? deps.ids.uuid();
  const outbox: NewOutboxMessage[] = [];
  if (integrator.events) {
    // Version 1 of the history: its cause is the request itself.
    outbox.push(
      eventMessage({
        id: deps.ids.uuid(),
        eventsApiUrl: integrator.eventsApiUrl,
        type: work.state,
        kind: work.kind,
        typeNames: integrator.eventTypeNames,
        uetr: work.uetr,
        scheme: work.scheme,
        createdAt: now,
        payloadVersion: 1,
        headers: traceHeaders(work.trace),
      }),
    );
  }
  const transactionLease = deps.processing?.leaseForNew();
  const written: NewTransaction = {
    id,
    integratorId: integrator.id,
    kind: work.kind,
    uetr: work.uetr,
    scheme: work.scheme,
    messageId: work.messageId,
    payloadHash: bodyHash(work.rawBody),
    rawBody: work.rawBody,
    amountMinor: work.amount?.minor ?? null,
    currency: work.amount?.currency ?? null,
    state: work.state,
    receivedAt: now,
    dueAt: now,
    traceparent: work.trace.traceparent,
    tracestate: work.trace.tracestate,
    ...(work.data === undefined ? {} : { data: work.data }),
    ...(work.lookupKey === undefined ? {} : { lookupKey: work.lookupKey }),
    ...(work.received === undefined
      ? {}
      : { schemeMessages: [{ transactionId: id, direction: 'received' as const, messageName: work.received.messageName, messageId: work.received.messageId, at: now, document: work.received.document }] }),
    ...endToEndIdOf(work.message),
    outbox,
  };
  const first: NewWorkItem = { transaction: asWritten(written), rawBody: work.rawBody, message: work.message };
  // Taken up here at once: the engine's first decision is committed with the intake.
  const decided = transactionLease === undefined ? undefined : await deps.processing?.firstDecision?.(first);
  if (decided !== undefined) outbox.push(...decided.outbox);
  const lease = outbox.length > 0 ? deps.delivery?.leaseForNew() : undefined;
  const tx: NewTransaction = {
    ...written,
    ...(decided === undefined ? {} : { dueAt: decided.dueAt, data: decided.data, entered: decided.entered }),
    ...(lease === undefined ? {} : { leaseOutbox: lease }),
    ...(transactionLease === undefined ? {} : { leaseTransaction: transactionLease }),
  };
  const outcome = await deps.store.intake(tx);
  if (outcome.kind === 'accepted') {
    deps.processing?.accepted({ ...first, leased: transactionLease !== undefined, ...(decided === undefined ? {} : { decided }) });
    if (outcome.leased.length > 0) deps.delivery?.take(outcome.leased);
    else if (outbox.length > 0 && lease === undefined) deps.delivery?.wake();
  }
  return outcome;
}

/** The end-to-end id of a message that has one (a credit transfer, a request-to-pay), which operators search by. */
function endToEndIdOf(message: unknown): { endToEndId?: string } {
  const ids = typeof message === 'object' && message !== null ? (message as { transactionIdentifiers?: unknown }).transactionIdentifiers : undefined;
  const endToEndId = typeof ids === 'object' && ids !== null ? (ids as { endToEndIdentification?: unknown }).endToEndIdentification : undefined;
  return typeof endToEndId === 'string' ? { endToEndId } : {};
}

function traceHeaders(trace: TraceContext): Record<string, string> {
  return trace.tracestate === null ? { traceparent: trace.traceparent } : { traceparent: trace.traceparent, tracestate: trace.tracestate };
}

/** The record of a transaction as intake writes it without a first decision (version 1). */
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
    data: tx.data ?? {},
  };
}
