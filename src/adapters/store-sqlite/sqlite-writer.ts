/**
 * The SQLite writer worker thread: owns the database's write connection, runs the batches the
 * store sends (one at a time, in order), and answers each only after its COMMIT returned. A
 * durable COMMIT (fsync) and the batch's statements take milliseconds; here they block this
 * thread instead of the event loop that serves HTTP.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { migrate, openConnection, type Db } from './sqlite-connection.js';
import { SqliteExecutor } from './sqlite-executor.js';
import { errorToWire, type FromWriter, type ToWriter, type WriterConfig } from './sqlite-writer-protocol.js';

if (parentPort === null) throw new Error('sqlite-writer.js runs as a worker thread of the SQLite store');
const port = parentPort;
const config = workerData as WriterConfig;

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
      executor = new SqliteExecutor(db);
    } catch (error) {
      db.close();
      throw error;
    }
  } catch (error) {
    send({ type: 'open_failed', error: errorToWire(error) });
    port.close();
    return;
  }

  port.on('message', (message: ToWriter) => {
    if (message.type === 'close') {
      // The store sends close only once its queue is empty and no batch is in flight.
      db.close();
      port.close();
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

start();
