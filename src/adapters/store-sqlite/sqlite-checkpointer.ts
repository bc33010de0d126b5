/**
 * The SQLite checkpointer thread, started by the writer thread: copies committed WAL frames back
 * into the database file with its own connection, so that work (a page copy and an fsync of the
 * database file for every few thousand pages written) never stalls a batch in the writer.
 * PASSIVE checkpoints never wait for the writer or for readers; what they cannot copy yet is
 * copied by a later one. The WAL starts from its beginning again only when the writer's next
 * transaction finds everything copied: when writes pause, but not under sustained writing (the
 * writer has always committed more by the time a checkpoint ends). Then the writer's own far
 * higher automatic checkpoint, otherwise the backstop should this thread ever stop, restarts it
 * (~400 MiB of WAL; docs/storage.md).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openConnection, type Db } from './sqlite-connection.js';
import { copiedFrames, SqliteCounters, type CheckpointResult } from './sqlite-counters.js';

export interface CheckpointerConfig {
  readonly filename: string;
  readonly busyTimeoutMs: number;
  /** Pause between checkpoints. */
  readonly intervalMs: number;
  /** The store's SqliteCounters: each checkpoint that copied frames adds its two fsyncs. */
  readonly counters: SharedArrayBuffer;
}

if (parentPort === null) throw new Error('sqlite-checkpointer.js runs as a worker thread of the SQLite writer');
const port = parentPort;
const config = workerData as CheckpointerConfig;

let db: Db | undefined;
try {
  db = openConnection(config.filename, config.busyTimeoutMs, 'checkpoint');
} catch {
  // The writer's own automatic checkpoints keep the WAL bounded without us.
  port.close();
}

if (db !== undefined) {
  const connection = db;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const counters = new SqliteCounters(config.counters);
  let previous: CheckpointResult | undefined;
  const tick = (): void => {
    try {
      const [result] = connection.pragma('wal_checkpoint(PASSIVE)') as CheckpointResult[];
      if (result !== undefined) {
        if (copiedFrames(previous, result)) counters.checkpointed();
        previous = result;
      }
    } catch {
      // SQLITE_BUSY or a transient I/O error: the next tick tries again.
    }
    if (!closed) timer = setTimeout(tick, config.intervalMs);
  };
  timer = setTimeout(tick, config.intervalMs);
  port.on('message', (message: { type: 'close' }) => {
    if (message.type !== 'close') return;
    closed = true;
    clearTimeout(timer);
    connection.close();
    port.close();
  });
}
