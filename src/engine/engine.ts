import type { Logger } from 'pino';
import type { IntegratorConfig, SchemeConfig } from '../config/types.js';
import { eventMessage } from '../domain/events.js';
import { assertLegalTransition } from '../domain/machines/machine.js';
import type { SchemeName } from '../domain/schemes.js';
import { AssertionError } from '../lib/assert.js';
import { BoundedMap } from '../lib/bounded-map.js';
import { parseJson } from '../lib/json.js';
import { systemTimers, type Clock, type Ids, type TimerHandle, type Timers } from '../ports/clock.js';
import type { OutboxDelivery } from '../ports/delivery.js';
import type { PartnerSender } from '../ports/partner.js';
import { NO_TRACING, type Milestones, type Tracing } from '../ports/observability.js';
import type { AcceptedWork, FirstDecision, NewWorkItem, Processing, RequestOutcome, TransactionRequest } from '../ports/processing.js';
import type { InboundReport, SchemeAnswers, SchemeConnector } from '../ports/scheme.js';
import type { DeliveryAttempt, Lease, NewOutboxMessage, NewSchemeMessage, OutboxRecord, StateChange, Store, TransactionRecord } from '../ports/store.js';
import { jittered } from './jitter.js';
import { KeyedSerialQueue } from './keyed-queue.js';
import { traceHeaders, type DriverEnv, type EngineInput, type KindContext, type KindDecision, type KindDriver } from './kinds/kind.js';
import { DRIVERS } from './kinds/registry.js';

export interface EngineOptions {
  /** Most transactions claimed per poll; a claim never asks for more than inFlightMax leaves room for. */
  readonly claimBatchMax: number;
  /**
   * How often, on average, the engine looks for due timers when nobody wakes it: each pause is
   * drawn between half and one and a half of it, so instances that happened to poll together
   * (after a shared stall of the database) drift apart instead of claiming in step.
   */
  readonly pollIntervalMs: number;
  /** A claim lapses after this long, so a crashed instance's work is taken over. */
  readonly leaseMs: number;
  /** Time budget of schemes with no configuration. */
  readonly defaultTimeBudgetMs: number;
  /** Retrying a submission that did not reach the scheme: first delay, doubled per attempt up to the max. */
  readonly resubmitDelayMs: number;
  readonly resubmitDelayMaxMs: number;
  /** Status enquiries after the time budget: first delay, doubled per enquiry up to the max. */
  readonly enquiryDelayMs: number;
  readonly enquiryDelayMaxMs: number;
  /** A stale decision (another instance moved the transaction) is re-decided at most this often. */
  readonly staleRetriesMax: number;
  /** Claimed transactions being processed at once; claiming pauses beyond it. */
  readonly inFlightMax: number;
  /**
   * Most work tracked at once (claimed transactions, scheme reports, integrators' requests, held
   * requests' decisions, linked wake-ups): at it, a scheme report is refused to its sender (which
   * delivers it again) and an integrator's request is answered busy (503), so what waits for this
   * engine stays bounded. Work it started itself (claims, the feedback of its own scheme calls) is
   * never refused; claiming pauses at inFlightMax, below it.
   */
  readonly backlogMax: number;
  /** How often an undelivered callback is compared with its outbox row (see EngineDelays). */
  readonly callbackCheckMs: number;
  /**
   * A message the scheme's transport took (a `sent` input without the integrator's reply) is held
   * this long for the transaction's next input, usually the scheme's answer, and decided with it
   * in one commit; alone once it is over. Below resubmitDelayMs, so a transaction's timer never
   * sends again what the transport took in this process; a crash loses only the record, and the
   * timer sends again under the same idempotency key, as after any crash before a record.
   */
  readonly transportRecordHoldMs: number;
}

export const DEFAULT_ENGINE_OPTIONS: EngineOptions = {
  claimBatchMax: 256,
  pollIntervalMs: 200,
  leaseMs: 30_000,
  defaultTimeBudgetMs: 60_000,
  resubmitDelayMs: 1_000,
  resubmitDelayMaxMs: 30_000,
  enquiryDelayMs: 5_000,
  enquiryDelayMaxMs: 300_000,
  staleRetriesMax: 5,
  inFlightMax: 1024,
  backlogMax: 4096,
  callbackCheckMs: 60_000,
  transportRecordHoldMs: 200,
};

export interface EngineDeps {
  readonly store: Store;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly connectors: ReadonlyMap<SchemeName, SchemeConnector>;
  readonly integrators: ReadonlyMap<string, IntegratorConfig>;
  readonly schemes: Readonly<Partial<Record<SchemeName, SchemeConfig>>>;
  /** Identifies this instance in leases. */
  readonly instanceId: string;
  readonly log: Logger;
  /** This instance's delivery of the outbox (the dispatcher), told of every outbox row the engine commits. */
  readonly delivery?: OutboxDelivery;
  /** Calls to integrators whose answer a machine waits for (the receiving direction: sync authorisations and lookups). */
  readonly partner?: PartnerSender;
  /** Told each milestone of a transaction's path, after its commit (logs, metrics). */
  readonly milestones?: Milestones;
  /** Each scheme call is a span of the transaction's trace. */
  readonly tracing?: Tracing;
  /**
   * Whether this instance talks to schemes (configuration `processing.enabled`). When not, it
   * still commits decisions (a cancellation it accepted), and the timers of the instances that
   * process send what it did not.
   */
  readonly sendsToSchemes?: boolean;
  /** Randomness for the poll jitter (tests pass a fixed one). */
  readonly random?: () => number;
  /** The poll's timer (the system's by default). */
  readonly timers?: Timers;
  readonly options?: Partial<EngineOptions>;
}

/**
 * The asynchronous runner of every kind of transaction. It claims transactions whose durable
 * timer is due, receives scheme answers and callback outcomes, asks the state machine of the
 * transaction's kind what to do (through the kind's driver, kinds/registry.ts), commits the
 * decision (states entered, history, events, callbacks, next timer) atomically, and only then
 * talks to the scheme. Everything it needs to resume lives in the database: after a crash, due
 * timers and expired leases bring every transaction back.
 */
export class Engine implements SchemeAnswers, Processing {
  readonly #deps: EngineDeps;
  readonly #options: EngineOptions;
  /** Inputs for one transaction are handled one at a time in this instance (versions guard across instances). */
  readonly #serial = new KeyedSerialQueue();
  #running = false;
  #loop: Promise<void> | undefined;
  #wakeUp: (() => void) | undefined;
  #woken = false;
  readonly #inFlight = new Set<Promise<unknown>>();
  /** The claim loop, waiting for a slot below inFlightMax: one waiter, woken as work ends (never a race over every promise in flight). */
  #slotFreed: (() => void) | undefined;
  /** The original message of recent transactions: it never changes, and each transaction needs it at several steps. */
  readonly #messages = new BoundedMap<string, OriginalMessage>(10_000);
  /**
   * Recent transactions as this engine last claimed or changed them, so a decision need not read
   * the row it just wrote. A record here may be stale (another instance changed the row since):
   * a change decided on it is refused as stale by its expected version and decided again on the
   * row read afresh, and a decision to do nothing is only trusted on a row read afresh.
   */
  readonly #transactions = new BoundedMap<string, TransactionRecord>(10_000);
  /** Transport outcomes held for their transaction's next input (EngineOptions.transportRecordHoldMs), in arrival order. */
  readonly #held = new Map<string, { readonly inputs: EngineInput[]; readonly timer: TimerHandle }>();

  constructor(deps: EngineDeps) {
    this.#deps = deps;
    this.#options = { ...DEFAULT_ENGINE_OPTIONS, ...deps.options };
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#loop = this.#run();
  }

  /**
   * Stop claiming, let in-flight work finish and decide the transport outcomes still held. Leases
   * of unfinished work lapse and another instance (or restart) takes over.
   */
  async stop(): Promise<void> {
    this.#running = false;
    this.wake();
    await this.#loop;
    while (this.#inFlight.size > 0 || this.#held.size > 0) {
      for (const transactionId of [...this.#held.keys()]) this.#decideHeld(transactionId);
      await Promise.allSettled([...this.#inFlight]);
    }
  }

  /**
   * The lease to write a transaction this instance accepts with (NewTransaction.leaseTransaction),
   * so `accepted` takes it up at once without a claim; undefined while stopped or at inFlightMax
   * (the transaction is then left to claims).
   */
  leaseForNew(): Lease | undefined {
    if (!this.#running || this.#inFlight.size >= this.#options.inFlightMax) return undefined;
    return { owner: this.#deps.instanceId, leaseMs: this.#options.leaseMs };
  }

  /**
   * A transaction this process just accepted, with its message as received and as parsed (the
   * engine then neither reads nor parses it again): taken up at once when it was written leased
   * to this engine, otherwise looked for now. Once stopped, such a lease lapses and the
   * transaction is claimed by its timer.
   */
  accepted(work: AcceptedWork): void {
    this.#messages.set(work.transaction.id, { rawBody: work.rawBody, message: work.message });
    if (work.leased && this.#running) {
      if (work.decided === undefined) this.#takeUp(work.transaction);
      else this.#carryOut(work.transaction, work.decided);
    } else this.wake();
  }

  /**
   * The decision a tick would make on a new transaction, to commit with its intake
   * (Processing.firstDecision): one that enters states and gives no final answer. Undefined while
   * this engine does not run or send, and for a decision it must make itself after the intake
   * (one that gives an outcome, wakes a held request, or is refused).
   */
  async firstDecision(work: NewWorkItem): Promise<FirstDecision | undefined> {
    if (!this.#running || this.#deps.sendsToSchemes === false) return undefined;
    const { transaction } = work;
    const driver = DRIVERS.get(transaction.kind);
    let decision: KindDecision | undefined;
    let context: KindContext;
    try {
      if (driver === undefined) throw new AssertionError(`no engine driver for ${transaction.kind} transactions`);
      context = await this.#context(transaction, { rawBody: work.rawBody, message: work.message });
      decision = await driver.decide(context, { type: 'tick' }, this.#env(transaction.scheme));
    } catch (error) {
      // The intake goes on; the engine decides after it, as its timer would, and meets the failure there.
      this.#deps.log.error({ err: error, transactionId: transaction.id }, 'engine: the first decision failed; left to the timer');
      return undefined;
    }
    if (decision === undefined || decision.steps.length === 0 || decision.outcome !== undefined || decision.notify === true || decision.refused !== undefined) return undefined;
    const change = this.#change(driver, context, decision);
    return {
      entered: [...(change.via ?? []), { state: change.toState, cause: change.cause }],
      dueAt: decision.dueAt,
      data: decision.data,
      outbox: change.outbox,
      commands: decision.commands,
      ...(decision.wake === undefined ? {} : { wake: decision.wake }),
    };
  }

  /** A new transaction committed with its first decision and leased to this engine: its commands go out now, then the lease is given back. */
  #carryOut(written: TransactionRecord, decided: FirstDecision): void {
    const { store, instanceId, log } = this.#deps;
    const last = decided.entered.at(-1);
    const committed: TransactionRecord = { ...written, state: last?.state ?? written.state, version: written.version + decided.entered.length, dueAt: decided.dueAt, data: decided.data };
    this.#transactions.set(committed.id, committed);
    this.#deps.milestones?.statesEntered(written, decided.entered.map((step) => step.state));
    const work = this.#serial.run(committed.id, async () => {
      const driver = DRIVERS.get(committed.kind);
      if (driver === undefined) throw new AssertionError(`no engine driver for ${committed.kind} transactions`);
      await this.#execute(driver, await this.#context(committed), decided.commands);
      this.#wakeLinked(committed.id, decided.wake ?? []);
    });
    void this.#track(
      work.then(
        () => store.releaseTransaction(committed.id, instanceId).catch(() => undefined),
        (error: unknown) => log.error({ err: error, transactionId: committed.id }, 'engine: processing failed; retried when its lease lapses'),
      ),
    );
  }

  /** Work tracked now (see EngineOptions.backlogMax): what the admission control of intake weighs. */
  backlog(): number {
    return this.#inFlight.size;
  }

  /** The backlog is at its bound: work from outside is refused until it drains. */
  #full(): boolean {
    return this.#inFlight.size >= this.#options.backlogMax;
  }

  /** Decide on a transaction now, as its timer would (Processing.decideNow); a held request waits on it, so its change is written as urgent. */
  async decideNow(transactionId: string): Promise<void> {
    await this.#track(this.#handle(transactionId, { type: 'tick', urgent: true }));
  }

  /** A request of the integrator about a transaction (Processing.request). */
  async request(transactionId: string, request: TransactionRequest): Promise<RequestOutcome> {
    if (this.#full()) return 'busy';
    const handled = await this.#track(this.#handle(transactionId, { type: 'request', request }));
    return handled === 'stale' ? 'busy' : handled === 'refused' ? 'refused' : 'decided';
  }

  /** Look for due work now (e.g. right after an intake committed). */
  wake(): void {
    this.#woken = true;
    this.#wakeUp?.();
  }

  /**
   * Inbound side of the scheme port: an answer from a scheme. It names the transaction by the
   * idempotency key it was sent with; an answer whose transaction is unknown, or that its kind's
   * driver says is not about it (a transfer's report with another UETR), is ignored (checked on
   * the row the decision is made on, so an answer following another of the same transaction reads
   * nothing). Rejects with AnswerNotRecordedError when the decision stayed stale through its
   * retries, when the engine's backlog is at backlogMax, or when a withdrawal (camt.056) names a
   * request-to-pay not recorded yet: nothing of the answer is kept, so its sender must deliver it
   * again. A scheme delivers its pain.013 until it is acknowledged, and the service acknowledges
   * it only once recorded, so a camt.056 that overtook its pain.013 is taken on a later delivery.
   */
  async receive(report: InboundReport): Promise<void> {
    if (this.#full()) throw new AnswerNotRecordedError(report.idempotencyKey, 'the engine is at its backlog bound');
    const key = 'inboundKey' in report && report.inboundKey !== undefined && !(await this.#exists(report.idempotencyKey)) ? report.inboundKey : report.idempotencyKey;
    const handled = await this.#track(this.#handle(key, { type: 'scheme', report }));
    if (handled === 'stale') throw new AnswerNotRecordedError(report.idempotencyKey);
    if (handled === 'unknown') throw new AnswerNotRecordedError(report.idempotencyKey, 'the request-to-pay it withdraws is not recorded yet');
  }

  async #exists(transactionId: string): Promise<boolean> {
    return this.#transactions.has(transactionId) || (await this.#deps.store.getTransaction(transactionId)) !== undefined;
  }

  /** From the dispatcher: an attempt to deliver a callback was recorded. */
  async callbackOutcome(record: OutboxRecord, delivered: boolean): Promise<void> {
    await this.#track(this.#handle(record.transactionId, { type: 'callback', outboxId: record.id, delivered, body: record.body }));
  }

  /**
   * From the dispatcher: the integrator acknowledged a callback, not yet recorded. The
   * acknowledgement is recorded in the commit of the decision it leads to (RESPONSE_DELIVERED),
   * or alone when it leads to none; resolves once it is recorded, the next message of its queue
   * handed to the dispatcher.
   */
  async callbackAcknowledged(record: OutboxRecord, attempt: DeliveryAttempt): Promise<void> {
    await this.#track(this.#handle(record.transactionId, { type: 'callback', outboxId: record.id, delivered: true, body: record.body, attempt }));
  }

  async #run(): Promise<void> {
    const { store, clock, instanceId, log } = this.#deps;
    while (this.#running) {
      while (this.#inFlight.size >= this.#options.inFlightMax) {
        await new Promise<void>((resolve) => {
          this.#slotFreed = resolve;
        });
      }
      if (!this.#running) break;
      this.#woken = false;
      // Only what this engine can run now: a lease it holds without running it would keep the
      // transaction from every other instance until the lease lapsed.
      const room = Math.min(this.#options.claimBatchMax, this.#options.inFlightMax - this.#inFlight.size);
      let claimed: TransactionRecord[] = [];
      try {
        claimed = await store.claimDue({ now: clock.now(), limit: room, owner: instanceId, leaseMs: this.#options.leaseMs });
      } catch (error) {
        log.error({ err: error }, 'engine: claiming due work failed; retrying');
      }
      for (const transaction of claimed) this.#takeUp(transaction);
      if (claimed.length < room && !this.#woken && this.#running) {
        const timers = this.#deps.timers ?? systemTimers;
        await new Promise<void>((resolve) => {
          const timer = timers.setTimeout(resolve, jittered(this.#options.pollIntervalMs, this.#deps.random ?? Math.random));
          this.#wakeUp = () => {
            timers.clearTimeout(timer);
            resolve();
          };
        });
        this.#wakeUp = undefined;
      }
    }
  }

  /** Work on a transaction leased to this engine (claimed, or written leased), then give the lease back. */
  #takeUp(transaction: TransactionRecord): void {
    const { store, instanceId, log } = this.#deps;
    this.#transactions.set(transaction.id, transaction);
    void this.#track(
      this.#handle(transaction.id, { type: 'tick' }).then(
        // Done: give the claim back so the next timer is taken at its due time.
        () => store.releaseTransaction(transaction.id, instanceId).catch(() => undefined),
        // Failed: keep the claim, so the retry waits for the lease to lapse instead of spinning.
        (error: unknown) => log.error({ err: error, transactionId: transaction.id }, 'engine: processing failed; retried when its lease lapses'),
      ),
    );
  }

  #track<T>(work: Promise<T>): Promise<T> {
    this.#inFlight.add(work);
    void work
      .finally(() => {
        this.#inFlight.delete(work);
        const freed = this.#slotFreed;
        this.#slotFreed = undefined;
        freed?.();
      })
      .catch(() => undefined);
    return work;
  }

  /**
   * `done` once the decision is committed (or there was nothing to do), `stale` when it stayed
   * stale, `refused` when the machine refused the input. The transport outcomes held for the
   * transaction are decided first, in the same change: the scheme answers only what its transport
   * took. Without an input, only those.
   */
  #handle(transactionId: string, input?: EngineInput): Promise<Handled> {
    return this.#serial.run(transactionId, () => this.#decideAndApply(transactionId, [...this.#takeHeld(transactionId), ...(input === undefined ? [] : [input])]));
  }

  /** A transport outcome that only records what the transport did is held for the transaction's next input (EngineOptions.transportRecordHoldMs). */
  #hold(transactionId: string, input: EngineInput): void {
    const held = this.#held.get(transactionId);
    if (held !== undefined) {
      held.inputs.push(input);
      return;
    }
    const timer = (this.#deps.timers ?? systemTimers).setTimeout(() => this.#decideHeld(transactionId), this.#options.transportRecordHoldMs);
    this.#held.set(transactionId, { inputs: [input], timer });
  }

  #takeHeld(transactionId: string): EngineInput[] {
    const held = this.#held.get(transactionId);
    if (held === undefined) return [];
    this.#held.delete(transactionId);
    (this.#deps.timers ?? systemTimers).clearTimeout(held.timer);
    return held.inputs;
  }

  /** The transport outcomes held for a transaction, decided now on their own. */
  #decideHeld(transactionId: string): void {
    void this.#track(this.#handle(transactionId)).catch((error: unknown) =>
      this.#deps.log.error({ err: error, transactionId }, 'engine: recording a scheme call failed; the timer retries it'),
    );
  }

  /** Decides `inputs` in turn and commits what they decide as one change (see #handle). */
  async #decideAndApply(transactionId: string, given: readonly EngineInput[]): Promise<Handled> {
    const { store } = this.#deps;
    let inputs = given;
    // A decision refused as stale is made again, at most staleRetriesMax times; one that found
    // nothing to do on a remembered row is made again once, on the row as stored.
    let staleRetries = 0;
    let storedOnly = false;
    let told = false;
    let recorded: readonly NewSchemeMessage[] = [];
    for (;;) {
      const input = inputs.at(-1);
      if (input === undefined) return 'done';
      const remembered = storedOnly ? undefined : this.#transactions.get(transactionId);
      this.#transactions.delete(transactionId);
      const transaction = remembered ?? (await this.#read(transactionId));
      const driver = transaction === undefined ? undefined : DRIVERS.get(transaction.kind);
      if (input.type === 'scheme' && (transaction === undefined || driver?.answers(transaction, input.report) !== true)) {
        const { report } = input;
        if (transaction === undefined && report.kind === 'withdrawal') return 'unknown';
        this.#deps.log.warn({ scheme: report.scheme, ...('uetr' in report ? { uetr: report.uetr } : {}) }, 'scheme answer for an unknown transfer ignored');
        // What was held for the transaction is still decided.
        inputs = inputs.slice(0, -1);
        if (transaction !== undefined) this.#transactions.set(transactionId, transaction);
        continue;
      }
      if (transaction === undefined) throw new AssertionError(`transaction ${transactionId} vanished`);
      if (driver === undefined) throw new AssertionError(`no engine driver for ${transaction.kind} transactions`);
      if (!told) {
        told = true;
        recorded = inputs.flatMap((each) => this.#told(transaction, each));
      }
      const deliveries = acknowledgements(inputs);
      const context = await this.#context(transaction);
      const decision = await this.#decideInTurn(driver, context, inputs);
      // Judged on the stored row only: one refused on a remembered row is judged again on the stored one below.
      if (decision?.refused !== undefined && remembered === undefined) this.#deps.milestones?.transitionRefused(transaction, decision.refused);
      if (decision === undefined || (decision.steps.length === 0 && decision.commands.length === 0 && decision.outbox.length === 0 && sameTimer(transaction, decision))) {
        // Nothing to do, unless the remembered row was stale: then judge again on the row as stored.
        if (remembered !== undefined) {
          storedOnly = true;
          continue;
        }
        // A scheme message, or an acknowledgement, that changed nothing is still kept.
        await store.recordSchemeMessages(recorded);
        await this.#recordDeliveries(deliveries);
        return decision?.refused === undefined ? 'done' : 'refused';
      }
      const change = {
        ...this.#change(driver, context, decision),
        ...(recorded.length === 0 ? {} : { schemeMessages: recorded }),
        ...(deliveries.length === 0 ? {} : { deliveries }),
        ...(inputs.some((each) => each.type === 'tick' && each.urgent === true) ? { urgent: true } : {}),
        ...(commutes(inputs, decision) ? { commutes: { data: transaction.data } } : {}),
      };
      const outcome = await store.applyChange(change);
      if (!outcome.ok) {
        if (outcome.reason !== 'stale') throw new AssertionError(`transaction ${transactionId} not found while changing it`);
        // Moved on elsewhere: decide again on the fresh state.
        staleRetries += 1;
        if (staleRetries > this.#options.staleRetriesMax) break;
        continue;
      }
      // Already made by another instance's change (StateChange.commutes): nothing of it was written but its scheme messages.
      const alreadyEntered = outcome.alreadyEntered ?? 0;
      if (alreadyEntered > 0 && alreadyEntered === decision.steps.length) return 'done';
      const committed: TransactionRecord = {
        ...transaction,
        state: change.toState,
        version: outcome.version,
        updatedAt: change.at,
        dueAt: change.dueAt,
        data: change.data ?? transaction.data,
      };
      this.#transactions.set(transactionId, committed);
      // Whatever was due at once is already leased to this instance and goes out without a claim.
      if (outcome.leased.length > 0) this.#deps.delivery?.take(outcome.leased);
      else if (change.outbox.length > 0 && change.leaseOutbox === undefined) this.#deps.delivery?.wake();
      const milestones = this.#deps.milestones;
      if (milestones !== undefined) {
        const entered = decision.steps.slice(alreadyEntered);
        if (entered.length > 0) milestones.statesEntered(transaction, entered.map((step) => step.state));
        if (decision.outcome !== undefined) milestones.decided(transaction, decision.outcome, change.at);
      }
      // A command carries out the committed decision: it sees the transaction as committed.
      await this.#execute(driver, { ...context, transaction: committed }, decision.commands);
      this.#wakeLinked(transactionId, decision.wake ?? []);
      return 'done';
    }
    this.#deps.log.warn({ transactionId }, 'engine: decision stayed stale; the timer retries it');
    // A scheme answer is refused as a whole (receive rejects) and comes again: it is kept when it is recorded.
    await store.recordSchemeMessages(recorded.filter((message) => message.direction === 'sent'));
    await this.#recordDeliveries(acknowledgements(inputs));
    return 'stale';
  }

  /** Acknowledgements no change recorded, recorded alone; the messages they let through go to the dispatcher. */
  async #recordDeliveries(attempts: readonly DeliveryAttempt[]): Promise<void> {
    if (attempts.length === 0) return;
    const { leased } = await this.#deps.store.recordDeliveries(attempts);
    if (leased.length > 0) this.#deps.delivery?.take(leased);
  }

  /**
   * The machine's decisions on `inputs`, each made on the transaction as the ones before it left
   * it, as one decision: their states in order, the last one's timer and data, every command,
   * message and wake-up. Undefined when no input concerns the machine.
   */
  async #decideInTurn(driver: KindDriver, context: KindContext, inputs: readonly EngineInput[]): Promise<KindDecision | undefined> {
    let combined: KindDecision | undefined;
    let current = context;
    for (const input of inputs) {
      const { transaction } = current;
      const decision = await driver.decide(current, input, this.#env(transaction.scheme));
      if (decision === undefined) continue;
      combined = combined === undefined ? decision : inTurn(combined, decision);
      current = { ...current, transaction: { ...transaction, state: decision.steps.at(-1)?.state ?? transaction.state, dueAt: decision.dueAt, data: decision.data } };
    }
    return combined;
  }

  /** Linked transactions a committed decision names look at it now, each in its own serial slot (never awaited inside this one). */
  #wakeLinked(transactionId: string, linked: readonly string[]): void {
    for (const id of linked) {
      if (id === transactionId) continue;
      void this.#track(this.#handle(id, { type: 'tick' })).catch((error: unknown) =>
        this.#deps.log.error({ err: error, transactionId: id, wokenBy: transactionId }, 'engine: waking a linked transaction failed; its timer decides it'),
      );
    }
  }

  /** Milestones an input is in itself (a scheme answer, a callback attempt), and the scheme message it brings, to keep. */
  #told(transaction: TransactionRecord, input: EngineInput): NewSchemeMessage[] {
    const at = this.#deps.clock.now();
    const wire = input.type === 'sent' ? input.outcome.sent : input.type === 'scheme' ? input.report.received : undefined;
    if (input.type === 'scheme') this.#deps.milestones?.answered(transaction, input.report);
    if (input.type === 'callback') this.#deps.milestones?.callback(transaction, input.outboxId, input.delivered);
    if (wire === undefined) return [];
    return [{ transactionId: transaction.id, direction: input.type === 'sent' ? 'sent' : 'received', messageName: wire.messageName, messageId: wire.messageId, at, document: wire.document }];
  }

  #env(scheme: SchemeName): DriverEnv {
    const options = this.#options;
    return {
      now: this.#deps.clock.now(),
      ids: this.#deps.ids,
      timeBudgetMs: this.#deps.schemes[scheme]?.timeBudgetMs ?? options.defaultTimeBudgetMs,
      delays: {
        resendDelayMs: (n) => backoff(options.resubmitDelayMs, options.resubmitDelayMaxMs, n - 1),
        enquiryDelayMs: (n) => backoff(options.enquiryDelayMs, options.enquiryDelayMaxMs, n - 1),
        callbackCheckMs: options.callbackCheckMs,
      },
      store: this.#deps.store,
    };
  }

  /** What a decision on `transaction` needs; `original`, its message when the caller holds it (else kept or read). */
  async #context(transaction: TransactionRecord, original?: OriginalMessage): Promise<KindContext> {
    const integrator = this.#deps.integrators.get(transaction.integratorId);
    if (integrator === undefined) throw new AssertionError(`integrator ${transaction.integratorId} is not configured`);
    const connector = this.#deps.connectors.get(transaction.scheme);
    if (connector === undefined) throw new AssertionError(`no connector for ${transaction.scheme}`);
    const partner = this.#deps.partner;
    return { transaction, integrator, connector, ...(original ?? (await this.#original(transaction))), ...(partner === undefined ? {} : { partner }) };
  }

  /**
   * The transaction as stored; with its message in the same read when this engine does not hold
   * the message (a transaction another instance took up: an answer to a transfer it sent).
   */
  async #read(transactionId: string): Promise<TransactionRecord | undefined> {
    const { store } = this.#deps;
    if (this.#messages.has(transactionId)) return store.getTransaction(transactionId);
    const read = await store.getTransactionWithMessage(transactionId);
    if (read === undefined) return undefined;
    if (read.rawBody !== null) this.#messages.set(transactionId, this.#parsed(transactionId, read.rawBody));
    return read.transaction;
  }

  async #original(transaction: TransactionRecord): Promise<OriginalMessage> {
    const cached = this.#messages.get(transaction.id);
    if (cached !== undefined) return cached;
    const stored = await this.#deps.store.findMessage(transaction.integratorId, transaction.messageId);
    if (stored === undefined) throw new AssertionError(`raw message of ${transaction.id} is missing`);
    const original = this.#parsed(transaction.id, stored.rawBody);
    this.#messages.set(transaction.id, original);
    return original;
  }

  /** A stored message parsed: the lossless parser keeps the literal text of every number (amounts, exchange rates) for the scheme message. */
  #parsed(transactionId: string, rawBody: string): OriginalMessage {
    const parsed = parseJson(rawBody);
    if (!parsed.ok) throw new AssertionError(`stored message of ${transactionId} does not parse: ${parsed.message}`);
    return { rawBody, message: parsed.value };
  }

  /** The decision as one atomic change: every transition asserted, one event per state entered, the kind's own messages. */
  #change(driver: KindDriver, context: KindContext, decision: KindDecision): StateChange {
    const { transaction, integrator } = context;
    const now = this.#deps.clock.now();
    let from = transaction.state;
    const outbox: NewOutboxMessage[] = [];
    decision.steps.forEach((step, index) => {
      assertLegalTransition(driver.machine, from, step.state);
      from = step.state;
      // The store gives each state entered the next version; its history cause is the event's payload.
      if (integrator.events) outbox.push(this.#event(context, step.state, transaction.version + 1 + index, now));
    });
    outbox.push(...decision.outbox);
    const last = decision.steps.at(-1);
    const via = decision.steps.slice(0, -1).map((step) => ({ state: step.state, cause: step.payloadJson }));
    const lease = outbox.length > 0 ? this.#deps.delivery?.leaseForNew() : undefined;
    return {
      transactionId: transaction.id,
      expectedVersion: transaction.version,
      toState: last?.state ?? transaction.state,
      ...(via.length > 0 ? { via } : {}),
      at: now,
      cause: last?.payloadJson ?? null,
      dueAt: decision.dueAt,
      data: decision.data,
      outbox,
      ...(lease === undefined ? {} : { leaseOutbox: lease }),
      ...(decision.notify === true ? { notify: true } : {}),
      ...(decision.outcome === undefined ? {} : { outcome: decision.outcome }),
    };
  }

  #event(context: KindContext, type: string, payloadVersion: number, now: number): NewOutboxMessage {
    const { transaction, integrator } = context;
    return eventMessage({
      id: this.#deps.ids.uuid(),
      eventsApiUrl: integrator.eventsApiUrl,
      type,
      kind: transaction.kind,
      typeNames: integrator.eventTypeNames,
      uetr: transaction.uetr,
      scheme: transaction.scheme,
      createdAt: now,
      payloadVersion,
      headers: traceHeaders(transaction),
    });
  }

  /** Scheme calls happen only after the decision is committed; their outcomes are fed back as inputs. */
  async #execute(driver: KindDriver, context: KindContext, commands: readonly string[]): Promise<void> {
    if (this.#deps.sendsToSchemes === false) return;
    const { transaction } = context;
    for (const command of commands) {
      let outcome: Awaited<ReturnType<KindDriver['execute']>>;
      const span = (this.#deps.tracing ?? NO_TRACING).start(`scheme ${command}`, 'client', transaction.traceparent, {
        'regpay.transaction.kind': transaction.kind,
        'regpay.scheme': transaction.scheme,
        'regpay.uetr': transaction.uetr,
        'regpay.integrator': transaction.integratorId,
      });
      try {
        outcome = await driver.execute(context, command, this.#deps.clock.now());
      } catch (error) {
        outcome = { kind: 'failed', retryable: true, error: error instanceof Error ? error.message : String(error) };
      }
      span.end(outcome.kind === 'failed' ? outcome.error : undefined);
      this.#deps.milestones?.submitted(transaction, command, outcome);
      // Fed back outside this transaction's serial slot, which the caller still holds: a message
      // the transport took waits for the transaction's next input; anything else is decided now.
      const sent: EngineInput = { type: 'sent', command, outcome };
      if (outcome.kind === 'delivered' && outcome.reply === undefined && this.#running) this.#hold(transaction.id, sent);
      else
        void this.#track(this.#handle(transaction.id, sent)).catch((error: unknown) =>
          this.#deps.log.error({ err: error, transactionId: transaction.id }, 'engine: recording a scheme call failed; the timer retries it'),
        );
    }
  }
}

/** A scheme answer the engine could not record (its decision stayed stale, or its backlog was full): the sender delivers it again. */
export class AnswerNotRecordedError extends Error {
  override readonly name = 'AnswerNotRecordedError';

  constructor(idempotencyKey: string, why = 'the transaction kept moving under its decision') {
    super(`scheme answer about ${idempotencyKey} not recorded: ${why}; send it again`);
  }
}

/** How one input was handled (see #handle). */
type Handled = 'done' | 'stale' | 'refused' | 'unknown';

/** A transaction's request as received (stored verbatim) and as parsed losslessly. */
interface OriginalMessage {
  readonly rawBody: string;
  readonly message: unknown;
}

/**
 * Whether a decision's change may commute with another instance's (StateChange.commutes): it
 * records a fact from outside that another instance may record at the same moment (what a
 * transport did with a message, a scheme's answer: the sender's record of its submission races
 * the answer a load balancer handed to another instance), enters a state, and makes no scheme
 * call (a decision that makes one is always decided again on the row as it is now).
 */
function commutes(inputs: readonly EngineInput[], decision: KindDecision): boolean {
  return inputs.every((input) => input.type === 'sent' || input.type === 'scheme') && decision.steps.length > 0 && decision.commands.length === 0;
}

/** The acknowledgements the inputs bring, not yet recorded (EngineInput `callback`'s `attempt`). */
function acknowledgements(inputs: readonly EngineInput[]): DeliveryAttempt[] {
  return inputs.flatMap((input) => (input.type === 'callback' && input.attempt !== undefined ? [input.attempt] : []));
}

/** Two decisions made in turn (the second on what the first left) as one. */
function inTurn(first: KindDecision, second: KindDecision): KindDecision {
  const wake = [...new Set([...(first.wake ?? []), ...(second.wake ?? [])])];
  const refused = second.refused ?? first.refused;
  const outcome = second.outcome ?? first.outcome;
  return {
    steps: [...first.steps, ...second.steps],
    data: second.data,
    dueAt: second.dueAt,
    commands: [...first.commands, ...second.commands],
    outbox: [...first.outbox, ...second.outbox],
    ...(first.notify === true || second.notify === true ? { notify: true } : {}),
    ...(refused === undefined ? {} : { refused }),
    ...(outcome === undefined ? {} : { outcome }),
    ...(wake.length > 0 ? { wake } : {}),
  };
}

function sameTimer(transaction: TransactionRecord, decision: KindDecision): boolean {
  return transaction.dueAt === decision.dueAt && JSON.stringify(transaction.data) === JSON.stringify(decision.data);
}

function backoff(firstMs: number, maxMs: number, exponent: number): number {
  return Math.min(maxMs, firstMs * 2 ** Math.max(0, Math.min(exponent, 30)));
}
