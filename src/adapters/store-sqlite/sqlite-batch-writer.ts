/**
 * Where the SQLite store's batches run. Both writers run the same executor (sqlite-executor.ts):
 * - WorkerThreadWriter: in a worker thread that owns the write connection (file databases). A
 *   durable COMMIT waits for an fsync; in the worker that wait no longer stalls the event loop,
 *   and with it every HTTP request in flight.
 * - InThreadWriter: on the calling thread, for `:memory:` (a memory database cannot be shared
 *   between threads) and as the baseline the store benchmark compares against.
 */
import { Worker } from 'node:worker_threads';
import { StoreUnavailableError, type WriteOp } from '../store-ops.js';
import type { OpOutcome, SqliteExecutor } from './sqlite-executor.js';
import { errorFromWire, type FromWriter, type ToWriter, type WriterConfig } from './sqlite-writer-protocol.js';

export interface BatchWriter {
  /**
   * Run a batch in one transaction. Resolves after COMMIT returned, with one outcome per op;
   * rejects when nothing of it committed, or (writer thread failed) when its fate is unknown.
   */
  run(ops: readonly WriteOp[]): Promise<OpOutcome[]>;
  /** Throws when the writer can no longer write. */
  assertHealthy(): void;
  /** Stop; only called with no batch in flight. */
  close(): Promise<void>;
}

export class InThreadWriter implements BatchWriter {
  readonly #executor: SqliteExecutor;

  constructor(executor: SqliteExecutor) {
    this.#executor = executor;
  }

  run(ops: readonly WriteOp[]): Promise<OpOutcome[]> {
    try {
      return Promise.resolve(this.#executor.runBatch(ops));
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  assertHealthy(): void {}

  close(): Promise<void> {
    return Promise.resolve();
  }
}

interface InFlight {
  resolve(outcomes: OpOutcome[]): void;
  reject(error: unknown): void;
}

export class WorkerThreadWriter implements BatchWriter {
  readonly #worker: Worker;
  readonly #exited: Promise<void>;
  readonly #inFlight = new Map<number, InFlight>();
  #nextId = 1;
  #failure: StoreUnavailableError | undefined;
  #closing = false;

  /** Start the writer thread; resolves once it has opened and migrated the database. */
  static async start(config: WriterConfig): Promise<WorkerThreadWriter> {
    const worker = new Worker(new URL('./sqlite-writer.js', import.meta.url), { workerData: config });
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    let onMessage: ((message: FromWriter) => void) | undefined;
    let onError: ((error: Error) => void) | undefined;
    let onExit: ((code: number) => void) | undefined;
    try {
      await new Promise<void>((resolve, reject) => {
        onMessage = (message) => {
          if (message.type === 'ready') resolve();
          else if (message.type === 'open_failed') reject(errorFromWire(message.error));
          else reject(new Error(`SQLite writer sent ${message.type} before it was ready`));
        };
        onError = reject;
        onExit = (code) => reject(new Error(`SQLite writer thread exited with code ${code} while opening ${config.filename}`));
        worker.once('message', onMessage).once('error', onError).once('exit', onExit);
      });
    } catch (error) {
      await worker.terminate();
      await exited;
      throw error;
    } finally {
      if (onMessage) worker.off('message', onMessage);
      if (onError) worker.off('error', onError);
      if (onExit) worker.off('exit', onExit);
    }
    return new WorkerThreadWriter(worker, exited);
  }

  private constructor(worker: Worker, exited: Promise<void>) {
    this.#worker = worker;
    this.#exited = exited;
    worker.on('message', (message: FromWriter) => this.#receive(message));
    worker.on('error', (error) => this.#fail(error));
    // A reply that cannot be read leaves its batch's fate unknown, like a crash.
    worker.on('messageerror', (error) => this.#fail(error));
    worker.on('exit', (code) => {
      if (!this.#closing || this.#inFlight.size > 0) this.#fail(new Error(`SQLite writer thread exited with code ${code}`));
    });
    // An idle writer does not keep the process alive (nor did the main-thread connection);
    // one with a batch in flight does, so no commit is cut short by a natural exit.
    worker.unref();
  }

  /** The thread, for tests and diagnostics (resource use, or to make it fail). */
  get thread(): Worker {
    return this.#worker;
  }

  run(ops: readonly WriteOp[]): Promise<OpOutcome[]> {
    if (this.#failure) return Promise.reject(this.#failure);
    const id = this.#nextId;
    this.#nextId += 1;
    const message: ToWriter = { type: 'batch', id, ops };
    try {
      this.#worker.postMessage(message);
    } catch (error) {
      // postMessage clones before sending: on a clone error nothing was sent.
      if (!(error instanceof Error)) return Promise.reject(new Error(String(error)));
      return error.name === 'DataCloneError' ? this.#runCloneable(ops) : Promise.reject(error);
    }
    if (this.#inFlight.size === 0) this.#worker.ref();
    return new Promise<OpOutcome[]>((resolve, reject) => this.#inFlight.set(id, { resolve, reject }));
  }

  assertHealthy(): void {
    if (this.#failure) throw this.#failure;
  }

  async close(): Promise<void> {
    if (!this.#closing) {
      this.#closing = true;
      this.#worker.ref();
      if (this.#failure === undefined) this.#worker.postMessage({ type: 'close' } satisfies ToWriter);
    }
    await this.#exited;
  }

  /**
   * An op that cannot cross to the thread (engine data holding a function, say) fails alone, as
   * any bad op does; the rest of its batch still runs.
   */
  async #runCloneable(ops: readonly WriteOp[]): Promise<OpOutcome[]> {
    const refused = new Map<number, unknown>();
    const sendable = ops.filter((op, index) => {
      try {
        structuredClone(op);
        return true;
      } catch (error) {
        refused.set(index, error);
        return false;
      }
    });
    const outcomes = sendable.length === 0 ? [] : await this.run(sendable);
    let next = 0;
    return ops.map((_, index) => {
      if (refused.has(index)) return { ok: false, error: refused.get(index) };
      const outcome = outcomes[next];
      next += 1;
      return outcome ?? { ok: false, error: new Error('batch outcome missing') };
    });
  }

  #receive(message: FromWriter): void {
    if (message.type !== 'batch' && message.type !== 'batch_failed') return;
    const waiting = this.#inFlight.get(message.id);
    if (waiting === undefined) return;
    this.#inFlight.delete(message.id);
    if (this.#inFlight.size === 0) this.#worker.unref();
    if (message.type === 'batch_failed') waiting.reject(errorFromWire(message.error));
    else waiting.resolve(message.outcomes.map((outcome) => (outcome.ok ? outcome : { ok: false, error: errorFromWire(outcome.error) })));
  }

  /** The thread is gone or unusable: fail everything in flight and every later write; nothing waits forever. */
  #fail(cause: unknown): void {
    if (this.#failure === undefined) {
      this.#failure = new StoreUnavailableError('the SQLite writer thread failed; writes in flight may or may not have committed', { cause });
      void this.#worker.terminate();
    }
    const inFlight = [...this.#inFlight.values()];
    this.#inFlight.clear();
    for (const waiting of inFlight) waiting.reject(this.#failure);
  }
}
