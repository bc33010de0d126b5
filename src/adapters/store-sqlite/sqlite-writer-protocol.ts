/**
 * Messages between the SQLite store (main thread) and its writer worker (sqlite-writer.ts).
 * Everything crossing is structured-cloned: write ops and their results are plain data (bigint
 * included); errors are sent as their parts and rebuilt, because cloning drops an error's class
 * and its `code`, which callers tell errors apart by.
 */
import Database from 'better-sqlite3';
import { StoreWriteError, type WriteOp } from '../store-ops.js';

/** `workerData` of the writer. */
export interface WriterConfig {
  readonly filename: string;
  readonly busyTimeoutMs: number;
  /** The store's SqliteCounters, shared: the writer counts its commits, its checkpointer the checkpoints' fsyncs. */
  readonly counters: SharedArrayBuffer;
}

export type ToWriter = { readonly type: 'batch'; readonly id: number; readonly ops: readonly WriteOp[] } | { readonly type: 'close' };

export type WireOutcome = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: WireError };

export type FromWriter =
  /** Connection open and migrated: the store may open its read connection. */
  | { readonly type: 'ready' }
  | { readonly type: 'open_failed'; readonly error: WireError }
  /** Committed: one outcome per op, in order. */
  | { readonly type: 'batch'; readonly id: number; readonly outcomes: readonly WireOutcome[] }
  /** Nothing of the batch committed. */
  | { readonly type: 'batch_failed'; readonly id: number; readonly error: WireError };

export interface WireError {
  readonly name: string;
  readonly message: string;
  readonly code: string | undefined;
  readonly stack: string | undefined;
}

export function errorToWire(error: unknown): WireError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), code: undefined, stack: undefined };
  const code = 'code' in error && typeof error.code === 'string' ? error.code : undefined;
  return { name: error.name, message: error.message, code, stack: error.stack };
}

/** The error as the writer saw it: same class for the ones callers check (StoreWriteError, SqliteError), stack from the writer. */
export function errorFromWire(wire: WireError): Error {
  let error: Error;
  if (wire.name === 'StoreWriteError') error = new StoreWriteError(wire.message);
  else if (wire.name === 'SqliteError') error = new Database.SqliteError(wire.message, wire.code ?? 'SQLITE_ERROR');
  else if (wire.name === 'RangeError') error = new RangeError(wire.message);
  else if (wire.name === 'TypeError') error = new TypeError(wire.message);
  else {
    error = new Error(wire.message);
    error.name = wire.name;
    if (wire.code !== undefined) Object.assign(error, { code: wire.code });
  }
  if (wire.stack !== undefined) error.stack = wire.stack;
  return error;
}
