import { rmSync } from 'node:fs';
import { pino } from 'pino';
import { openPostgresStore } from '../src/adapters/store-postgres/postgres-store.js';
import { receiveFromScheme, type ReceiveDeps } from '../src/app/receive-from-scheme.js';
import { openSqliteStore } from '../src/adapters/store-sqlite/sqlite-store.js';
import type { Config, IntegratorConfig } from '../src/config/types.js';
import { TIME_BUDGET_MS_DEFAULTS } from '../src/config/schema.js';
import { schemeRulesOf } from '../src/connectors/registry.js';
import type { SchemeName } from '../src/domain/schemes.js';
import { Dispatcher } from '../src/engine/dispatcher.js';
import { Engine } from '../src/engine/engine.js';
import { recoverAtStart } from '../src/engine/crash-recovery.js';
import type { Ids } from '../src/ports/clock.js';
import type { PartnerSender } from '../src/ports/partner.js';
import type { Processing } from '../src/ports/processing.js';
import type { SchemeConnector, SchemeInbound, SchemeRules } from '../src/ports/scheme.js';
import type { Store } from '../src/ports/store.js';
import type { SimIntegrators } from './integrator.js';
import type { SimOperator } from './operator.js';
import type { Random } from './random.js';
import type { Scheduler } from './scheduler.js';
import { storeFaultError, type StoreFaultSource } from './store-faults.js';

/** Wraps the store a process sees (a known bug injected, a fault): given the real one, returns what the process uses. */
export type StoreWrapper = (store: Store, process: ServiceProcess) => Store;

/** What every process of a run shares: the world outside the process (files, operator, integrators, time). */
export interface World {
  readonly file: string;
  readonly config: Config;
  readonly scheduler: Scheduler;
  readonly random: Random;
  readonly ids: Ids;
  readonly operator: SimOperator;
  readonly integrators: SimIntegrators;
  readonly wrapStore?: StoreWrapper;
  /** Wraps the integrators as the process reaches them (a known bug injected into calls or deliveries). */
  readonly wrapPartner?: (partner: PartnerSender) => PartnerSender;
  /** Told of every transaction a write names (its invariants are checked after the step). */
  readonly touched: (transactionId: string) => void;
  /** The store's faults, drawn per call. */
  readonly storeFaults: StoreFaultSource;
  /** A process dies in the middle of a step (a store fault): the run drops it and restarts it later. */
  readonly crash: (process: ServiceProcess, why: string) => void;
  /** PostgreSQL mode (sim/postgres.ts): the database every process opens instead of `file`, and the hooks of a cluster of instances. */
  readonly postgres?: PostgresWorld;
}

/** What a run on PostgreSQL adds to the world (sim/postgres.ts implements it). */
export interface PostgresWorld {
  readonly url: string;
  /** Every call a process makes to its store, raw (counted in flight, observed). */
  storeCall(process: ServiceProcess, method: string, args: readonly unknown[], call: () => Promise<unknown>): Promise<unknown>;
  /** Where the operator's answers reach this process (a load balancer in front of the instances). */
  attach(process: ServiceProcess, inbound: SchemeInbound): Promise<void>;
}

/** The use cases' dependencies, as the HTTP routes get them. */
export interface UseCaseDeps {
  readonly store: Store;
  readonly clock: Scheduler;
  readonly ids: Ids;
  readonly processing: Processing;
  readonly delivery: Dispatcher;
  readonly proxyPayments: Config['proxyPayments'];
  readonly timeBudgetMs: (scheme: SchemeName) => number;
  readonly pollIntervalMs: number;
  readonly expiryHorizonMs: number;
  readonly timers: ReturnType<Scheduler['timersOf']>;
  readonly schemeRules: (scheme: SchemeName) => SchemeRules | undefined;
}

const NEVER = new Promise<never>(() => undefined);

/** A process whose start failed: it exited (main.ts exits on a failed start), and is restarted. */
export class StartFailed extends Error {
  constructor(
    readonly process: ServiceProcess,
    cause: unknown,
  ) {
    super(`incarnation ${process.incarnation} failed to start: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/**
 * One incarnation of the service process: its own store connection on the run's SQLite file,
 * engine, dispatcher and use-case wiring, as main.ts composes them. A crash drops it whole: its
 * timers are cancelled, every call it makes through a port from then on never returns (its
 * promises are abandoned mid-flight, as a dead process's are), and the world's calls into it
 * (a scheme answer) fail, so their senders try again. Writes it had already queued commit or not
 * as the store had them; nothing it held in memory survives.
 */
export class ServiceProcess {
  readonly incarnation: number;
  readonly instanceId: string;
  alive = true;
  /** Its start has finished: before that, a crash fault is its start failing (the run restarts it). */
  #started = false;
  #store: Store | undefined;
  #raw: Store | undefined;
  #deps: UseCaseDeps | undefined;
  readonly #world: World;
  #onDeath: (() => void)[] = [];

  private constructor(world: World, incarnation: number, host: string) {
    this.#world = world;
    this.incarnation = incarnation;
    // instanceIdOf's form: a host, a pid per incarnation, so a restart on that host ends the dead one's leases.
    this.instanceId = `${host}:${incarnation}:x`;
  }

  /** Start an incarnation; one whose start fails (a store fault in its recovery) is dead, as a process that exits is, and rejects with StartFailed. */
  static async start(world: World, incarnation: number, sameHost: boolean, host = 'sim'): Promise<ServiceProcess> {
    const process = new ServiceProcess(world, incarnation, host);
    try {
      await process.#start(sameHost);
    } catch (error) {
      process.crash();
      throw new StartFailed(process, error);
    }
    return process;
  }

  get deps(): UseCaseDeps {
    if (this.#deps === undefined) throw new Error('process not started');
    return this.#deps;
  }

  get store(): Store {
    if (this.#store === undefined) throw new Error('process not started');
    return this.#store;
  }

  async #start(sameHost: boolean): Promise<void> {
    const world = this.#world;
    const { config, scheduler } = world;
    const raw = world.postgres === undefined ? await openSqliteStore(world.file, { writerThread: 'main' }) : await openPostgresStore(world.postgres.url, { poolMax: 5, listenForChanges: true });
    this.#raw = raw;
    const guarded = this.#guard(raw);
    const store = world.wrapStore === undefined ? guarded : world.wrapStore(guarded, this);
    this.#store = store;
    const timers = scheduler.timersOf(this.incarnation);
    const random = () => world.random.next();
    const integrators = new Map<string, IntegratorConfig>(config.integrators.map((integrator) => [integrator.id, integrator]));
    const log = pino({ level: 'silent' });
    const connector = this.#guardConnector(world.operator);
    const connectors = new Map<SchemeName, SchemeConnector>(world.operator.schemes.map((scheme) => [scheme, connector]));
    const sender = world.integrators;
    // The integrators' answers, to this process only while it lives (the engine's calls as the dispatcher's deliveries).
    const guardedPartner: PartnerSender = {
      send: (message, integrator) => this.#call(() => sender.send(message, integrator)),
      call: (call, integrator) => this.#call(() => sender.call(call, integrator)),
      close: () => Promise.resolve(),
    };
    const partner = world.wrapPartner === undefined ? guardedPartner : world.wrapPartner(guardedPartner);
    const dispatcher: Dispatcher = new Dispatcher({
      store,
      sender: partner,
      integrators,
      clock: scheduler,
      timers,
      random,
      instanceId: this.instanceId,
      log,
      retryScheduleMs: config.delivery.retryScheduleMs,
      retryJitterRatio: config.delivery.retryJitterRatio,
      leaseMs: config.delivery.leaseMs,
      pollIntervalMs: config.delivery.pollIntervalMs,
      onCallbackOutcome: (record, outcome) => engine.callbackOutcome(record, outcome.delivered),
      recordCallbackAck: (record, attempt) => engine.callbackAcknowledged(record, attempt),
    });
    const engine: Engine = new Engine({
      store,
      clock: scheduler,
      ids: world.ids,
      connectors,
      integrators,
      schemes: config.schemes,
      instanceId: this.instanceId,
      log,
      delivery: dispatcher,
      partner,
      timers,
      random,
      options: { pollIntervalMs: 1_000 },
    });
    const processing: Processing = {
      leaseForNew: () => engine.leaseForNew(),
      firstDecision: (work) => engine.firstDecision(work),
      accepted: (work) => engine.accepted(work),
      decideNow: (transactionId) => engine.decideNow(transactionId),
      request: (transactionId, request) => engine.request(transactionId, request),
    };
    this.#deps = {
      store,
      clock: scheduler,
      ids: world.ids,
      processing,
      delivery: dispatcher,
      proxyPayments: config.proxyPayments,
      timeBudgetMs: (scheme) => config.schemes[scheme]?.timeBudgetMs ?? TIME_BUDGET_MS_DEFAULTS[scheme],
      pollIntervalMs: config.server.heldRequestPollMs,
      expiryHorizonMs: config.requestToPay.expiryHorizonMs,
      timers,
      schemeRules: schemeRulesOf,
    };
    const receiving: ReceiveDeps = { store, clock: scheduler, ids: world.ids, integrators, schemes: config.schemes, log, processing, delivery: dispatcher };
    const inbound: SchemeInbound = {
      receive: (report) => (this.alive ? this.#call(() => engine.receive(report), true) : Promise.reject(new Error('service down'))),
      originate: (request) => (this.alive ? this.#call(() => receiveFromScheme(receiving, request), true) : Promise.reject(new Error('service down'))),
    };
    await (world.postgres === undefined ? world.operator.start(inbound) : world.postgres.attach(this, inbound));
    // Another host's restart leaves the dead process's leases to lapse; the same host's ends them.
    const exists = (pid: number): boolean => pid === this.incarnation || !sameHost;
    await recoverAtStart(store, this.instanceId, scheduler.now(), exists);
    engine.start();
    dispatcher.start();
    this.#started = true;
  }

  /** The process dies: nothing it started continues, nothing it holds in memory is kept. */
  crash(): void {
    if (!this.alive) return;
    this.alive = false;
    this.#world.scheduler.cancelOwner(this.incarnation);
    for (const callback of this.#onDeath) callback();
    this.#onDeath = [];
  }

  /** Close the dead process's connection once its queued writes have gone their way. */
  async bury(): Promise<void> {
    await this.#raw?.close();
  }

  /** A call from this process through a port: once the process is dead its answer never arrives; `failOnDeath`: the caller outside learns it failed. */
  #call<T>(call: () => Promise<T>, failOnDeath = false): Promise<T> {
    if (!this.alive) return NEVER;
    return new Promise<T>((resolve, reject) => {
      if (failOnDeath) this.#onDeath.push(() => reject(new Error('service crashed')));
      call().then(
        (value) => {
          if (this.alive) resolve(value);
          else if (failOnDeath) reject(new Error('service crashed'));
        },
        (error: unknown) => {
          if (this.alive || failOnDeath) reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
  }

  /** The process's store: every call through the port is noted, may meet a store fault, and never returns once the process is dead. */
  #guard(store: Store): Store {
    const world = this.#world;
    const postgres = world.postgres;
    return new Proxy(store, {
      get: (target, property, receiver) => {
        const value: unknown = Reflect.get(target, property, receiver);
        if (typeof value !== 'function') return value;
        const method = value as (...args: unknown[]) => unknown;
        if (property === 'onChange' || property === 'close') return method.bind(target);
        const name = String(property);
        return (...args: unknown[]) => {
          if (!this.alive) return NEVER;
          const fault = world.storeFaults.draw(name);
          if (fault === 'crashBeforeWrite') {
            if (!this.#started) return Promise.reject(new Error(`the process died before ${name} reached the database`));
            world.crash(this, `before ${name} reached the database`);
            return NEVER;
          }
          if (fault === 'writeFails' || fault === 'readFails') return Promise.reject(storeFaultError(fault, name));
          noteTouched(property, args, world.touched);
          const call = () => method.apply(target, args) as Promise<unknown>;
          const result = this.#call(postgres === undefined ? call : () => postgres.storeCall(this, name, args, call));
          if (fault === 'writeLostAfterCommit') return result.then(() => Promise.reject(storeFaultError(fault, name)));
          if (fault === 'crashAfterWrite') {
            return result.then(() => {
              if (!this.#started) throw new Error(`the process died after ${name} committed`);
              world.crash(this, `after ${name} committed, before its caller learnt of it`);
              return NEVER;
            });
          }
          return result;
        };
      },
    });
  }

  #guardConnector(operator: SimOperator): SchemeConnector {
    const call = <T>(fn: () => Promise<T>): Promise<T> => this.#call(fn);
    return {
      family: operator.family,
      schemes: operator.schemes,
      capabilities: operator.capabilities,
      check: () => operator.check(),
      checkLookup: () => operator.checkLookup(),
      checkRequestToPay: () => operator.checkRequestToPay(),
      submit: (transfer) => call(() => operator.submit(transfer)),
      enquire: (transfer) => call(() => operator.enquire(transfer)),
      resolve: (lookup) => call(() => operator.resolve(lookup)),
      requestToPay: (request) => call(() => operator.requestToPay(request)),
      cancelRequestToPay: (cancellation) => call(() => operator.cancelRequestToPay(cancellation)),
      answerLookup: (answer) => call(() => operator.answerLookup(answer)),
      answerCredit: (answer) => call(() => operator.answerCredit(answer)),
      reportRequestToPay: (answer) => call(() => operator.reportRequestToPay(answer)),
      answerWithdrawal: (answer) => call(() => operator.answerWithdrawal(answer)),
      start: (inbound) => operator.start(inbound),
      stop: () => operator.stop(),
    };
  }
}

function noteTouched(method: string | symbol, args: unknown[], touched: (transactionId: string) => void): void {
  const first = args[0] as Record<string, unknown> | undefined;
  if (method === 'applyChange' && typeof first?.transactionId === 'string') touched(first.transactionId);
  if (method === 'intake' && typeof first?.id === 'string') touched(first.id);
  if (method === 'recordRequest' && typeof first?.transactionId === 'string') touched(first.transactionId);
}

export function removeDatabase(file: string): void {
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
}
