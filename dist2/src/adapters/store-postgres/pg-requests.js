import { StoreWriteError, storedMessageOutcome } from '../store-ops.js';
import { compareKeys, key } from './pg-batch.js';
import { insertHistoryAndOutbox, outboxRows } from './pg-changes.js';
import { SQL } from './pg-sql.js';
export async function setMessageResponse(client, op) {
    const result = await client.query(SQL.setResponse, [op.response, op.integratorId, op.messageId]);
    if (result.rowCount === 0)
        return { ok: false, error: new StoreWriteError(`no stored message ${op.messageId} for integrator ${op.integratorId}`) };
    return { ok: true, value: undefined };
}
/**
 * Requests about existing transactions: lock those transactions (their outbox sequence must
 * not move under us), insert the messages with ON CONFLICT DO NOTHING, and give the ones
 * inserted their outbox rows, numbered on from each transaction's last seq. What was not
 * inserted is classified against the stored message, as for intake: a conflicting row another
 * connection has not committed yet makes the INSERT wait, so `duplicate` always names a
 * committed original.
 */
export async function recordRequests(client, entries, results) {
    if (entries.length === 0)
        return;
    const leaders = [];
    const followers = [];
    const seen = new Set();
    for (const entry of entries) {
        const messageKey = key(entry.op.request.integratorId, entry.op.request.messageId);
        (seen.has(messageKey) ? followers : leaders).push(entry);
        seen.add(messageKey);
    }
    const ids = [...new Set(leaders.map((entry) => entry.op.request.transactionId))];
    const locked = await client.query(SQL.lockForChange, [ids]);
    const transactions = new Map(locked.rows.map((row) => [row.id, row]));
    const valid = [];
    for (const entry of leaders) {
        const { request } = entry.op;
        const row = transactions.get(request.transactionId);
        // The caller found the transaction under this integrator before asking: anything else is a bug upstream.
        if (row === undefined)
            results[entry.index] = { ok: false, error: new StoreWriteError(`no transaction ${request.transactionId}`) };
        else if (row.integrator_id !== request.integratorId) {
            results[entry.index] = { ok: false, error: new StoreWriteError(`transaction ${request.transactionId} belongs to another integrator`) };
        }
        else
            valid.push(entry);
    }
    // One insertion order for every instance (by unique key) so two batches cannot deadlock on each other's keys.
    const byKey = [...valid].sort((a, b) => compareKeys(a.op.request.integratorId, a.op.request.messageId, b.op.request.integratorId, b.op.request.messageId));
    const inserted = byKey.length === 0
        ? []
        : (await client.query(SQL.insertMessages, [
            byKey.map((entry) => entry.op.request.integratorId),
            byKey.map((entry) => entry.op.request.messageId),
            byKey.map((entry) => entry.op.request.transactionId),
            byKey.map((entry) => entry.op.request.payloadHash),
            byKey.map((entry) => entry.op.request.rawBody),
            byKey.map((entry) => entry.op.request.receivedAt),
        ])).rows;
    const accepted = new Set(inserted.map((row) => key(row.integrator_id, row.message_id)));
    const lastSeq = new Map(locked.rows.map((row) => [row.id, row.max_seq]));
    const outbox = [];
    const others = [...followers];
    for (const entry of valid) {
        const { request } = entry.op;
        if (!accepted.has(key(request.integratorId, request.messageId))) {
            others.push(entry);
            continue;
        }
        const seq = lastSeq.get(request.transactionId) ?? 0;
        outbox.push(...outboxRows(request.transactionId, request.integratorId, request.outbox, seq, request.receivedAt));
        lastSeq.set(request.transactionId, seq + request.outbox.length);
        results[entry.index] = { ok: true, value: { kind: 'accepted' } };
    }
    await insertHistoryAndOutbox(client, [], outbox);
    if (others.length > 0)
        await classifyRequests(client, others, results);
}
/** Classify requests that were not inserted against the stored message (committed by others, or inserted earlier in this batch). */
async function classifyRequests(client, entries, results) {
    const requests = entries.map((entry) => entry.op.request);
    const messages = await client.query(SQL.messagesByKeys, [
        requests.map((request) => request.integratorId),
        requests.map((request) => request.messageId),
    ]);
    const messageByKey = new Map(messages.rows.map((row) => [key(row.integrator_id, row.message_id), row]));
    for (const entry of entries) {
        const { request } = entry.op;
        const message = messageByKey.get(key(request.integratorId, request.messageId));
        // No message under that key any more (the row it collided with was rolled back): insert it in the next batch.
        if (message === undefined)
            results[entry.index] = { retry: true };
        else
            results[entry.index] = { ok: true, value: storedMessageOutcome(message, request.payloadHash) };
    }
}
//# sourceMappingURL=pg-requests.js.map