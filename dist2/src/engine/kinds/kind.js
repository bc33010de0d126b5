import { isStateOf } from '../../domain/machines/machine.js';
import { AssertionError } from '../../lib/assert.js';
/**
 * The trace headers of a message the transaction causes: the trace of the request that started it,
 * whose span is the parent of every delivery attempt (each attempt is a span of its own: the
 * sender sends a new span id every time).
 */
export function traceHeaders(transaction) {
    if (transaction.traceparent === null)
        return {};
    const headers = { traceparent: transaction.traceparent };
    if (transaction.tracestate !== null)
        headers.tracestate = transaction.tracestate;
    return headers;
}
/**
 * A callback message to the integrator's partner API, written with the change that decides it.
 * `id` is its webhook-id; without dashes, the message identification inside `body`.
 */
export function callbackMessage(context, id, path, body, now, trace = context.transaction) {
    return { id, channel: 'callback', url: `${context.integrator.partnerApiUrl}${path}`, body, headers: traceHeaders(trace), availableAt: now };
}
/**
 * A machine that waits for a callback's acknowledgement names its outbox id `callbackId` in its
 * working data (crash recovery wakes exactly those transactions: Store.wakeDeliveredCallbacks).
 * While it waits, the callback's outbox row is the truth (the dispatcher's notice of it may have died with a process): a delivered row, or a
 * failed attempt while still pending, becomes the callback input the notice would have been.
 */
export async function callbackRowInput(env, transactionId, callbackId, pending) {
    const row = (await env.store.outbox(transactionId)).find((message) => message.id === callbackId);
    if (row?.status === 'DELIVERED')
        return { type: 'callback', outboxId: callbackId, delivered: true };
    if (row !== undefined && row.attempts > 0 && pending)
        return { type: 'callback', outboxId: callbackId, delivered: false };
    return undefined;
}
/**
 * What every scheme request of a transaction carries: its ids, trace, and the idempotency key,
 * derived from the transaction and never random per attempt (STYLE.md rule 6).
 */
export function outboundOf(transaction) {
    return {
        transactionId: transaction.id,
        integratorId: transaction.integratorId,
        scheme: transaction.scheme,
        uetr: transaction.uetr,
        idempotencyKey: transaction.id,
        traceparent: transaction.traceparent,
    };
}
/** A transaction's amount, which a kind that carries one always has. */
export function amountOf(transaction) {
    if (transaction.amountMinor === null || transaction.currency === null)
        throw new AssertionError(`${transaction.kind} ${transaction.id} has no amount`);
    return { currency: transaction.currency, minor: transaction.amountMinor };
}
/** The transaction's state as one of its machine's (an unknown one is a bug). */
export function stateIn(machine, transaction) {
    const { state } = transaction;
    if (!isStateOf(machine, state))
        throw new AssertionError(`unknown ${machine.name} state ${state}`);
    return state;
}
/** A transport outcome as a machine's `sent` input. */
export function sentInput(outcome) {
    if (outcome.kind === 'delivered')
        return { ok: true };
    return { ok: false, retryable: outcome.retryable, error: outcome.error, ...(outcome.reasonCode === undefined ? {} : { reasonCode: outcome.reasonCode }) };
}
//# sourceMappingURL=kind.js.map