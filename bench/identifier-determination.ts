/**
 * PayShap identifier determination, sync mode (bench/README.md, "Identifier determination"):
 *
 * 1. Added latency: lookups offered at a fixed rate (open loop, ID_RATE, default 500/s) to regpay
 *    with the simulated scheme answering after simulatorLatencyMs (ID_LATENCIES, default 0 and
 *    50 ms), in ID_ROUNDS windows (default 4) of ID_WINDOW_S s (5) after ID_WARM_UP_S s (5) of
 *    warm-up at the same rate, alternating with windows of a bare Fastify server that holds each
 *    request for the same time and answers an IdentifierDeterminationResponse of the same size
 *    (bare-lookup-server.ts). Reported: p50/p99 of the HTTP latency minus the simulator's latency
 *    over all of regpay's windows, the same for the baseline, the ratio of the p99s (median of the
 *    rounds, each against the mean of the baseline windows around it), the rate answered, errors,
 *    and wrong answers (every answer must be 200, outcome SUCCESSFUL, its request's uetr).
 * 2. Soak: ID_SOAK_LOOKUPS (5,000) lookups held at once, the simulator answering after
 *    ID_SOAK_LATENCY_MS (2,000) within a 10 s time budget: every answer checked, the time until
 *    all are answered, and the service process's peak RSS (VmHWM, and VmRSS sampled every 50 ms).
 *
 * ID_ONLY=latency or ID_ONLY=soak runs one half; ID_PROCESSING (JSON) sets the service's
 * `processing` settings (e.g. the admission bounds); ID_SERVER_NODE_ARGS passes node flags to the
 * service (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof"); BENCH_BUILD_ROOT measures another build's
 * service (build-root.ts); BENCH_FIGURES_OUT names a file to write the figures to as JSON.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { identifierDetermination } from '../test/fixtures/identifier-determination.js';
import { basicAuth, startServer, writeTestConfig, type RunningServer } from '../test/support/server.js';
import { startBenchReceiver } from './receiver-process.js';
import { scratchDir } from './scratch-dir.js';
import { startStandIn } from './stand-in.js';
import { cpuPerUnit, threadCpuUs } from './thread-cpu.js';
import { serviceMain } from './build-root.js';
import { durablePer, durableTotals } from './durable-counts.js';

export const IDENTIFIER_DETERMINATION_PATH = '/api/v1/identifiers/outbound/identifier-determination';

const RATE = Number(process.env.ID_RATE ?? 500);
const WINDOW_S = Number(process.env.ID_WINDOW_S ?? 5);
const ROUNDS = Number(process.env.ID_ROUNDS ?? 4);
const WARM_UP_S = Number(process.env.ID_WARM_UP_S ?? 5);
const LATENCIES_MS = (process.env.ID_LATENCIES ?? '0,50').split(',').map(Number);
const SOAK_LOOKUPS = Number(process.env.ID_SOAK_LOOKUPS ?? 5000);
const SOAK_LATENCY_MS = Number(process.env.ID_SOAK_LATENCY_MS ?? 2000);
const SOAK_BUDGET_MS = 10_000;
const SERVER_NODE_ARGS = process.env.ID_SERVER_NODE_ARGS?.split(' ').filter((arg) => arg !== '') ?? [];
/** ID_SERVER_OUTPUT=<file>: everything the service printed, written there when it stops (with e.g. ID_SERVER_NODE_ARGS=--trace-gc). */
const SERVER_OUTPUT = process.env.ID_SERVER_OUTPUT;
/** ID_PROCESSING='{"heldLookupsMax":256}': the service's `processing` settings (admission bounds) in both parts. */
const PROCESSING = process.env.ID_PROCESSING === undefined ? undefined : (JSON.parse(process.env.ID_PROCESSING) as Record<string, unknown>);
/** ID_EVENTS=false: the integrator without events (a diagnostic: what the events cost). */
const EVENTS = process.env.ID_EVENTS !== 'false';
/** Lookups sent one at a time before the paired windows: the latency with nothing else running. */
const UNLOADED_LOOKUPS = 200;
/** No request may outlive this: the time budget, the held request's grace and then some. */
const REQUEST_TIMEOUT_MS = 30_000;
/** The soak's: a held request gives up 2 × budget + 0.5 s after its intake (503), which can itself come late. */
const SOAK_REQUEST_TIMEOUT_MS = 60_000;

/** The targets (bench/README.md): stated here so the printed figures say whether they are met. */
export const TARGET_ADDED_P99_MS = 5;
export const TARGET_SOAK_RSS_MB = 512;

/**
 * A lookup every directory of the simulator resolves (src/connectors/simulator/directory.json,
 * entry "thandi"): the mobile number and the ShapID, alternately.
 */
function lookupBody(n: number): { readonly body: string; readonly uetr: string } {
  const message = identifierDetermination(n % 2 === 0 ? 'MOBILE' : 'CUSTOM');
  message.request.identifier = n % 2 === 0 ? { namespace: 'ZA_MOBILE', schema: 'MOBILE', value: '+27-821234567' } : { namespace: 'ZA_CUSTOM', schema: 'CUSTOM', value: 'thandi@shap' };
  return { body: JSON.stringify(message), uetr: message.request.uetr };
}

const HEADERS = { 'content-type': 'application/json', authorization: basicAuth() };

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const round2 = (value: number): number => Math.round(value * 100) / 100;

/** What one stretch of load saw. Latencies in ms from handing the request to the client to reading the whole answer. */
class Sample {
  readonly latenciesMs: number[] = [];
  /** How late each request was handed to the client against its schedule (the generator's own lag). */
  readonly lagMs: number[] = [];
  sent = 0;
  /** 200, outcome SUCCESSFUL, the request's uetr. */
  answered = 0;
  /** 200 but not that answer. */
  wrong = 0;
  /** Not 200, or no answer at all. */
  errors = 0;
  readonly errorKinds = new Map<string, number>();
  /** Every answer read: its latency and what it said (`SUCCESSFUL`, `FAILED AB06`, `HTTP 503 OVERLOADED`, …; `wrong uetr`). */
  readonly all: { readonly ms: number; readonly kind: string }[] = [];
  startedAt = 0;
  lastAnswerAt = 0;

  error(kind: string): void {
    this.errors += 1;
    this.errorKinds.set(kind, (this.errorKinds.get(kind) ?? 0) + 1);
  }
}

/** One lookup: sent through `pool`, its answer read and checked, its latency recorded in `sample`. */
async function lookup(pool: Pool, sample: Sample, request: { readonly body: string; readonly uetr: string }): Promise<void> {
  const t0 = performance.now();
  sample.sent += 1;
  try {
    const response = await pool.request({ method: 'POST', path: IDENTIFIER_DETERMINATION_PATH, headers: HEADERS, body: request.body });
    const text = await response.body.text();
    const at = performance.now();
    sample.lastAnswerAt = Math.max(sample.lastAnswerAt, at);
    if (response.statusCode !== 200) {
      sample.all.push({ ms: at - t0, kind: `HTTP ${response.statusCode} ${errorCode(text)}` });
      sample.error(`HTTP ${response.statusCode} ${text.slice(0, 120)}`);
      return;
    }
    const answer = JSON.parse(text) as { uetr?: string; report?: { reportInformation?: { outcome?: string; reasonCode?: string } } };
    const information = answer.report?.reportInformation;
    sample.all.push({ ms: at - t0, kind: answer.uetr !== request.uetr ? 'wrong uetr' : `${information?.outcome ?? '?'}${information?.reasonCode === undefined ? '' : ` ${information.reasonCode}`}` });
    if (answer.uetr === request.uetr && information?.outcome === 'SUCCESSFUL') {
      sample.answered += 1;
      sample.latenciesMs.push(at - t0);
    } else sample.wrong += 1;
  } catch (error) {
    sample.error(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
  }
}

/** Which refusal an ErrorDetail body is, by its catalogue message (src/domain/errors.ts): OVERLOADED, DETERMINATION_PENDING or its first words. */
function errorCode(text: string): string {
  let message: unknown;
  try {
    message = (JSON.parse(text) as { message?: unknown }).message;
  } catch {
    return '?';
  }
  if (typeof message !== 'string') return '?';
  if (message.startsWith('Service overloaded')) return 'OVERLOADED';
  if (message.startsWith('The identifier determination is not decided yet')) return 'DETERMINATION_PENDING';
  return message.split(' ').slice(0, 4).join(' ');
}

/**
 * Open loop: `ratePerS` lookups a second for `durationS`, each handed to the pool on its schedule
 * whether or not earlier ones were answered, then every answer awaited. Latency is timed from
 * that hand-over, so a request waiting in the pool for a free connection (256: only when the
 * service falls behind) counts that wait. A generator late on its schedule would hide waiting
 * instead; its lag behind the schedule is recorded to show whether it was.
 */
async function offer(pool: Pool, ratePerS: number, durationS: number): Promise<Sample> {
  const sample = new Sample();
  const total = Math.round(ratePerS * durationS);
  const inFlight: Promise<void>[] = [];
  const started = performance.now();
  sample.startedAt = started;
  let sent = 0;
  while (sent < total) {
    const now = performance.now();
    const due = Math.min(total, Math.floor(((now - started) / 1000) * ratePerS) + 1);
    for (; sent < due; sent += 1) {
      sample.lagMs.push(now - (started + (sent * 1000) / ratePerS));
      inFlight.push(lookup(pool, sample, lookupBody(sent)));
    }
    // The next one is due in 1000 / ratePerS ms (2 ms at 500/s): sleep about that long.
    await new Promise((resolve) => setTimeout(resolve, Math.max(1, Math.floor(started + (sent * 1000) / ratePerS - performance.now()))));
  }
  await Promise.all(inFlight);
  return sample;
}

export interface LatencyWindow {
  readonly sent: number;
  readonly answered: number;
  readonly achievedPerS: number;
  readonly addedP50Ms: number;
  readonly addedP99Ms: number;
  readonly addedMaxMs: number;
  readonly wrong: number;
  readonly errors: number;
  readonly errorKinds: Record<string, number>;
  readonly generatorLagP99Ms: number;
}

/** A sample as the figures of its server: latencies less the simulator's (or the stand-in's hold). */
function summarise(samples: readonly Sample[], holdMs: number): LatencyWindow {
  const latencies = samples.flatMap((sample) => sample.latenciesMs.map((ms) => ms - holdMs)).sort((a, b) => a - b);
  const lag = samples.flatMap((sample) => sample.lagMs).sort((a, b) => a - b);
  const errorKinds: Record<string, number> = {};
  for (const sample of samples) for (const [kind, count] of sample.errorKinds) errorKinds[kind] = (errorKinds[kind] ?? 0) + count;
  const answered = samples.reduce((sum, sample) => sum + sample.answered, 0);
  const seconds = samples.reduce((sum, sample) => sum + (sample.lastAnswerAt - sample.startedAt) / 1000, 0);
  return {
    sent: samples.reduce((sum, sample) => sum + sample.sent, 0),
    answered,
    achievedPerS: Math.round(answered / seconds),
    addedP50Ms: round2(percentile(latencies, 50)),
    addedP99Ms: round2(percentile(latencies, 99)),
    addedMaxMs: round2(latencies.at(-1) ?? Number.NaN),
    wrong: samples.reduce((sum, sample) => sum + sample.wrong, 0),
    errors: samples.reduce((sum, sample) => sum + sample.errors, 0),
    errorKinds,
    generatorLagP99Ms: round2(percentile(lag, 99)),
  };
}

export interface LatencyFigures {
  readonly simulatorLatencyMs: number;
  readonly offeredPerS: number;
  readonly windowS: number;
  readonly rounds: number;
  /** All of regpay's windows. */
  readonly regpay: LatencyWindow;
  /** All of the stand-in's windows. */
  readonly baseline: LatencyWindow;
  /** regpay's added p99 over the mean of the baseline windows' either side, per round. */
  readonly roundP99Ratios: readonly number[];
  /** The median round. */
  readonly p99Ratio: number;
  /** regpay's added p50/p99 per window, `p50/p99`. */
  readonly regpayWindows: readonly string[];
  readonly baselineWindows: readonly string[];
  /** UNLOADED_LOOKUPS lookups one at a time (after the warm-up): added p50/p99, the chain's own latency. */
  readonly unloaded: LatencyWindow;
  /** Over regpay's whole life: events and callbacks delivered to the integrator, and states entered, per lookup sent. */
  readonly eventsDeliveredPerLookup: number;
  readonly statesEnteredPerLookup: number;
  /** Per lookup of regpay's windows, µs of CPU: the bench receiver (the integrator's events) and this process (the load generator). */
  readonly receiverCpuUsPerLookup: number;
  readonly generatorCpuUsPerLookup: number;
  /**
   * Cores busy (of the machine's all) over regpay's windows, in all, and those left when regpay,
   * the receiver and the generator are taken out: other people's work on this shared machine.
   */
  readonly machineBusyCores: number;
  readonly otherBusyCores: number;
  /** After each of regpay's windows, how long until its events were all delivered (the service idle again). */
  readonly drainMs: readonly number[];
  /** The machine's 1-minute load average (2 cores here) before and after the part: how much else ran. */
  readonly loadAverage: readonly [number, number];
  /** The same for the lookups one at a time (each waited for, its events delivered before the next): the commits on one lookup's path and after it. */
  readonly unloadedCommitsPerLookup: number;
  /** Of them, those holding the lookup's state (its path; the rest record its events, claims and leases). */
  readonly unloadedTransactionCommitsPerLookup: number;
  readonly unloadedFsyncsPerLookup: number;
  readonly unloadedCheckpointFsyncsPerLookup: number;
  /** Store commits and fsyncs (SQLite: the checkpointer's included) over regpay's windows and their drains, per lookup sent in them. */
  readonly commitsPerLookup: number;
  readonly transactionCommitsPerLookup: number;
  readonly fsyncsPerLookup: number;
  readonly checkpointFsyncsPerLookup: number;
  /** CPU regpay used over its windows, per lookup: in all and by thread. */
  readonly serviceCpuUsPerLookup: number;
  readonly cpuUsPerLookupByThread: readonly string[];
}

function regpayConfig(simulatorLatencyMs: number, timeBudgetMs: number, receiverUrl: string): string {
  return writeTestConfig({
    database: `sqlite:${join(scratchDir('regpay-id-bench-'), 'bench.db')}`,
    integratorExtra: {
      partnerApiUrl: `${receiverUrl}/partner-api/v1`,
      eventsApiUrl: `${receiverUrl}/events-api/v1`,
      limits: { requestsPerSecond: 1_000_000, burst: 1_000_000 },
      events: EVENTS,
    },
    extra: {
      server: { host: '127.0.0.1', port: 0, logLevel: 'warn' },
      schemes: { ZA_RPP: { connector: 'simulator', timeBudgetMs, simulatorLatencyMs } },
      ...(PROCESSING === undefined ? {} : { processing: PROCESSING }),
    },
  });
}

/** Starts regpay and the bench receiver (its integrator's callbacks and events go there), runs `body`, stops both. */
async function withRegpay<T>(simulatorLatencyMs: number, timeBudgetMs: number, body: (server: RunningServer, receiverPid: number | undefined) => Promise<T>): Promise<T> {
  const receiver = await startBenchReceiver();
  try {
    const server = await startServer({ configPath: regpayConfig(simulatorLatencyMs, timeBudgetMs, receiver.url), main: serviceMain(), nodeArgs: SERVER_NODE_ARGS });
    try {
      return await body(server, receiver.pid);
    } finally {
      await server.stop();
      if (SERVER_OUTPUT !== undefined) writeFileSync(SERVER_OUTPUT, server.output(), { flag: 'a' });
    }
  } finally {
    receiver.stop();
  }
}

/** Sums of the service's Prometheus counters: deliveries that reached the integrator, and states entered. */
async function metricTotals(url: string): Promise<{ delivered: number; statesEntered: number }> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const sum = (pattern: RegExp): number => [...text.matchAll(pattern)].reduce((total, match) => total + Number(match[1]), 0);
  return {
    delivered: sum(/^regpay_delivery_attempts_total\{[^}]*result="delivered"[^}]*\} (\S+)$/gm),
    statesEntered: sum(/^regpay_transaction_states_entered_total\{[^}]*\} (\S+)$/gm),
  };
}

/**
 * Waits (at most 60 s) until the service has delivered every event it owes: its count of
 * deliveries unchanged for a second. The events of a window's lookups follow their answers, so
 * without this they would be delivered during the next window of the stand-in (or of lookups
 * one at a time) and charged to it. Returns how long that took.
 */
async function quiesce(url: string): Promise<number> {
  const started = performance.now();
  let last = -1;
  let steady = 0;
  while (performance.now() - started < 60_000 && steady < 4) {
    const { delivered, statesEntered } = await metricTotals(url);
    steady = delivered + statesEntered === last ? steady + 1 : 0;
    last = delivered + statesEntered;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return Math.round(performance.now() - started);
}

/** The whole machine's busy CPU time so far (all cores, µs), from /proc/stat: everything but idle and iowait. */
function machineBusyUs(): number {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = fields.slice(0, 8).reduce((sum, value) => sum + value, 0);
  return ((total - fields[3]! - fields[4]!) / 100) * 1e6;
}

const processCpuUs = (pid: number | undefined): number => (pid === undefined ? 0 : [...threadCpuUs(pid).values()].reduce((sum, us) => sum + us, 0));

/**
 * CPU used over regpay's windows, by whom, in µs: regpay by thread, the receiver and this process
 * from the start of a window until its events are delivered (all the work its lookups cause),
 * and the whole machine over the window itself (how busy the cores were while it was measured).
 */
class CpuShares {
  readonly regpay = new Map<string, number>();
  receiverUs = 0;
  generatorUs = 0;
  /** Over the windows only (not their drains). */
  machineUs = 0;
  windowUs = 0;
  /** The same processes' CPU over the windows only, to take out of machineUs. */
  ownWindowUs = 0;

  async measure(regpayPid: number, receiverPid: number | undefined, window: () => Promise<Sample>, drain: () => Promise<number>): Promise<{ sample: Sample; drainMs: number }> {
    const own = (): number => processCpuUs(regpayPid) + processCpuUs(receiverPid) + process.cpuUsage().user + process.cpuUsage().system;
    const before = { regpay: threadCpuUs(regpayPid), receiver: processCpuUs(receiverPid), generator: process.cpuUsage(), machine: machineBusyUs(), own: own(), at: performance.now() };
    const sample = await window();
    this.machineUs += machineBusyUs() - before.machine;
    this.windowUs += (performance.now() - before.at) * 1000;
    this.ownWindowUs += own() - before.own;
    const drainMs = await drain();
    for (const [thread, us] of threadCpuUs(regpayPid)) this.regpay.set(thread, (this.regpay.get(thread) ?? 0) + us - (before.regpay.get(thread) ?? 0));
    this.receiverUs += processCpuUs(receiverPid) - before.receiver;
    const generator = process.cpuUsage(before.generator);
    this.generatorUs += generator.user + generator.system;
    return { sample, drainMs };
  }
}

const windowText = (window: LatencyWindow): string => `${window.addedP50Ms}/${window.addedP99Ms}`;

/** Part 1 at one simulator latency: regpay and the stand-in alternating, each idle while the other is measured. */
export async function measureAddedLatency(simulatorLatencyMs: number): Promise<LatencyFigures> {
  const loadBefore = round2(loadavg()[0]!);
  const standIn = await startStandIn('./bare-lookup-server.js', { HOLD_MS: String(simulatorLatencyMs) });
  try {
    return await withRegpay(simulatorLatencyMs, 10_000, async (server, receiverPid) => {
      const pid = server.child.pid;
      if (pid === undefined) throw new Error('the server has no pid');
      const options = { connections: 256, pipelining: 1, headersTimeout: REQUEST_TIMEOUT_MS, bodyTimeout: REQUEST_TIMEOUT_MS };
      const regpayPool = new Pool(server.url, options);
      const baselinePool = new Pool(standIn.url, options);
      try {
        const warmUp = await offer(regpayPool, RATE, WARM_UP_S);
        await quiesce(server.url);
        const unloadedSample = new Sample();
        unloadedSample.startedAt = performance.now();
        const unloadedDurableBefore = await durableTotals(server.url);
        for (let n = 0; n < UNLOADED_LOOKUPS; n += 1) await lookup(regpayPool, unloadedSample, lookupBody(n));
        await quiesce(server.url);
        const unloadedDurable = durablePer(unloadedDurableBefore, await durableTotals(server.url), UNLOADED_LOOKUPS);
        await offer(baselinePool, RATE, Math.min(3, WARM_UP_S));
        const baselineSamples: Sample[] = [await offer(baselinePool, RATE, WINDOW_S)];
        const regpaySamples: Sample[] = [];
        const cpu = new CpuShares();
        const drainMs: number[] = [];
        const durable = { commits: 0, transactionCommits: 0, fsyncs: 0, checkpointFsyncs: 0 };
        for (let round = 0; round < ROUNDS; round += 1) {
          const durableBefore = await durableTotals(server.url);
          const { sample, drainMs: drained } = await cpu.measure(pid, receiverPid, () => offer(regpayPool, RATE, WINDOW_S), () => quiesce(server.url));
          const durableAfter = await durableTotals(server.url);
          durable.commits += durableAfter.commits - durableBefore.commits;
          durable.transactionCommits += durableAfter.transactionCommits - durableBefore.transactionCommits;
          durable.fsyncs += durableAfter.fsyncs - durableBefore.fsyncs;
          durable.checkpointFsyncs += durableAfter.checkpointFsyncs - durableBefore.checkpointFsyncs;
          regpaySamples.push(sample);
          drainMs.push(drained);
          baselineSamples.push(await offer(baselinePool, RATE, WINDOW_S));
        }
        const baselineWindows = baselineSamples.map((sample) => summarise([sample], simulatorLatencyMs));
        const regpayWindows = regpaySamples.map((sample) => summarise([sample], simulatorLatencyMs));
        const roundP99Ratios = regpayWindows.map((window, round) => round2(window.addedP99Ms / ((baselineWindows[round]!.addedP99Ms + baselineWindows[round + 1]!.addedP99Ms) / 2)));
        const regpay = summarise(regpaySamples, simulatorLatencyMs);
        const lookups = Math.max(1, regpay.sent);
        const perLookup = cpuPerUnit(new Map(), cpu.regpay, lookups);
        const lookupsSent = warmUp.sent + unloadedSample.sent + regpay.sent;
        const counters = await metricTotals(server.url);
        const durablePerLookup = durablePer({ commits: 0, transactionCommits: 0, fsyncs: 0, checkpointFsyncs: 0 }, durable, lookups);
        return {
          simulatorLatencyMs,
          offeredPerS: RATE,
          windowS: WINDOW_S,
          rounds: ROUNDS,
          regpay,
          baseline: summarise(baselineSamples, simulatorLatencyMs),
          roundP99Ratios,
          p99Ratio: round2(median(roundP99Ratios)),
          regpayWindows: regpayWindows.map(windowText),
          baselineWindows: baselineWindows.map(windowText),
          unloaded: summarise([unloadedSample], simulatorLatencyMs),
          eventsDeliveredPerLookup: round2(counters.delivered / lookupsSent),
          loadAverage: [loadBefore, round2(loadavg()[0]!)],
          statesEnteredPerLookup: round2(counters.statesEntered / lookupsSent),
          serviceCpuUsPerLookup: Math.round(perLookup.totalUs),
          receiverCpuUsPerLookup: Math.round(cpu.receiverUs / lookups),
          generatorCpuUsPerLookup: Math.round(cpu.generatorUs / lookups),
          machineBusyCores: round2(cpu.machineUs / cpu.windowUs),
          otherBusyCores: round2((cpu.machineUs - cpu.ownWindowUs) / cpu.windowUs),
          drainMs,
          unloadedCommitsPerLookup: unloadedDurable.commits,
          unloadedTransactionCommitsPerLookup: unloadedDurable.transactionCommits,
          unloadedFsyncsPerLookup: unloadedDurable.fsyncs,
          unloadedCheckpointFsyncsPerLookup: unloadedDurable.checkpointFsyncs,
          commitsPerLookup: durablePerLookup.commits,
          transactionCommitsPerLookup: durablePerLookup.transactionCommits,
          fsyncsPerLookup: durablePerLookup.fsyncs,
          checkpointFsyncsPerLookup: durablePerLookup.checkpointFsyncs,
          cpuUsPerLookupByThread: perLookup.byThread.map(([thread, us]) => `${thread}: ${Math.round(us)}`),
        };
      } finally {
        await Promise.all([regpayPool.close(), baselinePool.close()]);
      }
    });
  } finally {
    standIn.stop();
  }
}

export interface SoakFigures {
  readonly lookups: number;
  readonly simulatorLatencyMs: number;
  readonly timeBudgetMs: number;
  /** Opening the pool's connections before the soak (a GET /health/live on each at once): how long, and how many opened. */
  readonly connectMs: number;
  readonly connections: number;
  /** The most requests sent and not yet answered at one time (the pool's `running`, sampled). */
  readonly peakHeld: number;
  readonly answered: number;
  readonly wrong: number;
  readonly errors: number;
  readonly errorKinds: Record<string, number>;
  readonly allAnswered: boolean;
  /** From the first request handed over to the last answer read (whatever it said). */
  readonly durationMs: number;
  /** Latency of the lookups answered SUCCESSFUL, ms (the simulator's latency included). */
  readonly minMs: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  readonly rssBeforeMb: number;
  /** The largest VmRSS sampled (every 50 ms) from the first lookup until all were answered. */
  readonly peakRssSampledMb: number;
  /** At the largest sample: anonymous memory (heaps, buffers) and file pages (code, the database). */
  readonly peakRssAnonMb: number;
  readonly peakRssFileMb: number;
  /** VmHWM at the end: the process's peak resident set over its whole life. */
  readonly vmHwmMb: number;
  readonly rssAfterMb: number;
  readonly loadAverage: readonly [number, number];
  /** The answer every lookup should get: SUCCESSFUL, or FAILED AB06 when the simulator answers after the budget (ID_SOAK_LATENCY_MS ≥ 10,000: a scheme that never answers). */
  readonly expected: string;
  /** Every answer by what it said (`SUCCESSFUL`, `FAILED AB06`, `HTTP 503 OVERLOADED`, …). */
  readonly answersByKind: Record<string, number>;
  /** Answered 200 with their own uetr within the budget + 100 ms of the request (the promise), and those later than the budget + 1 s (whatever they said). */
  readonly answeredWithinBudget: number;
  readonly answeredLaterThanBudgetPlus1s: number;
  /** Refused 503 OVERLOADED (admission control), and how long a refusal took (p50/p99/max, ms): "at once" is the promise. */
  readonly refusedOverloaded: number;
  readonly refusalP50Ms: number;
  readonly refusalP99Ms: number;
  readonly refusalMaxMs: number;
  /** p50/p99/max of every 200 answer, whatever its outcome (ms from the request). */
  readonly answerP50Ms: number;
  readonly answerP99Ms: number;
  readonly answerMaxMs: number;
  /** Store commits and fsyncs (regpay_store_commits_total, regpay_store_fsyncs_total) from the first soak lookup until all were answered, per lookup taken (not refused). */
  readonly commitsPerLookup: number;
  readonly fsyncsPerLookup: number;
}

function statusKb(pid: number, field: 'VmRSS' | 'VmHWM' | 'RssAnon' | 'RssFile'): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (match === null) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(match[1]);
}

const mb = (kb: number): number => Math.round(kb / 1024);

/** Part 2: SOAK_LOOKUPS lookups held at once. */
export async function soak(): Promise<SoakFigures> {
  const loadBefore = round2(loadavg()[0]!);
  return withRegpay(SOAK_LATENCY_MS, SOAK_BUDGET_MS, async (server) => {
    const pid = server.child.pid;
    if (pid === undefined) throw new Error('the server has no pid');
    const pool = new Pool(server.url, { connections: SOAK_LOOKUPS, pipelining: 1, headersTimeout: SOAK_REQUEST_TIMEOUT_MS, bodyTimeout: SOAK_REQUEST_TIMEOUT_MS, keepAliveTimeout: 90_000 });
    try {
      // Every connection opened first, so the soak measures requests held, not 5,000 connects at
      // once (which queue in the listen backlog, a matter of the kernel and the listener).
      const connectStarted = performance.now();
      await Promise.all(
        Array.from({ length: SOAK_LOOKUPS }, async () => {
          const response = await pool.request({ method: 'GET', path: '/health/live' });
          await response.body.dump();
        }),
      );
      const connectMs = Math.round(performance.now() - connectStarted);
      const connections = pool.stats.connected;
      // Warm-up: the lookup path compiled and the store's statements prepared.
      const warmUp = new Sample();
      await Promise.all(Array.from({ length: 200 }, (_, n) => lookup(pool, warmUp, lookupBody(n))));
      const expected = SOAK_LATENCY_MS >= SOAK_BUDGET_MS ? 'FAILED AB06' : 'SUCCESSFUL';
      // Admission bounds below 200 (ID_PROCESSING) refuse the rest with 503 OVERLOADED: that is all they may do.
      const warmedUp = warmUp.all.filter((answer) => answer.kind === expected).length;
      const refused = warmUp.all.filter((answer) => answer.kind === 'HTTP 503 OVERLOADED').length;
      if (warmedUp === 0 || warmedUp + refused !== 200) throw new Error(`soak warm-up: ${warmedUp} of 200 answered ${expected}, ${refused} refused (${JSON.stringify(warmUp.all.slice(0, 3))}, ${JSON.stringify([...warmUp.errorKinds])})`);
      await quiesce(server.url);

      const requests = Array.from({ length: SOAK_LOOKUPS }, (_, n) => lookupBody(n));
      const rssBeforeKb = statusKb(pid, 'VmRSS');
      let peakRssKb = rssBeforeKb;
      let peakSplitKb = [statusKb(pid, 'RssAnon'), statusKb(pid, 'RssFile')];
      let peakHeld = 0;
      const sampleRss = (): void => {
        const rssKb = statusKb(pid, 'VmRSS');
        if (rssKb > peakRssKb) {
          peakRssKb = rssKb;
          peakSplitKb = [statusKb(pid, 'RssAnon'), statusKb(pid, 'RssFile')];
        }
      };
      const sampler = setInterval(() => {
        sampleRss();
        peakHeld = Math.max(peakHeld, pool.stats.running);
      }, 50);
      const sample = new Sample();
      const durableBefore = await durableTotals(server.url);
      const started = performance.now();
      sample.startedAt = started;
      try {
        await Promise.all(requests.map((request) => lookup(pool, sample, request)));
      } finally {
        clearInterval(sampler);
      }
      sampleRss();
      const durableAfter = await durableTotals(server.url);
      const latencies = [...sample.latenciesMs].sort((a, b) => a - b);
      const answersByKind: Record<string, number> = {};
      for (const answer of sample.all) answersByKind[answer.kind] = (answersByKind[answer.kind] ?? 0) + 1;
      const ok = sample.all.filter((answer) => !answer.kind.startsWith('HTTP ') && answer.kind !== 'wrong uetr');
      const answerMs = ok.map((answer) => answer.ms).sort((a, b) => a - b);
      const refusalMs = sample.all
        .filter((answer) => answer.kind === 'HTTP 503 OVERLOADED')
        .map((answer) => answer.ms)
        .sort((a, b) => a - b);
      const taken = Math.max(1, SOAK_LOOKUPS - refusalMs.length);
      return {
        lookups: SOAK_LOOKUPS,
        simulatorLatencyMs: SOAK_LATENCY_MS,
        timeBudgetMs: SOAK_BUDGET_MS,
        connectMs,
        connections,
        peakHeld,
        answered: sample.answered,
        wrong: sample.wrong,
        errors: sample.errors,
        errorKinds: Object.fromEntries(sample.errorKinds),
        allAnswered: sample.answered === SOAK_LOOKUPS,
        durationMs: Math.round(sample.lastAnswerAt - started),
        minMs: Math.round(latencies[0] ?? Number.NaN),
        p50Ms: Math.round(percentile(latencies, 50)),
        p99Ms: Math.round(percentile(latencies, 99)),
        maxMs: Math.round(latencies.at(-1) ?? Number.NaN),
        rssBeforeMb: mb(rssBeforeKb),
        peakRssSampledMb: mb(peakRssKb),
        peakRssAnonMb: mb(peakSplitKb[0]!),
        peakRssFileMb: mb(peakSplitKb[1]!),
        vmHwmMb: mb(statusKb(pid, 'VmHWM')),
        rssAfterMb: mb(statusKb(pid, 'VmRSS')),
        loadAverage: [loadBefore, round2(loadavg()[0]!)],
        expected,
        answersByKind,
        answeredWithinBudget: ok.filter((answer) => answer.ms <= SOAK_BUDGET_MS + 100).length,
        answeredLaterThanBudgetPlus1s: sample.all.filter((answer) => answer.ms > SOAK_BUDGET_MS + 1000).length,
        refusedOverloaded: refusalMs.length,
        refusalP50Ms: Math.round(percentile(refusalMs, 50)),
        refusalP99Ms: Math.round(percentile(refusalMs, 99)),
        refusalMaxMs: Math.round(refusalMs.at(-1) ?? Number.NaN),
        answerP50Ms: Math.round(percentile(answerMs, 50)),
        answerP99Ms: Math.round(percentile(answerMs, 99)),
        answerMaxMs: Math.round(answerMs.at(-1) ?? Number.NaN),
        commitsPerLookup: durablePer(durableBefore, durableAfter, taken).commits,
        fsyncsPerLookup: durablePer(durableBefore, durableAfter, taken).fsyncs,
      };
    } finally {
      await pool.close();
    }
  });
}

export interface IdentifierFigures {
  readonly latency: readonly LatencyFigures[];
  readonly soak: SoakFigures | undefined;
}

export async function runIdentifierDetermination(only?: 'latency' | 'soak'): Promise<IdentifierFigures> {
  const latency: LatencyFigures[] = [];
  if (only !== 'soak') for (const ms of LATENCIES_MS) latency.push(await measureAddedLatency(ms));
  return { latency, soak: only === 'latency' ? undefined : await soak() };
}

/** The figures as lines of text, targets stated. */
export function identifierRows(figures: IdentifierFigures): string[] {
  const lines: string[] = [];
  for (const part of figures.latency) {
    const { regpay, baseline } = part;
    lines.push(
      `identifier determination, simulator ${part.simulatorLatencyMs} ms, ${part.offeredPerS}/s offered (open loop), ${part.rounds} windows of ${part.windowS} s: ` +
        `added p50 ${regpay.addedP50Ms} ms, p99 ${regpay.addedP99Ms} ms (target p99 < ${TARGET_ADDED_P99_MS} ms: ${regpay.addedP99Ms < TARGET_ADDED_P99_MS ? 'met' : 'MISSED'}), max ${regpay.addedMaxMs} ms, ` +
        `${regpay.achievedPerS}/s answered, ${regpay.answered}/${regpay.sent} SUCCESSFUL, wrong ${regpay.wrong}, errors ${regpay.errors}; ` +
        `bare stand-in p50 ${baseline.addedP50Ms} ms, p99 ${baseline.addedP99Ms} ms (errors ${baseline.errors + baseline.wrong}); p99 ratio ${part.p99Ratio} (rounds ${part.roundP99Ratios.join(', ')}); ` +
        `one at a time: added p50 ${part.unloaded.addedP50Ms} ms, p99 ${part.unloaded.addedP99Ms} ms, store commits ${part.unloadedCommitsPerLookup} (holding its state ${part.unloadedTransactionCommitsPerLookup}) and fsyncs ${part.unloadedFsyncsPerLookup} (checkpoints' ${part.unloadedCheckpointFsyncsPerLookup}) per lookup; ` +
        `CPU per lookup: service ${part.serviceCpuUsPerLookup} µs (${part.cpuUsPerLookupByThread.slice(0, 3).join(', ')}), receiver ${part.receiverCpuUsPerLookup} µs, generator ${part.generatorCpuUsPerLookup} µs; ` +
        `machine ${part.machineBusyCores} cores busy (others' ${part.otherBusyCores}); events drained ${part.drainMs.join(', ')} ms after the windows; ` +
        `${part.statesEnteredPerLookup} states entered and ${part.eventsDeliveredPerLookup} events delivered per lookup; ` +
        `store commits ${part.commitsPerLookup} (holding its state ${part.transactionCommitsPerLookup}) and fsyncs ${part.fsyncsPerLookup} (checkpoints' ${part.checkpointFsyncsPerLookup}) per lookup; ` +
        `generator lag p99 ${regpay.generatorLagP99Ms} ms; load average ${part.loadAverage.join(' → ')}`,
    );
  }
  const soakFigures = figures.soak;
  if (soakFigures !== undefined) {
    lines.push(
      `identifier determination soak: ${soakFigures.lookups} held at once (peak ${soakFigures.peakHeld} in flight), simulator ${soakFigures.simulatorLatencyMs} ms, budget ${soakFigures.timeBudgetMs} ms: ` +
        `${soakFigures.answered} SUCCESSFUL (all answered: ${soakFigures.allAnswered ? 'yes' : 'NO'}), wrong ${soakFigures.wrong}, errors ${soakFigures.errors}; all answered in ${soakFigures.durationMs} ms ` +
        `(latency min ${soakFigures.minMs}, p50 ${soakFigures.p50Ms}, p99 ${soakFigures.p99Ms}, max ${soakFigures.maxMs} ms); ` +
        `expected ${soakFigures.expected}: answers ${JSON.stringify(soakFigures.answersByKind)}; ` +
        `within budget + 100 ms ${soakFigures.answeredWithinBudget}, later than budget + 1 s ${soakFigures.answeredLaterThanBudgetPlus1s}, ` +
        `refused 503 OVERLOADED ${soakFigures.refusedOverloaded} (p50 ${soakFigures.refusalP50Ms}, p99 ${soakFigures.refusalP99Ms}, max ${soakFigures.refusalMaxMs} ms); ` +
        `200 answers p50 ${soakFigures.answerP50Ms}, p99 ${soakFigures.answerP99Ms}, max ${soakFigures.answerMaxMs} ms; ` +
        `${soakFigures.commitsPerLookup} commits and ${soakFigures.fsyncsPerLookup} fsyncs per lookup taken; ` +
        `service RSS ${soakFigures.rssBeforeMb} MB before, peak ${soakFigures.peakRssSampledMb} MB sampled (anonymous ${soakFigures.peakRssAnonMb}, file ${soakFigures.peakRssFileMb}), VmHWM ${soakFigures.vmHwmMb} MB (target < ${TARGET_SOAK_RSS_MB} MB: ${soakFigures.vmHwmMb < TARGET_SOAK_RSS_MB ? 'met' : 'MISSED'}); load average ${soakFigures.loadAverage.join(' → ')}`,
    );
  }
  return lines;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const only = process.env.ID_ONLY === 'latency' || process.env.ID_ONLY === 'soak' ? process.env.ID_ONLY : undefined;
  const figures = await runIdentifierDetermination(only);
  if (process.env.BENCH_FIGURES_OUT !== undefined) writeFileSync(process.env.BENCH_FIGURES_OUT, JSON.stringify(figures));
  process.stdout.write(`${JSON.stringify(figures, null, 2)}\n${identifierRows(figures).join('\n')}\n`);
}
