import { LinkClient } from '../connectors/operator-link/link-client.js';
import { LinkServer, type LinkReply } from '../connectors/operator-link/link-server.js';
import type { InboundOrder } from '../connectors/simulator/inbound-values.js';
import { SimulatedOperator, type InboundView, type OperatorAction, type OriginateResult } from '../connectors/simulator/simulated-operator.js';
import type { SchemeName } from '../domain/schemes.js';
import { parseLinkPrivateKey, parseLinkPublicKey } from '../lib/link-keys.js';
import type { Clock } from '../ports/clock.js';
import type { SubmitOutcome } from '../ports/scheme.js';
import type { OperatorConfig } from './config.js';
import { ControlServer } from './control.js';
import { Deliveries, type DeliveriesLog } from './deliveries.js';
import { OperatorStore } from './store.js';

/**
 * The standalone scheme operator simulator (docs/operator-link.md): the built-in simulator's
 * behaviours and test values (simulated-operator.ts, the same code) behind the operator link, with
 * its state in its own SQLite file. Every service instance points its `operator-link` transport at
 * it, so all of them talk to one operator: an enquiry reaches the operator that has the transfer,
 * TRANSIENT-FAILURE fails once whoever sends, and a restart of the operator forgets nothing.
 *
 * A message from the service is taken in one store transaction (its records and the answers it
 * schedules), and only then answered 202. The answers are scheduled in the store, played by
 * timers at their time (at once after a restart when it has passed) and delivered from the store
 * until an instance acknowledged each (deliveries.ts).
 */

export type OperatorLog = DeliveriesLog & { info(details: Record<string, unknown>, message: string): void };

/** A scheduled action whose run failed (a store error) is run again this much later. */
const RERUN_DELAY_MS = 1_000;

export class OperatorSimulator {
  readonly #clock: Clock;
  readonly #log: OperatorLog;
  readonly #store: OperatorStore;
  readonly #operators = new Map<SchemeName, SimulatedOperator>();
  readonly #server: LinkServer;
  readonly #client: LinkClient;
  readonly #deliveries: Deliveries;
  readonly #timers = new Map<number, NodeJS.Timeout>();
  /** Timers to arm once the transaction in progress commits. */
  #scheduled: { id: number; dueAt: number }[] = [];
  #stopped = false;
  #control: ControlServer | undefined;
  #controlPort: number | undefined;

  private constructor(config: OperatorConfig, clock: Clock, log: OperatorLog) {
    this.#clock = clock;
    this.#log = log;
    this.#store = new OperatorStore(config.store);
    const { link } = config;
    for (const [scheme, settings] of config.schemes) {
      const operator = new SimulatedOperator(
        { scheme, clock, latencyMs: settings.latencyMs, lateAnswerMs: settings.lateAnswerMs, ...(settings.directoryPath === undefined ? {} : { directoryPath: settings.directoryPath }) },
        this.#store.state(scheme),
        {
          later: (delayMs, action) => this.#later(scheme, delayMs, action),
          deliver: (document, subject, delayMs) => {
            const now = clock.now();
            this.#store.addDelivery(scheme, subject, document, now, now + delayMs);
          },
        },
      );
      this.#operators.set(scheme, operator);
    }
    const signingKey = parseLinkPrivateKey(link.signingKey.reveal());
    if (!signingKey.ok) throw new Error(`link.signingKeyFile ${signingKey.reason}, though the configuration passed it`);
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
      if (!parsed.ok) throw new Error(`link.bankKeyFiles: ${parsed.reason}, though the configuration passed it`);
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
  static async start(config: OperatorConfig, log: OperatorLog, clock: Clock = { now: () => Date.now() }): Promise<OperatorSimulator> {
    const simulator = new OperatorSimulator(config, clock, log);
    simulator.#resume();
    await simulator.#server.listen();
    if (config.control !== undefined) {
      simulator.#control = new ControlServer(simulator);
      simulator.#controlPort = await simulator.#control.listen(config.control.host, config.control.port);
    }
    return simulator;
  }

  get port(): number {
    return this.#server.port;
  }

  /** The control listener's port, when it has one. */
  get controlPort(): number | undefined {
    return this.#controlPort;
  }

  /**
   * Originates the order's traffic for an integrator's institution on `scheme` (the receiving
   * direction): the transaction, its first document and its timers are one store transaction, the
   * documents delivered from the store like every answer.
   */
  originate(scheme: SchemeName, order: InboundOrder): OriginateResult {
    const operator = this.#operators.get(scheme);
    if (operator === undefined) return { ok: false, error: `${scheme} is not simulated here` };
    return this.#transaction(() => operator.originate(order));
  }

  /** What the operator has seen of the transaction it originated on `scheme` with this UETR. */
  inboundOf(scheme: SchemeName, uetr: string): InboundView | undefined {
    return this.#operators.get(scheme)?.inboundOf(uetr);
  }

  /** Stops listening, then playing and delivering; what is pending stays in the store for the next start. */
  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#control?.close();
    await this.#server.close();
    for (const timer of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
    await this.#deliveries.stop();
    await this.#client.close();
    this.#store.close();
  }

  #resume(): void {
    const now = this.#clock.now();
    const pending = this.#store.scheduled();
    for (const row of pending) this.#arm(row.id, row.dueAt);
    this.#store.allDueBy(now);
    const undelivered = this.#store.pendingDeliveries;
    if (pending.length > 0 || undelivered > 0) this.#log.info({ scheduled: pending.length, undelivered }, 'operator simulator: resuming the answers its store holds');
    this.#deliveries.wake();
  }

  /** A message of the service: taken with everything it changes in one transaction, then answered. */
  #take(scheme: SchemeName, document: string): LinkReply {
    const operator = this.#operators.get(scheme);
    if (operator === undefined) return { status: 404, message: `${scheme} is not simulated here` };
    const outcome = this.#transaction(() => operator.take(document));
    return replyOf(outcome);
  }

  /** Runs `work` in one store transaction; the timers it scheduled are armed and the deliveries woken once it committed. */
  #transaction<T>(work: () => T): T {
    this.#scheduled = [];
    try {
      const result = this.#store.transaction(work);
      for (const { id, dueAt } of this.#scheduled) this.#arm(id, dueAt);
      this.#deliveries.wake();
      return result;
    } finally {
      this.#scheduled = [];
    }
  }

  #later(scheme: SchemeName, delayMs: number, action: OperatorAction): void {
    const dueAt = this.#clock.now() + delayMs;
    this.#scheduled.push({ id: this.#store.schedule(scheme, dueAt, action), dueAt });
  }

  #arm(id: number, dueAt: number): void {
    if (this.#stopped) return;
    const timer = setTimeout(() => this.#fire(id), Math.max(dueAt - this.#clock.now(), 0));
    this.#timers.set(id, timer);
  }

  /** A scheduled action's time: taken out of the store and run in one transaction. */
  #fire(id: number): void {
    this.#timers.delete(id);
    if (this.#stopped) return;
    try {
      this.#transaction(() => {
        const row = this.#store.takeScheduled(id);
        if (row === undefined) return;
        const operator = this.#operators.get(row.scheme as SchemeName);
        if (operator === undefined) this.#log.warn({ scheme: row.scheme }, 'operator simulator: an answer scheduled for a scheme no longer simulated is dropped');
        else operator.run(row.action);
      });
    } catch (error) {
      this.#log.error({ err: error, scheduled: id }, 'operator simulator: a scheduled answer failed; run again shortly');
      this.#arm(id, this.#clock.now() + RERUN_DELAY_MS);
    }
  }
}

/** 202: taken (its answers follow). A failure the operator says may pass is 503, any other 422. */
function replyOf(outcome: SubmitOutcome): LinkReply {
  if (outcome.kind === 'delivered') return { status: 202 };
  return { status: outcome.retryable ? 503 : 422, message: outcome.error };
}
