import { withEventPayload } from '../domain/events.js';
import { AssertionError } from '../lib/assert.js';
/**
 * `next_attempt_at` of an outbox row that waits behind an earlier PENDING row of its
 * (transaction, channel) queue: the largest integer both a JavaScript number and a BIGINT hold
 * exactly, so the row sorts after every real time and claimOutbox's due-time range (along
 * `outbox_pending_endpoint`) never reaches it. Only queue heads carry a real due time; a row is unblocked (given
 * `max(now, available_at)`) when the row ahead of it leaves PENDING. Stores report a blocked
 * row's `nextAttemptAt` as its `availableAt`, never as this value. Migration 2 writes the same
 * number as a literal (a released migration never changes).
 */
export const OUTBOX_BLOCKED_AT = Number.MAX_SAFE_INTEGER;
/**
 * The payload of an outbox row read as `${alias}` (NewOutboxMessage.payloadVersion): the cause of
 * that history version, or the transaction's original request when the cause is null. The same
 * SQL in both dialects; NULL for a row without payload_version. Reads select it as `payload`.
 * COALESCE evaluates its second argument only when the first is null (both databases), so the
 * request is looked up (two more index seeks) for the version whose cause it is, not for every
 * event: every claim and every delivery that leases the next event reads this.
 */
export function outboxPayloadSql(alias) {
    return `(SELECT COALESCE(h.cause, (
       SELECT m.raw_body FROM transactions t
       JOIN messages m ON m.integrator_id = t.integrator_id AND m.message_id = t.message_id
       WHERE t.id = h.transaction_id))
     FROM state_history h
     WHERE h.transaction_id = ${alias}.transaction_id AND h.version = ${alias}.payload_version)`;
}
/** What the stored message under a new message's (integrator, messageId) means for it, judged by their body hashes. */
export function storedMessageOutcome(stored, payloadHash) {
    return stored.payload_hash === payloadHash
        ? { kind: 'duplicate', transactionId: stored.transaction_id, response: stored.response }
        : { kind: 'message_differs', transactionId: stored.transaction_id, response: stored.response, storedRawBody: stored.raw_body };
}
/** An outbox row's body as it is POSTed: complete as stored, or an event envelope with its payload spliced in. */
export function outboxBody(row) {
    if (row.payload_version === null)
        return row.body;
    if (row.payload === null)
        throw new AssertionError(`outbox ${row.id}: history version ${row.payload_version} of its transaction is missing`);
    return withEventPayload(row.body, row.payload);
}
/**
 * Writes someone is waiting on over HTTP right now (an intake's 202, a token, an operator's
 * replay): they go into the next batch ahead of the engine's and the dispatcher's background
 * writes, so an API answer never queues behind a burst of processing.
 */
const URGENT_WRITES = new Set([
    'intake',
    'recordRequest',
    'setMessageResponse',
    'replayUndelivered',
    'saveRefreshToken',
    'useRefreshToken',
    'createSetting',
]);
/** A caller's error for a write the database refused as a bug (unknown id, duplicate key): only that caller sees it. */
export class StoreWriteError extends Error {
    name = 'StoreWriteError';
}
/**
 * The store can no longer write (its SQLite writer thread died): every write still waiting and
 * every later one fails with this, and `ping` rejects, so readiness fails and the instance gets
 * restarted. A write in flight when it happened may or may not have committed.
 */
export class StoreUnavailableError extends Error {
    name = 'StoreUnavailableError';
    code = 'STORE_UNAVAILABLE';
}
/** Wrap a write as a queue item whose promise resolves with the op's typed result. */
export function pendingWrite(op) {
    let resolve;
    let reject;
    const promise = new Promise((res, rej) => {
        resolve = res;
        reject = rej;
    });
    const item = {
        op,
        urgent: URGENT_WRITES.has(op.kind),
        retries: 0,
        resolve: (value) => resolve(value),
        reject,
    };
    return { item, promise };
}
/**
 * The states a change enters and the version it ends on, given the row's current state and
 * version. Each of `via`, then `toState`, is entered in turn and takes the next version; a change
 * to the current state without `via` enters nothing but still moves the version by one, so a
 * decision made before a timer-only change is stale afterwards.
 */
export function changeSteps(change, currentState) {
    const entered = [...(change.via ?? []), { state: change.toState, cause: change.cause }];
    if (entered.length === 1 && change.toState === currentState)
        return { steps: [], version: change.expectedVersion + 1 };
    let fromState = currentState;
    const steps = entered.map((step, index) => {
        const row = { version: change.expectedVersion + index + 1, fromState, toState: step.state, cause: step.cause };
        fromState = step.state;
        return row;
    });
    return { steps, version: change.expectedVersion + steps.length };
}
/** `last_error` text for a failed attempt: the transport error, else the HTTP status. */
export function attemptErrorText(attempt) {
    if (attempt.error !== null)
        return attempt.error;
    if (attempt.httpStatus !== null)
        return `HTTP ${attempt.httpStatus}`;
    return null;
}
/**
 * The write half of the Store port, said once for both stores: every write is an op queued for
 * group commit, so the stores differ only in how they queue and run a batch (`enqueue`).
 */
export class QueuedWrites {
    #changeListeners = new Set();
    onChange(listener) {
        this.#changeListeners.add(listener);
        return () => this.#changeListeners.delete(listener);
    }
    /** A committed change someone may wait on: tell this instance's listeners. */
    changed(transactionId) {
        for (const listener of this.#changeListeners)
            listener(transactionId);
    }
    intake(tx) {
        return this.enqueue({ kind: 'intake', tx });
    }
    recordRequest(request) {
        return this.enqueue({ kind: 'recordRequest', request });
    }
    setMessageResponse(integratorId, messageId, response) {
        return this.enqueue({ kind: 'setMessageResponse', integratorId, messageId, response });
    }
    async applyChange(change) {
        const outcome = await this.enqueue({ kind: 'applyChange', change });
        if (outcome.ok && change.notify === true)
            this.changed(change.transactionId);
        return outcome;
    }
    claimDue(options) {
        return this.enqueue({ kind: 'claimDue', options });
    }
    releaseTransaction(id, owner) {
        return this.enqueue({ kind: 'releaseTransaction', id, owner });
    }
    releaseLeases(owners, now) {
        return this.enqueue({ kind: 'releaseLeases', owners, now });
    }
    wakeDeliveredCallbacks(now) {
        return this.enqueue({ kind: 'wakeDeliveredCallbacks', now });
    }
    claimOutbox(options) {
        return this.enqueue({ kind: 'claimOutbox', options });
    }
    recordDelivery(attempt) {
        return this.enqueue({ kind: 'recordDelivery', attempt });
    }
    replayUndelivered(filter, now) {
        return this.enqueue({ kind: 'replayUndelivered', filter, now });
    }
    saveRefreshToken(record, forgetExpiredBefore, forgetRevokedBefore) {
        return this.enqueue({ kind: 'saveRefreshToken', record, forgetExpiredBefore: forgetExpiredBefore ?? null, forgetRevokedBefore: forgetRevokedBefore ?? null });
    }
    useRefreshToken(tokenHash, now) {
        return this.enqueue({ kind: 'useRefreshToken', tokenHash, now });
    }
    async recordSchemeMessages(messages) {
        if (messages.length > 0)
            await this.enqueue({ kind: 'recordSchemeMessages', messages });
    }
    pruneSchemeMessages(before, limit) {
        return this.enqueue({ kind: 'pruneSchemeMessages', before, limit });
    }
}
//# sourceMappingURL=store-ops.js.map