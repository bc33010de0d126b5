import { LinkClient } from '../connectors/operator-link/link-client.js';
import { LinkServer } from '../connectors/operator-link/link-server.js';
import { SimulatedOperator } from '../connectors/simulator/simulated-operator.js';
import { parseLinkPrivateKey, parseLinkPublicKey } from '../lib/link-keys.js';
import { ControlServer } from './control.js';
import { Deliveries } from './deliveries.js';
import { OperatorStore } from './store.js';
/** A scheduled action whose run failed (a store error) is run again this much later. */
const RERUN_DELAY_MS = 1_000;
export class OperatorSimulator {
    #clock;
    #log;
    #store;
    #operators = new Map();
    #server;
    #client;
    #deliveries;
    #timers = new Map();
    /** Timers to arm once the transaction in progress commits. */
    #scheduled = [];
    #stopped = false;
    #control;
    #controlPort;
    constructor(config, clock, log) {
        this.#clock = clock;
        this.#log = log;
        this.#store = new OperatorStore(config.store);
        const { link } = config;
        for (const [scheme, settings] of config.schemes) {
            const operator = new SimulatedOperator({ scheme, clock, latencyMs: settings.latencyMs, lateAnswerMs: settings.lateAnswerMs, ...(settings.directoryPath === undefined ? {} : { directoryPath: settings.directoryPath }) }, this.#store.state(scheme), {
                later: (delayMs, action) => this.#later(scheme, delayMs, action),
                deliver: (document, subject, delayMs) => {
                    const now = clock.now();
                    this.#store.addDelivery(scheme, subject, document, now, now + delayMs);
                },
            });
            this.#operators.set(scheme, operator);
        }
        const signingKey = parseLinkPrivateKey(link.signingKey.reveal());
        if (!signingKey.ok)
            throw new Error(`link.signingKeyFile ${signingKey.reason}, though the configuration passed it`);
        this.#client = new LinkClient({ tls: { ca: link.ca, cert: link.cert, key: link.key.reveal() }, signingKey: signingKey.value, timeoutMs: link.requestTimeoutMs, connectionsMax: link.connectionsMax, clock });
        this.#deliveries = new Deliveries({
            store: this.#store,
            client: this.#client,
            urls: link.bankUrls,
            clock,
            log,
            ...config.delivery,
            requestTimeoutMs: link.requestTimeoutMs,
        });
        const bankKeys = link.peerKeys.map((text) => {
            const parsed = parseLinkPublicKey(text);
            if (!parsed.ok)
                throw new Error(`link.bankKeyFiles: ${parsed.reason}, though the configuration passed it`);
            return parsed.value;
        });
        this.#server = new LinkServer({
            name: 'operator simulator',
            host: config.listen.host,
            port: config.listen.port,
            tls: { ca: link.ca, cert: link.cert, key: link.key.reveal() },
            peerFingerprints: link.peerFingerprints,
            signatureMaxAgeS: link.signatureMaxAgeS,
            clock,
            log,
        });
        for (const scheme of this.#operators.keys()) {
            this.#server.route(scheme, { keys: bankKeys, take: (message) => Promise.resolve(this.#take(scheme, message.document)) });
        }
    }
    /** Opens the store, resumes what it holds (answers scheduled, documents undelivered), then listens. */
    static async start(config, log, clock = { now: () => Date.now() }) {
        const simulator = new OperatorSimulator(config, clock, log);
        simulator.#resume();
        await simulator.#server.listen();
        if (config.control !== undefined) {
            simulator.#control = new ControlServer(simulator);
            simulator.#controlPort = await simulator.#control.listen(config.control.host, config.control.port);
        }
        return simulator;
    }
    get port() {
        return this.#server.port;
    }
    /** The control listener's port, when it has one. */
    get controlPort() {
        return this.#controlPort;
    }
    /**
     * Originates the order's traffic for an integrator's institution on `scheme` (the receiving
     * direction): the transaction, its first document and its timers are one store transaction, the
     * documents delivered from the store like every answer.
     */
    originate(scheme, order) {
        const operator = this.#operators.get(scheme);
        if (operator === undefined)
            return { ok: false, error: `${scheme} is not simulated here` };
        return this.#transaction(() => operator.originate(order));
    }
    /** What the operator has seen of the transaction it originated on `scheme` with this UETR. */
    inboundOf(scheme, uetr) {
        return this.#operators.get(scheme)?.inboundOf(uetr);
    }
    /** Stops listening, then playing and delivering; what is pending stays in the store for the next start. */
    async stop() {
        this.#stopped = true;
        await this.#control?.close();
        await this.#server.close();
        for (const timer of this.#timers.values())
            clearTimeout(timer);
        this.#timers.clear();
        await this.#deliveries.stop();
        await this.#client.close();
        this.#store.close();
    }
    #resume() {
        const now = this.#clock.now();
        const pending = this.#store.scheduled();
        for (const row of pending)
            this.#arm(row.id, row.dueAt);
        this.#store.allDueBy(now);
        const undelivered = this.#store.pendingDeliveries;
        if (pending.length > 0 || undelivered > 0)
            this.#log.info({ scheduled: pending.length, undelivered }, 'operator simulator: resuming the answers its store holds');
        this.#deliveries.wake();
    }
    /** A message of the service: taken with everything it changes in one transaction, then answered. */
    #take(scheme, document) {
        const operator = this.#operators.get(scheme);
        if (operator === undefined)
            return { status: 404, message: `${scheme} is not simulated here` };
        const outcome = this.#transaction(() => operator.take(document));
        return replyOf(outcome);
    }
    /** Runs `work` in one store transaction; the timers it scheduled are armed and the deliveries woken once it committed. */
    #transaction(work) {
        this.#scheduled = [];
        try {
            const result = this.#store.transaction(work);
            for (const { id, dueAt } of this.#scheduled)
                this.#arm(id, dueAt);
            this.#deliveries.wake();
            return result;
        }
        finally {
            this.#scheduled = [];
        }
    }
    #later(scheme, delayMs, action) {
        const dueAt = this.#clock.now() + delayMs;
        this.#scheduled.push({ id: this.#store.schedule(scheme, dueAt, action), dueAt });
    }
    #arm(id, dueAt) {
        if (this.#stopped)
            return;
        const timer = setTimeout(() => this.#fire(id), Math.max(dueAt - this.#clock.now(), 0));
        this.#timers.set(id, timer);
    }
    /** A scheduled action's time: taken out of the store and run in one transaction. */
    #fire(id) {
        this.#timers.delete(id);
        if (this.#stopped)
            return;
        try {
            this.#transaction(() => {
                const row = this.#store.takeScheduled(id);
                if (row === undefined)
                    return;
                const operator = this.#operators.get(row.scheme);
                if (operator === undefined)
                    this.#log.warn({ scheme: row.scheme }, 'operator simulator: an answer scheduled for a scheme no longer simulated is dropped');
                else
                    operator.run(row.action);
            });
        }
        catch (error) {
            this.#log.error({ err: error, scheduled: id }, 'operator simulator: a scheduled answer failed; run again shortly');
            this.#arm(id, this.#clock.now() + RERUN_DELAY_MS);
        }
    }
}
/** 202: taken (its answers follow). A failure the operator says may pass is 503, any other 422. */
function replyOf(outcome) {
    if (outcome.kind === 'delivered')
        return { status: 202 };
    return { status: outcome.retryable ? 503 : 422, message: outcome.error };
}
//# sourceMappingURL=operator.js.map