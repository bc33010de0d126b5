/**
 * One batch of the PostgreSQL store's writes: grouped by kind, each kind run as multi-row
 * statements by its table group's module, in a fixed order. This is the one place that sees every
 * kind in a batch, so it takes the batch-wide row locks (every transaction a mix of writes
 * touches, all first, in one id order) before the writes that need them.
 */
import { unreachable } from '../../lib/assert.js';
import type { PendingWrite, WriteOp } from '../store-ops.js';
import { compareKeys, type Client, type Entry, type ItemResult } from './pg-batch.js';
import { applyChanges, insertSchemeMessages } from './pg-changes.js';
import { claimDue, release, releaseLeases, wakeDeliveredCallbacks } from './pg-claims.js';
import { intakes } from './pg-intake.js';
import { claimOutbox, recordDeliveries, replay, replayScope } from './pg-outbox.js';
import { recordRequests, setMessageResponse } from './pg-requests.js';
import { SQL } from './pg-sql.js';
import { createSetting, rotateRefreshToken, saveRefreshToken } from './pg-tokens.js';

/**
 * Writes of one kind run together as multi-row statements (a few round trips per batch, not
 * per item). Writes in one batch were all in flight at once, so no caller can have expected an
 * order between them; within a kind, arrival order is kept.
 */
export async function execute(client: Client, batch: readonly PendingWrite[]): Promise<ItemResult[]> {
  const results: ItemResult[] = new Array<ItemResult>(batch.length);
  const groups = groupByKind(batch);
  await intakes(client, groups.intake, results);
  // Stored messages' rows, in key order, before any transaction row: one order for every batch.
  const responses = [...groups.setMessageResponse].sort((a, b) => compareKeys(a.op.integratorId, a.op.messageId, b.op.integratorId, b.op.messageId));
  for (const entry of responses) results[entry.index] = await setMessageResponse(client, entry.op);
  // Every write that adds to an existing transaction's outbox queues or moves a row of them in
  // or out of PENDING holds that transaction's row lock (FOR UPDATE) until COMMIT, and reads
  // the queue only in statements after taking it; so each sees the queue as the last such
  // write committed it, and a row is never left blocked behind a head that already left (see
  // OUTBOX_BLOCKED_AT). A new transaction's queues are invisible to others until it commits.
  const replayScopes: string[][] = [];
  for (const entry of groups.replayUndelivered) replayScopes.push(await replayScope(client, entry.op.filter));
  await lockInOrder(client, groups, replayScopes);
  await applyChanges(client, groups.applyChange, results);
  await recordRequests(client, groups.recordRequest, results);
  await recordDeliveries(client, groups.recordDelivery, groups.recordDeliveries, results);
  if (groups.recordSchemeMessages.length > 0) {
    await insertSchemeMessages(client, groups.recordSchemeMessages.flatMap((entry) => entry.op.messages));
    for (const entry of groups.recordSchemeMessages) results[entry.index] = { ok: true, value: undefined };
  }
  for (const [position, entry] of groups.replayUndelivered.entries()) {
    results[entry.index] = await replay(client, entry.op, replayScopes[position] ?? []);
  }
  for (const entry of groups.saveRefreshToken) results[entry.index] = await saveRefreshToken(client, entry.op);
  for (const entry of groups.rotateRefreshToken) results[entry.index] = await rotateRefreshToken(client, entry.op);
  for (const entry of groups.createSetting) results[entry.index] = await createSetting(client, entry.op);
  for (const entry of groups.pruneSchemeMessages) {
    const pruned = await client.query(SQL.pruneSchemeMessages, [entry.op.before, entry.op.limit]);
    results[entry.index] = { ok: true, value: pruned.rowCount ?? 0 };
  }
  await release(client, groups.releaseTransaction, results);
  for (const entry of groups.wakeDeliveredCallbacks) results[entry.index] = await wakeDeliveredCallbacks(client, entry.op);
  for (const entry of groups.releaseLeases) results[entry.index] = await releaseLeases(client, entry.op);
  for (const entry of groups.claimDue) results[entry.index] = await claimDue(client, entry.op.options);
  for (const entry of groups.claimOutbox) results[entry.index] = await claimOutbox(client, entry.op.options);
  return results;
}

/**
 * The batch's one lock phase. Every existing transaction row the batch will write (state changes,
 * requests, lease releases, deliveries (one or a batch) through their messages, replays) or refer to (recorded
 * scheme messages: their foreign key's check locks the row too) is locked here by one
 * statement, in id order, before any of them is written; the statements after it lock only rows
 * already held, or pass over locked rows (SKIP LOCKED). So every batch of every instance takes its
 * row locks in one global order (stored messages by key, then transactions by id), and no two
 * batches can wait on each other in a cycle. A batch of state changes alone has one lock
 * statement already (applyChanges', per round, in id order; a later round names only rows of the
 * first) and needs no other.
 */
async function lockInOrder(client: Client, groups: Groups, replayScopes: readonly string[][]): Promise<void> {
  const others =
    groups.recordRequest.length +
    groups.releaseTransaction.length +
    groups.recordDelivery.length +
    groups.recordDeliveries.length +
    groups.replayUndelivered.length +
    groups.recordSchemeMessages.length;
  if (others === 0) return;
  const ids = [
    ...groups.applyChange.map((entry) => entry.op.change.transactionId),
    ...groups.recordRequest.map((entry) => entry.op.request.transactionId),
    ...groups.releaseTransaction.map((entry) => entry.op.id),
    ...groups.recordSchemeMessages.flatMap((entry) => entry.op.messages.map((message) => message.transactionId)),
    ...replayScopes.flat(),
  ];
  const outboxIds = [
    ...groups.recordDelivery.map((entry) => entry.op.attempt.outboxId),
    ...groups.recordDeliveries.flatMap((entry) => entry.op.attempts.map((attempt) => attempt.outboxId)),
  ];
  await client.query(SQL.lockTransactions, [[...new Set(ids)], outboxIds]);
}

type Groups = { [K in WriteOp['kind']]: Entry<K>[] };

function groupByKind(batch: readonly PendingWrite[]): Groups {
  const groups: Groups = {
    intake: [],
    recordRequest: [],
    setMessageResponse: [],
    applyChange: [],
    claimDue: [],
    releaseTransaction: [],
    releaseLeases: [],
    wakeDeliveredCallbacks: [],
    claimOutbox: [],
    recordDelivery: [],
    recordDeliveries: [],
    replayUndelivered: [],
    saveRefreshToken: [],
    rotateRefreshToken: [],
    createSetting: [],
    recordSchemeMessages: [],
    pruneSchemeMessages: [],
  };
  batch.forEach((item, index) => {
    const { op } = item;
    switch (op.kind) {
      case 'intake':
        return groups.intake.push({ index, op });
      case 'recordRequest':
        return groups.recordRequest.push({ index, op });
      case 'setMessageResponse':
        return groups.setMessageResponse.push({ index, op });
      case 'applyChange':
        return groups.applyChange.push({ index, op });
      case 'claimDue':
        return groups.claimDue.push({ index, op });
      case 'releaseTransaction':
        return groups.releaseTransaction.push({ index, op });
      case 'releaseLeases':
        return groups.releaseLeases.push({ index, op });
      case 'wakeDeliveredCallbacks':
        return groups.wakeDeliveredCallbacks.push({ index, op });
      case 'claimOutbox':
        return groups.claimOutbox.push({ index, op });
      case 'recordDelivery':
        return groups.recordDelivery.push({ index, op });
      case 'recordDeliveries':
        return groups.recordDeliveries.push({ index, op });
      case 'replayUndelivered':
        return groups.replayUndelivered.push({ index, op });
      case 'saveRefreshToken':
        return groups.saveRefreshToken.push({ index, op });
      case 'rotateRefreshToken':
        return groups.rotateRefreshToken.push({ index, op });
      case 'createSetting':
        return groups.createSetting.push({ index, op });
      case 'recordSchemeMessages':
        return groups.recordSchemeMessages.push({ index, op });
      case 'pruneSchemeMessages':
        return groups.pruneSchemeMessages.push({ index, op });
      default:
        return unreachable(op, 'write op');
    }
  });
  return groups;
}
