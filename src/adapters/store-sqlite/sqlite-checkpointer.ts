/**
 * The SQLite checkpointer thread, started by the writer thread: copies committed WAL frames back
 * into the database file with its own connection, so that work (a page copy and an fsync of the
 * database file for every few thousand pages written) never stalls a batch in the writer.
 * PASSIVE checkpoints never wait for the writer or for readers; what they cannot copy yet is
 * copied by a later one, and once a checkpoint has copied everything the writer's next commit
 * starts the WAL from its beginning again. The writer keeps a far higher automatic checkpoint
 * of its own as a backstop, should this thread ever stop.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openConnection, type Db } from './sqlite-connection.js';

export interface CheckpointerConfig {
  readonly filename: string;
  readonly busyTimeoutMs: number;
  /** Pause between checkpoints. */
  readonly intervalMs: number;
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
  const tick = (): void => {
    try {
      connection.pragma('wal_checkpoint(PASSIVE)');
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
