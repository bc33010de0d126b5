import { pino, type Logger } from 'pino';
import type { IntegratorConfig } from '../config/types.js';
import { AssertionError } from '../lib/assert.js';
import { systemTimers, type Clock, type TimerHandle, type Timers } from '../ports/clock.js';
import { SEND_ABORTED, type PartnerSender, type SendResult } from '../ports/partner.js';
import type { OutboxDelivery } from '../ports/delivery.js';
import type { DeliveryAttempt, Lease, OutboxChannel, OutboxEndpoint, OutboxRecord, Store } from '../ports/store.js';
import { jittered } from './jitter.js';

/**
 * Delivers the outbox to integrators (CONTRACT §3–4): claims due messages, sends them with
 * bounded concurrency, records every attempt with its consequence, and repeats.
 *
 * - **Order.** The store hands out only the head of each (transaction, channel) queue, so the
 *   next event of a transaction is not even claimed before the previous one is acknowledged (or
 *   given up on). Callbacks and events are separate queues: a failing events endpoint never
 *   holds back a callback.
 * - **Retries** are durable: a failed attempt sets the message's next attempt time from the
 *   channel's schedule, never a timer in memory. Callbacks are must-deliver and something waits
 *   on them, so their schedule starts early (1 s, 5 s, 15 s, 30 s, 1 min, 2 min, 5 min, then the
 *   long tail); events keep Standard Webhooks' (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h). When the schedule is spent the message becomes UNDELIVERED: kept,
 *   listed and replayable, never dropped.
 * - **Isolation.** At most `endpointInFlightMax` deliveries run at once per (integrator, channel);
 *   while an endpoint is at its bound its messages are left unclaimed for the others, so a slow
 *   or dead integrator slows only its own queues.
 * - **Latency without busy polling.** The engine writes the messages it makes leased to this
 *   instance when they are due at once (`leaseForNew`) and hands them over (`take`), or else
 *   calls `wake()`, which polls at once; the acknowledgement of a message hands back the next
 *   one of its queue already leased (recordDelivery's `leaseNext`), so a transaction's events
 *   follow each other without a claim in between; otherwise the outbox is polled every
 *   `pollIntervalMs` for retries that came due.
 * - **Acknowledgements in batches.** A 2xx is recorded with the others that came within
 *   `ackWindowMs` in one store write (`recordDeliveries`), not one write each; a callback's
 *   acknowledgement, which the engine waits on, takes the waiting ones along at once. Nothing
 *   follows from an acknowledgement (the queue's next message, the engine's call) before its
 *   batch is committed; one lost in a crash before that is delivered again (at least once).
 *   Failed attempts are recorded one by one, each with its retry time.
 */
export interface CallbackOutcome {
  readonly delivered: boolean;
  /** The first failed attempt this message ever had (a replayed message does not fail "first" again). */
  readonly firstFailure: boolean;
  /** This failure spent the schedule: the message is now UNDELIVERED and waits for a replay. */
  readonly gaveUp: boolean;
}

export interface RetrySchedules {
  readonly callback: readonly number[];
  readonly event: readonly number[];
}

export interface DispatcherOptions {
  readonly store: Store;
  readonly sender: PartnerSender;
  readonly integrators: ReadonlyMap<string, IntegratorConfig>;
  readonly clock: Clock;
  /** Identifies this instance in outbox leases. */
  readonly instanceId: string;
  readonly log?: Logger;
  /** Delay before each attempt (the first must be 0); one list for both channels, or one per channel. */
  readonly retryScheduleMs?: readonly number[] | RetrySchedules;
  /** Each retry delay is lengthened by a random part of up to this fraction of itself. */
  readonly retryJitterRatio?: number;
  /** Randomness for the jitter (tests pass a fixed one). */
  readonly random?: () => number;
  /** The timers of its polls and of stop()'s patience (the system's by default). */
  readonly timers?: Timers;
  /** Most messages claimed per poll; a claim never asks for more than inFlightMax leaves room for (running and waiting). */
  readonly claimBatchMax?: number;
  readonly inFlightMax?: number;
  readonly endpointInFlightMax?: number;
  /** Must outlast the longest attempt (the sender's timeout, times four for a token refetch on 401). */
  readonly leaseMs?: number;
  /** Mean pause between polls when nothing wakes it, each drawn between half and one and a half of it (as the engine's). */
  readonly pollIntervalMs?: number;
  /** stop() waits this long for in-flight deliveries, then aborts them (they are not recorded; their leases lapse). */
  readonly stopTimeoutMs?: number;
  /**
   * Called after each recorded attempt of a `callback` message, so the engine can move the
   * transaction (RESPONSE_DELIVERED, RESPONSE_DELIVERY_FAILURE). Events never reach it: their
   * delivery does not affect processing. A crash between the record and this call loses the
   * call, so the engine must not depend on it alone (the outbox row holds the truth).
   */
  readonly onCallbackOutcome?: (record: OutboxRecord, outcome: CallbackOutcome) => void | Promise<void>;
  /**
   * Records a callback's acknowledgement in place of the dispatcher, with the state it leads the
   * transaction to (the engine: one commit for both), handing the next message of its queue to
   * this dispatcher (`take`). Absent, the dispatcher records it itself and tells
   * onCallbackOutcome. Should it fail, the attempt is left as a failed record is: the lease lapses
   * and the message is sent again unless the record was committed after all.
   */
  readonly recordCallbackAck?: (record: OutboxRecord, attempt: DeliveryAttempt) => Promise<void>;
  /**
   * How long an event's acknowledgement waits for others to be recorded with it in one write
   * (0: those of the same turn of the event loop). A callback's is recorded at once, with
   * whatever waits.
   */
  readonly ackWindowMs?: number;
  /** Most acknowledgements in one write; that many waiting are recorded at once. */
  readonly ackBatchMax?: number;
  /** Told, for every acknowledged message, how long its DELIVERED record took to commit after the answer came (metrics). */
  readonly onAckRecorded?: (channel: OutboxChannel, seconds: number) => void;
}

/** Delay before each attempt, per channel (config/schema.ts has the same defaults). */
export const DEFAULT_RETRY_SCHEDULES_MS: RetrySchedules = {
  // A short outage of the integrator's endpoint costs a callback about as long as the outage.
  callback: [0, 1_000, 5_000, 15_000, 30_000, 60_000, 120_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000],
  // Standard Webhooks' schedule.
  event: [0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000],
};

/** Each retry delay is lengthened by `random() * ratio` of itself. */
export interface RetryJitter {
  readonly ratio: number;
  readonly random: () => number;
}

/**
 * When to try a message again after its failed attempt at `at` (its `attempts` not yet counting
 * that one), or null when its channel's schedule is spent. A receiver's Retry-After (429, 503)
 * may lengthen the wait, never shorten it.
 */
export function retryAt(
  schedules: RetrySchedules,
  failed: { readonly channel: OutboxChannel; readonly attempts: number },
  at: number,
  jitter: RetryJitter,
  retryAfterMs: number | null,
): number | null {
  // schedule[n] is the delay before attempt n + 1; the failed one was attempt `attempts + 1`.
  const delayMs = schedules[failed.channel][failed.attempts + 1];
  if (delayMs === undefined) return null;
  const jitterMs = Math.floor(delayMs * jitter.ratio * jitter.random());
  return at + Math.max(delayMs + jitterMs, retryAfterMs ?? 0);
}

export const DEFAULT_DISPATCHER_OPTIONS = {
  retryJitterRatio: 0.1,
  claimBatchMax: 256,
  inFlightMax: 512,
  endpointInFlightMax: 64,
  leaseMs: 90_000,
  pollIntervalMs: 1_000,
  stopTimeoutMs: 10_000,
  ackWindowMs: 5,
  ackBatchMax: 256,
} as const;

interface Waiting {
  readonly record: OutboxRecord;
  readonly claimedAt: number;
}

export class Dispatcher implements OutboxDelivery {
  readonly #store: Store;
  readonly #sender: PartnerSender;
  readonly #integrators: ReadonlyMap<string, IntegratorConfig>;
  readonly #clock: Clock;
  readonly #timers: Timers;
  readonly #instanceId: string;
  readonly #log: Logger;
  readonly #schedules: RetrySchedules;
  readonly #jitter: RetryJitter;
  readonly #claimBatchMax: number;
  readonly #inFlightMax: number;
  readonly #endpointInFlightMax: number;
  readonly #leaseMs: number;
  readonly #pollIntervalMs: number;
  readonly #stopTimeoutMs: number;
  readonly #onCallbackOutcome: DispatcherOptions['onCallbackOutcome'];
  readonly #recordCallbackAck: DispatcherOptions['recordCallbackAck'];
  readonly #onAckRecorded: DispatcherOptions['onAckRecorded'];
  readonly #acks: AckBatches;

  /** Deliveries running, by outbox id. */
  readonly #inFlight = new Map<string, Promise<void>>();
  /** Deliveries running per endpoint key. */
  readonly #active = new Map<string, number>();
  /** Claimed messages whose endpoint was at its bound, per endpoint key, oldest first. */
  readonly #waiting = new Map<string, Waiting[]>();
  #waitingCount = 0;
  /** Aborts in-flight sends when stop() runs out of patience; a new one per start(). */
  #abort = new AbortController();

  #running = false;
  #loop: Promise<void> | undefined;
  #woken = false;
  #wakeUp: (() => void) | undefined;

  constructor(options: DispatcherOptions) {
    this.#store = options.store;
    this.#sender = options.sender;
    this.#integrators = options.integrators;
    this.#clock = options.clock;
    this.#timers = options.timers ?? systemTimers;
    this.#instanceId = options.instanceId;
    this.#log = options.log ?? pino({ level: 'silent' });
    const schedule = options.retryScheduleMs ?? DEFAULT_RETRY_SCHEDULES_MS;
    this.#schedules = isScheduleList(schedule) ? { callback: schedule, event: schedule } : schedule;
    checkSchedule(this.#schedules.callback, 'callback');
    checkSchedule(this.#schedules.event, 'event');
    this.#jitter = { ratio: options.retryJitterRatio ?? DEFAULT_DISPATCHER_OPTIONS.retryJitterRatio, random: options.random ?? Math.random };
    this.#claimBatchMax = positive(options.claimBatchMax ?? DEFAULT_DISPATCHER_OPTIONS.claimBatchMax, 'claimBatchMax');
    this.#inFlightMax = positive(options.inFlightMax ?? DEFAULT_DISPATCHER_OPTIONS.inFlightMax, 'inFlightMax');
    this.#endpointInFlightMax = positive(options.endpointInFlightMax ?? DEFAULT_DISPATCHER_OPTIONS.endpointInFlightMax, 'endpointInFlightMax');
    this.#leaseMs = positive(options.leaseMs ?? DEFAULT_DISPATCHER_OPTIONS.leaseMs, 'leaseMs');
    this.#pollIntervalMs = positive(options.pollIntervalMs ?? DEFAULT_DISPATCHER_OPTIONS.pollIntervalMs, 'pollIntervalMs');
    this.#stopTimeoutMs = options.stopTimeoutMs ?? DEFAULT_DISPATCHER_OPTIONS.stopTimeoutMs;
    this.#onCallbackOutcome = options.onCallbackOutcome;
    this.#recordCallbackAck = options.recordCallbackAck;
    this.#onAckRecorded = options.onAckRecorded;
    this.#acks = new AckBatches(
      this.#store,
      this.#timers,
      nonNegative(options.ackWindowMs ?? DEFAULT_DISPATCHER_OPTIONS.ackWindowMs, 'ackWindowMs'),
      positive(options.ackBatchMax ?? DEFAULT_DISPATCHER_OPTIONS.ackBatchMax, 'ackBatchMax'),
    );
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#abort = new AbortController();
    this.#loop = this.#run();
  }

  /**
   * Stop claiming and wait (at most stopTimeoutMs) for deliveries in flight; then abort the rest.
   * Claimed messages not yet sent, and aborted ones, are not recorded: their leases lapse and
   * another instance (or the next start) delivers them.
   */
  async stop(): Promise<void> {
    this.#running = false;
    this.wake();
    await this.#loop;
    // Acknowledgements are recorded at once from now on; those waiting go now.
    this.#acks.flush();
    this.#waiting.clear();
    this.#waitingCount = 0;
    const settled = Promise.allSettled([...this.#inFlight.values()]);
    let timer: TimerHandle;
    const patience = new Promise<'timeout'>((resolve) => {
      timer = this.#timers.setTimeout(() => resolve('timeout'), this.#stopTimeoutMs);
    });
    const first = await Promise.race([settled, patience]);
    this.#timers.clearTimeout(timer);
    if (first === 'timeout') {
      this.#log.warn({ inFlight: this.#inFlight.size }, 'dispatcher: deliveries still in flight at stop; aborting them');
      this.#abort.abort();
      await settled;
    }
  }

  /**
   * The lease for outbox messages this instance is about to write (StateChange.leaseOutbox), so
   * those due at once come to `take` without a claim; undefined while stopped or while claims
   * would find no room (they are then left to claims). Changes written at once may each have
   * been given one, so the budget can be passed by that many; the endpoint bound still holds.
   */
  leaseForNew(): Lease | undefined {
    if (!this.#running || this.#inFlight.size + this.#waitingCount >= this.#inFlightMax) return undefined;
    return { owner: this.#instanceId, leaseMs: this.#leaseMs };
  }

  /** Messages leased to this instance as they were written (leaseForNew): sent as claimed ones are. Once stopped, their leases lapse. */
  take(records: readonly OutboxRecord[]): void {
    if (!this.#running) return;
    const now = this.#clock.now();
    for (const record of records) this.#admit(record, now);
  }

  /** Poll now (new outbox rows were committed, or a replay made messages pending). */
  wake(): void {
    this.#woken = true;
    this.#wakeUp?.();
  }

  /** Deliveries running now (for metrics and tests). */
  get inFlight(): number {
    return this.#inFlight.size;
  }

  async #run(): Promise<void> {
    while (this.#running) {
      this.#woken = false;
      const room = Math.min(this.#claimBatchMax, this.#inFlightMax - this.#inFlight.size - this.#waitingCount);
      let claimed: OutboxRecord[] = [];
      if (room > 0) {
        try {
          claimed = await this.#store.claimOutbox({
            now: this.#clock.now(),
            limit: room,
            owner: this.#instanceId,
            leaseMs: this.#leaseMs,
            excludeEndpoints: this.#saturatedEndpoints(),
          });
        } catch (error) {
          this.#log.error({ err: error }, 'dispatcher: claiming the outbox failed; retrying after the poll interval');
        }
        const claimedAt = this.#clock.now();
        for (const record of claimed) this.#admit(record, claimedAt);
      }
      // A full batch means more is probably due: claim again at once (room permitting).
      const more = room > 0 && claimed.length === room;
      if (this.#running && !more && !this.#woken) await this.#sleep();
    }
  }

  #sleep(): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = this.#timers.setTimeout(() => {
        this.#wakeUp = undefined;
        resolve();
      }, jittered(this.#pollIntervalMs, this.#jitter.random));
      this.#wakeUp = () => {
        this.#timers.clearTimeout(timer);
        this.#wakeUp = undefined;
        resolve();
      };
    });
  }

  /** Endpoints at their bound (running plus waiting): the store leaves their messages unclaimed. */
  #saturatedEndpoints(): OutboxEndpoint[] {
    const saturated: OutboxEndpoint[] = [];
    const keys = new Set([...this.#active.keys(), ...this.#waiting.keys()]);
    for (const key of keys) {
      if (this.#load(key) >= this.#endpointInFlightMax) saturated.push(endpointOf(key));
    }
    return saturated;
  }

  #load(key: string): number {
    return (this.#active.get(key) ?? 0) + (this.#waiting.get(key)?.length ?? 0);
  }

  #admit(record: OutboxRecord, claimedAt: number): void {
    // Our own earlier copy (its lease lapsed and we claimed it again) is still on its way.
    if (this.#inFlight.has(record.id)) return;
    const key = endpointKey(record);
    if ((this.#active.get(key) ?? 0) < this.#endpointInFlightMax) {
      this.#start(record, key);
      return;
    }
    // One claim can bring more messages for an endpoint than it has room for; they wait here
    // (at most one claim's worth, since a saturated endpoint is excluded from the next claims).
    const queue = this.#waiting.get(key) ?? [];
    const known = queue.findIndex((waiting) => waiting.record.id === record.id);
    // Claimed again after its lease lapsed while waiting here: the lease is renewed, so is its clock.
    if (known >= 0) {
      queue[known] = { record, claimedAt };
      return;
    }
    queue.push({ record, claimedAt });
    this.#waiting.set(key, queue);
    this.#waitingCount += 1;
  }

  #start(record: OutboxRecord, key: string): void {
    this.#active.set(key, (this.#active.get(key) ?? 0) + 1);
    let released = false;
    // The endpoint's slot bounds requests to the integrator, so it is given back as soon as the
    // HTTP exchange is over, not after the attempt is recorded: holding it through the commit
    // capped an endpoint at endpointInFlightMax / commit latency messages a second.
    const releaseSlot = (): void => {
      if (released) return;
      released = true;
      const saturated = this.#load(key) >= this.#endpointInFlightMax;
      const active = (this.#active.get(key) ?? 1) - 1;
      if (active > 0) this.#active.set(key, active);
      else this.#active.delete(key);
      this.#startWaiting(key);
      // The endpoint was left out of claims while at its bound: its messages may be claimable now.
      if (saturated) this.wake();
    };
    const delivery = this.#deliver(record, releaseSlot)
      .catch((error: unknown) => this.#log.error({ err: error, outboxId: record.id }, 'dispatcher: delivery failed unexpectedly; the lease lapses and it is retried'))
      .finally(() => {
        const budgetFull = this.#inFlight.size + this.#waitingCount >= this.#inFlightMax;
        this.#inFlight.delete(record.id);
        releaseSlot();
        // Claims were held back for want of room: there is room again.
        if (budgetFull) this.wake();
      });
    this.#inFlight.set(record.id, delivery);
  }

  #startWaiting(key: string): void {
    const queue = this.#waiting.get(key);
    while (queue !== undefined && queue.length > 0 && (this.#active.get(key) ?? 0) < this.#endpointInFlightMax) {
      const next = queue.shift();
      if (next === undefined) break;
      this.#waitingCount -= 1;
      // A message that waited half its lease is left to lapse: sent now it might still be in
      // flight when another instance claims it.
      if (!this.#running || this.#clock.now() - next.claimedAt > this.#leaseMs / 2) continue;
      this.#start(next.record, key);
    }
    if (queue !== undefined && queue.length === 0) this.#waiting.delete(key);
  }

  async #deliver(record: OutboxRecord, releaseSlot: () => void): Promise<void> {
    const result = await this.#send(record);
    const answeredAt = performance.now();
    releaseSlot();
    if (result.error === SEND_ABORTED) return;
    const at = this.#clock.now();
    const nextAttemptAt = result.delivered ? null : retryAt(this.#schedules, record, at, this.#jitter, result.retryAfterMs ?? null);
    const attempt: DeliveryAttempt = {
      outboxId: record.id,
      at,
      durationMs: result.durationMs,
      httpStatus: result.httpStatus,
      error: result.error,
      delivered: result.delivered,
      nextAttemptAt,
      // The next message of this queue comes back leased to us and goes out at once: one claim
      // cycle per message would space a transaction's eight events a claim round trip apart.
      ...(this.#running ? { leaseNext: { owner: this.#instanceId, leaseMs: this.#leaseMs } } : {}),
    };
    // A callback's acknowledgement is recorded by the engine with the state it leads to; any
    // other joins a batch (one the engine waits on, or any once stopping, goes at once with those
    // waiting); a failure is recorded alone, with its retry.
    const recordedWithState = result.delivered && record.channel === 'callback' && this.#recordCallbackAck !== undefined;
    if (recordedWithState) await this.#recordCallbackAck?.(record, attempt);
    const next = recordedWithState
      ? undefined
      : result.delivered
        ? await this.#acks.record(record, attempt, record.channel === 'callback' || !this.#running)
        : await this.#store.recordDelivery(attempt);
    if (result.delivered) this.#onAckRecorded?.(record.channel, (performance.now() - answeredAt) / 1000);
    if (next !== undefined && this.#running) this.#admit(next, this.#clock.now());
    if (!result.delivered) {
      const level = nextAttemptAt === null ? 'warn' : 'info';
      this.#log[level](
        { outboxId: record.id, integratorId: record.integratorId, channel: record.channel, attempt: record.attempts + 1, httpStatus: result.httpStatus, error: result.error, nextAttemptAt },
        nextAttemptAt === null ? 'delivery: retry schedule spent, message is UNDELIVERED (replayable)' : 'delivery: attempt failed, retry scheduled',
      );
    }
    if (record.channel === 'callback' && !recordedWithState && this.#onCallbackOutcome !== undefined) {
      const outcome: CallbackOutcome = {
        delivered: result.delivered,
        // last_error survives replays and is set by every recorded failure: null means none yet.
        firstFailure: !result.delivered && record.lastError === null,
        gaveUp: !result.delivered && nextAttemptAt === null,
      };
      try {
        await this.#onCallbackOutcome(record, outcome);
      } catch (error) {
        this.#log.error({ err: error, outboxId: record.id }, 'dispatcher: the callback outcome listener failed');
      }
    }
  }

  async #send(record: OutboxRecord): Promise<SendResult> {
    const integrator = this.#integrators.get(record.integratorId);
    if (integrator === undefined) {
      return { delivered: false, httpStatus: null, error: `integrator ${record.integratorId} is not configured`, durationMs: 0 };
    }
    try {
      return await this.#sender.send(record, integrator, { signal: this.#abort.signal });
    } catch (error) {
      // The sender resolves every outcome of the world; a rejection is a bug. It is recorded as a
      // failed attempt (so the message is retried on schedule, not spun on) and logged loudly.
      this.#log.error({ err: error, outboxId: record.id }, 'dispatcher: the sender threw');
      return { delivered: false, httpStatus: null, error: 'internal error while sending', durationMs: 0 };
    }
  }
}

interface WaitingAck {
  readonly record: OutboxRecord;
  readonly attempt: DeliveryAttempt;
  readonly resolve: (next: OutboxRecord | undefined) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Acknowledgements waiting to be recorded together: one `recordDeliveries` write for all that
 * came within the window (or `batchMax` of them, or whatever waits when one must go at once).
 * Each caller is settled only after its batch committed, with the next message of its queue
 * that the write leased (if any).
 */
class AckBatches {
  readonly #store: Store;
  readonly #timers: Timers;
  readonly #windowMs: number;
  readonly #batchMax: number;
  #waiting: WaitingAck[] = [];
  /** The window's timer while one runs (TimerHandle is opaque: it may be anything, undefined too). */
  #window: { readonly timer: TimerHandle } | undefined;

  constructor(store: Store, timers: Timers, windowMs: number, batchMax: number) {
    this.#store = store;
    this.#timers = timers;
    this.#windowMs = windowMs;
    this.#batchMax = batchMax;
  }

  /** Record the acknowledgement `attempt` of `record`: within the window, or now (with those waiting). */
  record(record: OutboxRecord, attempt: DeliveryAttempt, now: boolean): Promise<OutboxRecord | undefined> {
    return new Promise<OutboxRecord | undefined>((resolve, reject) => {
      this.#waiting.push({ record, attempt, resolve, reject });
      if (now || this.#waiting.length >= this.#batchMax) this.flush();
      else this.#window ??= { timer: this.#timers.setTimeout(() => this.flush(), this.#windowMs) };
    });
  }

  /** Record everything waiting now, in batches of at most batchMax. */
  flush(): void {
    if (this.#window !== undefined) {
      this.#timers.clearTimeout(this.#window.timer);
      this.#window = undefined;
    }
    while (this.#waiting.length > 0) void this.#write(this.#waiting.splice(0, this.#batchMax));
  }

  async #write(batch: readonly WaitingAck[]): Promise<void> {
    try {
      const recorded = await this.#store.recordDeliveries(batch.map((ack) => ack.attempt));
      // A leased message is the next of its queue: it goes to the (only, as a queue sends its
      // head alone) acknowledgement of that queue.
      const leased = new Map(recorded.leased.map((next) => [queueKey(next), next]));
      const unknown = new Set(recorded.unknown);
      for (const ack of batch) {
        if (unknown.has(ack.record.id)) {
          ack.reject(new AssertionError(`no outbox message ${ack.record.id}`));
          continue;
        }
        const key = queueKey(ack.record);
        const next = leased.get(key);
        leased.delete(key);
        ack.resolve(next);
      }
    } catch (error) {
      for (const ack of batch) ack.reject(error);
    }
  }
}

function queueKey(record: { readonly transactionId: string; readonly channel: OutboxChannel }): string {
  return `${record.channel} ${record.transactionId}`;
}

function endpointKey(record: { readonly integratorId: string; readonly channel: OutboxChannel }): string {
  return `${record.channel} ${record.integratorId}`;
}

function endpointOf(key: string): OutboxEndpoint {
  const space = key.indexOf(' ');
  return { channel: key.slice(0, space) as OutboxChannel, integratorId: key.slice(space + 1) };
}

function isScheduleList(value: readonly number[] | RetrySchedules): value is readonly number[] {
  return Array.isArray(value);
}

function checkSchedule(schedule: readonly number[], channel: OutboxChannel): void {
  if (schedule.length === 0 || schedule[0] !== 0 || !schedule.every((delay) => Number.isSafeInteger(delay) && delay >= 0)) {
    throw new AssertionError(`retry schedule of ${channel}s must be non-negative integers starting with 0 (the first attempt is immediate)`);
  }
}

function nonNegative(value: number, name: string): number {
  if (!Number.isFinite(value) || value < 0) throw new AssertionError(`dispatcher option ${name} must not be negative`);
  return value;
}

function positive(value: number, name: string): number {
  if (!Number.isFinite(value) || value <= 0) throw new AssertionError(`dispatcher option ${name} must be positive`);
  return value;
}
