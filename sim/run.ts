import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { acceptCreditTransfer } from '../src/app/accept-credit-transfer.js';
import { determineIdentifier } from '../src/app/determine-identifier.js';
import { requestCreditTransferStatus } from '../src/app/request-credit-transfer-status.js';
import { cancelRequestToPay, requestToPay, requestToPayStatus } from '../src/app/request-to-pay.js';
import { configFromObject } from '../src/config/load.js';
import type { Config, IntegratorConfig } from '../src/config/types.js';
import type { TransactionKind } from '../src/domain/kinds.js';
import { MACHINES } from '../src/domain/machines/registry.js';
import { validateIdentifierDeterminationRequest } from '../src/domain/messages/identifier-determination.js';
import { validatePaymentStatusRequest } from '../src/domain/messages/payment-status-request.js';
import { validateRequestToPay, validateRequestToPayCancellation, validateRequestToPayStatusRequest } from '../src/domain/messages/request-to-pay.js';
import { validateCreditTransfer } from '../src/domain/messages/validate.js';
import { toApiError } from '../src/http/plugins/errors.js';
import { parseJson } from '../src/lib/json.js';
import type { PartnerSender } from '../src/ports/partner.js';
import type { Store } from '../src/ports/store.js';
import { pgInspector, sqliteInspector, type Inspector, type TransactionView } from './inspect.js';
import { Instances } from './instances.js';
import { NO_INTEGRATOR_FAULTS, SimIntegrators, type IntegratorFaults } from './integrator.js';
import { NO_SCHEME_FAULTS, SimOperator, type SchemeFaults } from './operator.js';
import { Random } from './random.js';
import { Scheduler, settle } from './scheduler.js';
import { PostgresCluster, seedDatabase } from './postgres.js';
import { NO_STORE_FAULTS, StoreFaultSource, type StoreFaults } from './store-faults.js';
import { removeDatabase, type ServiceProcess, type StoreWrapper, type UseCaseDeps, type World } from './service.js';
import { isInbound, SimInbound } from './inbound.js';
import { about, SIM_INTEGRATORS, simCreditTransfer, simLookup, simRequestToPay, type SimIntegrator } from './workload.js';

/** Probabilities of the faults that are neither the scheme's nor the integrators'. */
/**
 * Faults of the process, the clock and the operator, each a Poisson process in simulated time
 * (its mean interval), drawn at each step for the time since the step before: a busy second,
 * which takes hundreds of steps, is no likelier to crash than a quiet one.
 */
export interface ProcessFaults {
  /** The process crashes (at a step), on average once in this many simulated ms. */
  readonly crashMeanMs: number;
  /** The clock jumps forward (minutes to hours). */
  readonly clockJumpMeanMs: number;
  /** The scheme operator restarts (answers not yet sent are lost). */
  readonly operatorRestartMeanMs: number;
}

export interface SimFaults {
  readonly scheme: SchemeFaults;
  readonly integrator: IntegratorFaults;
  readonly store: StoreFaults;
  readonly process: ProcessFaults;
}

export const DEFAULT_FAULTS: SimFaults = {
  scheme: { submitFails: 0.05, submitFailsAfterTaking: 0.03, answerLost: 0.05, answerDuplicated: 0.05, answerLate: 0.03, neverAnswers: 0.02, enquiryStale: 0.1 },
  integrator: { serverError: 0.05, timeout: 0.02, ackLost: 0.5, outage: 0.002 },
  store: { writeFails: 0.002, writeLostAfterCommit: 0.001, readFails: 0.001, crashBeforeWrite: 0.00002, crashAfterWrite: 0.00005 },
  process: { crashMeanMs: 180_000, clockJumpMeanMs: 1_200_000, operatorRestartMeanMs: 1_200_000 },
};

export interface SimOptions {
  readonly seed: number;
  readonly transactions: number;
  readonly faults?: SimFaults;
  /** A known bug, injected through a port. */
  readonly wrapStore?: StoreWrapper;
  /** A known bug, injected between the process and the integrators. */
  readonly wrapPartner?: (partner: PartnerSender) => PartnerSender;
  /** Share of arrivals that the scheme originates for an integrator (the receiving direction); 0.2 unless said. */
  readonly inboundShare?: number;
  /** Where the trace goes line by line (the CLI's --verbose); it is hashed either way. */
  readonly onTraceLine?: (line: string) => void;
  /**
   * `sqlite` (the default): one instance on an SQLite file, replayable byte for byte.
   * `postgres`: two instances sharing a database of their own on the server DATABASE_URL names.
   */
  readonly store?: 'sqlite' | 'postgres';
  /** PostgreSQL: one store call at a time across both instances (nearly replayable; no two database transactions overlap). */
  readonly serializeStore?: boolean;
}

export interface Violation {
  readonly step: number;
  readonly at: number;
  readonly transactionId: string | undefined;
  readonly message: string;
  /** The trace of that transaction. */
  readonly trace: readonly string[];
}

export interface SimResult {
  readonly seed: number;
  readonly violation: Violation | undefined;
  readonly traceHash: string;
  readonly steps: number;
  readonly simulatedMs: number;
  readonly stats: Readonly<Record<string, number>>;
}

/** What the integrator (the client) knows of one of its transactions. */
interface Client {
  readonly kind: TransactionKind;
  readonly integrator: SimIntegrator;
  readonly uetr: string;
  readonly messageId: string;
  readonly rawBody: string;
  readonly amountMinor: bigint | null;
  /** A 202 (or an answer) came back for it at least once. */
  accepted: boolean;
  /** Sync lookups: every answer body the client got. */
  readonly answers: string[];
  /** Its transaction id, once seen in the store. */
  transactionId?: string;
  readonly original?: { messageIdentifiers: { messageIdentification: string; creationDateTime: string }; transactionIdentifiers: { endToEndIdentification: string; transactionIdentification?: string; uetr: string } };
}

class Stop extends Error {}

const START = Date.UTC(2026, 2, 2, 7, 0, 0);
const FINAL_STATES = new Map([...MACHINES].map(([kind, machine]) => [kind, new Set(Object.entries(machine.transitions).filter(([, to]) => to.length === 0).map(([state]) => state))]));

/** One simulated run: a seed, a workload, the faults; checks the invariants after every step and at the end. */
export async function simulate(options: SimOptions): Promise<SimResult> {
  const root = new Random(options.seed);
  const faults = options.faults ?? DEFAULT_FAULTS;
  const scheduler = new Scheduler(START);
  const hash = createHash('sha256');
  const traces = new Map<string, string[]>();
  let step = 0;
  const trace = (key: string | undefined, line: string): void => {
    const text = `${step} ${scheduler.now() - START} ${line}`;
    hash.update(text);
    hash.update('\n');
    options.onTraceLine?.(text);
    if (key !== undefined) {
      const list = traces.get(key) ?? [];
      list.push(text);
      traces.set(key, list);
    }
  };
  const touched = new Set<string>();
  const file = join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), `regpay-sim-${process.pid}-${options.seed}.db`);
  removeDatabase(file);
  const config = await simConfig();
  const database = options.store === 'postgres' ? await seedDatabase() : undefined;
  const idRandom = root.fork();
  const operator = new SimOperator(root.fork(), scheduler, faults.scheme, (key, line) => {
    touched.add(key);
    trace(key, line);
  });
  const integrators = new SimIntegrators(root.fork(), scheduler, faults.integrator, (transactionId, line) => {
    touched.add(transactionId);
    trace(transactionId, line);
  });
  const serviceRandom = root.fork();
  const integratorConfigs = new Map<string, IntegratorConfig>(config.integrators.map((integrator) => [integrator.id, integrator]));
  const clients = new Map<string, Client>();
  const stats: Record<string, number> = { crashes: 0, clockJumps: 0, operatorRestarts: 0, requests: 0, refusedWhileDown: 0, expiryRaces: 0, storeFaults: 0, failedStarts: 0, replayed: 0 };
  const workload = root.fork();
  const faultRandom = root.fork();
  // The first start, which creates the database, meets no store fault.
  const storeFaults = new StoreFaultSource(root.fork(), NO_STORE_FAULTS);
  const cluster = database === undefined ? undefined : new PostgresCluster(database.url, operator, scheduler, options.serializeStore === true);
  const world: World = {
    file,
    config,
    scheduler,
    random: serviceRandom,
    ids: { uuid: () => idRandom.uuid4() },
    operator,
    integrators,
    ...(options.wrapStore === undefined ? {} : { wrapStore: options.wrapStore }),
    ...(options.wrapPartner === undefined ? {} : { wrapPartner: options.wrapPartner }),
    touched: (id) => touched.add(id),
    storeFaults,
    crash: (process, why) => crash(process, why),
    ...(cluster === undefined ? {} : { postgres: cluster }),
  };
  // Forked last, so the parts above draw as they did before the receiving direction was simulated.
  const inboundRandom = root.fork();
  let violation: Violation | undefined;
  // PostgreSQL: two instances on two hosts behind a load balancer; SQLite: one.
  const instances = await Instances.start(world, cluster === undefined ? ['sim'] : ['sim-a', 'sim-b'], cluster === undefined ? undefined : root.fork(), (line) => trace(undefined, line));
  const inspector: Inspector = database === undefined ? sqliteInspector(file) : await pgInspector(database.url);
  cluster?.bind(instances, inspector);
  const idle = (): Promise<void> => settle(cluster?.inFlight);
  storeFaults.faults = faults.store;

  /** A violation found inside a callback of the service: kept, and the run stops at the end of the step. */
  const record = (transactionId: string | undefined, message: string, keys: readonly string[] = []): void => {
    try {
      fail(transactionId, message, keys);
    } catch {
      // recorded in `violation`
    }
  };
  const fail = (transactionId: string | undefined, message: string, keys: readonly string[] = []): never => {
    if (violation !== undefined) throw new Stop(violation.message);
    const lines = [...new Set([transactionId, ...keys].flatMap((key) => (key === undefined ? [] : (traces.get(key) ?? []))))];
    lines.sort((a, b) => Number(a.split(' ')[0]) - Number(b.split(' ')[0]));
    violation = { step, at: scheduler.now() - START, transactionId, message, trace: lines };
    throw new Stop(message);
  };

  // --- the workload: each arrival is an integrator's HTTP request, made through its use case ---
  const call = (client: Client, label: string, run: (deps: UseCaseDeps) => Promise<unknown>, retries: number): void => {
    stats.requests = (stats.requests ?? 0) + 1;
    const process = instances.pick();
    if (process === undefined) {
      stats.refusedWhileDown = (stats.refusedWhileDown ?? 0) + 1;
      trace(client.uetr, `${label}: service down, the integrator retries`);
      if (retries > 0) scheduler.after(workload.between(1_000, 20_000), () => call(client, label, run, retries - 1));
      return;
    }
    trace(client.uetr, `${client.integrator.id} ${label}`);
    run(process.deps).then(
      (answer) => {
        if (!process.alive) return;
        if (!label.startsWith('status') && !label.startsWith('cancel')) client.accepted = true;
        if (typeof answer === 'string') client.answers.push(answer);
        trace(client.uetr, `${label}: ${typeof answer === 'string' ? 'answered 200' : '202'}`);
      },
      (error: unknown) => {
        if (error instanceof Stop) return;
        // What the integrator's HTTP client would get: the error plugin's own mapping.
        const answer = toApiError(error);
        const details = answer.errors.length === 0 ? '' : ` ${JSON.stringify(answer.errors)}`;
        trace(client.uetr, `${label}: ${answer.status} ${answer.code}${details}`);
        if (!process.alive) {
          // The connection broke under it: the integrator sends it again.
          if (retries > 0) scheduler.after(workload.between(1_000, 30_000), () => call(client, label, run, retries - 1));
          return;
        }
        if (answer.status === 503) {
          // Retry the identical request after Retry-After (a pending determination, a database that failed for the moment).
          const after = Number(answer.headers['Retry-After'] ?? answer.headers['retry-after'] ?? 1) * 1_000;
          if (retries > 0) scheduler.after(after, () => call(client, label, run, retries - 1));
          return;
        }
        if (answer.status >= 500) record(client.transactionId, `${label} of ${client.uetr} answered ${answer.status} ${answer.code}: ${error instanceof Error ? error.message : String(error)}`, [client.uetr]);
        else if (answer.code !== 'TRANSACTION_NOT_FOUND' && !(answer.code === 'VALIDATION_FAILED' && label.startsWith('request-to-pay')) && !(answer.code === 'REQUEST_TO_PAY_NOT_PAYABLE' && label.startsWith('paying'))) record(client.transactionId, `${label} of ${client.uetr} failed: ${answer.code}${details}`, [client.uetr]);
      },
    );
  };
  const parsed = (text: string): unknown => {
    const result = parseJson(text);
    if (!result.ok) throw new Error(result.message);
    return result.value;
  };
  const valid = <T>(result: { ok: true; value: T } | { ok: false; errors: readonly unknown[] }, what: string): T => {
    if (!result.ok) throw new Error(`the simulation wrote an invalid ${what}: ${JSON.stringify(result.errors)}`);
    return result.value;
  };
  const trace0 = { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', tracestate: null };

  const inbound = new SimInbound({
    random: inboundRandom,
    scheduler,
    operator,
    integrators,
    integratorConfigs,
    live: () => instances.pick(),
    trace: (transactionId, line) => {
      touched.add(transactionId);
      trace(transactionId, line);
    },
    record: (transactionId, message, keys) => record(transactionId, message, keys),
    stats,
    share: options.inboundShare ?? 0.2,
    pay: (integratorId, message, amountMinor) => {
      const integrator = SIM_INTEGRATORS.find((candidate) => candidate.id === integratorId)!;
      const integratorConfig = integratorConfigs.get(integratorId)!;
      const rawBody = JSON.stringify(message);
      const client: Client = { kind: 'CREDIT_TRANSFER', integrator, uetr: message.transactionIdentifiers.uetr, messageId: message.messageIdentifiers.messageIdentification, rawBody, amountMinor, accepted: false, answers: [], original: message };
      clients.set(client.uetr, client);
      const transfer = valid(validateCreditTransfer(parsed(rawBody)), 'CreditTransfer');
      call(client, 'paying a request-to-pay', (deps) => acceptCreditTransfer(deps, { integrator: integratorConfig, transfer, rawBody, trace: trace0 }), 5);
    },
  });

  let arrived = 0;
  /** Simulated time the clock's jumps added: the phase with faults is measured without them. */
  let jumped = 0;
  /** When the last arrival ran (late after a clock jump, or on time), less the jumps before it. */
  let lastArrivalAt: number | undefined;
  const arrive = (): void => {
    arrived += 1;
    if (arrived === options.transactions) lastArrivalAt = scheduler.now() - jumped;
    // A share of arrivals is the scheme's: a message it originates for an integrator's customer.
    if (inbound.arrives()) return;
    const integrator = workload.pick(SIM_INTEGRATORS);
    const integratorConfig = integratorConfigs.get(integrator.id)!;
    const now = scheduler.now();
    const minor = workload.between(1, 5_000_000);
    const choice = workload.next();
    if (choice < 0.45) {
      const message = simCreditTransfer(workload, integrator, now, minor);
      const rawBody = JSON.stringify(message);
      const client: Client = { kind: 'CREDIT_TRANSFER', integrator, uetr: message.transactionIdentifiers.uetr, messageId: message.messageIdentifiers.messageIdentification, rawBody, amountMinor: BigInt(minor), accepted: false, answers: [], original: message };
      clients.set(client.uetr, client);
      const transfer = valid(validateCreditTransfer(parsed(rawBody)), 'CreditTransfer');
      const send = (deps: UseCaseDeps) => acceptCreditTransfer(deps, { integrator: integratorConfig, transfer, rawBody, trace: trace0 });
      call(client, 'credit transfer', send, 5);
      if (workload.chance(0.1)) scheduler.after(workload.between(10, 60_000), () => call(client, 'credit transfer (duplicate)', send, 2));
      if (workload.chance(0.15)) {
        const status = { schema: 'PaymentStatusRequest', ...about(workload, message, now, 'PSR') };
        const statusRaw = JSON.stringify(status);
        const request = valid(validatePaymentStatusRequest(parsed(statusRaw)), 'PaymentStatusRequest');
        scheduler.after(workload.between(100, 300_000), () => call(client, 'status request', (deps) => requestCreditTransferStatus(deps, { integrator: integratorConfig, request, rawBody: statusRaw, trace: trace0 }), 2));
      }
    } else if (choice < 0.7) {
      const message = simLookup(workload, integrator);
      const rawBody = JSON.stringify(message);
      const client: Client = { kind: 'IDENTIFIER_DETERMINATION', integrator, uetr: message.request.uetr, messageId: message.messageIdentifiers.messageIdentification, rawBody, amountMinor: null, accepted: false, answers: [] };
      clients.set(client.uetr, client);
      const request = valid(validateIdentifierDeterminationRequest(parsed(rawBody)), 'IdentifierDeterminationRequest');
      const respondAsync = workload.chance(0.2);
      const send = async (deps: UseCaseDeps): Promise<string | undefined> => {
        const result = await determineIdentifier(deps, { integrator: integratorConfig, request, rawBody, trace: trace0, respondAsync });
        return result.kind === 'answered' ? result.response : undefined;
      };
      call(client, 'identifier determination', send, 5);
      if (workload.chance(0.1)) scheduler.after(workload.between(10, 90_000), () => call(client, 'identifier determination (duplicate)', send, 2));
    } else {
      const expiresIn = workload.between(20_000, 900_000);
      const message = simRequestToPay(workload, integrator, now, minor, expiresIn);
      const rawBody = JSON.stringify(message);
      const client: Client = { kind: 'REQUEST_TO_PAY', integrator, uetr: message.transactionIdentifiers.uetr, messageId: message.messageIdentifiers.messageIdentification, rawBody, amountMinor: BigInt(minor), accepted: false, answers: [], original: message };
      clients.set(client.uetr, client);
      const request = valid(validateRequestToPay(parsed(rawBody)), 'RequestToPay');
      const send = (deps: UseCaseDeps) => requestToPay(deps, { integrator: integratorConfig, request, rawBody, trace: trace0 });
      call(client, 'request-to-pay', send, 5);
      if (workload.chance(0.1)) scheduler.after(workload.between(10, 60_000), () => call(client, 'request-to-pay (duplicate)', send, 2));
      if (workload.chance(0.25)) {
        const cancellation = { schema: 'RequestToPayCancellation', reasonCode: 'CUST', ...about(workload, message, now, 'RCN') };
        const cancelRaw = JSON.stringify(cancellation);
        const valid_ = valid(validateRequestToPayCancellation(parsed(cancelRaw)), 'RequestToPayCancellation');
        const cancel = (deps: UseCaseDeps) => cancelRequestToPay(deps, { integrator: integratorConfig, request: valid_, rawBody: cancelRaw, trace: trace0 });
        scheduler.after(workload.between(100, expiresIn + 60_000), () => call(client, 'cancel', cancel, 3));
        if (workload.chance(0.2)) scheduler.after(workload.between(100, expiresIn + 60_000), () => call(client, 'cancel (duplicate)', cancel, 2));
      }
      if (workload.chance(0.15)) {
        const status = { schema: 'RequestToPayStatusRequest', ...about(workload, message, now, 'RSQ'), instructingAgent: { bicfi: integrator.bicfi, clearingSystemMemberId: { memberId: integrator.memberId } } };
        const statusRaw = JSON.stringify(status);
        const request = valid(validateRequestToPayStatusRequest(parsed(statusRaw)), 'RequestToPayStatusRequest');
        scheduler.after(workload.between(100, expiresIn), () => call(client, 'status request', (deps) => requestToPayStatus(deps, { integrator: integratorConfig, request, rawBody: statusRaw, trace: trace0 }), 2));
      }
    }
  };

  // Arrivals: a seeded Poisson-like stream, about 20 a second.
  let at = START;
  for (let n = 0; n < options.transactions; n += 1) {
    at += workload.between(1, 100);
    scheduler.at(at, arrive);
  }
  const arrivalsEnd = at;

  // --- faults of the process, the clock and the operator, drawn at each step ---
  const jumps: { from: number; to: number }[] = [];
  /** When a crashed instance comes back: most restarts take seconds, one in ten is a long outage; with two instances, after the dead one's leases lapsed (90 s at most). */
  const restartDelay = (): number =>
    instances.several ? faultRandom.between(90_000, 300_000) : faultRandom.chance(0.1) ? faultRandom.between(30_000, 120_000) : faultRandom.between(100, 5_000);
  /** A process dies (at a step, or inside one at a store call) and its instance is restarted later. */
  function crash(process: ServiceProcess, why: string): void {
    if (!instances.crash(process, why)) return;
    stats.crashes = (stats.crashes ?? 0) + 1;
    instances.restart(process, faultRandom.chance(0.7), restartDelay());
  }
  instances.onStartFailed = (failed, sameHost) => {
    stats.failedStarts = (stats.failedStarts ?? 0) + 1;
    instances.restart(failed, sameHost, restartDelay());
  };
  let lastFaultsAt = scheduler.now();
  const stepFaults = (): void => {
    // The chance that an event of mean interval `meanMs` falls in the simulated time since the step before.
    const elapsed = scheduler.now() - lastFaultsAt;
    const within = (meanMs: number): boolean => elapsed > 0 && faultRandom.chance(1 - Math.exp(-elapsed / meanMs));
    const victim = instances.crashable && within(faults.process.crashMeanMs) ? instances.victim(faultRandom) : undefined;
    if (victim !== undefined) crash(victim, 'at a step');
    if (within(faults.process.clockJumpMeanMs)) {
      const jump = faultRandom.between(60_000, 3_600_000);
      stats.clockJumps = (stats.clockJumps ?? 0) + 1;
      jumps.push({ from: scheduler.now(), to: scheduler.now() + jump });
      trace(undefined, `clock jumps ${jump} ms`);
      scheduler.jump(jump);
      jumped += jump;
    }
    if (within(faults.process.operatorRestartMeanMs)) {
      stats.operatorRestarts = (stats.operatorRestarts ?? 0) + 1;
      trace(undefined, 'operator restarts');
      operator.restart();
    }
    lastFaultsAt = scheduler.now();
  };

  // --- the operator's admin replay, some minutes after an integrator's outage ends ---
  /** Outbox rows an admin replay made PENDING again: delivered after later rows of their queue, by design. */
  const replayed = new Set<string>();
  integrators.onOutage = (integratorId, until) => {
    scheduler.at(until + faultRandom.between(10_000, 300_000), () => {
      const process = instances.pick();
      if (process === undefined) return;
      const now = scheduler.now();
      void (async () => {
        const rows = await inspector.undelivered(integratorId);
        // Counted before the write: one that committed while its caller heard it failed replayed them too.
        for (const row of rows) replayed.add(row);
        const count = await process.deps.store.replayUndelivered({ integratorId }, now);
        stats.replayed = (stats.replayed ?? 0) + count;
        trace(undefined, `operator replays ${count} undelivered of ${integratorId}`);
        if (count > 0) process.deps.delivery.wake();
      })().catch((error: unknown) => trace(undefined, `operator's replay of ${integratorId} failed: ${error instanceof Error ? error.message : String(error)}`));
    });
  };

  // --- invariants ---
  const clientOf = (transaction: TransactionView): Client | undefined => {
    const client = clients.get(transaction.uetr);
    return client !== undefined && client.kind === transaction.kind && client.integrator.id === transaction.integratorId ? client : undefined;
  };
  /** What the checks after earlier steps already proved of a transaction's history. */
  interface Checked {
    /** The transaction's version when its history was last read. */
    readVersion: number;
    /** The last history row's version and state. */
    version: number;
    from: string | undefined;
    entered: number;
    readonly states: Set<string>;
  }
  const checked = new Map<string, Checked>();
  const checkTransaction = async (id: string, final: boolean): Promise<void> => {
    const transaction = await inspector.transaction(id);
    if (transaction === undefined) return;
    const keys = [transaction.uetr];
    // What the integrator sent (an outbound transaction), or what the scheme originated (inbound: checked below).
    const client = isInbound(transaction.kind) ? undefined : clientOf(transaction);
    if (!isInbound(transaction.kind)) {
      if (client === undefined) fail(id, `transaction ${id} (${transaction.kind} ${transaction.uetr}) was never asked for`, keys);
      client!.transactionId = id;
      // Money: the amount accepted is the amount stored and the amount the scheme got.
      if (client!.amountMinor !== transaction.amountMinor) fail(id, `amount stored ${transaction.amountMinor} differs from the amount sent ${client!.amountMinor}`, keys);
    }
    // History: a legal path of the machine from its first state to the current one, versions increasing.
    // After a step only the rows added since the last check are read; at the end the whole history.
    const machine = MACHINES.get(transaction.kind)!;
    let seen = final ? undefined : checked.get(id);
    if (seen === undefined) seen = { readVersion: 0, version: 0, from: undefined, entered: 0, states: new Set() };
    checked.set(id, seen);
    if (seen.readVersion !== transaction.version) {
      for (const row of await inspector.historyAfter(id, seen.version)) {
        // A change that enters no state moves the version without a history row: versions only increase.
        const before = seen.version;
        const from = seen.from;
        if (from === undefined ? row.version !== 1 : row.version <= before) fail(id, `history version ${row.version} after ${before}`, keys);
        if (from === undefined) {
          if (row.toState !== machine.initialState) fail(id, `history starts at ${row.toState}, not ${machine.initialState}`, keys);
        } else if (!(machine.transitions[from] ?? []).includes(row.toState)) fail(id, `history has the illegal transition ${from} -> ${row.toState}`, keys);
        if (row.fromState !== (from ?? null)) fail(id, `history row v${row.version} says it left ${row.fromState}, the row before entered ${from}`, keys);
        seen.version = row.version;
        seen.from = row.toState;
        seen.entered += 1;
        seen.states.add(row.toState);
      }
      seen.readVersion = transaction.version;
    }
    if (seen.from !== transaction.state || seen.version > transaction.version) fail(id, `history ends at ${seen.from} v${seen.version}, the transaction is ${transaction.state} v${transaction.version}`, keys);
    const states = seen.states;
    if (transaction.kind === 'CREDIT_TRANSFER') {
      const verdict = (parseData(transaction.data).verdict as { outcome?: string } | undefined)?.outcome;
      const given = operator.transfers.get(id);
      if (given !== undefined && given.amountMinor !== transaction.amountMinor) fail(id, `the scheme got amount ${given.amountMinor}, the transfer is ${transaction.amountMinor}`, keys);
      if (given !== undefined && given.uetr !== transaction.uetr) fail(id, `the scheme got uetr ${given.uetr} for transaction ${transaction.uetr}`, keys);
      if (verdict === 'APPROVED' && given?.status !== 'ACCEPTED') fail(id, `APPROVED, but the scheme said ${given?.status ?? 'nothing'}`, keys);
      if (verdict === 'REJECTED' && given?.status !== 'REJECTED') fail(id, `REJECTED, but the scheme said ${given?.status ?? 'nothing'}`, keys);
    }
    if (transaction.kind === 'REQUEST_TO_PAY') {
      const given = operator.requests.get(id);
      if (given !== undefined && given.amountMinor !== transaction.amountMinor) fail(id, `the scheme got amount ${given.amountMinor}, the request is ${transaction.amountMinor}`, keys);
      if (states.has('REQUEST_TO_PAY_STATUS_PAID') && (states.has('REQUEST_TO_PAY_STATUS_EXPIRED') || states.has('REQUEST_TO_PAY_STATUS_CANCELLED'))) fail(id, 'request-to-pay both PAID and EXPIRED/CANCELLED', keys);
      if (states.has('REQUEST_TO_PAY_STATUS_PAID') && given?.final !== 'PAID') fail(id, `PAID, but the scheme says ${given?.final ?? 'nothing'}`, keys);
      if (states.has('REQUEST_TO_PAY_STATUS_REJECTED') && given !== undefined && given.final !== 'REJECTED') fail(id, `REJECTED, but the scheme says ${given.final ?? 'nothing'}`, keys);
      if (states.has('REQUEST_TO_PAY_STATUS_CANCELLED') && given?.final === 'PAID' && states.has('REQUEST_TO_PAY_REQUEST_DELIVERED')) fail(id, 'CANCELLED after the scheme held it, but the debtor paid', keys);
      // The integrator's camt.056 waits until the scheme holds the pain.013 it withdraws.
      if (operator.cancelledUnknown.has(id)) fail(id, 'the scheme got a camt.056 before the pain.013 it withdraws (refused NOOR)', keys);
      if (final && states.has('REQUEST_TO_PAY_STATUS_EXPIRED') && given?.final === 'PAID') stats.expiryRaces = (stats.expiryRaces ?? 0) + 1;
    }
    if (transaction.kind === 'IDENTIFIER_DETERMINATION') {
      const response = parseData(transaction.data).response as string | undefined;
      for (const answer of client?.answers ?? []) if (answer !== response) fail(id, 'a sync lookup was answered otherwise than the stored answer', keys);
      const given = operator.lookups.get(id);
      if (response !== undefined && given !== undefined && given.outcome === 'SUCCESSFUL' && !response.includes(given.account) && !response.includes('TIMEOUT') && response.includes('SUCCESSFUL')) fail(id, 'the stored answer names another account than the scheme', keys);
    }
    // One event per state entered (the first one's at intake), for an integrator that takes events.
    const outbox = await inspector.outbox(id);
    const events = outbox.filter((row) => row.channel === 'event').length;
    if (integratorConfigs.get(transaction.integratorId)?.events === true && events !== seen.entered) fail(id, `${seen.entered} states entered, ${events} events queued`, keys);
    // Callbacks and events: what the integrator processed, in order, each change at most once acknowledged.
    for (const channel of ['callback', 'event'] as const) {
      const seenByIntegrator = integrators.order.get(`${id} ${channel}`) ?? [];
      // A replayed row comes after the rows its give-up let through; the others keep their order.
      const inOrder = seenByIntegrator.filter((row) => !replayed.has(row.id));
      for (let i = 1; i < inOrder.length; i += 1) if (inOrder[i]!.seq < inOrder[i - 1]!.seq) fail(id, `${channel}s reached the integrator out of order (seq ${inOrder[i - 1]!.seq} then ${inOrder[i]!.seq})`, keys);
    }
    for (const row of outbox) {
      if (row.status === 'DELIVERED' && !integrators.receipts.has(row.id)) fail(id, `${row.channel} ${row.id} is DELIVERED but the integrator never had it`, keys);
      if (transaction.kind === 'CREDIT_TRANSFER' && row.body !== null && row.body.includes('"outcome"')) {
        const outcome = /"outcome":"([A-Z]+)"/.exec(row.body)?.[1];
        const given = operator.transfers.get(id);
        if (outcome === 'APPROVED' && given?.status !== 'ACCEPTED') fail(id, `a callback says APPROVED, the scheme said ${given?.status ?? 'nothing'}`, keys);
        if (outcome === 'REJECTED' && given?.status !== 'REJECTED') fail(id, `a callback says REJECTED, the scheme said ${given?.status ?? 'nothing'}`, keys);
      }
      if (final && row.channel === 'callback' && row.status === 'PENDING') fail(id, `callback ${row.id} still PENDING at the end`, keys);
    }
    if (isInbound(transaction.kind)) inbound.check(transaction, outbox, final, (message) => fail(id, message, keys));
    if (final) {
      const finished = FINAL_STATES.get(transaction.kind)?.has(transaction.state) === true;
      const undelivered = outbox.some((row) => row.channel === 'callback' && row.status === 'UNDELIVERED');
      if (!finished && !undelivered) fail(id, `not final at the end: ${transaction.state}${transaction.dueAt === null ? ' with no timer' : ` (due in ${transaction.dueAt - scheduler.now()} ms)`}`, keys);
    }
  };
  /**
   * Two instances: a row acknowledged twice is at-least-once delivery (docs/delivery.md) when a
   * clock jump longer than the delivery lease fell while it was in flight: both processes froze
   * together, the sender's lease lapsed, and the other instance claimed and sent it too (one
   * instance never sends its own row twice: the dispatcher knows it is still on its way).
   */
  const sentAgainAfterLapse = async (outboxId: string): Promise<boolean> => {
    const { createdAt, delivered } = await inspector.deliveries(outboxId);
    const [first, second] = delivered;
    return jumps.some((jump) => jump.to - jump.from >= config.delivery.leaseMs && createdAt <= jump.from && first !== undefined && second !== undefined && first >= jump.to);
  };
  const checkEnd = async (): Promise<void> => {
    for (const client of clients.values()) {
      const transaction = await inspector.findTransaction(client.integrator.id, client.uetr, client.kind);
      if (client.accepted && transaction === undefined) fail(undefined, `${client.kind} ${client.uetr} was accepted and is lost`, [client.uetr]);
      if (transaction !== undefined && transaction.messageId !== client.messageId) fail(transaction.id, `${client.uetr} stored under message ${transaction.messageId}, sent as ${client.messageId}`, [client.uetr]);
      if (transaction !== undefined) await checkTransaction(transaction.id, true);
    }
    await inbound.checkEnd(
      (id) => inspector.transaction(id),
      (integratorId, uetr, kind) => inspector.findTransaction(integratorId, uetr, kind),
      (id) => checkTransaction(id, true),
      (id, message) => fail(id, message),
    );
    for (const outboxId of await inspector.deliveredTwice()) {
      if (instances.several && (await sentAgainAfterLapse(outboxId))) stats.deliveredTwiceAfterLapse = (stats.deliveredTwiceAfterLapse ?? 0) + 1;
      else fail(undefined, `outbox row ${outboxId} recorded as delivered twice`);
    }
  };
  const allFinal = async (): Promise<boolean> => (await inspector.stateCounts()).every((row) => FINAL_STATES.get(row.kind)?.has(row.state) === true);

  // --- the run ---
  const drainLimit = (): number => (lastArrivalAt ?? arrivalsEnd) + jumped + 4 * 86_400_000;
  // The drain also ends once nothing has moved for 6 simulated hours (a stuck transaction is then reported).
  let lastProgress = -1;
  let lastProgressAt = 0;
  let draining = false;
  try {
    for (;;) {
      await idle();
      if (violation !== undefined) break;
      for (const id of touched) await checkTransaction(id, false);
      touched.clear();
      // The faults end 15 simulated minutes after the last arrival ran, not counting the clock's jumps.
      if (!draining && lastArrivalAt !== undefined && scheduler.now() - jumped > lastArrivalAt + 900_000) {
        draining = true;
        operator.faults = NO_SCHEME_FAULTS;
        integrators.faults = NO_INTEGRATOR_FAULTS;
        storeFaults.faults = NO_STORE_FAULTS;
        trace(undefined, 'faults end: draining');
      }
      if (draining) {
        if (!instances.anyLive) {
          scheduler.step();
          step += 1;
          continue;
        }
        if (step % 50 === 0 && (await inspector.pendingOutbox()) === 0 && (await allFinal())) break;
        if (scheduler.now() > drainLimit()) break;
        if (step % 50 === 0) {
          const moved = await inspector.progress();
          if (moved !== lastProgress) {
            lastProgress = moved;
            lastProgressAt = scheduler.now();
          } else if (scheduler.now() - lastProgressAt > 6 * 3_600_000) break;
        }
        // Idle but for the service's polls: jump to the next thing due in the store.
        const world = scheduler.nextWorldAt() ?? Infinity;
        if (world > scheduler.now() + 5_000) {
          const target = Math.min(world, (await inspector.nextDue()) ?? Infinity);
          if (Number.isFinite(target) && target > scheduler.now() + 5_000) scheduler.jump(target - scheduler.now() - 1_000);
        }
      } else {
        stepFaults();
      }
      if (!scheduler.step()) break;
      step += 1;
    }
    await idle();
    if (violation === undefined) await checkEnd();
  } catch (error) {
    if (!(error instanceof Stop)) throw error;
  }
  const final = await inspector.finalStates();
  for (const row of final) hash.update(`${row.id} ${row.state} ${row.version}\n`);
  // The last process ends as a crash does: in-flight work waits on simulated time, which no longer passes.
  await instances.end();
  await inspector.close();
  removeDatabase(file);
  await database?.drop();
  if (cluster !== undefined) {
    stats.leasesOrphaned = cluster.leasesOrphaned;
    stats.leasesTakenOver = cluster.leasesTakenOver;
  }
  stats.transactions = final.length;
  stats.schemeAnswers = operator.answersSent;
  stats.storeFaults = storeFaults.drawn;
  stats.deliveryAttempts = integrators.attempts;
  return { seed: options.seed, violation, traceHash: hash.digest('hex'), steps: step, simulatedMs: scheduler.now() - START, stats };
}

function parseData(text: string): Record<string, unknown> {
  return JSON.parse(text) as Record<string, unknown>;
}

async function simConfig(): Promise<Config> {
  return configFromObject({
    database: 'sqlite::memory:',
    auth: { mode: 'basic' },
    // Short enough that an integrator's outage (5 s–10 min) outlasts it: messages are given up on (UNDELIVERED) and the operator's replay brings them back.
    delivery: { retryScheduleMs: { callback: [0, 1_000, 5_000, 30_000, 120_000], event: [0, 1_000, 5_000, 30_000, 120_000] } },
    integrators: SIM_INTEGRATORS.map((integrator) => ({
      id: integrator.id,
      institution: { bicfi: integrator.bicfi, memberId: integrator.memberId },
      allowlist: ['127.0.0.1/32'],
      credentials: { username: `${integrator.id}-user`, passwordHash: 'scrypt$1024$8$1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaA' },
      partnerApiUrl: `http://${integrator.id}.invalid/partner-api/v1`,
      eventsApiUrl: `http://${integrator.id}.invalid/events-api/v1`,
      events: integrator.events ? { typeNames: integrator.eventTypeNames } : false,
      identifierDetermination: integrator.identifierDetermination,
      inbound: integrator.inbound,
      schemes: ['ZA_RPP', 'ZA_RTC'],
    })),
  });
}

export type { Store };
