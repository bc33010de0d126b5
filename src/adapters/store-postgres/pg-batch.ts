/**
 * The PostgreSQL store's group commit: a batch of queued writes runs in one transaction on one
 * pooled connection, and each caller is settled only after COMMIT. What the writes do is
 * `execute` (pg-execute.ts); this module decides what happens when a batch fails, and holds the
 * types and helpers the write steps share.
 */
import type pg from 'pg';
import type { CommitHolding } from '../../ports/store.js';
import { commitHolding, type OpOf, type PendingWrite, type WriteOp } from '../store-ops.js';
import { compareText } from '../store-rows.js';
import { settleInTurns } from '../write-queue.js';

export type Client = pg.PoolClient;

/** A batch item's result, known before COMMIT and handed out after it. */
export type ItemResult = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: unknown } | { readonly retry: true };

export interface Entry<K extends WriteOp['kind']> {
  readonly index: number;
  readonly op: OpOf<K>;
}

/** A write that raced another and found neither a row to conflict with nor room to insert is tried again, at most this often. */
const RETRIES_MAX = 3;
/** Deadlock and serialization failures are retried as a whole batch this often before the batch is split up. */
const BATCH_ATTEMPTS_MAX = 3;
const RETRYABLE_SQLSTATES: ReadonlyMap<string, BatchRetryReason> = new Map([
  ['40P01', 'deadlock'],
  ['40001', 'serialization'],
]);

export type BatchRetryReason = 'deadlock' | 'serialization';

/** What running a batch needs: connections, the writes themselves, and the queue that takes back items that raced. */
export interface BatchRunner {
  readonly pool: pg.Pool;
  readonly execute: (client: Client, batch: readonly PendingWrite[]) => Promise<ItemResult[]>;
  readonly requeue: (items: PendingWrite[]) => void;
  /** Told of each batch run again after a deadlock or serialization failure. */
  readonly onRetried?: (reason: BatchRetryReason, error: unknown) => void;
  /** Told of each COMMIT that succeeded and what it held (Store.durableCounts). */
  readonly onCommitted?: (holding: CommitHolding) => void;
}

/** Where a batch failed decides what may be done about it. */
class BatchError extends Error {
  override readonly name = 'BatchError';
  constructor(
    readonly inner: unknown,
    /**
     * true when a statement failed and the transaction was rolled back cleanly: some item was
     * refused, so re-running the items one by one isolates it. false when the connection failed
     * (connect, BEGIN, ROLLBACK or COMMIT): COMMIT's outcome is then unknown and re-running
     * would only repeat the failure, so every caller gets the error.
     */
    readonly isolatable: boolean,
  ) {
    super(inner instanceof Error ? inner.message : String(inner));
  }
}

/**
 * Run a batch in one transaction and settle each item after COMMIT. If the batch fails before
 * COMMIT (an item the database refuses in a way no pre-check foresaw), it is rolled back and
 * every item is re-run in a transaction of its own, so only the bad item's caller sees the
 * error. If the connection fails instead (COMMIT included, whose outcome is then unknown), every
 * caller gets the error and may retry: an intake retried after a commit that did happen comes
 * back as `duplicate`.
 */
export async function flush(runner: BatchRunner, batch: PendingWrite[]): Promise<void> {
  try {
    await settle(runner, batch, await runWithRetry(runner, batch));
    return;
  } catch (error) {
    if (batch.length === 1 || !(error instanceof BatchError) || !error.isolatable) {
      for (const item of batch) item.reject(unwrap(error));
      return;
    }
  }
  for (const item of batch) {
    try {
      await settle(runner, [item], await runWithRetry(runner, [item]));
    } catch (error) {
      item.reject(unwrap(error));
    }
  }
}

async function settle(runner: BatchRunner, batch: readonly PendingWrite[], results: readonly ItemResult[]): Promise<void> {
  const again: PendingWrite[] = [];
  await settleInTurns(batch, (item, index) => {
    const result = results[index];
    if (result === undefined) item.reject(new Error('batch result missing'));
    else if ('retry' in result) {
      item.retries += 1;
      if (item.retries > RETRIES_MAX) item.reject(new Error(`write still racing after ${RETRIES_MAX} retries`));
      else again.push(item);
    } else if (result.ok) item.resolve(result.value);
    else item.reject(result.error);
  });
  if (again.length > 0) runner.requeue(again);
}

async function runWithRetry(runner: BatchRunner, batch: readonly PendingWrite[]): Promise<ItemResult[]> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await run(runner, batch);
    } catch (error) {
      const reason = error instanceof BatchError && error.isolatable ? RETRYABLE_SQLSTATES.get(sqlState(error.inner)) : undefined;
      if (reason === undefined || attempt >= BATCH_ATTEMPTS_MAX) throw error;
      runner.onRetried?.(reason, unwrap(error));
    }
  }
}

async function run(runner: BatchRunner, batch: readonly PendingWrite[]): Promise<ItemResult[]> {
  let client: Client;
  try {
    client = await runner.pool.connect();
  } catch (error) {
    throw new BatchError(error, false);
  }
  let broken: Error | undefined;
  try {
    try {
      await client.query('BEGIN');
    } catch (error) {
      broken = asError(error);
      throw new BatchError(error, false);
    }
    let results: ItemResult[];
    try {
      results = await runner.execute(client, batch);
    } catch (error) {
      try {
        await client.query('ROLLBACK');
      } catch (rollbackError) {
        broken = asError(rollbackError);
      }
      throw new BatchError(error, broken === undefined);
    }
    try {
      await client.query('COMMIT');
    } catch (error) {
      broken = asError(error);
      throw new BatchError(error, false);
    }
    runner.onCommitted?.(commitHolding(batch.map((item) => item.op)));
    return results;
  } finally {
    // A connection that failed BEGIN, ROLLBACK or COMMIT is in an unknown state: destroy it.
    client.release(broken);
  }
}

/** Split entries so that no round names the same row twice; a multi-row UPDATE would apply only one of them. */
export function rounds<E>(entries: readonly E[], rowOf: (entry: E) => string): E[][] {
  const result: E[][] = [];
  const roundOfRow = new Map<string, number>();
  for (const entry of entries) {
    const row = rowOf(entry);
    const round = (roundOfRow.get(row) ?? -1) + 1;
    roundOfRow.set(row, round);
    (result[round] ??= []).push(entry);
  }
  return result;
}

export function key(a: string, b: string): string {
  return `${a}\u0000${b}`;
}

export function compareKeys(a1: string, a2: string, b1: string, b2: string): number {
  return compareText(a1, b1) || compareText(a2, b2);
}

function sqlState(error: unknown): string {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : '';
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

function unwrap(error: unknown): unknown {
  return error instanceof BatchError ? error.inner : error;
}
