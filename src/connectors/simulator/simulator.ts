import { DEFAULTS } from '../../config/schema.js';
import type { SubmitOutcome } from '../../ports/scheme.js';
import type { InboundHandler, SchemeMessage, SchemeTransport, TransportContext } from '../transport.js';
import { memoryOperatorState } from './operator-state.js';
import { checkOrder, type InboundOrder } from './inbound-values.js';
import { SimulatedOperator, type InboundView, type OriginateResult, type SimulatedOperatorOptions } from './simulated-operator.js';

/**
 * The built-in scheme simulator: a transport whose far end is a simulated scheme operator, the
 * zero-config default of every scheme. What the operator answers is decided by
 * simulated-operator.ts (the one copy the standalone operator simulator in src/operator/ runs too);
 * this transport gives it its state in memory, bounded and forgotten with the process (after a
 * restart an enquiry about an earlier transfer is answered NOOR, and the engine resubmits it), and
 * plays its answers with timers (the engine, by contrast, keeps every timer durable), handing them
 * to the connector through the inbound side. An answer the receiver rejects is delivered again, a
 * bounded number of times.
 */
/** The simulated operator's settings (late answers by default just past the scheme's time budget) and the memory and delivery bounds of this transport. */
export interface SimulatorOptions extends SimulatedOperatorOptions {
  /** Records of each kind remembered; the oldest are forgotten beyond it. */
  readonly entriesMax: number;
  /** Deliveries of one answer when the receiver keeps rejecting it. */
  readonly deliveryAttemptsMax: number;
  /** A steady rate of originated traffic (the receiving direction); none when absent or at rate 0. */
  readonly inbound?: InboundRate;
}

/**
 * The operator originates LOOKUP_THEN_CREDIT and CREDIT orders, in turn, at `ratePerSecond` (0:
 * off), to the targets in turn, while fewer than `outstandingMax` it started are still going (not
 * settled, cancelled, rejected or failed, and younger than `outstandingMs`).
 */
export interface InboundRate {
  readonly ratePerSecond: number;
  readonly outstandingMax: number;
  /** How long an originated transaction the service never finishes counts as outstanding. */
  readonly outstandingMs: number;
  /** Decimal text in ZAR. */
  readonly amount: string;
  /** The integrator institutions addressed, each with a customer (an account number and/or a proxy). */
  readonly targets: readonly Pick<InboundOrder, 'institution' | 'accountNumber' | 'proxy' | 'customerName'>[];
}

/** Stages after which an originated credit is no longer outstanding. */
const ENDED = new Set(['lookup_failed', 'settled', 'cancelled', 'rejected']);

export const SIMULATOR_DEFAULTS = {
  latencyMs: DEFAULTS.simulatorLatencyMs,
  entriesMax: 10_000,
  deliveryAttemptsMax: 5,
  /** Pause before delivering an answer again that the receiver rejected. */
  redeliveryDelayMs: 100,
} as const;

/** A late answer comes this long after the time budget has run out. */
const LATE_MARGIN_MS = 1_000;

/** Simulator settings a caller may set for every simulated scheme. */
export type SimulatorOverrides = Partial<Omit<SimulatorOptions, 'scheme' | 'clock'>>;

/**
 * A simulated scheme's settings from its configuration. Latency: the scheme's
 * `simulatorLatencyMs`, else `overrides.latencyMs`, else the default; the directory: the scheme's
 * `simulatorDirectory`, else `overrides.directoryPath`, else the shipped one; the steady inbound
 * rate from `overrides.inbound` (none when absent); the other settings from `overrides` or the defaults.
 */
export function simulatorSettings(context: TransportContext, overrides: SimulatorOverrides = {}): Omit<SimulatorOptions, 'clock'> {
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
export function simulatorTransport(overrides: SimulatorOverrides = {}): (context: TransportContext) => SchemeSimulator {
  return (context) => new SchemeSimulator({ ...simulatorSettings(context, overrides), clock: context.clock });
}

export class SchemeSimulator implements SchemeTransport {
  readonly options: SimulatorOptions;
  readonly #operator: SimulatedOperator;
  readonly #timers = new Set<NodeJS.Timeout>();
  #handler: InboundHandler | undefined;
  #rate: NodeJS.Timeout | undefined;
  /** Transactions the steady rate started: UETR -> when. */
  readonly #outstanding = new Map<string, number>();
  #originations = 0;

  constructor(options: SimulatorOptions) {
    for (const key of ['latencyMs', 'lateAnswerMs', 'entriesMax', 'deliveryAttemptsMax'] as const) {
      if (!Number.isInteger(options[key]) || options[key] < 0) throw new RangeError(`simulator ${key} must be a non-negative integer, got ${options[key]}`);
    }
    this.options = options;
    const rate = options.inbound;
    if (rate !== undefined) {
      if (!Number.isFinite(rate.ratePerSecond) || rate.ratePerSecond < 0) throw new RangeError(`simulator inbound.ratePerSecond must be 0 or more, got ${rate.ratePerSecond}`);
      if (!Number.isInteger(rate.outstandingMax) || rate.outstandingMax < 1) throw new RangeError(`simulator inbound.outstandingMax must be a positive integer, got ${rate.outstandingMax}`);
      if (rate.ratePerSecond > 0 && rate.targets.length === 0) throw new RangeError('simulator inbound.targets names no institution to address');
      for (const [index, target] of rate.targets.entries()) {
        const checked = checkOrder({ ...target, amount: rate.amount, scenario: 'CREDIT' });
        if (!checked.ok) throw new RangeError(`simulator inbound.targets[${index}]: ${checked.error}`);
      }
    }
    this.#operator = new SimulatedOperator(options, memoryOperatorState(options.entriesMax), {
      later: (delayMs, action) => this.#later(delayMs, () => this.#operator.run(action)),
      deliver: ({ document }, _subject, delayMs) => (delayMs === 0 ? this.#deliver(document) : this.#later(delayMs, () => this.#deliver(document))),
    });
  }

  /** Distinct transfers the simulated scheme holds. */
  get transferCount(): number {
    return this.#operator.transferCount;
  }

  /** How often the transfer with this UETR was submitted (0 when unknown). */
  submissionsOf(uetr: string): number {
    return this.#operator.submissionsOf(uetr);
  }

  /** How often the request-to-pay with this UETR was sent (0 when unknown). */
  requestToPaySendsOf(uetr: string): number {
    return this.#operator.requestToPaySendsOf(uetr);
  }

  send(message: SchemeMessage): Promise<SubmitOutcome> {
    return Promise.resolve(this.#operator.take(message.document));
  }

  /**
   * The simulated operator originates traffic for an integrator's institution (inbound-values.ts):
   * its documents reach the service through the inbound handler, as its answers do.
   */
  originate(order: InboundOrder): Promise<OriginateResult> {
    return Promise.resolve(this.#operator.originate(order));
  }

  /** What the operator has seen of the transaction it originated with this UETR. */
  inboundOf(uetr: string): InboundView | undefined {
    return this.#operator.inboundOf(uetr);
  }

  /** Answers of the service about nothing the operator originated, ignored. */
  get ignoredAnswerCount(): number {
    return this.#operator.ignoredAnswerCount;
  }

  start(handler: InboundHandler): Promise<void> {
    this.#handler = handler;
    const rate = this.options.inbound;
    if (rate !== undefined && rate.ratePerSecond > 0 && this.#rate === undefined) {
      this.#rate = setInterval(() => this.#originateAtRate(rate), Math.max(1, Math.round(1000 / rate.ratePerSecond)));
    }
    return Promise.resolve();
  }

  stop(): Promise<void> {
    this.#handler = undefined;
    clearInterval(this.#rate);
    this.#rate = undefined;
    this.#outstanding.clear();
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    return Promise.resolve();
  }

  /** One order of the steady rate, unless `outstandingMax` are still going. */
  #originateAtRate(rate: InboundRate): void {
    const now = this.options.clock.now();
    for (const [uetr, startedAt] of this.#outstanding) {
      const stage = this.#operator.inboundOf(uetr)?.stage;
      if (stage === undefined || ENDED.has(stage) || now - startedAt > rate.outstandingMs) this.#outstanding.delete(uetr);
    }
    if (this.#outstanding.size >= rate.outstandingMax) return;
    const target = rate.targets[this.#originations % rate.targets.length];
    if (target === undefined) return;
    const scenario = this.#originations % 2 === 0 && (target.proxy !== undefined || target.institution.bicfi !== undefined) ? 'LOOKUP_THEN_CREDIT' : 'CREDIT';
    this.#originations += 1;
    const result = this.#operator.originate({ ...target, amount: rate.amount, scenario });
    if (result.ok) this.#outstanding.set(result.uetr, now);
  }

  /** An answer the receiver rejects is delivered again, a bounded number of times. */
  #deliver(document: string, attempt = 1): void {
    const handler = this.#handler;
    if (handler === undefined) return;
    handler({ document }).catch(() => {
      if (attempt < this.options.deliveryAttemptsMax) this.#later(SIMULATOR_DEFAULTS.redeliveryDelayMs * attempt, () => this.#deliver(document, attempt + 1));
    });
  }

  #later(delayMs: number, action: () => void): void {
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      action();
    }, delayMs);
    this.#timers.add(timer);
  }
}
