import { attemptErrorText, StoreWriteError } from '../store-ops.js';
import { compareText, outboxFromRow } from '../store-rows.js';
import { compareKeys, key, rounds } from './pg-batch.js';
import { SQL } from './pg-sql.js';
export async function claimOutbox(client, options) {
    const excluded = (options.excludeEndpoints ?? []).map((endpoint) => `${endpoint.channel} ${endpoint.integratorId}`);
    const result = await client.query(SQL.claimOutbox, [options.now, options.limit, options.owner, options.now + options.leaseMs, excluded]);
    const records = result.rows
        .map(outboxFromRow)
        .sort((a, b) => a.nextAttemptAt - b.nextAttemptAt || compareText(a.transactionId, b.transactionId) || a.seq - b.seq);
    return { ok: true, value: records };
}
/**
 * Attempts in one statement per round; then, in a statement of its own (so that it sees them),
 * the queues of the messages that left PENDING (delivered, or given up on) let their next
 * message through: their head is unblocked. A late acknowledgement of a message already given
 * up on lets nothing more through: the head of its queue already has its time. An attempt with
 * leaseNext whose message has just left PENDING then gets that head, leased, if it is due and
 * free (as SQLite's recordDelivery).
 */
export async function recordDeliveries(client, entries, results) {
    for (const round of rounds(entries, (entry) => entry.op.attempt.outboxId)) {
        const attempts = round.map((entry) => entry.op.attempt).sort((a, b) => compareText(a.outboxId, b.outboxId));
        const updated = await client.query(SQL.recordDeliveries, [
            attempts.map((attempt) => attempt.outboxId),
            attempts.map((attempt) => attempt.at),
            attempts.map((attempt) => Math.max(0, Math.round(attempt.durationMs))),
            attempts.map((attempt) => attempt.httpStatus),
            attempts.map((attempt) => attempt.error),
            attempts.map((attempt) => attempt.delivered),
            attempts.map((attempt) => attempt.nextAttemptAt),
            attempts.map((attempt) => attemptErrorText(attempt)),
        ]);
        // Every row now out of PENDING asks for its queue's head: for one that just left, that is
        // the next row; for one that had left before (a late acknowledgement, a late failure), the
        // head was unblocked then and this changes nothing.
        const at = new Map(attempts.map((attempt) => [attempt.outboxId, attempt.at]));
        await unblockHeads(client, updated.rows
            .filter((row) => row.status !== 'PENDING')
            .map((row) => ({ transactionId: row.transaction_id, channel: row.channel, now: at.get(row.id) ?? 0, replay: false })));
        const leased = await leaseHeads(client, round, updated.rows);
        const known = new Set(updated.rows.map((row) => row.id));
        for (const entry of round) {
            const { outboxId } = entry.op.attempt;
            results[entry.index] = known.has(outboxId)
                ? { ok: true, value: leased.get(entry.index) }
                : { ok: false, error: new StoreWriteError(`no outbox message ${outboxId}`) };
        }
    }
}
/** The transactions that hold messages a replay would turn back to PENDING (read before they are locked). */
export async function replayScope(client, filter) {
    const result = await client.query(SQL.replayScope, [filter.outboxId ?? null, filter.integratorId ?? null, filter.since ?? null]);
    return result.rows.map((row) => row.transaction_id);
}
/**
 * Replayed rows come back blocked; then the head of each queue they are in is unblocked. A
 * replayed row with no earlier PENDING row in its queue is that head and is due now (whatever
 * its availableAt: the operator asked for it); one behind a PENDING row waits its turn. Rows
 * behind a replayed row keep what they had: if one of them was already due, claimOutbox's head
 * test still holds it back. Only rows of the transactions locked for it (`scope`, from
 * replayScope) are replayed: one given up on after the lock was taken waits for the next replay.
 */
export async function replay(client, op, scope) {
    if (scope.length === 0)
        return { ok: true, value: 0 };
    const replayed = await client.query(SQL.replay, [
        op.filter.outboxId ?? null,
        op.filter.integratorId ?? null,
        op.filter.since ?? null,
        scope,
    ]);
    await unblockHeads(client, replayed.rows.map((row) => ({ transactionId: row.transaction_id, channel: row.channel, now: op.now, replay: true })));
    return { ok: true, value: replayed.rowCount ?? 0 };
}
/**
 * Make the head (lowest-seq PENDING row) of each queue due if it is blocked. A head is never
 * rightly blocked (nothing is ahead of it), so this is safe whenever a row of the queue may have
 * stopped being its head; a head that already has a time (a retry scheduled) keeps it.
 */
async function unblockHeads(client, queues) {
    const unique = new Map();
    for (const queue of queues)
        unique.set(key(queue.transactionId, queue.channel), queue);
    if (unique.size === 0)
        return;
    const heads = [...unique.values()].sort((a, b) => compareKeys(a.transactionId, a.channel, b.transactionId, b.channel));
    await client.query(SQL.unblockHeads, [
        heads.map((head) => head.transactionId),
        heads.map((head) => head.channel),
        heads.map((head) => head.now),
        heads.map((head) => head.replay),
    ]);
}
/**
 * recordDelivery's leaseNext: the head of each queue whose message this round took out of PENDING
 * (not a late acknowledgement or failure of one that had left already: that handed its queue on
 * then), leased to the entry's owner if it is due and free; by entry index. Two such entries of
 * one queue ask once, for the first, so one head is never handed to two.
 */
async function leaseHeads(client, round, updated) {
    const leftPending = new Map(updated.filter((row) => row.left_pending).map((row) => [row.id, row]));
    const askers = new Map();
    for (const entry of round) {
        const { attempt } = entry.op;
        const row = leftPending.get(attempt.outboxId);
        if (attempt.leaseNext === undefined || row === undefined)
            continue;
        const queue = key(row.transaction_id, row.channel);
        if (askers.has(queue))
            continue;
        askers.set(queue, {
            index: entry.index,
            transactionId: row.transaction_id,
            channel: row.channel,
            at: attempt.at,
            owner: attempt.leaseNext.owner,
            leaseUntil: attempt.at + attempt.leaseNext.leaseMs,
        });
    }
    const leased = new Map();
    if (askers.size === 0)
        return leased;
    const heads = [...askers.values()].sort((a, b) => compareKeys(a.transactionId, a.channel, b.transactionId, b.channel));
    const result = await client.query(SQL.leaseHeads, [
        heads.map((head) => head.transactionId),
        heads.map((head) => head.channel),
        heads.map((head) => head.at),
        heads.map((head) => head.owner),
        heads.map((head) => head.leaseUntil),
    ]);
    for (const row of result.rows) {
        const asker = askers.get(key(row.transaction_id, row.channel));
        if (asker !== undefined)
            leased.set(asker.index, outboxFromRow(row));
    }
    return leased;
}
//# sourceMappingURL=pg-outbox.js.map