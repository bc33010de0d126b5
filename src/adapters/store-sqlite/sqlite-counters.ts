/**
 * Counts of what the SQLite store made durable, in memory shared by the threads that make it so
 * (the writer, the checkpointer) and the one that reports it (the store's, for metrics): one
 * atomic add per commit or checkpoint, nothing sent between threads (Store.durableCounts).
 */

import type { CommitHolding } from '../../ports/store.js';

/** Where each count lives in the shared buffer. */
const COMMITS: Readonly<Record<CommitHolding, number>> = { transactions: 0, deliveries: 1, other: 2 };
const CHECKPOINT_FSYNCS = 3;
const SLOTS = 4;

export class SqliteCounters {
  readonly #cells: BigInt64Array;

  /** New counters, or (in another thread) the ones whose `buffer` was handed over. */
  constructor(buffer: SharedArrayBuffer = new SharedArrayBuffer(SLOTS * BigInt64Array.BYTES_PER_ELEMENT)) {
    this.#cells = new BigInt64Array(buffer);
  }

  /** To hand to another thread (workerData). */
  get buffer(): SharedArrayBuffer {
    return this.#cells.buffer as SharedArrayBuffer;
  }

  /** A transaction that changed rows committed, holding `holding`: with synchronous = FULL in WAL mode, one fsync of the WAL. */
  committed(holding: CommitHolding): void {
    Atomics.add(this.#cells, COMMITS[holding], 1n);
  }

  /** A checkpoint copied frames into the database file: it synced the WAL before and the database file after. */
  checkpointed(): void {
    Atomics.add(this.#cells, CHECKPOINT_FSYNCS, 2n);
  }

  get commitsHolding(): Record<CommitHolding, number> {
    const count = (holding: CommitHolding): number => Number(Atomics.load(this.#cells, COMMITS[holding]));
    return { transactions: count('transactions'), deliveries: count('deliveries'), other: count('other') };
  }

  get checkpointFsyncs(): number {
    return Number(Atomics.load(this.#cells, CHECKPOINT_FSYNCS));
  }
}

/** What `PRAGMA wal_checkpoint` answers: WAL frames in all, and of them copied into the database file. */
export interface CheckpointResult {
  readonly busy: number;
  readonly log: number;
  readonly checkpointed: number;
}

/**
 * Whether a passive checkpoint copied frames (and so synced twice), from its answer and the one
 * before: more frames copied than then, or any after the WAL started again from its beginning
 * (fewer frames in it than then).
 */
export function copiedFrames(previous: CheckpointResult | undefined, now: CheckpointResult): boolean {
  if (now.checkpointed <= 0) return false;
  if (previous === undefined || now.log < previous.log) return true;
  return now.checkpointed > previous.checkpointed;
}
