import { compareText, transactionFromRow } from '../store-rows.js';
import { SQL } from './pg-sql.js';
export async function claimDue(client, options) {
    const result = await client.query(SQL.claimDue, [options.now, options.limit, options.owner, options.now + options.leaseMs]);
    const records = result.rows.map(transactionFromRow).sort((a, b) => (a.dueAt ?? 0) - (b.dueAt ?? 0) || compareText(a.id, b.id));
    return { ok: true, value: records };
}
/** Ends leases early, each only its owner's, in one statement (the rows are locked by the batch's lock phase). */
export async function release(client, entries, results) {
    if (entries.length === 0)
        return;
    await client.query(SQL.release, [entries.map((entry) => entry.op.id), entries.map((entry) => entry.op.owner)]);
    for (const entry of entries)
        results[entry.index] = { ok: true, value: undefined };
}
/** Ends every live lease (of transactions and of pending outbox messages) of the given owners, instances known to be dead; returns how many. */
export async function releaseLeases(client, op) {
    const transactions = await client.query(SQL.releaseTransactionLeases, [op.owners, op.now]);
    const outbox = await client.query(SQL.releaseOutboxLeases, [op.owners]);
    return { ok: true, value: (transactions.rowCount ?? 0) + (outbox.rowCount ?? 0) };
}
export async function wakeDeliveredCallbacks(client, op) {
    const woken = await client.query(SQL.wakeDeliveredCallbacks, [op.now]);
    return { ok: true, value: woken.rowCount ?? 0 };
}
//# sourceMappingURL=pg-claims.js.map