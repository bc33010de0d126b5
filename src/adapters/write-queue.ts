/**
 * The group-commit queue both stores share. Write calls are queued; on the next `setImmediate`
 * up to `batchMax` of them are handed to the adapter's `flush`, which runs them in ONE database
 * transaction and settles every item only after that transaction committed. A disk flush is the
 * expensive part of a durable write, so callers arriving within the same turn of the event loop
 * share it instead of paying one each.
 */

/** The queue is full: the caller should shed load (HTTP 503 with Retry-After) and retry. */
export class StoreOverloadedError extends Error {
  override readonly name = 'StoreOverloadedError';
  readonly code = 'STORE_OVERLOADED';
}

/** The store was closed before the write could run. */
export class StoreClosedError extends Error {
  override readonly name = 'StoreClosedError';
  readonly code = 'STORE_CLOSED';
}

/** Callers of a committed batch resumed in one turn of the event loop. */
const SETTLE_CHUNK = 64;

/**
 * Settles a committed batch's items `SETTLE_CHUNK` per turn of the event loop. Each settled write
 * resumes its caller's work in the same microtask checkpoint; a whole batch of up to a thousand at
 * once held the event loop (and every HTTP request waiting on it) for tens of milliseconds.
 */
export async function settleInTurns<T>(items: readonly T[], settle: (item: T, index: number) => void): Promise<void> {
  for (let start = 0; start < items.length; start += SETTLE_CHUNK) {
    if (start > 0) await new Promise((resolve) => setImmediate(resolve));
    const end = Math.min(items.length, start + SETTLE_CHUNK);
    for (let index = start; index < end; index += 1) settle(items[index]!, index);
  }
}

export interface Settleable {
  /** Taken into the next batch before every item that is not (in arrival order among themselves). */
  readonly urgent?: boolean;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

export interface WriteQueueOptions<Item = unknown> {
  /** Most items in one database transaction. */
  readonly batchMax: number;
  /** Most items waiting; beyond it a write is refused with StoreOverloadedError. */
  readonly queueMax: number;
  /** Most batches in flight at once (SQLite: 2, run one after the other by its one writer; PostgreSQL: one per connection). */
  readonly concurrency: number;
  /**
   * While a batch is in flight, the next one starts at once only for an urgent item or once this
   * many items wait (default 1: at once); otherwise it gathers until the one in flight is done.
   * For a store whose every commit has a fixed cost whatever its size.
   */
  readonly overlapMin?: number;
  /** Told of every batch once flushed (committed or failed as a whole): its size and how long the flush took. */
  readonly onBatch?: (writes: number, seconds: number) => void;
  /**
   * The rows an item locks (keys of the adapter's choosing), for a store whose concurrent batches
   * take row locks: an item whose rows a batch in flight holds waits for a later batch instead
   * of joining a concurrent one, where it would wait on that batch's lock while holding the
   * locks of its whole batch (every write of it waiting too). Items sharing a row keep their order.
   */
  readonly keysOf?: (item: Item) => readonly string[];
}

export class WriteQueue<Item extends Settleable> {
  readonly #flush: (batch: Item[]) => Promise<void> | void;
  readonly #options: WriteQueueOptions<Item>;
  #pending: Item[] = [];
  /** Urgent items waiting (counted with #pending against queueMax); batches take them first. */
  #urgent: Item[] = [];
  #scheduled = false;
  #inFlight = 0;
  /** Rows locked by the batches in flight, with how many of them hold each (keysOf). */
  readonly #held = new Map<string, number>();
  #closed = false;
  #idleWaiters: (() => void)[] = [];

  constructor(flush: (batch: Item[]) => Promise<void> | void, options: WriteQueueOptions<Item>) {
    this.#flush = flush;
    this.#options = options;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Items waiting for a batch (not those of the batches in flight). */
  get waiting(): number {
    return this.#waiting();
  }

  push(item: Item): void {
    if (this.#closed) {
      item.reject(new StoreClosedError('store is closed'));
      return;
    }
    if (this.#waiting() >= this.#options.queueMax) {
      item.reject(new StoreOverloadedError(`write queue full (${this.#options.queueMax} waiting)`));
      return;
    }
    if (item.urgent === true) this.#urgent.push(item);
    else this.#pending.push(item);
    this.#schedule();
  }

  #waiting(): number {
    return this.#pending.length + this.#urgent.length;
  }

  /** Put items back at the head of the queue (an adapter retrying them in the next batch). */
  requeue(items: readonly Item[]): void {
    this.#urgent.unshift(...items.filter((item) => item.urgent === true));
    this.#pending.unshift(...items.filter((item) => item.urgent !== true));
    this.#schedule();
  }

  /** Refuse new writes, then wait until everything queued has been flushed. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#waiting() === 0 && this.#inFlight === 0) return;
    await new Promise<void>((resolve) => this.#idleWaiters.push(resolve));
  }

  /** A batch can start now: something waits, a slot is free, and (with one in flight) enough waits or an API caller does. */
  #ready(): boolean {
    const waiting = this.#waiting();
    if (waiting === 0 || this.#inFlight >= this.#options.concurrency) return false;
    return this.#inFlight === 0 || this.#urgent.length > 0 || waiting >= (this.#options.overlapMin ?? 1);
  }

  #schedule(): void {
    if (this.#scheduled || !this.#ready()) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      this.#runOne();
    });
  }

  #runOne(): void {
    if (!this.#ready()) return;
    // Urgent items first, but at most half a batch of them while others wait, so a flood of
    // urgent writes (intakes beyond capacity) cannot starve the processing of what was accepted.
    const { batchMax, keysOf } = this.#options;
    let batch: Item[];
    let keys: string[] = [];
    if (keysOf === undefined) {
      batch = this.#urgent.splice(0, this.#pending.length > 0 ? Math.ceil(batchMax / 2) : batchMax);
      batch.push(...this.#pending.splice(0, batchMax - batch.length));
      batch.push(...this.#urgent.splice(0, batchMax - batch.length));
    } else {
      const taking = new Taking(this.#held, keysOf);
      batch = taking.from(this.#urgent, this.#pending.length > 0 ? Math.ceil(batchMax / 2) : batchMax);
      batch.push(...taking.from(this.#pending, batchMax - batch.length));
      batch.push(...taking.from(this.#urgent, batchMax - batch.length));
      // Everything waiting touches rows a batch in flight holds: the end of that batch schedules again.
      if (batch.length === 0) return;
      keys = taking.keys;
      for (const key of keys) this.#held.set(key, (this.#held.get(key) ?? 0) + 1);
    }
    this.#inFlight += 1;
    const started = performance.now();
    const done = (): void => {
      this.#options.onBatch?.(batch.length, (performance.now() - started) / 1000);
      for (const key of keys) {
        const holders = (this.#held.get(key) ?? 1) - 1;
        if (holders > 0) this.#held.set(key, holders);
        else this.#held.delete(key);
      }
      this.#inFlight -= 1;
      this.#schedule();
      if (this.#waiting() === 0 && this.#inFlight === 0) {
        for (const wake of this.#idleWaiters.splice(0)) wake();
      }
    };
    // More is waiting than one batch takes: start the next batch as well, up to `concurrency`.
    this.#schedule();
    let result: Promise<void> | void;
    try {
      result = this.#flush(batch);
    } catch (error) {
      // The adapter settles items itself; this only catches its own bugs so no caller hangs.
      for (const item of batch) item.reject(error);
      done();
      return;
    }
    if (result instanceof Promise) {
      result.then(done, (error: unknown) => {
        for (const item of batch) item.reject(error);
        done();
      });
    } else {
      done();
    }
  }
}

/**
 * Fills one batch with items whose rows no batch in flight holds (WriteQueueOptions.keysOf). An
 * item passed over makes its rows pass over the items behind it too, so writes on one row keep
 * their order; the items taken are removed from their queue, the others stay in order.
 */
class Taking<Item> {
  readonly #held: ReadonlyMap<string, number>;
  readonly #keysOf: (item: Item) => readonly string[];
  /** Rows of items passed over in this batch. */
  readonly #passed = new Set<string>();
  /** Rows of the items taken. */
  readonly #taken = new Set<string>();

  constructor(held: ReadonlyMap<string, number>, keysOf: (item: Item) => readonly string[]) {
    this.#held = held;
    this.#keysOf = keysOf;
  }

  get keys(): string[] {
    return [...this.#taken];
  }

  /** Up to `max` items of `queue` that may run now, removed from it. */
  from(queue: Item[], max: number): Item[] {
    const taken: Item[] = [];
    if (max <= 0 || queue.length === 0) return taken;
    const kept: Item[] = [];
    for (const item of queue) {
      if (taken.length >= max) {
        kept.push(item);
        continue;
      }
      const keys = this.#keysOf(item);
      if (keys.some((key) => this.#held.has(key) || this.#passed.has(key))) {
        for (const key of keys) this.#passed.add(key);
        kept.push(item);
        continue;
      }
      for (const key of keys) this.#taken.add(key);
      taken.push(item);
    }
    queue.splice(0, queue.length, ...kept);
    return taken;
  }
}
