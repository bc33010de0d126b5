/**
 * The built-in `simulator` transport as the service runs it: the simulated scheme operators live
 * in a thread of their own (simulator-thread.ts), as a real operator runs on machines of its own.
 * Reading the service's pacs.008 and pacs.028 documents, keeping transfers and timers and writing
 * pacs.002 answers is the operator's work; in the thread it no longer takes turns with the
 * service's HTTP requests, engine and deliveries on one event loop.
 *
 * One thread serves every simulated scheme of the process. It starts with the first scheme that
 * sends or starts, and ends when the last one stops. Should it die, every send waiting on it fails
 * as retryable (the engine sends again under the same idempotency key) and the next send starts a
 * new thread that, like a restarted operator, remembers nothing.
 */
import { Worker } from 'node:worker_threads';
import { loadDirectory } from './directory.js';
import { simulatorSettings } from './simulator.js';
class SimulatorThread {
    #worker;
    #settings = new Map();
    #handlers = new Map();
    #calls = new Map();
    #originations = new Map();
    #views = new Map();
    #nextCall = 1;
    get worker() {
        return this.#worker;
    }
    open(settings) {
        this.#settings.set(settings.scheme, settings);
        this.#worker?.postMessage({ type: 'open', settings });
    }
    send(message) {
        const call = this.#call();
        const outcome = new Promise((resolve) => this.#calls.set(call, resolve));
        (this.#worker ?? this.#begin()).postMessage({ type: 'send', call, message });
        this.#keepAlive();
        return outcome;
    }
    originate(scheme, order) {
        const call = this.#call();
        const result = new Promise((resolve) => this.#originations.set(call, resolve));
        (this.#worker ?? this.#begin()).postMessage({ type: 'originate', call, scheme, order });
        this.#keepAlive();
        return result;
    }
    inboundOf(scheme, uetr) {
        const worker = this.#worker;
        // A thread that is not running remembers nothing.
        if (worker === undefined)
            return Promise.resolve(undefined);
        const call = this.#call();
        const view = new Promise((resolve) => this.#views.set(call, resolve));
        worker.postMessage({ type: 'inbound_of', call, scheme, uetr });
        this.#keepAlive();
        return view;
    }
    #call() {
        const call = this.#nextCall;
        this.#nextCall += 1;
        return call;
    }
    start(scheme, handler) {
        this.#handlers.set(scheme, handler);
        // A new thread is told every started scheme, this one included.
        if (this.#worker === undefined)
            this.#begin();
        else
            this.#worker.postMessage({ type: 'start', scheme });
        this.#keepAlive();
    }
    stop(scheme) {
        this.#handlers.delete(scheme);
        this.#settings.delete(scheme);
        const worker = this.#worker;
        if (worker === undefined)
            return Promise.resolve();
        if (this.#settings.size > 0) {
            worker.postMessage({ type: 'stop', scheme });
            this.#keepAlive();
            return Promise.resolve();
        }
        this.#lost('the scheme simulator stopped');
        return worker.terminate().then(() => undefined);
    }
    /** A new thread, told every scheme simulated and started so far. */
    #begin() {
        const worker = new Worker(new URL('./simulator-thread.js', import.meta.url));
        this.#worker = worker;
        worker.on('message', (message) => this.#receive(message));
        worker.on('error', (error) => this.#lostThread(worker, `the scheme simulator thread failed: ${error.message}`));
        worker.on('exit', (code) => this.#lostThread(worker, `the scheme simulator thread exited with code ${code}`));
        for (const settings of this.#settings.values())
            worker.postMessage({ type: 'open', settings });
        for (const scheme of this.#handlers.keys())
            worker.postMessage({ type: 'start', scheme });
        return worker;
    }
    #receive(message) {
        if (message.type === 'originated') {
            const resolve = this.#originations.get(message.call);
            this.#originations.delete(message.call);
            resolve?.(message.result);
            this.#keepAlive();
            return;
        }
        if (message.type === 'inbound_view') {
            const resolve = this.#views.get(message.call);
            this.#views.delete(message.call);
            resolve?.(message.view);
            this.#keepAlive();
            return;
        }
        if (message.type === 'sent') {
            const resolve = this.#calls.get(message.call);
            this.#calls.delete(message.call);
            resolve?.(message.outcome);
            this.#keepAlive();
            return;
        }
        const handler = this.#handlers.get(message.scheme);
        const handled = handler === undefined ? Promise.reject(new Error('scheme stopped')) : handler({ document: message.document });
        handled.then(() => this.#worker?.postMessage({ type: 'handled', delivery: message.delivery, ok: true }), () => this.#worker?.postMessage({ type: 'handled', delivery: message.delivery, ok: false }));
    }
    #lostThread(worker, reason) {
        if (this.#worker === worker)
            this.#lost(reason);
    }
    /** The thread is gone: what waited on it fails as retryable. */
    #lost(reason) {
        this.#worker = undefined;
        const calls = [...this.#calls.values()];
        this.#calls.clear();
        for (const resolve of calls)
            resolve({ kind: 'failed', retryable: true, error: reason });
        const originations = [...this.#originations.values()];
        this.#originations.clear();
        for (const resolve of originations)
            resolve({ ok: false, error: reason });
        const views = [...this.#views.values()];
        this.#views.clear();
        for (const resolve of views)
            resolve(undefined);
    }
    /** The thread keeps the process alive only while a send waits on it or a scheme expects answers. */
    #keepAlive() {
        if (this.#calls.size > 0 || this.#originations.size > 0 || this.#views.size > 0 || this.#handlers.size > 0)
            this.#worker?.ref();
        else
            this.#worker?.unref();
    }
}
/** The process's simulator thread. */
const thread = new SimulatorThread();
/** The simulator thread while one runs: for tests and diagnostics (its resource use, or to make it fail). */
export function simulatorWorker() {
    return thread.worker;
}
/** One simulated scheme, served by the process's simulator thread. */
export class ThreadedSimulator {
    settings;
    constructor(settings) {
        this.settings = settings;
        thread.open(settings);
    }
    send(message) {
        return thread.send(message);
    }
    start(handler) {
        thread.start(this.settings.scheme, handler);
        return Promise.resolve();
    }
    stop() {
        return thread.stop(this.settings.scheme);
    }
    /** The simulated operator originates traffic for an integrator's institution (SchemeSimulator.originate), in the simulator thread. */
    originate(order) {
        return thread.originate(this.settings.scheme, order);
    }
    /** What the operator has seen of the transaction it originated with this UETR (undefined too while no thread runs). */
    inboundOf(uetr) {
        return thread.inboundOf(this.settings.scheme, uetr);
    }
}
/** The `simulator` transport factory of the registry: settings as simulatorTransport takes them, simulated in the simulator thread. */
export function threadedSimulatorTransport(overrides = {}) {
    return (context) => {
        const settings = simulatorSettings(context, overrides);
        // A directory the operator named is read at start, so a bad one stops the service with its key named, not every lookup later.
        if (settings.directoryPath !== undefined) {
            const loaded = loadDirectory(settings.directoryPath);
            if (!loaded.ok)
                throw new Error(`schemes.${context.scheme}.simulatorDirectory: ${loaded.error}`);
        }
        return new ThreadedSimulator(settings);
    };
}
/** The built-in simulator's operator as the admin API drives it: traffic it originates for an integrator's institution, and what it saw of it. */
export const simulatedInbound = {
    originate: (scheme, order) => thread.originate(scheme, order),
    inboundOf: (scheme, uetr) => thread.inboundOf(scheme, uetr),
};
//# sourceMappingURL=threaded-simulator.js.map