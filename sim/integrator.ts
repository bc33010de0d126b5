import type { IntegratorConfig } from '../src/config/types.js';
import type { CallResult, PartnerCall, PartnerSender, SendResult } from '../src/ports/partner.js';
import type { OutboxRecord } from '../src/ports/store.js';
import type { Random } from './random.js';
import type { Scheduler } from './scheduler.js';

/** Probabilities of the integrators' faults, per delivery attempt. */
export interface IntegratorFaults {
  /** The integrator answers 500. */
  readonly serverError: number;
  /** No answer within the sender's timeout; the integrator may or may not have processed it. */
  readonly timeout: number;
  /** Of the timeouts: the integrator had processed (acknowledged) the message, and the acknowledgement was lost. */
  readonly ackLost: number;
  /** An outage starts at an attempt (every attempt fails for its length). */
  readonly outage: number;
}

export const NO_INTEGRATOR_FAULTS: IntegratorFaults = { serverError: 0, timeout: 0, ackLost: 0, outage: 0 };

/** One message as an integrator saw it. */
export interface Receipt {
  readonly record: OutboxRecord;
  /** Attempts that reached the integrator and that it processed (2xx given, whether or not the service heard it). */
  processed: number;
  /** Of those, the 2xx answers the service received. */
  acknowledged: number;
  /** Order in which the integrator first processed it, across all messages. */
  firstAt: number;
}

/**
 * The simulated integrators, on the partner sender port: every callback and event the dispatcher
 * delivers arrives here (no HTTP), answered after a seeded delay with the faults of
 * IntegratorFaults. It remembers what each integrator processed, in order: the invariants compare
 * it with the outbox.
 */
export class SimIntegrators implements PartnerSender {
  readonly receipts = new Map<string, Receipt>();
  /** Per (transaction, channel): outbox ids in the order the integrator first processed them. */
  readonly order = new Map<string, OutboxRecord[]>();
  faults: IntegratorFaults;
  attempts = 0;
  /** Told of each outage as it starts: the operator replays what was given up on once it is over. */
  onOutage: ((integratorId: string, until: number) => void) | undefined;
  /** The integrators as receiving banks: the calls they answer, and each message they process the first time. */
  receiving: { call(call: PartnerCall, integrator: IntegratorConfig): Promise<CallResult>; processed(message: OutboxRecord): void } | undefined;
  #processedCount = 0;
  readonly #downUntil = new Map<string, number>();
  readonly #random: Random;
  readonly #scheduler: Scheduler;
  readonly #trace: (transactionId: string, line: string) => void;

  constructor(random: Random, scheduler: Scheduler, faults: IntegratorFaults, trace: (transactionId: string, line: string) => void) {
    this.#random = random;
    this.#scheduler = scheduler;
    this.faults = faults;
    this.#trace = trace;
  }

  send(message: OutboxRecord, integrator: IntegratorConfig): Promise<SendResult> {
    this.attempts += 1;
    const random = this.#random;
    const faults = this.faults;
    const now = this.#scheduler.now();
    const label = `${message.channel} ${message.id.slice(-6)} seq ${message.seq}`;
    if (random.chance(faults.outage)) {
      const until = now + random.between(5_000, 600_000);
      this.#downUntil.set(integrator.id, until);
      this.onOutage?.(integrator.id, until);
    }
    if ((this.#downUntil.get(integrator.id) ?? 0) > now) {
      this.#trace(message.transactionId, `integrator ${integrator.id} down: ${label} refused`);
      return this.#after(random.between(1, 5), { delivered: false, httpStatus: null, error: 'connection refused', durationMs: 1 });
    }
    if (random.chance(faults.serverError)) {
      this.#trace(message.transactionId, `integrator ${integrator.id} answers 500 to ${label}`);
      return this.#after(random.between(1, 50), { delivered: false, httpStatus: 500, error: null, durationMs: 10 });
    }
    if (random.chance(faults.timeout)) {
      const processed = random.chance(faults.ackLost);
      if (processed) this.#process(message, false);
      this.#trace(message.transactionId, `integrator ${integrator.id} times out on ${label}${processed ? ' (it processed it: the acknowledgement is lost)' : ''}`);
      return this.#after(10_000, { delivered: false, httpStatus: null, error: 'timed out', durationMs: 10_000 });
    }
    return this.#after(random.between(1, 200), { delivered: true, httpStatus: 204, error: null, durationMs: 5 }, () => {
      this.#process(message, true);
      this.#trace(message.transactionId, `integrator ${integrator.id} acknowledges ${label}`);
    });
  }

  /** The service's calls whose answer matters (the receiving direction) go to the integrators' receiving side (sim/inbound.ts). */
  call(call: PartnerCall, integrator: IntegratorConfig): Promise<CallResult> {
    if (this.receiving === undefined) return Promise.resolve({ delivered: false, httpStatus: 503, error: 'the simulated integrator takes no calls', durationMs: 0, body: null });
    return this.receiving.call(call, integrator);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  #process(message: OutboxRecord, acknowledged: boolean): void {
    let receipt = this.receipts.get(message.id);
    if (receipt === undefined) {
      receipt = { record: message, processed: 0, acknowledged: 0, firstAt: this.#processedCount++ };
      this.receipts.set(message.id, receipt);
      const key = `${message.transactionId} ${message.channel}`;
      const list = this.order.get(key) ?? [];
      list.push(message);
      this.order.set(key, list);
      this.receiving?.processed(message);
    }
    receipt.processed += 1;
    if (acknowledged) receipt.acknowledged += 1;
  }

  /** The answer after `ms` of simulated time; `onAnswer` runs as it is given (the integrator processed it then). */
  #after(ms: number, result: SendResult, onAnswer?: () => void): Promise<SendResult> {
    return new Promise((resolve) =>
      this.#scheduler.after(ms, () => {
        onAnswer?.();
        resolve(result);
      }),
    );
  }
}
