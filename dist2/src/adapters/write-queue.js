/**
 * The group-commit queue both stores share. Write calls are queued; on the next `setImmediate`
 * up to `batchMax` of them are handed to the adapter's `flush`, which runs them in ONE database
 * transaction and settles every item only after that transaction committed. A disk flush is the
 * expensive part of a durable write, so callers arriving within the same turn of the event loop
 * share it instead of paying one each.
 */
/** The queue is full: the caller should shed load (HTTP 503 with Retry-After) and retry. */
export class StoreOverloadedError extends Error {
    name = 'StoreOverloadedError';
    code = 'STORE_OVERLOADED';
}
/** The store was closed before the write could run. */
export class StoreClosedError extends Error {
    name = 'StoreClosedError';
    code = 'STORE_CLOSED';
}
/** Callers of a committed batch resumed in one turn of the event loop. */
const SETTLE_CHUNK = 64;
/**
 * Settles a committed batch's items `SETTLE_CHUNK` per turn of the event loop. Each settled write
 * resumes its caller's work in the same microtask checkpoint; a whole batch of up to a thousand at
 * once held the event loop (and every HTTP request waiting on it) for tens of milliseconds.
 */
export async function settleInTurns(items, settle) {
    for (let start = 0; start < items.length; start += SETTLE_CHUNK) {
        if (start > 0)
            await new Promise((resolve) => setImmediate(resolve));
        const end = Math.min(items.length, start + SETTLE_CHUNK);
        for (let index = start; index < end; index += 1)
            settle(items[index], index);
    }
}
export class WriteQueue {
    #flush;
    #options;
    #pending = [];
    /** Urgent items waiting (counted with #pending against queueMax); batches take them first. */
    #urgent = [];
    #scheduled = false;
    #inFlight = 0;
    /** Rows locked by the batches in flight, with how many of them hold each (keysOf). */
    #held = new Map();
    #closed = false;
    #idleWaiters = [];
    constructor(flush, options) {
        this.#flush = flush;
        this.#options = options;
    }
    get closed() {
        return this.#closed;
    }
    push(item) {
        if (this.#closed) {
            item.reject(new StoreClosedError('store is closed'));
            return;
        }
        if (this.#waiting() >= this.#options.queueMax) {
            item.reject(new StoreOverloadedError(`write queue full (${this.#options.queueMax} waiting)`));
            return;
        }
        if (item.urgent === true)
            this.#urgent.push(item);
        else
            this.#pending.push(item);
        this.#schedule();
    }
    #waiting() {
        return this.#pending.length + this.#urgent.length;
    }
    /** Put items back at the head of the queue (an adapter retrying them in the next batch). */
    requeue(items) {
        this.#urgent.unshift(...items.filter((item) => item.urgent === true));
        this.#pending.unshift(...items.filter((item) => item.urgent !== true));
        this.#schedule();
    }
    /** Refuse new writes, then wait until everything queued has been flushed. */
    async close() {
        this.#closed = true;
        if (this.#waiting() === 0 && this.#inFlight === 0)
            return;
        await new Promise((resolve) => this.#idleWaiters.push(resolve));
    }
    /** A batch can start now: something waits, a slot is free, and (with one in flight) enough waits or an API caller does. */
    #ready() {
        const waiting = this.#waiting();
        if (waiting === 0 || this.#inFlight >= this.#options.concurrency)
            return false;
        return this.#inFlight === 0 || this.#urgent.length > 0 || waiting >= (this.#options.overlapMin ?? 1);
    }
    #schedule() {
        if (this.#scheduled || !this.#ready())
            return;
        this.#scheduled = true;
        setImmediate(() => {
            this.#scheduled = false;
            this.#runOne();
        });
    }
    #runOne() {
        if (!this.#ready())
            return;
        // Urgent items first, but at most half a batch of them while others wait, so a flood of
        // urgent writes (intakes beyond capacity) cannot starve the processing of what was accepted.
        const { batchMax, keysOf } = this.#options;
        let batch;
        let keys = [];
        if (keysOf === undefined) {
            batch = this.#urgent.splice(0, this.#pending.length > 0 ? Math.ceil(batchMax / 2) : batchMax);
            batch.push(...this.#pending.splice(0, batchMax - batch.length));
            batch.push(...this.#urgent.splice(0, batchMax - batch.length));
        }
        else {
            const taking = new Taking(this.#held, keysOf);
            batch = taking.from(this.#urgent, this.#pending.length > 0 ? Math.ceil(batchMax / 2) : batchMax);
            batch.push(...taking.from(this.#pending, batchMax - batch.length));
            batch.push(...taking.from(this.#urgent, batchMax - batch.length));
            // Everything waiting touches rows a batch in flight holds: the end of that batch schedules again.
            if (batch.length === 0)
                return;
            keys = taking.keys;
            for (const key of keys)
                this.#held.set(key, (this.#held.get(key) ?? 0) + 1);
        }
        this.#inFlight += 1;
        const started = performance.now();
        const done = () => {
            this.#options.onBatch?.(batch.length, (performance.now() - started) / 1000);
            for (const key of keys) {
                const holders = (this.#held.get(key) ?? 1) - 1;
                if (holders > 0)
                    this.#held.set(key, holders);
                else
                    this.#held.delete(key);
            }
            this.#inFlight -= 1;
            this.#schedule();
            if (this.#waiting() === 0 && this.#inFlight === 0) {
                for (const wake of this.#idleWaiters.splice(0))
                    wake();
            }
        };
        // More is waiting than one batch takes: start the next batch as well, up to `concurrency`.
        this.#schedule();
        let result;
        try {
            result = this.#flush(batch);
        }
        catch (error) {
            // The adapter settles items itself; this only catches its own bugs so no caller hangs.
            for (const item of batch)
                item.reject(error);
            done();
            return;
        }
        if (result instanceof Promise) {
            result.then(done, (error) => {
                for (const item of batch)
                    item.reject(error);
                done();
            });
        }
        else {
            done();
        }
    }
}
/**
 * Fills one batch with items whose rows no batch in flight holds (WriteQueueOptions.keysOf). An
 * item passed over makes its rows pass over the items behind it too, so writes on one row keep
 * their order; the items taken are removed from their queue, the others stay in order.
 */
class Taking {
    #held;
    #keysOf;
    /** Rows of items passed over in this batch. */
    #passed = new Set();
    /** Rows of the items taken. */
    #taken = new Set();
    constructor(held, keysOf) {
        this.#held = held;
        this.#keysOf = keysOf;
    }
    get keys() {
        return [...this.#taken];
    }
    /** Up to `max` items of `queue` that may run now, removed from it. */
    from(queue, max) {
        const taken = [];
        if (max <= 0 || queue.length === 0)
            return taken;
        const kept = [];
        for (const item of queue) {
            if (taken.length >= max) {
                kept.push(item);
                continue;
            }
            const keys = this.#keysOf(item);
            if (keys.some((key) => this.#held.has(key) || this.#passed.has(key))) {
                for (const key of keys)
                    this.#passed.add(key);
                kept.push(item);
                continue;
            }
            for (const key of keys)
                this.#taken.add(key);
            taken.push(item);
        }
        queue.splice(0, queue.length, ...kept);
        return taken;
    }
}
//# sourceMappingURL=write-queue.js.map