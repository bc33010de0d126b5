/**
 * The SQLite writer worker thread: owns the database's write connection, runs the batches the
 * store sends (one at a time, in order), and answers each only after its COMMIT returned. A
 * durable COMMIT (fsync) and the batch's statements take milliseconds; here they block this
 * thread instead of the event loop that serves HTTP.
 */
import { parentPort, Worker, workerData } from 'node:worker_threads';
import type { CheckpointerConfig } from './sqlite-checkpointer.js';
import { migrate, openConnection, WAL_AUTOCHECKPOINT_BACKSTOP_PAGES, WAL_AUTOCHECKPOINT_PAGES, type Db } from './sqlite-connection.js';
import { SqliteCounters } from './sqlite-counters.js';
import { SqliteExecutor } from './sqlite-executor.js';
import { errorToWire, type FromWriter, type ToWriter, type WriterConfig } from './sqlite-writer-protocol.js';

if (parentPort === null) throw new Error('sqlite-writer.js runs as a worker thread of the SQLite store');
const port = parentPort;
const config = workerData as WriterConfig;
/** Pause between the checkpointer's passive checkpoints. */
const CHECKPOINT_INTERVAL_MS = 100;

function send(message: FromWriter): void {
  port.postMessage(message);
}

function start(): void {
  let db: Db;
  let executor: SqliteExecutor;
  try {
    db = openConnection(config.filename, config.busyTimeoutMs, 'read-write');
    try {
      migrate(db);
      executor = new SqliteExecutor(db, new SqliteCounters(config.counters));
    } catch (error) {
      db.close();
      throw error;
    }
  } catch (error) {
    send({ type: 'open_failed', error: errorToWire(error) });
    port.close();
    return;
  }

  const checkpointer = startCheckpointer(db);
  port.on('message', (message: ToWriter) => {
    if (message.type === 'close') {
      // The store sends close only once its queue is empty and no batch is in flight.
      void stopCheckpointer(checkpointer).finally(() => {
        db.close();
        port.close();
      });
      return;
    }
    let reply: FromWriter;
    try {
      const outcomes = executor.runBatch(message.ops).map((outcome) => (outcome.ok ? outcome : { ok: false as const, error: errorToWire(outcome.error) }));
      reply = { type: 'batch', id: message.id, outcomes };
    } catch (error) {
      reply = { type: 'batch_failed', id: message.id, error: errorToWire(error) };
    }
    // Outside the try: a batch that committed must never be reported as failed. Should this
    // throw, the thread dies and the store tells the batch's callers its outcome is unknown.
    send(reply);
  });
  send({ type: 'ready' });
}

/** A checkpointer thread for this database; the writer's own checkpoints become a backstop while it runs. */
interface Checkpointer {
  readonly thread: Worker;
  /** Settles when the thread is gone, however it went. */
  readonly exited: Promise<void>;
}

function startCheckpointer(db: Db): Checkpointer | undefined {
  try {
    const thread = new Worker(new URL('./sqlite-checkpointer.js', import.meta.url), {
      workerData: { filename: config.filename, busyTimeoutMs: config.busyTimeoutMs, intervalMs: CHECKPOINT_INTERVAL_MS, counters: config.counters } satisfies CheckpointerConfig,
    });
    db.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_BACKSTOP_PAGES}`);
    thread.on('error', () => undefined);
    const exited = new Promise<void>((resolve) =>
      thread.once('exit', () => {
        // Gone (it could not open the database, or failed): the writer checkpoints for itself again.
        if (db.open) db.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
        resolve();
      }),
    );
    thread.unref();
    return { thread, exited };
  } catch {
    return undefined;
  }
}

async function stopCheckpointer(checkpointer: Checkpointer | undefined): Promise<void> {
  if (checkpointer === undefined) return;
  // A thread already gone ignores the message; `exited` has settled then.
  checkpointer.thread.postMessage({ type: 'close' });
  await checkpointer.exited;
}

start();
