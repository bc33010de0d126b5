/**
 * Where the SQLite store's batches run. Both writers run the same executor (sqlite-executor.ts):
 * - WorkerThreadWriter: in a worker thread that owns the write connection (file databases). A
 *   durable COMMIT waits for an fsync; in the worker that wait no longer stalls the event loop,
 *   and with it every HTTP request in flight.
 * - InThreadWriter: on the calling thread, for `:memory:` (a memory database cannot be shared
 *   between threads) and as the baseline the store benchmark compares against.
 */
import { Worker } from 'node:worker_threads';
import { StoreUnavailableError } from '../store-ops.js';
import { errorFromWire } from './sqlite-writer-protocol.js';
export class InThreadWriter {
    #executor;
    constructor(executor) {
        this.#executor = executor;
    }
    run(ops) {
        try {
            return Promise.resolve(this.#executor.runBatch(ops));
        }
        catch (error) {
            return Promise.reject(error instanceof Error ? error : new Error(String(error)));
        }
    }
    assertHealthy() { }
    close() {
        return Promise.resolve();
    }
}
export class WorkerThreadWriter {
    #worker;
    #exited;
    #inFlight = new Map();
    #nextId = 1;
    #failure;
    #closing = false;
    /** Start the writer thread; resolves once it has opened and migrated the database. */
    static async start(config) {
        const worker = new Worker(new URL('./sqlite-writer.js', import.meta.url), { workerData: config });
        const exited = new Promise((resolve) => worker.once('exit', () => resolve()));
        let onMessage;
        let onError;
        let onExit;
        try {
            await new Promise((resolve, reject) => {
                onMessage = (message) => {
                    if (message.type === 'ready')
                        resolve();
                    else if (message.type === 'open_failed')
                        reject(errorFromWire(message.error));
                    else
                        reject(new Error(`SQLite writer sent ${message.type} before it was ready`));
                };
                onError = reject;
                onExit = (code) => reject(new Error(`SQLite writer thread exited with code ${code} while opening ${config.filename}`));
                worker.once('message', onMessage).once('error', onError).once('exit', onExit);
            });
        }
        catch (error) {
            await worker.terminate();
            await exited;
            throw error;
        }
        finally {
            if (onMessage)
                worker.off('message', onMessage);
            if (onError)
                worker.off('error', onError);
            if (onExit)
                worker.off('exit', onExit);
        }
        return new WorkerThreadWriter(worker, exited);
    }
    constructor(worker, exited) {
        this.#worker = worker;
        this.#exited = exited;
        worker.on('message', (message) => this.#receive(message));
        worker.on('error', (error) => this.#fail(error));
        // A reply that cannot be read leaves its batch's fate unknown, like a crash.
        worker.on('messageerror', (error) => this.#fail(error));
        worker.on('exit', (code) => {
            if (!this.#closing || this.#inFlight.size > 0)
                this.#fail(new Error(`SQLite writer thread exited with code ${code}`));
        });
        // An idle writer does not keep the process alive (nor did the main-thread connection);
        // one with a batch in flight does, so no commit is cut short by a natural exit.
        worker.unref();
    }
    /** The thread, for tests and diagnostics (resource use, or to make it fail). */
    get thread() {
        return this.#worker;
    }
    run(ops) {
        if (this.#failure)
            return Promise.reject(this.#failure);
        const id = this.#nextId;
        this.#nextId += 1;
        const message = { type: 'batch', id, ops };
        try {
            this.#worker.postMessage(message);
        }
        catch (error) {
            // postMessage clones before sending: on a clone error nothing was sent.
            if (!(error instanceof Error))
                return Promise.reject(new Error(String(error)));
            return error.name === 'DataCloneError' ? this.#runCloneable(ops) : Promise.reject(error);
        }
        if (this.#inFlight.size === 0)
            this.#worker.ref();
        return new Promise((resolve, reject) => this.#inFlight.set(id, { resolve, reject }));
    }
    assertHealthy() {
        if (this.#failure)
            throw this.#failure;
    }
    async close() {
        if (!this.#closing) {
            this.#closing = true;
            this.#worker.ref();
            if (this.#failure === undefined)
                this.#worker.postMessage({ type: 'close' });
        }
        await this.#exited;
    }
    /**
     * An op that cannot cross to the thread (engine data holding a function, say) fails alone, as
     * any bad op does; the rest of its batch still runs.
     */
    async #runCloneable(ops) {
        const refused = new Map();
        const sendable = ops.filter((op, index) => {
            try {
                structuredClone(op);
                return true;
            }
            catch (error) {
                refused.set(index, error);
                return false;
            }
        });
        const outcomes = sendable.length === 0 ? [] : await this.run(sendable);
        let next = 0;
        return ops.map((_, index) => {
            if (refused.has(index))
                return { ok: false, error: refused.get(index) };
            const outcome = outcomes[next];
            next += 1;
            return outcome ?? { ok: false, error: new Error('batch outcome missing') };
        });
    }
    #receive(message) {
        if (message.type !== 'batch' && message.type !== 'batch_failed')
            return;
        const waiting = this.#inFlight.get(message.id);
        if (waiting === undefined)
            return;
        this.#inFlight.delete(message.id);
        if (this.#inFlight.size === 0)
            this.#worker.unref();
        if (message.type === 'batch_failed')
            waiting.reject(errorFromWire(message.error));
        else
            waiting.resolve(message.outcomes.map((outcome) => (outcome.ok ? outcome : { ok: false, error: errorFromWire(outcome.error) })));
    }
    /** The thread is gone or unusable: fail everything in flight and every later write; nothing waits forever. */
    #fail(cause) {
        if (this.#failure === undefined) {
            this.#failure = new StoreUnavailableError('the SQLite writer thread failed; writes in flight may or may not have committed', { cause });
            void this.#worker.terminate();
        }
        const inFlight = [...this.#inFlight.values()];
        this.#inFlight.clear();
        for (const waiting of inFlight)
            waiting.reject(this.#failure);
    }
}
//# sourceMappingURL=sqlite-batch-writer.js.map