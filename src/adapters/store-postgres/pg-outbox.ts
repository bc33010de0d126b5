/**
 * The outbox queues: claiming queue heads per endpoint, recording delivery attempts (and letting
 * the next message of a queue through), and operator replays. Only a queue's head is due; a row
 * behind it waits blocked (OUTBOX_BLOCKED_AT) until the head leaves PENDING.
 */
import type { DeliveryAttempt, OutboxClaimOptions, OutboxRecord } from '../../ports/store.js';
import { attemptErrorText, StoreWriteError, type OpOf, type ReplayFilter } from '../store-ops.js';
import { compareText, outboxFromRow, type OutboxRow } from '../store-rows.js';
import { compareKeys, key, rounds, type Client, type Entry, type ItemResult } from './pg-batch.js';
import { SQL } from './pg-sql.js';

export async function claimOutbox(client: Client, options: OutboxClaimOptions): Promise<ItemResult> {
  const excluded = (options.excludeEndpoints ?? []).map((endpoint) => `${endpoint.channel} ${endpoint.integratorId}`);
  const result = await client.query<OutboxRow>(SQL.claimOutbox, [options.now, options.limit, options.owner, options.now + options.leaseMs, excluded]);
  const records = result.rows
    .map(outboxFromRow)
    .sort((a, b) => a.nextAttemptAt - b.nextAttemptAt || compareText(a.transactionId, b.transactionId) || a.seq - b.seq);
  return { ok: true, value: records };
}

/** What recording one attempt did: whether its message exists, and the next message leased for it (leaseNext). */
export interface AttemptRecorded {
  readonly known: boolean;
  readonly leased: OutboxRecord | undefined;
}

/**
 * Attempts in one statement per round (a round holds at most one attempt per message; attempts
 * of one message go in the order given); then, in a statement of its own (so that it sees them),
 * the queues of the messages that left PENDING (delivered, or given up on) let their next
 * message through: their head is unblocked. A late acknowledgement of a message already given
 * up on lets nothing more through: the head of its queue already has its time. An attempt with
 * leaseNext whose message has just left PENDING then gets that head, leased, if it is due and
 * free (as SQLite's recordDelivery). Returns what each attempt did, by its position.
 */
export async function recordAttempts(client: Client, attempts: readonly DeliveryAttempt[]): Promise<AttemptRecorded[]> {
  const recorded = new Array<AttemptRecorded>(attempts.length);
  const positions = attempts.map((attempt, index) => ({ index, attempt }));
  for (const round of rounds(positions, (entry) => entry.attempt.outboxId)) {
    const sorted = round.map((entry) => entry.attempt).sort((a, b) => compareText(a.outboxId, b.outboxId));
    const updated = await client.query<{ id: string; transaction_id: string; channel: string; status: string; left_pending: boolean }>(SQL.recordDeliveries, [
      sorted.map((attempt) => attempt.outboxId),
      sorted.map((attempt) => attempt.at),
      sorted.map((attempt) => Math.max(0, Math.round(attempt.durationMs))),
      sorted.map((attempt) => attempt.httpStatus),
      sorted.map((attempt) => attempt.error),
      sorted.map((attempt) => attempt.delivered),
      sorted.map((attempt) => attempt.nextAttemptAt),
      sorted.map((attempt) => attemptErrorText(attempt)),
    ]);
    // Every row now out of PENDING asks for its queue's head: for one that just left, that is
    // the next row; for one that had left before (a late acknowledgement, a late failure), the
    // head was unblocked then and this changes nothing.
    const at = new Map(sorted.map((attempt) => [attempt.outboxId, attempt.at]));
    await unblockHeads(
      client,
      updated.rows
        .filter((row) => row.status !== 'PENDING')
        .map((row) => ({ transactionId: row.transaction_id, channel: row.channel, now: at.get(row.id) ?? 0, replay: false })),
    );
    const leased = await leaseHeads(client, round, updated.rows);
    const known = new Set(updated.rows.map((row) => row.id));
    for (const entry of round) recorded[entry.index] = { known: known.has(entry.attempt.outboxId), leased: leased.get(entry.index) };
  }
  return recorded;
}

/**
 * The batch's recordDelivery and recordDeliveries writes, all their attempts recorded together
 * (recordAttempts). An unknown message fails its recordDelivery; a recordDeliveries reports it.
 */
export async function recordDeliveries(
  client: Client,
  singles: readonly Entry<'recordDelivery'>[],
  batches: readonly Entry<'recordDeliveries'>[],
  results: ItemResult[],
): Promise<void> {
  const attempts = [...singles.map((entry) => entry.op.attempt), ...batches.flatMap((entry) => entry.op.attempts)];
  if (attempts.length === 0) return;
  const recorded = await recordAttempts(client, attempts);
  singles.forEach((entry, position) => {
    const outcome = recorded[position]!;
    results[entry.index] = outcome.known ? { ok: true, value: outcome.leased } : { ok: false, error: new StoreWriteError(`no outbox message ${entry.op.attempt.outboxId}`) };
  });
  let position = singles.length;
  for (const entry of batches) {
    const leased: OutboxRecord[] = [];
    const unknown: string[] = [];
    for (const attempt of entry.op.attempts) {
      const outcome = recorded[position]!;
      position += 1;
      if (!outcome.known) unknown.push(attempt.outboxId);
      else if (outcome.leased !== undefined) leased.push(outcome.leased);
    }
    results[entry.index] = { ok: true, value: { leased, unknown } };
  }
}

/** The transactions that hold messages a replay would turn back to PENDING (read before they are locked). */
export async function replayScope(client: Client, filter: ReplayFilter): Promise<string[]> {
  const result = await client.query<{ transaction_id: string }>(SQL.replayScope, [filter.outboxId ?? null, filter.integratorId ?? null, filter.since ?? null]);
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
export async function replay(client: Client, op: OpOf<'replayUndelivered'>, scope: readonly string[]): Promise<ItemResult> {
  if (scope.length === 0) return { ok: true, value: 0 };
  const replayed = await client.query<{ transaction_id: string; channel: string }>(SQL.replay, [
    op.filter.outboxId ?? null,
    op.filter.integratorId ?? null,
    op.filter.since ?? null,
    scope,
  ]);
  await unblockHeads(
    client,
    replayed.rows.map((row) => ({ transactionId: row.transaction_id, channel: row.channel, now: op.now, replay: true })),
  );
  return { ok: true, value: replayed.rowCount ?? 0 };
}

interface QueueHead {
  readonly transactionId: string;
  readonly channel: string;
  /** Due from max(now, available_at); a replay: from now. */
  readonly now: number;
  readonly replay: boolean;
}

/**
 * Make the head (lowest-seq PENDING row) of each queue due if it is blocked. A head is never
 * rightly blocked (nothing is ahead of it), so this is safe whenever a row of the queue may have
 * stopped being its head; a head that already has a time (a retry scheduled) keeps it.
 */
async function unblockHeads(client: Client, queues: readonly QueueHead[]): Promise<void> {
  const unique = new Map<string, QueueHead>();
  for (const queue of queues) unique.set(key(queue.transactionId, queue.channel), queue);
  if (unique.size === 0) return;
  const heads = [...unique.values()].sort((a, b) => compareKeys(a.transactionId, a.channel, b.transactionId, b.channel));
  await client.query(SQL.unblockHeads, [
    heads.map((head) => head.transactionId),
    heads.map((head) => head.channel),
    heads.map((head) => head.now),
    heads.map((head) => head.replay),
  ]);
}

/**
 * An attempt's leaseNext: the head of each queue whose message this round took out of PENDING
 * (not a late acknowledgement or failure of one that had left already: that handed its queue on
 * then), leased to the attempt's owner if it is due and free; by the attempt's position. Two such entries of
 * one queue ask once, for the first, so one head is never handed to two.
 */
async function leaseHeads(
  client: Client,
  round: readonly { readonly index: number; readonly attempt: DeliveryAttempt }[],
  updated: readonly { id: string; transaction_id: string; channel: string; left_pending: boolean }[],
): Promise<Map<number, OutboxRecord>> {
  const leftPending = new Map(updated.filter((row) => row.left_pending).map((row) => [row.id, row]));
  const askers = new Map<string, { index: number; transactionId: string; channel: string; at: number; owner: string; leaseUntil: number }>();
  for (const entry of round) {
    const { attempt } = entry;
    const row = leftPending.get(attempt.outboxId);
    if (attempt.leaseNext === undefined || row === undefined) continue;
    const queue = key(row.transaction_id, row.channel);
    if (askers.has(queue)) continue;
    askers.set(queue, {
      index: entry.index,
      transactionId: row.transaction_id,
      channel: row.channel,
      at: attempt.at,
      owner: attempt.leaseNext.owner,
      leaseUntil: attempt.at + attempt.leaseNext.leaseMs,
    });
  }
  const leased = new Map<number, OutboxRecord>();
  if (askers.size === 0) return leased;
  const heads = [...askers.values()].sort((a, b) => compareKeys(a.transactionId, a.channel, b.transactionId, b.channel));
  const result = await client.query<OutboxRow>(SQL.leaseHeads, [
    heads.map((head) => head.transactionId),
    heads.map((head) => head.channel),
    heads.map((head) => head.at),
    heads.map((head) => head.owner),
    heads.map((head) => head.leaseUntil),
  ]);
  for (const row of result.rows) {
    const asker = askers.get(key(row.transaction_id, row.channel));
    if (asker !== undefined) leased.set(asker.index, outboxFromRow(row));
  }
  return leased;
}
