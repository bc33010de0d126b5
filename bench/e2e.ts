/**
 * Sustained end-to-end rate: transfers per second offered at a fixed rate (open loop) that reach
 * their final callback at a receiver process, with p99 from request to final callback, the
 * simulator at zero latency and every event delivered. Reports whether the backlog (accepted but
 * not yet called back) grows. Measured after a warm-up (E2E_WARM_UP_S, default 15 s, at the offered
 * rate up to 300/s, drained before measuring). Knobs: E2E_RATE (default 1000/s), E2E_DURATION_S
 * (60), DATABASE (default a fresh SQLite file), E2E_STORE (the configuration's `store` section, JSON), E2E_SERVICE=hollow (measure bench/hollow-service.ts, the
 * same HTTP exchanges with nothing else, instead of regpay: the floor of what the HTTP costs).
 * BENCH_BUILD_ROOT names another build whose service to start (build-root.ts); BENCH_FIGURES_OUT a
 * file to write the figures to as JSON (read by `npm run bench -- --against`, against.ts).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { creditTransfer } from '../test/fixtures/credit-transfer.js';
import { basicAuth, startServer, writeTestConfig } from '../test/support/server.js';
import { INTAKE_PATH } from './intake-load.js';
import { startBenchReceiver } from './receiver-process.js';
import { cpuPerUnit, postgresCpuUs, threadCpuUs } from './thread-cpu.js';
import { scratchDir } from './scratch-dir.js';
import { serviceMain } from './build-root.js';
import { durablePer, durableTotals, type DurableCounts } from './durable-counts.js';

export interface E2eFigures {
  readonly offeredPerS: number;
  /** When the measured load began (ms since epoch): latencyBySecond[0] is the second that follows. */
  readonly startedAt: number;
  readonly durationS: number;
  readonly accepted: number;
  /** Transfers accepted in the warm-up (before `accepted`). */
  readonly warmUpAccepted: number;
  readonly completed: number;
  /** Every transfer completed, divided by the time from the first request to the last final callback. */
  readonly completedPerS: number;
  /** Final callbacks that arrived while transfers were still being offered, per second of offering. */
  readonly completedDuringLoadPerS: number;
  /** Events that arrived while transfers were still being offered, in transfers' worth (eight each) per second of offering. */
  readonly eventsDuringLoadPerS: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly intakeP99Ms: number;
  readonly eventsExpected: number;
  readonly eventsDelivered: number;
  readonly backlogSamples: readonly number[];
  readonly drainMs: number;
  readonly duplicateCallbacks: number;
  /** CPU the service used from the first request until everything was delivered, per transfer: in all, and on its main thread. */
  readonly serviceCpuUsPerTransfer: number;
  readonly mainThreadCpuUsPerTransfer: number;
  /** CPU every PostgreSQL process of this machine used over the same span, per transfer (0 on SQLite). */
  readonly databaseCpuUsPerTransfer: number;
  /** The same by thread, largest first (`main`, then worker and helper threads by id). */
  readonly cpuUsPerTransferByThread: readonly string[];
  /**
   * `p50/p99` in ms of the transfers offered in each second of the load, in order: whether a p99
   * comes from a few slow stretches or from the whole run, and when.
   */
  readonly latencyBySecond: readonly string[];
  /**
   * Time from the receiver's 2xx to the commit recording the message DELIVERED (the service's
   * `regpay_delivery_ack_record_seconds`, every instance, callbacks and events, measured load
   * only), p50 and p99 in ms interpolated within the histogram's buckets; NaN without metrics.
   */
  readonly ackRecordP50Ms: number;
  readonly ackRecordP99Ms: number;
  /** A group commit's duration (`regpay_store_commit_duration_seconds`, the same way). */
  readonly commitP50Ms: number;
  readonly commitP99Ms: number;
  /**
   * Store commits and fsyncs per transfer accepted in the measured load, from the warm-up's end
   * until drained (every instance's `regpay_store_commits_total` and `regpay_store_fsyncs_total`:
   * SQLite's fsyncs include the checkpointer's; PostgreSQL's are the server's own and not counted,
   * `fsyncsPerTransfer` 0 there). NaN when the service serves no such metrics, or a build that
   * predates a counter does not declare it (NaN is written as null in JSON).
   */
  readonly commitsPerTransfer: number;
  /** Of them, those holding a transaction's state (its path; the rest record callbacks and events, claims and leases). */
  readonly transactionCommitsPerTransfer: number;
  readonly fsyncsPerTransfer: number;
  readonly checkpointFsyncsPerTransfer: number;
}

/** Every instance's store commits and fsyncs summed; undefined when one serves no /metrics (the hollow service, metrics off). */
async function durableOfAll(urls: readonly string[]): Promise<DurableCounts | undefined> {
  try {
    const all = await Promise.all(urls.map((url) => durableTotals(url)));
    return all.reduce((sum, counts) => ({
      commits: sum.commits + counts.commits,
      transactionCommits: sum.transactionCommits + counts.transactionCommits,
      fsyncs: sum.fsyncs + counts.fsyncs,
      checkpointFsyncs: sum.checkpointFsyncs + counts.checkpointFsyncs,
    }));
  } catch {
    return undefined;
  }
}

/** Histograms of the service read from its /metrics for the figures. */
const HISTOGRAMS = ['regpay_delivery_ack_record_seconds', 'regpay_store_commit_duration_seconds'] as const;
type HistogramName = (typeof HISTOGRAMS)[number];
const BUCKET_LINE = /^(regpay_[a-z_]+)_bucket\{(?:[^}]*,)?le="([^"]+)"[^}]*\} (\d+)/;

/** Each histogram of one instance: cumulative counts by upper bound (s), labels summed. */
async function histogramBuckets(serviceUrl: string): Promise<Map<HistogramName, Map<number, number>>> {
  const histograms = new Map<HistogramName, Map<number, number>>(HISTOGRAMS.map((name) => [name, new Map()]));
  const response = await fetch(`${serviceUrl}/metrics`);
  if (!response.ok) return histograms;
  for (const line of (await response.text()).split('\n')) {
    const match = BUCKET_LINE.exec(line);
    const buckets = match === null ? undefined : histograms.get(match[1] as HistogramName);
    if (match === null || buckets === undefined) continue;
    const bound = match[2] === '+Inf' ? Infinity : Number(match[2]);
    buckets.set(bound, (buckets.get(bound) ?? 0) + Number(match[3]));
  }
  return histograms;
}

/** The p-th percentile (ms) of the observations between two scrapes of cumulative buckets, linear within its bucket (as histogram_quantile). */
function bucketPercentileMs(before: ReadonlyMap<number, number>, after: ReadonlyMap<number, number>, p: number): number {
  const bounds = [...after.keys()].sort((a, b) => a - b);
  const counts = bounds.map((bound) => (after.get(bound) ?? 0) - (before.get(bound) ?? 0));
  const total = counts.at(-1) ?? 0;
  if (total === 0) return Number.NaN;
  const rank = (p / 100) * total;
  for (let index = 0; index < bounds.length; index += 1) {
    if ((counts[index] ?? 0) < rank) continue;
    const upper = bounds[index] ?? Infinity;
    const lower = index === 0 ? 0 : (bounds[index - 1] ?? 0);
    if (upper === Infinity) return lower * 1000;
    const below = index === 0 ? 0 : (counts[index - 1] ?? 0);
    const inBucket = (counts[index] ?? 0) - below;
    return Math.round((lower + (upper - lower) * (inBucket === 0 ? 1 : (rank - below) / inBucket)) * 1000 * 10) / 10;
  }
  return Number.NaN;
}

/** Every instance's buckets added up, by histogram. */
async function histogramsOfAll(urls: readonly string[]): Promise<Map<HistogramName, Map<number, number>>> {
  const sums = new Map<HistogramName, Map<number, number>>(HISTOGRAMS.map((name) => [name, new Map()]));
  for (const histograms of await Promise.all(urls.map(histogramBuckets))) {
    for (const [name, buckets] of histograms) {
      const sum = sums.get(name) ?? new Map<number, number>();
      for (const [bound, count] of buckets) sum.set(bound, (sum.get(bound) ?? 0) + count);
      sums.set(name, sum);
    }
  }
  return sums;
}

function histogramPercentileMs(before: ReadonlyMap<HistogramName, Map<number, number>>, after: ReadonlyMap<HistogramName, Map<number, number>>, name: HistogramName, p: number): number {
  return bucketPercentileMs(before.get(name) ?? new Map(), after.get(name) ?? new Map(), p);
}

/**
 * Before measuring: this many seconds at the offered rate (at most WARM_UP_RATE_PER_S), drained.
 * Long enough for the SQLite WAL file to reach its working size (~400 MB, in about 6 s at 300/s):
 * while a new process's WAL still grows, its commits are slower, and with 5 s of warm-up the first
 * 4-5 s of the measurement ran at a p50 of 100-180 ms and made the run's p99 (bench/README.md,
 * "End to end"). That start-up cost is the process's, once; the measure is the sustained rate.
 */
const WARM_UP_S = Number(process.env.E2E_WARM_UP_S ?? 15);
const WARM_UP_RATE_PER_S = 300;
const EVENTS_PER_TRANSFER = 8;

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** The latencies (ms, sorted) of the transfers sent in each second from `started`, by second. */
function bySecond(sentAt: ReadonlyMap<string, number>, callbacks: Readonly<Record<string, number>>, started: number): number[][] {
  const seconds: number[][] = [];
  for (const [uetr, t0] of sentAt) {
    const at = callbacks[uetr];
    if (at === undefined) continue;
    (seconds[Math.floor((t0 - started) / 1000)] ??= []).push(at - t0);
  }
  return Array.from(seconds, (second) => (second ?? []).sort((a, b) => a - b));
}

async function stats(url: string): Promise<{ callbacks: Record<string, number>; events: Record<string, number>; eventCount: number; duplicateCallbacks: number }> {
  return (await (await fetch(`${url}/_stats`)).json()) as never;
}

/** How many callbacks and events arrived: cheap for the receiver, so it can be asked while load runs (stats() cannot). */
async function counts(url: string): Promise<{ callbackCount: number; eventCount: number }> {
  return (await (await fetch(`${url}/_counts`)).json()) as never;
}

export async function runE2e(options: {
  ratePerS: number;
  durationS: number;
  database?: string;
  delivery?: Record<string, unknown>;
  /** `hollow`: bench/hollow-service.ts instead of regpay. */
  service?: 'regpay' | 'hollow';
  /** Service instances sharing the database (PostgreSQL when more than one); requests go round-robin. Default 1. */
  instances?: number;
  /** The configuration's `schemes`, per instance (default: the built-in simulator answering at once). */
  schemes?: (instance: number) => Record<string, unknown>;
  /** `metrics.enabled` of the service (default true, as configured by default). */
  metrics?: boolean;
}): Promise<E2eFigures> {
  const instances = options.instances ?? 1;
  if (instances > 1 && !(options.database ?? '').startsWith('postgres')) throw new Error('several instances need a PostgreSQL database');
  const receiver = await startBenchReceiver();
  const receiverUrl = receiver.url;
  // regpay's configuration (and its database), written only when regpay is what runs.
  const regpayConfig = (instance: number): string =>
    writeTestConfig({
      database: options.database ?? `sqlite:${join(scratchDir('regpay-e2e-bench-'), 'bench.db')}`,
      integratorExtra: {
        partnerApiUrl: `${receiverUrl}/partner-api/v1`,
        eventsApiUrl: `${receiverUrl}/events-api/v1`,
        limits: { requestsPerSecond: 1_000_000, burst: 1_000_000 },
      },
      extra: {
        server: { host: '127.0.0.1', port: 0, logLevel: 'warn' },
        // The measure: the simulated scheme answers at once, so the figures are the service's own.
        schemes: options.schemes?.(instance) ?? { ZA_RPP: { connector: 'simulator', timeBudgetMs: 10_000, simulatorLatencyMs: 0 } },
        ...(options.delivery === undefined ? {} : { delivery: options.delivery }),
        ...(process.env.E2E_STORE === undefined ? {} : { store: JSON.parse(process.env.E2E_STORE) as Record<string, unknown> }),
        ...(options.metrics === undefined ? {} : { metrics: { enabled: options.metrics } }),
      },
    });
  // E2E_SERVER_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") profiles the service.
  const nodeArgs = (process.env.E2E_SERVER_NODE_ARGS ?? '').split(' ').filter((arg) => arg.length > 0);
  const servers = [];
  for (let i = 0; i < instances; i += 1) {
    servers.push(
      options.service === 'hollow'
        ? await startServer({ main: fileURLToPath(new URL('./hollow-service.js', import.meta.url)), env: { RECEIVER_URL: receiverUrl }, nodeArgs })
        : await startServer({ configPath: regpayConfig(i), main: serviceMain(), nodeArgs }),
    );
  }
  const pools = servers.map((server) => new Pool(server.url, { connections: Math.ceil(64 / instances), pipelining: 1 }));
  const sentAt = new Map<string, number>();
  const intake: number[] = [];
  let failures = 0;
  const backlogSamples: number[] = [];
  const pids = servers.map((server) => {
    if (server.child.pid === undefined) throw new Error('a server has no pid');
    return server.child.pid;
  });
  /** CPU by thread of every instance; with several, thread names carry the instance's number. */
  const serviceCpuUs = (): Map<string, number> =>
    new Map(pids.flatMap((pid, index) => [...threadCpuUs(pid)].map(([thread, us]) => [instances === 1 ? thread : `${index + 1}/${thread}`, us] as const)));
  const databaseCpuBefore = postgresCpuUs();

  /** Open loop: requests go out on schedule whether or not earlier ones were answered. Accepted ones are added to `accepted`. */
  async function offer(ratePerS: number, durationS: number, accepted: Map<string, number>, intakeMs: number[]): Promise<void> {
    const started = Date.now();
    const total = ratePerS * durationS;
    const inFlight = new Set<Promise<void>>();
    let sent = 0;
    while (sent < total) {
      const due = Math.min(total, Math.floor(((Date.now() - started) / 1000) * ratePerS));
      for (; sent < due; sent += 1) {
        const transfer = creditTransfer('ZA_RPP');
        const body = JSON.stringify(transfer);
        const t0 = Date.now();
        const request = pools[sent % pools.length]!
          .request({ method: 'POST', path: INTAKE_PATH, headers: { 'content-type': 'application/json', authorization: basicAuth() }, body })
          .then(async (response) => {
            await response.body.dump();
            if (response.statusCode === 202) {
              accepted.set(transfer.transactionIdentifiers.uetr, t0);
              intakeMs.push(Date.now() - t0);
            } else failures += 1;
          })
          .catch(() => {
            failures += 1;
          });
        inFlight.add(request);
        void request.finally(() => inFlight.delete(request));
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await Promise.all(inFlight);
  }

  /** Waits (at most `limitMs`) until `transfers` callbacks and `transfers` × 8 events have arrived in all. */
  async function drained(transfers: number, limitMs: number): Promise<Awaited<ReturnType<typeof stats>>> {
    const from = Date.now();
    let last = await counts(receiverUrl);
    while (Date.now() - from < limitMs) {
      if (last.callbackCount >= transfers && last.eventCount >= transfers * EVENTS_PER_TRANSFER) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
      last = await counts(receiverUrl);
    }
    return stats(receiverUrl);
  }

  try {
    // Warm-up, then measure: a running service has compiled its code, opened its connections and
    // filled its caches; the first second of a cold process would otherwise be the p99.
    const warmUp = new Map<string, number>();
    await offer(Math.min(options.ratePerS, WARM_UP_RATE_PER_S), WARM_UP_S, warmUp, []);
    const warmedUp = await drained(warmUp.size, 60_000);
    const baseline = { callbacks: Object.keys(warmedUp.callbacks).length, events: warmedUp.eventCount };
    if (baseline.callbacks < warmUp.size) throw new Error(`warm-up not drained: ${baseline.callbacks} of ${warmUp.size} called back`);

    const histogramsBefore = await histogramsOfAll(servers.map((server) => server.url));
    const durableBefore = await durableOfAll(servers.map((server) => server.url));
    const cpuBefore = serviceCpuUs();
    const started = Date.now();
    const sampler = setInterval(() => {
      void counts(receiverUrl).then((s) => backlogSamples.push(sentAt.size - (s.callbackCount - baseline.callbacks)));
    }, 5_000);
    await offer(options.ratePerS, options.durationS, sentAt, intake);
    clearInterval(sampler);
    const offeredEnd = Date.now();
    const atOfferedEnd = await counts(receiverUrl);
    // Drain: wait until every accepted transfer is called back and every event delivered (bounded).
    const last = await drained(warmUp.size + sentAt.size, 120_000);
    const drainMs = Date.now() - offeredEnd;
    const cpu = cpuPerUnit(cpuBefore, serviceCpuUs(), Math.max(1, sentAt.size));
    const histogramsAfter = await histogramsOfAll(servers.map((server) => server.url));
    const durableAfter = await durableOfAll(servers.map((server) => server.url));
    const durable = durableBefore === undefined || durableAfter === undefined ? undefined : durablePer(durableBefore, durableAfter, sentAt.size);
    const databaseCpuAfter = postgresCpuUs();
    const latencies = [...sentAt].flatMap(([uetr, t0]) => (last.callbacks[uetr] === undefined ? [] : [last.callbacks[uetr] - t0])).sort((a, b) => a - b);
    intake.sort((a, b) => a - b);
    const lastCallbackAt = [...sentAt.keys()].reduce((latest, uetr) => Math.max(latest, last.callbacks[uetr] ?? 0), started + 1);
    if (failures > 0) process.stderr.write(`${failures} requests failed\n`);
    return {
      offeredPerS: options.ratePerS,
      startedAt: started,
      durationS: options.durationS,
      accepted: sentAt.size,
      warmUpAccepted: warmUp.size,
      completed: latencies.length,
      completedPerS: latencies.length / ((lastCallbackAt - started) / 1000),
      completedDuringLoadPerS: [...sentAt.keys()].filter((uetr) => (last.callbacks[uetr] ?? Infinity) <= offeredEnd).length / ((offeredEnd - started) / 1000),
      eventsDuringLoadPerS: (atOfferedEnd.eventCount - baseline.events) / EVENTS_PER_TRANSFER / ((offeredEnd - started) / 1000),
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      intakeP99Ms: percentile(intake, 99),
      eventsExpected: sentAt.size * EVENTS_PER_TRANSFER,
      eventsDelivered: last.eventCount - baseline.events,
      backlogSamples,
      drainMs,
      duplicateCallbacks: last.duplicateCallbacks,
      serviceCpuUsPerTransfer: Math.round(cpu.totalUs),
      mainThreadCpuUsPerTransfer: Math.round(cpu.byThread.filter(([thread]) => thread === 'main' || thread.endsWith('/main')).reduce((sum, [, us]) => sum + us, 0)),
      databaseCpuUsPerTransfer: Math.round((databaseCpuAfter - databaseCpuBefore) / Math.max(1, sentAt.size)),
      cpuUsPerTransferByThread: cpu.byThread.map(([thread, us]) => `${thread}: ${Math.round(us)}`),
      latencyBySecond: bySecond(sentAt, last.callbacks, started).map((second) => `${percentile(second, 50)}/${percentile(second, 99)}`),
      ackRecordP50Ms: histogramPercentileMs(histogramsBefore, histogramsAfter, 'regpay_delivery_ack_record_seconds', 50),
      ackRecordP99Ms: histogramPercentileMs(histogramsBefore, histogramsAfter, 'regpay_delivery_ack_record_seconds', 99),
      commitP50Ms: histogramPercentileMs(histogramsBefore, histogramsAfter, 'regpay_store_commit_duration_seconds', 50),
      commitP99Ms: histogramPercentileMs(histogramsBefore, histogramsAfter, 'regpay_store_commit_duration_seconds', 99),
      commitsPerTransfer: durable?.commits ?? Number.NaN,
      transactionCommitsPerTransfer: durable?.transactionCommits ?? Number.NaN,
      fsyncsPerTransfer: durable?.fsyncs ?? Number.NaN,
      checkpointFsyncsPerTransfer: durable?.checkpointFsyncs ?? Number.NaN,
    };
  } finally {
    for (const pool of pools) await pool.close();
    for (const server of servers) await server.stop();
    receiver.stop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const figures = await runE2e({
    ratePerS: Number(process.env.E2E_RATE ?? 1000),
    durationS: Number(process.env.E2E_DURATION_S ?? 60),
    ...(process.env.DATABASE === undefined ? {} : { database: process.env.DATABASE }),
    ...(process.env.E2E_DELIVERY === undefined ? {} : { delivery: JSON.parse(process.env.E2E_DELIVERY) as Record<string, unknown> }),
    service: process.env.E2E_SERVICE === 'hollow' ? 'hollow' : 'regpay',
  });
  if (process.env.BENCH_FIGURES_OUT !== undefined) writeFileSync(process.env.BENCH_FIGURES_OUT, JSON.stringify(figures));
  process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
}
