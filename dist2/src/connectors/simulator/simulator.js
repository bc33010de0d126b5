import { DEFAULTS } from '../../config/schema.js';
import { memoryOperatorState } from './operator-state.js';
import { checkOrder } from './inbound-values.js';
import { SimulatedOperator } from './simulated-operator.js';
/** Stages after which an originated credit is no longer outstanding. */
const ENDED = new Set(['lookup_failed', 'settled', 'cancelled', 'rejected']);
export const SIMULATOR_DEFAULTS = {
    latencyMs: DEFAULTS.simulatorLatencyMs,
    entriesMax: 10_000,
    deliveryAttemptsMax: 5,
    /** Pause before delivering an answer again that the receiver rejected. */
    redeliveryDelayMs: 100,
};
/** A late answer comes this long after the time budget has run out. */
const LATE_MARGIN_MS = 1_000;
/**
 * A simulated scheme's settings from its configuration. Latency: the scheme's
 * `simulatorLatencyMs`, else `overrides.latencyMs`, else the default; the directory: the scheme's
 * `simulatorDirectory`, else `overrides.directoryPath`, else the shipped one; the steady inbound
 * rate from `overrides.inbound` (none when absent); the other settings from `overrides` or the defaults.
 */
export function simulatorSettings(context, overrides = {}) {
    const directoryPath = context.config?.simulatorDirectory ?? overrides.directoryPath;
    return {
        scheme: context.scheme,
        latencyMs: context.config?.simulatorLatencyMs ?? overrides.latencyMs ?? SIMULATOR_DEFAULTS.latencyMs,
        lateAnswerMs: overrides.lateAnswerMs ?? context.timeBudgetMs + LATE_MARGIN_MS,
        entriesMax: overrides.entriesMax ?? SIMULATOR_DEFAULTS.entriesMax,
        deliveryAttemptsMax: overrides.deliveryAttemptsMax ?? SIMULATOR_DEFAULTS.deliveryAttemptsMax,
        ...(directoryPath === undefined ? {} : { directoryPath }),
        ...(overrides.inbound === undefined ? {} : { inbound: overrides.inbound }),
    };
}
/** A simulator transport on the caller's thread and clock (tests; the service runs threaded-simulator.ts). */
export function simulatorTransport(overrides = {}) {
    return (context) => new SchemeSimulator({ ...simulatorSettings(context, overrides), clock: context.clock });
}
export class SchemeSimulator {
    options;
    #operator;
    #timers = new Set();
    #handler;
    #rate;
    /** Transactions the steady rate started: UETR -> when. */
    #outstanding = new Map();
    #originations = 0;
    constructor(options) {
        for (const key of ['latencyMs', 'lateAnswerMs', 'entriesMax', 'deliveryAttemptsMax']) {
            if (!Number.isInteger(options[key]) || options[key] < 0)
                throw new RangeError(`simulator ${key} must be a non-negative integer, got ${options[key]}`);
        }
        this.options = options;
        const rate = options.inbound;
        if (rate !== undefined) {
            if (!Number.isFinite(rate.ratePerSecond) || rate.ratePerSecond < 0)
                throw new RangeError(`simulator inbound.ratePerSecond must be 0 or more, got ${rate.ratePerSecond}`);
            if (!Number.isInteger(rate.outstandingMax) || rate.outstandingMax < 1)
                throw new RangeError(`simulator inbound.outstandingMax must be a positive integer, got ${rate.outstandingMax}`);
            if (rate.ratePerSecond > 0 && rate.targets.length === 0)
                throw new RangeError('simulator inbound.targets names no institution to address');
            for (const [index, target] of rate.targets.entries()) {
                const checked = checkOrder({ ...target, amount: rate.amount, scenario: 'CREDIT' });
                if (!checked.ok)
                    throw new RangeError(`simulator inbound.targets[${index}]: ${checked.error}`);
            }
        }
        this.#operator = new SimulatedOperator(options, memoryOperatorState(options.entriesMax), {
            later: (delayMs, action) => this.#later(delayMs, () => this.#operator.run(action)),
            deliver: ({ document }, _subject, delayMs) => (delayMs === 0 ? this.#deliver(document) : this.#later(delayMs, () => this.#deliver(document))),
        });
    }
    /** Distinct transfers the simulated scheme holds. */
    get transferCount() {
        return this.#operator.transferCount;
    }
    /** How often the transfer with this UETR was submitted (0 when unknown). */
    submissionsOf(uetr) {
        return this.#operator.submissionsOf(uetr);
    }
    /** How often the request-to-pay with this UETR was sent (0 when unknown). */
    requestToPaySendsOf(uetr) {
        return this.#operator.requestToPaySendsOf(uetr);
    }
    send(message) {
        return Promise.resolve(this.#operator.take(message.document));
    }
    /**
     * The simulated operator originates traffic for an integrator's institution (inbound-values.ts):
     * its documents reach the service through the inbound handler, as its answers do.
     */
    originate(order) {
        return Promise.resolve(this.#operator.originate(order));
    }
    /** What the operator has seen of the transaction it originated with this UETR. */
    inboundOf(uetr) {
        return this.#operator.inboundOf(uetr);
    }
    /** Answers of the service about nothing the operator originated, ignored. */
    get ignoredAnswerCount() {
        return this.#operator.ignoredAnswerCount;
    }
    start(handler) {
        this.#handler = handler;
        const rate = this.options.inbound;
        if (rate !== undefined && rate.ratePerSecond > 0 && this.#rate === undefined) {
            this.#rate = setInterval(() => this.#originateAtRate(rate), Math.max(1, Math.round(1000 / rate.ratePerSecond)));
        }
        return Promise.resolve();
    }
    stop() {
        this.#handler = undefined;
        clearInterval(this.#rate);
        this.#rate = undefined;
        this.#outstanding.clear();
        for (const timer of this.#timers)
            clearTimeout(timer);
        this.#timers.clear();
        return Promise.resolve();
    }
    /** One order of the steady rate, unless `outstandingMax` are still going. */
    #originateAtRate(rate) {
        const now = this.options.clock.now();
        for (const [uetr, startedAt] of this.#outstanding) {
            const stage = this.#operator.inboundOf(uetr)?.stage;
            if (stage === undefined || ENDED.has(stage) || now - startedAt > rate.outstandingMs)
                this.#outstanding.delete(uetr);
        }
        if (this.#outstanding.size >= rate.outstandingMax)
            return;
        const target = rate.targets[this.#originations % rate.targets.length];
        if (target === undefined)
            return;
        const scenario = this.#originations % 2 === 0 && (target.proxy !== undefined || target.institution.bicfi !== undefined) ? 'LOOKUP_THEN_CREDIT' : 'CREDIT';
        this.#originations += 1;
        const result = this.#operator.originate({ ...target, amount: rate.amount, scenario });
        if (result.ok)
            this.#outstanding.set(result.uetr, now);
    }
    /** An answer the receiver rejects is delivered again, a bounded number of times. */
    #deliver(document, attempt = 1) {
        const handler = this.#handler;
        if (handler === undefined)
            return;
        handler({ document }).catch(() => {
            if (attempt < this.options.deliveryAttemptsMax)
                this.#later(SIMULATOR_DEFAULTS.redeliveryDelayMs * attempt, () => this.#deliver(document, attempt + 1));
        });
    }
    #later(delayMs, action) {
        const timer = setTimeout(() => {
            this.#timers.delete(timer);
            action();
        }, delayMs);
        this.#timers.add(timer);
    }
}
//# sourceMappingURL=simulator.js.map