import { pino } from 'pino';
import { AssertionError } from '../lib/assert.js';
import { SEND_ABORTED } from '../ports/partner.js';
import { jittered } from './jitter.js';
/** Delay before each attempt, per channel (config/schema.ts has the same defaults). */
export const DEFAULT_RETRY_SCHEDULES_MS = {
    // A short outage of the integrator's endpoint costs a callback about as long as the outage.
    callback: [0, 1_000, 5_000, 15_000, 30_000, 60_000, 120_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000],
    // Standard Webhooks' schedule.
    event: [0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000],
};
/**
 * When to try a message again after its failed attempt at `at` (its `attempts` not yet counting
 * that one), or null when its channel's schedule is spent. A receiver's Retry-After (429, 503)
 * may lengthen the wait, never shorten it.
 */
export function retryAt(schedules, failed, at, jitter, retryAfterMs) {
    // schedule[n] is the delay before attempt n + 1; the failed one was attempt `attempts + 1`.
    const delayMs = schedules[failed.channel][failed.attempts + 1];
    if (delayMs === undefined)
        return null;
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
};
export class Dispatcher {
    #store;
    #sender;
    #integrators;
    #clock;
    #instanceId;
    #log;
    #schedules;
    #jitter;
    #claimBatchMax;
    #inFlightMax;
    #endpointInFlightMax;
    #leaseMs;
    #pollIntervalMs;
    #stopTimeoutMs;
    #onCallbackOutcome;
    #onAckRecorded;
    /** Deliveries running, by outbox id. */
    #inFlight = new Map();
    /** Deliveries running per endpoint key. */
    #active = new Map();
    /** Claimed messages whose endpoint was at its bound, per endpoint key, oldest first. */
    #waiting = new Map();
    #waitingCount = 0;
    /** Aborts in-flight sends when stop() runs out of patience; a new one per start(). */
    #abort = new AbortController();
    #running = false;
    #loop;
    #woken = false;
    #wakeUp;
    constructor(options) {
        this.#store = options.store;
        this.#sender = options.sender;
        this.#integrators = options.integrators;
        this.#clock = options.clock;
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
        this.#onAckRecorded = options.onAckRecorded;
    }
    start() {
        if (this.#running)
            return;
        this.#running = true;
        this.#abort = new AbortController();
        this.#loop = this.#run();
    }
    /**
     * Stop claiming and wait (at most stopTimeoutMs) for deliveries in flight; then abort the rest.
     * Claimed messages not yet sent, and aborted ones, are not recorded: their leases lapse and
     * another instance (or the next start) delivers them.
     */
    async stop() {
        this.#running = false;
        this.wake();
        await this.#loop;
        this.#waiting.clear();
        this.#waitingCount = 0;
        const settled = Promise.allSettled([...this.#inFlight.values()]);
        let timer;
        const patience = new Promise((resolve) => {
            timer = setTimeout(() => resolve('timeout'), this.#stopTimeoutMs);
        });
        const first = await Promise.race([settled, patience]);
        clearTimeout(timer);
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
    leaseForNew() {
        if (!this.#running || this.#inFlight.size + this.#waitingCount >= this.#inFlightMax)
            return undefined;
        return { owner: this.#instanceId, leaseMs: this.#leaseMs };
    }
    /** Messages leased to this instance as they were written (leaseForNew): sent as claimed ones are. Once stopped, their leases lapse. */
    take(records) {
        if (!this.#running)
            return;
        const now = this.#clock.now();
        for (const record of records)
            this.#admit(record, now);
    }
    /** Poll now (new outbox rows were committed, or a replay made messages pending). */
    wake() {
        this.#woken = true;
        this.#wakeUp?.();
    }
    /** Deliveries running now (for metrics and tests). */
    get inFlight() {
        return this.#inFlight.size;
    }
    async #run() {
        while (this.#running) {
            this.#woken = false;
            const room = Math.min(this.#claimBatchMax, this.#inFlightMax - this.#inFlight.size - this.#waitingCount);
            let claimed = [];
            if (room > 0) {
                try {
                    claimed = await this.#store.claimOutbox({
                        now: this.#clock.now(),
                        limit: room,
                        owner: this.#instanceId,
                        leaseMs: this.#leaseMs,
                        excludeEndpoints: this.#saturatedEndpoints(),
                    });
                }
                catch (error) {
                    this.#log.error({ err: error }, 'dispatcher: claiming the outbox failed; retrying after the poll interval');
                }
                const claimedAt = this.#clock.now();
                for (const record of claimed)
                    this.#admit(record, claimedAt);
            }
            // A full batch means more is probably due: claim again at once (room permitting).
            const more = room > 0 && claimed.length === room;
            if (this.#running && !more && !this.#woken)
                await this.#sleep();
        }
    }
    #sleep() {
        return new Promise((resolve) => {
            const timer = setTimeout(() => {
                this.#wakeUp = undefined;
                resolve();
            }, jittered(this.#pollIntervalMs, this.#jitter.random));
            this.#wakeUp = () => {
                clearTimeout(timer);
                this.#wakeUp = undefined;
                resolve();
            };
        });
    }
    /** Endpoints at their bound (running plus waiting): the store leaves their messages unclaimed. */
    #saturatedEndpoints() {
        const saturated = [];
        const keys = new Set([...this.#active.keys(), ...this.#waiting.keys()]);
        for (const key of keys) {
            if (this.#load(key) >= this.#endpointInFlightMax)
                saturated.push(endpointOf(key));
        }
        return saturated;
    }
    #load(key) {
        return (this.#active.get(key) ?? 0) + (this.#waiting.get(key)?.length ?? 0);
    }
    #admit(record, claimedAt) {
        // Our own earlier copy (its lease lapsed and we claimed it again) is still on its way.
        if (this.#inFlight.has(record.id))
            return;
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
    #start(record, key) {
        this.#active.set(key, (this.#active.get(key) ?? 0) + 1);
        let released = false;
        // The endpoint's slot bounds requests to the integrator, so it is given back as soon as the
        // HTTP exchange is over, not after the attempt is recorded: holding it through the commit
        // capped an endpoint at endpointInFlightMax / commit latency messages a second.
        const releaseSlot = () => {
            if (released)
                return;
            released = true;
            const saturated = this.#load(key) >= this.#endpointInFlightMax;
            const active = (this.#active.get(key) ?? 1) - 1;
            if (active > 0)
                this.#active.set(key, active);
            else
                this.#active.delete(key);
            this.#startWaiting(key);
            // The endpoint was left out of claims while at its bound: its messages may be claimable now.
            if (saturated)
                this.wake();
        };
        const delivery = this.#deliver(record, releaseSlot)
            .catch((error) => this.#log.error({ err: error, outboxId: record.id }, 'dispatcher: delivery failed unexpectedly; the lease lapses and it is retried'))
            .finally(() => {
            const budgetFull = this.#inFlight.size + this.#waitingCount >= this.#inFlightMax;
            this.#inFlight.delete(record.id);
            releaseSlot();
            // Claims were held back for want of room: there is room again.
            if (budgetFull)
                this.wake();
        });
        this.#inFlight.set(record.id, delivery);
    }
    #startWaiting(key) {
        const queue = this.#waiting.get(key);
        while (queue !== undefined && queue.length > 0 && (this.#active.get(key) ?? 0) < this.#endpointInFlightMax) {
            const next = queue.shift();
            if (next === undefined)
                break;
            this.#waitingCount -= 1;
            // A message that waited half its lease is left to lapse: sent now it might still be in
            // flight when another instance claims it.
            if (!this.#running || this.#clock.now() - next.claimedAt > this.#leaseMs / 2)
                continue;
            this.#start(next.record, key);
        }
        if (queue !== undefined && queue.length === 0)
            this.#waiting.delete(key);
    }
    async #deliver(record, releaseSlot) {
        const result = await this.#send(record);
        const answeredAt = performance.now();
        releaseSlot();
        if (result.error === SEND_ABORTED)
            return;
        const at = this.#clock.now();
        const nextAttemptAt = result.delivered ? null : retryAt(this.#schedules, record, at, this.#jitter, result.retryAfterMs ?? null);
        const next = await this.#store.recordDelivery({
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
        });
        if (result.delivered)
            this.#onAckRecorded?.(record.channel, (performance.now() - answeredAt) / 1000);
        if (next !== undefined && this.#running)
            this.#admit(next, this.#clock.now());
        if (!result.delivered) {
            const level = nextAttemptAt === null ? 'warn' : 'info';
            this.#log[level]({ outboxId: record.id, integratorId: record.integratorId, channel: record.channel, attempt: record.attempts + 1, httpStatus: result.httpStatus, error: result.error, nextAttemptAt }, nextAttemptAt === null ? 'delivery: retry schedule spent, message is UNDELIVERED (replayable)' : 'delivery: attempt failed, retry scheduled');
        }
        if (record.channel === 'callback' && this.#onCallbackOutcome !== undefined) {
            const outcome = {
                delivered: result.delivered,
                // last_error survives replays and is set by every recorded failure: null means none yet.
                firstFailure: !result.delivered && record.lastError === null,
                gaveUp: !result.delivered && nextAttemptAt === null,
            };
            try {
                await this.#onCallbackOutcome(record, outcome);
            }
            catch (error) {
                this.#log.error({ err: error, outboxId: record.id }, 'dispatcher: the callback outcome listener failed');
            }
        }
    }
    async #send(record) {
        const integrator = this.#integrators.get(record.integratorId);
        if (integrator === undefined) {
            return { delivered: false, httpStatus: null, error: `integrator ${record.integratorId} is not configured`, durationMs: 0 };
        }
        try {
            return await this.#sender.send(record, integrator, { signal: this.#abort.signal });
        }
        catch (error) {
            // The sender resolves every outcome of the world; a rejection is a bug. It is recorded as a
            // failed attempt (so the message is retried on schedule, not spun on) and logged loudly.
            this.#log.error({ err: error, outboxId: record.id }, 'dispatcher: the sender threw');
            return { delivered: false, httpStatus: null, error: 'internal error while sending', durationMs: 0 };
        }
    }
}
function endpointKey(record) {
    return `${record.channel} ${record.integratorId}`;
}
function endpointOf(key) {
    const space = key.indexOf(' ');
    return { channel: key.slice(0, space), integratorId: key.slice(space + 1) };
}
function isScheduleList(value) {
    return Array.isArray(value);
}
function checkSchedule(schedule, channel) {
    if (schedule.length === 0 || schedule[0] !== 0 || !schedule.every((delay) => Number.isSafeInteger(delay) && delay >= 0)) {
        throw new AssertionError(`retry schedule of ${channel}s must be non-negative integers starting with 0 (the first attempt is immediate)`);
    }
}
function positive(value, name) {
    if (!Number.isFinite(value) || value <= 0)
        throw new AssertionError(`dispatcher option ${name} must be positive`);
    return value;
}
//# sourceMappingURL=dispatcher.js.map