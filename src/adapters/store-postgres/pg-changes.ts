/**
 * State changes, and the history and outbox rows that state changes, intakes and requests write:
 * a change is optimistic (refused as `stale` if its row moved) and writes its state, history and
 * outbox rows in the batch's transaction, so an event exists exactly when its state does.
 */
import type { ChangeOutcome, HistoryRecord, Lease, NewOutboxMessage, NewSchemeMessage, OutboxRecord, StateChange } from '../../ports/store.js';
import { changeSteps, commuted } from '../store-ops.js';
import { recordAttempts } from './pg-outbox.js';
import { outboxFromRow, type OutboxRow } from '../store-rows.js';
import { key, rounds, type Client, type Entry, type ItemResult } from './pg-batch.js';
import { SQL } from './pg-sql.js';

/**
 * Optimistic state changes: lock the named rows (in id order, so batches never deadlock each
 * other), compare versions, then write state, history and outbox for the ones still current.
 */
export async function applyChanges(client: Client, entries: readonly Entry<'applyChange'>[], results: ItemResult[]): Promise<void> {
  for (const round of rounds(entries, (entry) => entry.op.change.transactionId)) {
    const ids = round.map((entry) => entry.op.change.transactionId);
    const locked = await client.query<{ id: string; version: number; state: string; integrator_id: string; max_seq: number }>(SQL.lockForChange, [ids]);
    const current = new Map(locked.rows.map((row) => [row.id, row]));
    const valid: { entry: Entry<'applyChange'>; change: StateChange; state: string; integratorId: string; maxSeq: number; alreadyEntered?: number }[] = [];
    const moved: Entry<'applyChange'>[] = [];
    const made: NewSchemeMessage[] = [];
    for (const entry of round) {
      const { change } = entry.op;
      const row = current.get(change.transactionId);
      if (row === undefined) results[entry.index] = { ok: true, value: { ok: false, reason: 'not_found' } };
      else if (row.version === change.expectedVersion) valid.push({ entry, change, state: row.state, integratorId: row.integrator_id, maxSeq: row.max_seq });
      else if (change.commutes !== undefined && row.version > change.expectedVersion) moved.push(entry);
      else results[entry.index] = { ok: true, value: { ok: false, reason: 'stale' } };
    }
    if (moved.length > 0) {
      // Changes decided on an older version (another instance's change came first): what the versions since entered, read on the rows this batch holds.
      const since = await client.query<{ id: string; data: unknown; entered: string[] }>(SQL.enteredSince, [
        moved.map((entry) => entry.op.change.transactionId),
        moved.map((entry) => entry.op.change.expectedVersion),
      ]);
      const enteredOf = new Map(since.rows.map((row) => [row.id, row]));
      for (const entry of moved) {
        const { change } = entry.op;
        const row = current.get(change.transactionId);
        const read = enteredOf.get(change.transactionId);
        const outcome = row === undefined || read === undefined ? undefined : commuted(change, { version: row.version, data: read.data }, read.entered);
        if (row === undefined || outcome === undefined) results[entry.index] = { ok: true, value: { ok: false, reason: 'stale' } };
        else if (outcome.kind === 'rebased') {
          valid.push({ entry, change: outcome.change, state: row.state, integratorId: row.integrator_id, maxSeq: row.max_seq, alreadyEntered: outcome.skipped });
        } else {
          made.push(...(change.schemeMessages ?? []));
          results[entry.index] = { ok: true, value: { ok: true, version: row.version, leased: [], alreadyEntered: outcome.skipped } satisfies ChangeOutcome };
        }
      }
    }
    if (valid.length === 0) {
      await insertSchemeMessages(client, made);
      continue;
    }
    const planned = valid.map(({ entry, change, state, integratorId, maxSeq, alreadyEntered }) => ({ entry, change, integratorId, maxSeq, alreadyEntered, ...changeSteps(change, state) }));
    await client.query(SQL.updateStates, [
      planned.map(({ change }) => change.transactionId),
      planned.map(({ change }) => change.expectedVersion),
      planned.map(({ change }) => change.toState),
      planned.map(({ change }) => change.at),
      planned.map(({ change }) => change.dueAt),
      planned.map(({ change }) => (change.data === undefined ? null : JSON.stringify(change.data))),
      planned.map(({ version }) => version),
      planned.map(({ change }) => change.outcome?.outcome ?? null),
      planned.map(({ change }) => change.outcome?.reasonCode ?? null),
    ]);
    await insertSchemeMessages(client, [...made, ...planned.flatMap(({ change }) => change.schemeMessages ?? [])]);
    const leasedIds = await insertHistoryAndOutbox(
      client,
      planned.flatMap(({ change, steps }) =>
        steps.map((step) => ({ transactionId: change.transactionId, version: step.version, fromState: step.fromState, toState: step.toState, at: change.at, cause: step.cause })),
      ),
      planned.flatMap(({ change, integratorId, maxSeq }) => outboxRows(change.transactionId, integratorId, change.outbox, maxSeq, change.at, change.leaseOutbox)),
    );
    const leased = await leasedByTransaction(client, leasedIds);
    // The acknowledgements the changes follow from: their messages are of the transactions locked above.
    const attempts = planned.flatMap(({ change }) => change.deliveries ?? []);
    const recorded = attempts.length === 0 ? [] : await recordAttempts(client, attempts);
    let position = 0;
    const notify = planned.filter(({ change }) => change.notify === true).map(({ change }) => change.transactionId);
    // Delivered to every listening instance when (and only if) this batch commits.
    if (notify.length > 0) await client.query(SQL.notifyChanged, [notify]);
    for (const { entry, change, version, alreadyEntered } of planned) {
      const delivered = (change.deliveries ?? []).flatMap(() => {
        const next = recorded[position]?.leased;
        position += 1;
        return next === undefined ? [] : [next];
      });
      results[entry.index] = {
        ok: true,
        value: { ok: true, version, leased: [...(leased.get(change.transactionId) ?? []), ...delivered], ...(alreadyEntered === undefined ? {} : { alreadyEntered }) } satisfies ChangeOutcome,
      };
    }
  }
}

/** A history row to insert is exactly the port's HistoryRecord. */
type HistoryInsert = HistoryRecord;

export interface OutboxInsert {
  readonly message: NewOutboxMessage;
  readonly transactionId: string;
  readonly integratorId: string;
  readonly seq: number;
  readonly at: number;
  /** Lease the row to this owner if it is due as written (StateChange.leaseOutbox). */
  readonly lease: Lease | undefined;
}

export function outboxRows(
  transactionId: string,
  integratorId: string,
  messages: readonly NewOutboxMessage[],
  lastSeq: number,
  at: number,
  lease?: Lease,
): OutboxInsert[] {
  return messages.map((message, index) => ({ message, transactionId, integratorId, seq: lastSeq + index + 1, at, lease }));
}

/**
 * Outbox messages leased as they were written, by transaction, read back as a claim returns them
 * (the event payload spliced in): the INSERT's own RETURNING cannot see the history rows written
 * in the same statement.
 */
export async function leasedByTransaction(client: Client, ids: readonly string[]): Promise<Map<string, OutboxRecord[]>> {
  const leased = new Map<string, OutboxRecord[]>();
  if (ids.length === 0) return leased;
  for (const record of (await client.query<OutboxRow>(SQL.outboxByIds, [ids])).rows.map(outboxFromRow)) {
    leased.set(record.transactionId, [...(leased.get(record.transactionId) ?? []), record]);
  }
  return leased;
}

/**
 * History rows and outbox rows of any number of transactions in one statement. A row behind an
 * earlier PENDING row of its (transaction, channel) is written blocked: the statement looks for
 * one already stored, and `queued` marks rows behind another row of the same statement (which
 * the statement's own snapshot does not show it). A row with a lease that is due as written is
 * leased; returns the ids of those.
 */
export async function insertHistoryAndOutbox(client: Client, history: readonly HistoryInsert[], outbox: readonly OutboxInsert[]): Promise<string[]> {
  if (history.length === 0 && outbox.length === 0) return [];
  const firstSeq = new Map<string, number>();
  for (const row of outbox) {
    const queue = key(row.transactionId, row.message.channel);
    firstSeq.set(queue, Math.min(firstSeq.get(queue) ?? row.seq, row.seq));
  }
  const inserted = await client.query<{ id: string; leased: boolean }>(SQL.insertHistoryAndOutbox, [
    history.map((row) => row.transactionId),
    history.map((row) => row.version),
    history.map((row) => row.fromState),
    history.map((row) => row.toState),
    history.map((row) => row.at),
    history.map((row) => row.cause),
    outbox.map((row) => row.message.id),
    outbox.map((row) => row.transactionId),
    outbox.map((row) => row.integratorId),
    outbox.map((row) => row.seq),
    outbox.map((row) => row.message.channel),
    outbox.map((row) => row.message.url),
    outbox.map((row) => row.message.body),
    outbox.map((row) => JSON.stringify(row.message.headers)),
    outbox.map((row) => row.message.availableAt),
    outbox.map((row) => row.at),
    outbox.map((row) => row.seq > (firstSeq.get(key(row.transactionId, row.message.channel)) ?? row.seq)),
    outbox.map((row) => row.message.payloadVersion ?? null),
    outbox.map((row) => row.lease?.owner ?? null),
    outbox.map((row) => (row.lease === undefined ? null : row.at + row.lease.leaseMs)),
  ]);
  return inserted.rows.filter((row) => row.leased).map((row) => row.id);
}

/** Scheme messages of transactions this batch holds locked (StateChange.schemeMessages, Store.recordSchemeMessages). */
export async function insertSchemeMessages(client: Client, messages: readonly NewSchemeMessage[]): Promise<void> {
  if (messages.length === 0) return;
  await client.query(SQL.insertSchemeMessages, [
    messages.map((message) => message.transactionId),
    messages.map((message) => message.direction),
    messages.map((message) => message.messageId),
    messages.map((message) => message.messageName),
    messages.map((message) => message.at),
    messages.map((message) => message.document),
  ]);
}
