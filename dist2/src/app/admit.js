import { eventMessage } from '../domain/events.js';
import { bodyHash } from '../lib/canonical-json.js';
/**
 * The one way a new transaction enters the service: its raw message, the transaction, its first
 * state and that state's event are committed together (or the message is classified as a
 * duplicate or a conflict). What is due at once is written leased to this instance and handed
 * over in memory (the transaction to its engine, the event to its dispatcher), so neither waits
 * for a claim. Resolves only after the commit.
 */
export async function admit(deps, work) {
    const { integrator } = work;
    const now = deps.clock.now();
    const id = work.id ?? deps.ids.uuid();
    const outbox = [];
    if (integrator.events) {
        // Version 1 of the history: its cause is the request itself.
        outbox.push(eventMessage({
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
        }));
    }
    const lease = outbox.length > 0 ? deps.delivery?.leaseForNew() : undefined;
    const transactionLease = deps.processing?.leaseForNew();
    const tx = {
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
            : { schemeMessages: [{ transactionId: id, direction: 'received', messageName: work.received.messageName, messageId: work.received.messageId, at: now, document: work.received.document }] }),
        ...endToEndIdOf(work.message),
        outbox,
        ...(lease === undefined ? {} : { leaseOutbox: lease }),
        ...(transactionLease === undefined ? {} : { leaseTransaction: transactionLease }),
    };
    const outcome = await deps.store.intake(tx);
    if (outcome.kind === 'accepted') {
        deps.processing?.accepted({ transaction: asWritten(tx), leased: transactionLease !== undefined, rawBody: work.rawBody, message: work.message });
        if (outcome.leased.length > 0)
            deps.delivery?.take(outcome.leased);
        else if (outbox.length > 0 && lease === undefined)
            deps.delivery?.wake();
    }
    return outcome;
}
/** The end-to-end id of a message that has one (a credit transfer, a request-to-pay), which operators search by. */
function endToEndIdOf(message) {
    const ids = typeof message === 'object' && message !== null ? message.transactionIdentifiers : undefined;
    const endToEndId = typeof ids === 'object' && ids !== null ? ids.endToEndIdentification : undefined;
    return typeof endToEndId === 'string' ? { endToEndId } : {};
}
function traceHeaders(trace) {
    return trace.tracestate === null ? { traceparent: trace.traceparent } : { traceparent: trace.traceparent, tracestate: trace.tracestate };
}
/** The transaction record of a transaction as intake writes it (version 1). */
function asWritten(tx) {
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
//# sourceMappingURL=admit.js.map