import type { Logger } from 'pino';
import type { IntegratorConfig, SchemeConfig } from '../config/types.js';
import { eventMessage } from '../domain/events.js';
import {
  assertTransition,
  CT,
  decide,
  isCtState,
  type CtData,
  type CtDecision,
  type CtState,
  type CtEnv,
  type CtInput,
  type Verdict,
} from '../domain/machines/credit-transfer.js';
import type { CreditTransfer, OriginalMessage } from '../domain/messages/credit-transfer.js';
import { paymentStatusReportJson } from '../domain/messages/payment-status-report.js';
import type { SchemeName } from '../domain/schemes.js';
import { AssertionError } from '../lib/assert.js';
import { BoundedMap } from '../lib/bounded-map.js';
import { parseJson } from '../lib/json.js';
import { currencyDecimals, parseAmount } from '../lib/money.js';
import { childTraceparent } from '../lib/trace.js';
import type { Clock, Ids } from '../ports/clock.js';
import type { OutboundTransfer, SchemeConnector, SchemeInbound, SchemeLimits, SchemeReport } from '../ports/scheme.js';
import type { OutboxDelivery } from '../ports/delivery.js';
import type { AcceptedTransfer, TransferProcessing } from '../ports/processing.js';
import type { Lease, NewOutboxMessage, OutboxRecord, StateChange, Store, TransactionRecord } from '../ports/store.js';
import { KeyedSerialQueue } from './keyed-queue.js';

export interface EngineOptions {
  /** Transactions claimed per poll. */
  readonly claimBatchMax: number;
  /** How often the engine looks for due timers when nobody wakes it. */
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
  /** How often an undelivered outcome callback is compared with its outbox row (see CtEnv). */
  readonly callbackCheckMs: number;
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
  callbackCheckMs: 60_000,
};

/** Where an input comes from, when the decision needs to know. */
interface InputOrigin {
  /** The outbox message whose delivery outcome this is (only the transfer's own outcome callback moves it). */
  readonly callbackId?: string;
  /** The scheme report this is: ignored unless its UETR is the transaction's. */
  readonly from?: SchemeReport;
}

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
  /** Told every state entered, after its commit (metrics). */
  readonly stateEntered?: (state: string) => void;
  readonly options?: Partial<EngineOptions>;
}

/**
 * The asynchronous runner of credit transfers. It claims transactions whose durable timer is
 * due, receives scheme answers and callback outcomes, asks the pure state machine what to do,
 * commits the decision (states entered, history, events, callbacks, next timer) atomically, and
 * only then talks to the scheme. Everything it needs to resume lives in the database: after a
 * crash, due timers and expired leases bring every transaction back.
 */
export class Engine implements SchemeInbound, TransferProcessing {
  readonly #deps: EngineDeps;
  readonly #options: EngineOptions;
  /** Inputs for one transaction are handled one at a time in this instance (versions guard across instances). */
  readonly #serial = new KeyedSerialQueue();
  #running = false;
  #loop: Promise<void> | undefined;
  #wakeUp: (() => void) | undefined;
  #woken = false;
  readonly #inFlight = new Set<Promise<unknown>>();
  /** The original message of recent transfers: it never changes, and each transfer needs it at several steps. */
  readonly #messages = new BoundedMap<string, OriginalMessage>(10_000);
  /**
   * Recent transactions as this engine last claimed or changed them, so a decision need not read
   * the row it just wrote. A record here may be stale (another instance changed the row since):
   * a change decided on it is refused as stale by its expected version and decided again on the
   * row read afresh, and a decision to do nothing is only trusted on a row read afresh.
   */
  readonly #transactions = new BoundedMap<string, TransactionRecord>(10_000);

  constructor(deps: EngineDeps) {
    this.#deps = deps;
    this.#options = { ...DEFAULT_ENGINE_OPTIONS, ...deps.options };
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#loop = this.#run();
  }

  /** Stop claiming, let in-flight work finish. Leases of unfinished work lapse and another instance (or restart) takes over. */
  async stop(): Promise<void> {
    this.#running = false;
    this.wake();
    await this.#loop;
    await Promise.allSettled([...this.#inFlight]);
  }

  /**
   * The lease to write a transfer this instance accepts with (NewTransaction.leaseTransaction), so
   * `accepted` takes it up at once without a claim; undefined while stopped or at inFlightMax
   * (the transfer is then left to claims).
   */
  leaseForNew(): Lease | undefined {
    if (!this.#running || this.#inFlight.size >= this.#options.inFlightMax) return undefined;
    return { owner: this.#deps.instanceId, leaseMs: this.#options.leaseMs };
  }

  /**
   * A transfer this process just accepted, with its message as received and as parsed (the
   * engine then neither reads nor parses it again): taken up at once when it was written leased
   * to this engine, otherwise looked for now. Once stopped, such a lease lapses and the transfer
   * is claimed by its timer.
   */
  accepted(transfer: AcceptedTransfer): void {
    this.#messages.set(transfer.transactionId, { rawBody: transfer.rawBody, message: transfer.message });
    if (transfer.leased !== undefined && this.#running) this.#takeUp(transfer.leased);
    else this.wake();
  }

  /** Look for due work now (e.g. right after an intake committed). */
  wake(): void {
    this.#woken = true;
    this.#wakeUp?.();
  }

  /**
   * Inbound side of the scheme port: an answer from a scheme. It names the transaction by the
   * idempotency key it was submitted with; an answer whose transaction is unknown, or whose UETR is
   * not that transaction's, is ignored (checked on the row the decision is made on, so an answer
   * following another of the same transfer reads nothing).
   */
  async receive(report: SchemeReport): Promise<void> {
    const answer = {
      kind: report.kind,
      status: report.status,
      ...(report.reasonCode === undefined ? {} : { reasonCode: report.reasonCode }),
      ...(report.reasonText === undefined ? {} : { reasonText: report.reasonText }),
      payloadJson: JSON.stringify(report.message),
    };
    await this.#track(this.#handle(report.idempotencyKey, { type: 'scheme', answer }, { from: report }));
  }

  /** From the dispatcher: an attempt to deliver a callback was recorded. Only the transfer's own outcome callback moves it. */
  async callbackOutcome(record: OutboxRecord, delivered: boolean): Promise<void> {
    await this.#track(this.#handle(record.transactionId, { type: 'callback', delivered }, { callbackId: record.id }));
  }

  async #run(): Promise<void> {
    const { store, clock, instanceId, log } = this.#deps;
    while (this.#running) {
      while (this.#inFlight.size >= this.#options.inFlightMax) await Promise.race(this.#inFlight).catch(() => undefined);
      this.#woken = false;
      let claimed: TransactionRecord[] = [];
      try {
        claimed = await store.claimDue({ now: clock.now(), limit: this.#options.claimBatchMax, owner: instanceId, leaseMs: this.#options.leaseMs });
      } catch (error) {
        log.error({ err: error }, 'engine: claiming due work failed; retrying');
      }
      for (const transaction of claimed) this.#takeUp(transaction);
      if (claimed.length < this.#options.claimBatchMax && !this.#woken && this.#running) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.#options.pollIntervalMs);
          this.#wakeUp = () => {
            clearTimeout(timer);
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
    void work.finally(() => this.#inFlight.delete(work)).catch(() => undefined);
    return work;
  }

  #handle(transactionId: string, input: CtInput, about: InputOrigin = {}): Promise<void> {
    return this.#serial.run(transactionId, () => this.#decideAndApply(transactionId, input, about));
  }

  async #decideAndApply(transactionId: string, input: CtInput, { callbackId, from }: InputOrigin): Promise<void> {
    const { store } = this.#deps;
    // A decision refused as stale is made again, at most staleRetriesMax times; one that found
    // nothing to do on a remembered row is made again once, on the row as stored.
    let staleRetries = 0;
    let storedOnly = false;
    for (;;) {
      const remembered = storedOnly ? undefined : this.#transactions.get(transactionId);
      this.#transactions.delete(transactionId);
      const transaction = remembered ?? (await store.getTransaction(transactionId));
      if (from !== undefined && transaction?.uetr !== from.uetr) {
        this.#deps.log.warn({ uetr: from.uetr, scheme: from.scheme }, 'scheme answer for an unknown transfer ignored');
        return;
      }
      if (transaction === undefined) throw new AssertionError(`transaction ${transactionId} vanished`);
      if (transaction.kind !== 'CREDIT_TRANSFER') return; // other operations have their own machines
      const state = transaction.state;
      if (!isCtState(state)) throw new AssertionError(`unknown credit-transfer state ${state}`);
      const data = transaction.data as CtData;
      // A status request's re-sent status is a callback too, but only the verdict's own one moves the transfer.
      const moves = input.type !== 'callback' || callbackId === data.callbackId;
      const context = await this.#context(transaction);
      const decision = moves ? decide({ state, data, dueAt: transaction.dueAt }, await this.#refine(context, state, data, input), this.#env(transaction.scheme)) : undefined;
      if (decision === undefined || (decision.steps.length === 0 && decision.commands.length === 0 && sameTimer(transaction, decision))) {
        // Nothing to do, unless the remembered row was stale: then judge again on the row as stored.
        if (remembered !== undefined) {
          storedOnly = true;
          continue;
        }
        return;
      }
      const change = this.#change(context, decision);
      const outcome = await store.applyChange(change);
      if (!outcome.ok) {
        if (outcome.reason !== 'stale') throw new AssertionError(`transaction ${transactionId} not found while changing it`);
        // Moved on elsewhere: decide again on the fresh state.
        staleRetries += 1;
        if (staleRetries > this.#options.staleRetriesMax) break;
        continue;
      }
      this.#transactions.set(transactionId, {
        ...transaction,
        state: change.toState,
        version: outcome.version,
        updatedAt: change.at,
        dueAt: change.dueAt,
        data: change.data ?? transaction.data,
      });
      // Whatever was due at once is already leased to this instance and goes out without a claim.
      if (outcome.leased.length > 0) this.#deps.delivery?.take(outcome.leased);
      else if (change.outbox.length > 0 && change.leaseOutbox === undefined) this.#deps.delivery?.wake();
      for (const step of decision.steps) this.#deps.stateEntered?.(step.state);
      await this.#execute(context, decision);
      return;
    }
    this.#deps.log.warn({ transactionId }, 'engine: decision stayed stale; the timer retries it');
  }

  /**
   * Complete a tick with what the machine cannot look up itself: the scheme's rules for a new
   * transfer, and the state of the outcome callback's outbox row (the dispatcher's notice of it
   * may have been lost in a crash; the row is the truth).
   */
  async #refine(context: TransferContext, state: CtState, data: CtData, input: CtInput): Promise<CtInput> {
    if (input.type !== 'tick') return input;
    if (state === CT.RECEIVED) return { type: 'tick', rules: this.#rules(context) };
    if ((state === CT.RESPONSE_PENDING || state === CT.RESPONSE_DELIVERY_FAILURE) && data.callbackId !== undefined) {
      const row = (await this.#deps.store.outbox(context.transaction.id)).find((message) => message.id === data.callbackId);
      if (row?.status === 'DELIVERED') return { type: 'callback', delivered: true };
      if (row !== undefined && row.attempts > 0 && state === CT.RESPONSE_PENDING) return { type: 'callback', delivered: false };
    }
    return input;
  }

  #env(scheme: SchemeName): CtEnv {
    const options = this.#options;
    return {
      now: this.#deps.clock.now(),
      timeBudgetMs: this.#deps.schemes[scheme]?.timeBudgetMs ?? options.defaultTimeBudgetMs,
      resubmitDelayMs: (n) => backoff(options.resubmitDelayMs, options.resubmitDelayMaxMs, n - 1),
      enquiryDelayMs: (n) => backoff(options.enquiryDelayMs, options.enquiryDelayMaxMs, n - 1),
      callbackCheckMs: options.callbackCheckMs,
    };
  }

  async #context(transaction: TransactionRecord): Promise<TransferContext> {
    const integrator = this.#deps.integrators.get(transaction.integratorId);
    if (integrator === undefined) throw new AssertionError(`integrator ${transaction.integratorId} is not configured`);
    const connector = this.#deps.connectors.get(transaction.scheme);
    if (connector === undefined) throw new AssertionError(`no connector for ${transaction.scheme}`);
    return { transaction, integrator, connector, ...(await this.#original(transaction)) };
  }

  async #original(transaction: TransactionRecord): Promise<OriginalMessage> {
    const cached = this.#messages.get(transaction.id);
    if (cached !== undefined) return cached;
    const stored = await this.#deps.store.findMessage(transaction.integratorId, transaction.messageId);
    if (stored === undefined) throw new AssertionError(`raw message of ${transaction.id} is missing`);
    // The lossless parser keeps the literal text of every number (instructed amount, exchange rate) for the scheme message.
    const parsed = parseJson(stored.rawBody);
    if (!parsed.ok) throw new AssertionError(`stored message of ${transaction.id} does not parse: ${parsed.message}`);
    const original = { rawBody: stored.rawBody, message: parsed.value as CreditTransfer };
    this.#messages.set(transaction.id, original);
    return original;
  }

  #rules(context: TransferContext): ReturnType<SchemeConnector['check']> {
    return context.connector.check(outboundTransfer(context), limitsOf(context.integrator, context.transaction));
  }

  #change(context: TransferContext, decision: CtDecision): StateChange {
    const { transaction, integrator } = context;
    const now = this.#deps.clock.now();
    let from = transaction.state;
    const outbox: NewOutboxMessage[] = [];
    decision.steps.forEach((step, index) => {
      assertTransition(from, step.state);
      from = step.state;
      // The store gives each state entered the next version; its history cause is the event's payload.
      if (integrator.events) outbox.push(this.#event(context, step.state, transaction.version + 1 + index, now));
    });
    let data: CtData = decision.data;
    if (decision.callback !== undefined) {
      const callback = this.#callback(context, decision.callback, now);
      outbox.push(callback);
      data = { ...data, callbackId: callback.id };
    }
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
      data: data as Record<string, unknown>,
      outbox,
      ...(lease === undefined ? {} : { leaseOutbox: lease }),
    };
  }

  #event(context: TransferContext, type: string, payloadVersion: number, now: number): NewOutboxMessage {
    const { transaction, integrator } = context;
    return eventMessage({
      id: this.#deps.ids.uuid(),
      eventsApiUrl: integrator.eventsApiUrl,
      type,
      uetr: transaction.uetr,
      scheme: transaction.scheme,
      createdAt: now,
      payloadVersion,
      headers: traceHeaders(transaction),
    });
  }

  #callback(context: TransferContext, verdict: Verdict, now: number): NewOutboxMessage {
    const id = this.#deps.ids.uuid();
    return {
      id,
      channel: 'callback',
      url: `${context.integrator.partnerApiUrl}/transactions/outbound/credit-transfer-response`,
      body: paymentStatusReportJson({ original: context.message, verdict, messageIdentification: id.replaceAll('-', ''), createdAt: now }),
      headers: traceHeaders(context.transaction),
      availableAt: now,
    };
  }

  /** Scheme calls happen only after the decision is committed; their results are fed back as inputs. */
  async #execute(context: TransferContext, decision: CtDecision): Promise<void> {
    for (const command of decision.commands) {
      const transfer = outboundTransfer(context);
      let result: CtInput;
      try {
        const sent = command === 'submit' ? await context.connector.submit(transfer) : await context.connector.enquire(transfer);
        result = sent.kind === 'delivered' ? { type: 'sent', what: command, ok: true } : { type: 'sent', what: command, ok: false, retryable: sent.retryable, error: sent.error };
      } catch (error) {
        result = { type: 'sent', what: command, ok: false, retryable: true, error: error instanceof Error ? error.message : String(error) };
      }
      // Fed back outside this transaction's serial slot, which the caller still holds.
      void this.#track(this.#handle(context.transaction.id, result)).catch((error: unknown) =>
        this.#deps.log.error({ err: error, transactionId: context.transaction.id }, 'engine: recording a scheme call failed; the timer retries it'),
      );
    }
  }
}

interface TransferContext {
  readonly transaction: TransactionRecord;
  readonly integrator: IntegratorConfig;
  readonly connector: SchemeConnector;
  readonly rawBody: string;
  readonly message: CreditTransfer;
}

function outboundTransfer(context: TransferContext): OutboundTransfer {
  const { transaction } = context;
  if (transaction.amountMinor === null || transaction.currency === null) throw new AssertionError(`credit transfer ${transaction.id} has no amount`);
  return {
    transactionId: transaction.id,
    integratorId: transaction.integratorId,
    scheme: transaction.scheme,
    uetr: transaction.uetr,
    // Derived from the transaction, never random per attempt (STYLE.md rule 6).
    idempotencyKey: transaction.id,
    message: context.message,
    amount: { currency: transaction.currency, minor: transaction.amountMinor },
    traceparent: transaction.traceparent,
  };
}

/** The integrator's configured maximum for the scheme, in minor units of the transfer's currency. */
function limitsOf(integrator: IntegratorConfig, transaction: TransactionRecord): SchemeLimits {
  const max = integrator.limits.amountMax[transaction.scheme];
  if (max === undefined || transaction.currency === null || currencyDecimals(transaction.currency) === undefined) return {};
  const parsed = parseAmount(max, transaction.currency);
  return parsed.ok ? { amountMaxMinor: parsed.money.minor } : {};
}

function traceHeaders(transaction: TransactionRecord): Record<string, string> {
  if (transaction.traceparent === null) return {};
  const headers: Record<string, string> = { traceparent: childTraceparent(transaction.traceparent) };
  if (transaction.tracestate !== null) headers.tracestate = transaction.tracestate;
  return headers;
}

function sameTimer(transaction: TransactionRecord, decision: CtDecision): boolean {
  return transaction.dueAt === decision.dueAt && JSON.stringify(transaction.data) === JSON.stringify(decision.data);
}

function backoff(firstMs: number, maxMs: number, exponent: number): number {
  return Math.min(maxMs, firstMs * 2 ** Math.max(0, Math.min(exponent, 30)));
}
