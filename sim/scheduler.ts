import type { Clock, TimerHandle, Timers } from '../src/ports/clock.js';

/**
 * Simulated time. Nothing in a simulation waits for real time: every timer of the service (the
 * engine's and dispatcher's polls, a held lookup's wait) and every event of the world (an
 * arrival, a scheme answer, an integrator's reply, a crash) is an entry of one queue ordered by
 * (due time, insertion order). The run takes the next entry only once the service is idle (no
 * callback queued on the event loop), moves the clock to its time and runs it. With no real I/O,
 * no thread and no real timer involved, the same seed runs the same program the same way.
 */
interface Entry {
  readonly at: number;
  readonly seq: number;
  readonly run: () => void;
  /** The process incarnation that set it (0: the world, which never crashes). */
  readonly owner: number;
  cancelled: boolean;
}

/** A binary heap of entries by (due time, insertion order). */
class Queue {
  readonly #heap: Entry[] = [];

  get size(): number {
    return this.#heap.length;
  }

  /** The first live entry, dropping cancelled ones from the top. */
  peek(): Entry | undefined {
    while (this.#heap[0]?.cancelled === true) this.pop();
    return this.#heap[0];
  }

  entries(): readonly Entry[] {
    return this.#heap;
  }

  push(entry: Entry): void {
    const heap = this.#heap;
    heap.push(entry);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!less(heap[i]!, heap[parent]!)) break;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  }

  pop(): Entry | undefined {
    const heap = this.#heap;
    const top = heap[0];
    const last = heap.pop();
    if (top === undefined || last === undefined || heap.length === 0) return top;
    heap[0] = last;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < heap.length && less(heap[left]!, heap[smallest]!)) smallest = left;
      if (right < heap.length && less(heap[right]!, heap[smallest]!)) smallest = right;
      if (smallest === i) break;
      [heap[i], heap[smallest]] = [heap[smallest]!, heap[i]!];
      i = smallest;
    }
    return top;
  }
}

function less(a: Entry, b: Entry): boolean {
  return a.at < b.at || (a.at === b.at && a.seq < b.seq);
}

export class Scheduler implements Clock {
  #now: number;
  #seq = 0;
  /** The world's entries and the service's timers, apart: the drain asks when the world next acts. */
  readonly #world = new Queue();
  readonly #service = new Queue();

  constructor(start: number) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  /** Move the clock forward (a jump across budgets and expiries): entries due before it run late, in their order. */
  jump(ms: number): void {
    this.#now += ms;
  }

  at(at: number, run: () => void, owner = 0): Entry {
    const entry: Entry = { at: Math.max(at, this.#now), seq: this.#seq++, run, owner, cancelled: false };
    (owner === 0 ? this.#world : this.#service).push(entry);
    return entry;
  }

  after(ms: number, run: () => void, owner = 0): Entry {
    return this.at(this.#now + Math.max(0, ms), run, owner);
  }

  /** The Timers port of one process incarnation: its timers die with it (cancelOwner). */
  timersOf(owner: number): Timers {
    return {
      setTimeout: (callback, ms) => this.after(ms, callback, owner),
      clearTimeout: (handle: TimerHandle) => {
        if (handle !== undefined && handle !== null) (handle as Entry).cancelled = true;
      },
    };
  }

  cancelOwner(owner: number): void {
    for (const entry of this.#service.entries()) if (entry.owner === owner) entry.cancelled = true;
  }

  /** Due time of the next live entry that is not a timer of the service, if any. */
  nextWorldAt(): number | undefined {
    return this.#world.peek()?.at;
  }

  get size(): number {
    return this.#world.size + this.#service.size;
  }

  /** Take the next live entry, move the clock to its time (never backwards), and run it. False when none is left. */
  step(): boolean {
    const world = this.#world.peek();
    const service = this.#service.peek();
    const queue = world === undefined ? this.#service : service === undefined || less(world, service) ? this.#world : this.#service;
    const entry = queue.pop();
    if (entry === undefined) return false;
    if (entry.at > this.#now) this.#now = entry.at;
    entry.run();
    return true;
  }
}

/** Calls answered by real I/O (a PostgreSQL store's queries), counted while in flight (sim/postgres.ts). */
export interface Pending {
  readonly count: number;
  /** Resolves once none is in flight. */
  idle(): Promise<void>;
}

/**
 * Resolves once the event loop has nothing queued but this call's own turn: every promise
 * chain and every setImmediate the service started (the store's group commit) has run, and no
 * call counted in `pending` (a query to PostgreSQL) is still in flight. Waiting for those is a
 * wait for their answers, not a spin.
 */
export async function settle(pending?: Pending): Promise<void> {
  for (let turns = 0; turns < 10_000; turns += 1) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (pending !== undefined && pending.count > 0) {
      await pending.idle();
      continue;
    }
    if (!process.getActiveResourcesInfo().includes('Immediate')) return;
  }
  throw new Error('the service never went idle (10,000 turns of the event loop)');
}
