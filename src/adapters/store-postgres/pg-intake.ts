/**
 * Intake of new transactions: the transaction row, its request in `messages`, its first history
 * row and its outbox rows, written for a whole batch in a few multi-row statements; what could not
 * be inserted is classified (duplicate, message_differs, uetr_conflict) inside the same transaction.
 */
import type { IntakeOutcome, NewTransaction } from '../../ports/store.js';
import { intakeSteps, storedMessageOutcome } from '../store-ops.js';
import { compareKeys, key, type Client, type Entry, type ItemResult } from './pg-batch.js';
import { insertHistoryAndOutbox, insertSchemeMessages, leasedByTransaction, outboxRows } from './pg-changes.js';
import { SQL } from './pg-sql.js';

/**
 * Intake without a savepoint per item: insert with ON CONFLICT DO NOTHING and classify only
 * what was not inserted. A conflicting row another connection has not committed yet makes the
 * INSERT wait for that commit, so `duplicate` is only ever answered for a committed original.
 * Items whose key already appeared earlier in the same batch are classified after the first
 * one's insert, against it.
 */
export async function intakes(client: Client, entries: readonly Entry<'intake'>[], results: ItemResult[]): Promise<void> {
  if (entries.length === 0) return;
  const leaders: Entry<'intake'>[] = [];
  const followers: Entry<'intake'>[] = [];
  const seenMessages = new Set<string>();
  const seenUetrs = new Set<string>();
  for (const entry of entries) {
    const { tx } = entry.op;
    const messageKey = key(tx.integratorId, tx.messageId);
    const uetrKey = transactionKey(tx);
    (seenMessages.has(messageKey) || seenUetrs.has(uetrKey) ? followers : leaders).push(entry);
    seenMessages.add(messageKey);
    seenUetrs.add(uetrKey);
  }

  // One insertion order for every instance (by unique key) so two batches cannot deadlock on each other's keys.
  const byUetr = [...leaders].sort((a, b) => compareKeys(a.op.tx.integratorId, transactionKey(a.op.tx), b.op.tx.integratorId, transactionKey(b.op.tx)));
  const insertedTx = await client.query<{ id: string }>(SQL.insertTransactions, transactionColumns(byUetr.map((entry) => entry.op.tx)));
  const txInserted = new Set(insertedTx.rows.map((row) => row.id));

  const withTx = leaders
    .filter((entry) => txInserted.has(entry.op.tx.id))
    .sort((a, b) => compareKeys(a.op.tx.integratorId, a.op.tx.messageId, b.op.tx.integratorId, b.op.tx.messageId));
  const insertedMessages =
    withTx.length === 0 ? [] : (await client.query<{ transaction_id: string }>(SQL.insertMessages, messageColumns(withTx.map((entry) => entry.op.tx)))).rows;
  const accepted = new Set(insertedMessages.map((row) => row.transaction_id));

  // The uetr was free but the message id was taken: undo the transaction row (it has nothing else yet).
  const orphans = withTx.filter((entry) => !accepted.has(entry.op.tx.id)).map((entry) => entry.op.tx.id);
  if (orphans.length > 0) await client.query(SQL.deleteTransactions, [orphans]);

  const acceptedTxs = leaders.filter((entry) => accepted.has(entry.op.tx.id)).map((entry) => entry.op.tx);
  const leasedIds = await insertHistoryAndOutbox(
    client,
    // Version 1's cause is the request itself, kept verbatim in messages.raw_body.
    acceptedTxs.flatMap((tx) => intakeSteps(tx).steps.map((step) => ({ transactionId: tx.id, ...step, at: tx.receivedAt }))),
    acceptedTxs.flatMap((tx) => outboxRows(tx.id, tx.integratorId, tx.outbox, 0, tx.receivedAt, tx.leaseOutbox)),
  );
  await insertSchemeMessages(client, acceptedTxs.flatMap((tx) => tx.schemeMessages ?? []));
  const leased = await leasedByTransaction(client, leasedIds);
  for (const entry of leaders) {
    const { id } = entry.op.tx;
    if (accepted.has(id)) results[entry.index] = { ok: true, value: { kind: 'accepted', transactionId: id, leased: leased.get(id) ?? [] } };
  }

  const others = [...leaders.filter((entry) => !accepted.has(entry.op.tx.id)), ...followers];
  if (others.length > 0) await classifyIntakes(client, others, results);
}

/** A stored message found under the key of a new one. */
export interface StoredMessageRow {
  readonly integrator_id: string;
  readonly message_id: string;
  readonly transaction_id: string;
  readonly payload_hash: string;
  readonly raw_body: string;
  readonly response: string | null;
}

/** Classify intakes that were not inserted, against what is now stored (committed by others, or inserted earlier in this batch). */
async function classifyIntakes(client: Client, entries: readonly Entry<'intake'>[], results: ItemResult[]): Promise<void> {
  const txs = entries.map((entry) => entry.op.tx);
  const messages = await client.query<StoredMessageRow>(SQL.messagesByKeys, [txs.map((tx) => tx.integratorId), txs.map((tx) => tx.messageId)]);
  const uetrs = await client.query<{ integrator_id: string; uetr: string; kind: string }>(SQL.transactionsByUetrs, [
    txs.map((tx) => tx.integratorId),
    txs.map((tx) => tx.uetr),
    txs.map((tx) => tx.kind),
  ]);
  const messageByKey = new Map(messages.rows.map((row) => [key(row.integrator_id, row.message_id), row]));
  const takenUetrs = new Set(uetrs.rows.map((row) => transactionKey({ integratorId: row.integrator_id, uetr: row.uetr, kind: row.kind })));
  for (const entry of entries) {
    const { tx } = entry.op;
    const message = messageByKey.get(key(tx.integratorId, tx.messageId));
    let outcome: IntakeOutcome | undefined;
    if (message) outcome = storedMessageOutcome(message, tx.payloadHash);
    else if (takenUetrs.has(transactionKey(tx))) outcome = { kind: 'uetr_conflict' };
    // Neither key is taken any more (the row it collided with was rolled back): insert it in the next batch.
    results[entry.index] = outcome === undefined ? { retry: true } : { ok: true, value: outcome };
  }
}

function transactionColumns(txs: readonly NewTransaction[]): unknown[] {
  const written = txs.map((tx) => intakeSteps(tx));
  return [
    txs.map((tx) => tx.id),
    txs.map((tx) => tx.integratorId),
    txs.map((tx) => tx.kind),
    txs.map((tx) => tx.uetr),
    txs.map((tx) => tx.scheme),
    txs.map((tx) => tx.messageId),
    written.map((steps) => steps.state),
    txs.map((tx) => (tx.amountMinor === null ? null : tx.amountMinor.toString())),
    txs.map((tx) => tx.currency),
    txs.map((tx) => tx.receivedAt),
    txs.map((tx) => tx.dueAt),
    txs.map((tx) => tx.traceparent),
    txs.map((tx) => tx.tracestate),
    txs.map((tx) => tx.leaseTransaction?.owner ?? null),
    txs.map((tx) => (tx.leaseTransaction === undefined ? null : tx.receivedAt + tx.leaseTransaction.leaseMs)),
    txs.map((tx) => JSON.stringify(tx.data ?? {})),
    txs.map((tx) => tx.lookupKey ?? null),
    txs.map((tx) => tx.endToEndId ?? null),
    written.map((steps) => steps.version),
  ];
}

function messageColumns(txs: readonly NewTransaction[]): unknown[] {
  return [
    txs.map((tx) => tx.integratorId),
    txs.map((tx) => tx.messageId),
    txs.map((tx) => tx.id),
    txs.map((tx) => tx.payloadHash),
    txs.map((tx) => tx.rawBody),
    txs.map((tx) => tx.receivedAt),
  ];
}

/** A transaction's unique key (integrator, uetr, kind) as one string. */
function transactionKey(tx: { readonly integratorId: string; readonly uetr: string; readonly kind: string }): string {
  return `${tx.integratorId}\u0000${tx.uetr}\u0000${tx.kind}`;
}
