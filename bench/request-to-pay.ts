/**
 * PayShap request-to-pay (bench/README.md, "Request-to-pay"), SQLite, simulator at zero latency,
 * the integrator a receiver process (receiver.ts), its rate limits raised out of the way:
 *
 * 1. Throughput to the final status: request-to-pays offered at a fixed rate (open loop, RTP_RATE,
 *    default 300/s, for RTP_DURATION_S, 20 s, after RTP_WARM_UP_S, 15 s, of warm-up at the same
 *    rate, drained), debtor `0799000100` (PENDING, PRESENTED, PAID). A request is complete when
 *    its three pushes (in that order) and its seven events reached the receiver. Reported:
 *    completed per second of load (those complete while offered) and overall, p50/p99 from the
 *    202 to the PAID push and to the last push or event, CPU per request, and the ratio to the
 *    credit-transfer end-to-end rate (e2e.ts) measured in this run at the same offered rate and
 *    duration (the one run.ts already measured when its rate was the same).
 * 2. Timers live in the store: RTP_PENDING (100,000) requests left pending (debtor `0799000201`,
 *    never presented; each expiring RTP_PENDING_EXPIRY_S, 600 s, after it is sent), accepted in
 *    steps of RTP_PENDING_STEP (10,000) by RTP_CONCURRENCY (16) requests in flight; after each
 *    step, once its PENDING pushes and events are delivered and 2 s have passed, the service's
 *    VmRSS (with RssAnon, RssFile), its main thread's V8 heap and the database's size. Reported:
 *    RSS idle before the first request, after the first step and after the last, and the slope
 *    (least squares over the steps) in MB per 10,000 pending. RTP_PENDING_DEBTOR=0799000100 is the
 *    control: the same fill with requests that are paid, so nothing is left pending.
 * 3. Expiry drain: RTP_DRAIN (10,000) requests of the same scenario, all with the same
 *    expiryDateTime RTP_DRAIN_EXPIRY_S (60 s) after the first is sent, accepted first; then the
 *    time from that instant until every EXPIRED push (and every EXPIRED event) reached the
 *    receiver, EXPIRED pushes per second, and the CPU used meanwhile. Target: within 30 s.
 *
 * Each part runs its own service and receiver on a fresh database. RTP_ONLY=throughput,pending,drain
 * runs only those; RTP_SERVER_NODE_ARGS passes node flags to the service (e.g.
 * "--cpu-prof --cpu-prof-dir=/tmp/prof"). Every wait is bounded, and every process stops by itself.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { requestToPay } from '../test/fixtures/request-to-pay.js';
import { basicAuth, startServer, writeTestConfig, type RunningServer } from '../test/support/server.js';
import { runE2e, type E2eFigures } from './e2e.js';
import { startBenchReceiver } from './receiver-process.js';
import { scratchDir } from './scratch-dir.js';
import { cpuPerUnit, threadCpuUs } from './thread-cpu.js';
import { rigChildren, stopRigOnSignal } from './rig-children.js';
import { serviceMain } from './build-root.js';

export const REQUEST_TO_PAY_PATH = '/api/v1/transactions/outbound/request-to-pay';

const RATE = Number(process.env.RTP_RATE ?? 300);
const DURATION_S = Number(process.env.RTP_DURATION_S ?? 20);
const WARM_UP_S = Number(process.env.RTP_WARM_UP_S ?? process.env.E2E_WARM_UP_S ?? 15);
const PENDING = Number(process.env.RTP_PENDING ?? 100_000);
const PENDING_STEP = Number(process.env.RTP_PENDING_STEP ?? 10_000);
const PENDING_EXPIRY_S = Number(process.env.RTP_PENDING_EXPIRY_S ?? 600);
/** The control: RTP_PENDING_DEBTOR=0799000100 fills the same way with requests that are paid (nothing left pending). */
const PENDING_DEBTOR = process.env.RTP_PENDING_DEBTOR ?? '0799000201';
const DRAIN = Number(process.env.RTP_DRAIN ?? 10_000);
const DRAIN_EXPIRY_S = Number(process.env.RTP_DRAIN_EXPIRY_S ?? 60);
const CONCURRENCY = Number(process.env.RTP_CONCURRENCY ?? 16);
const ONLY = process.env.RTP_ONLY?.split(',').map((part) => part.trim());
const SERVER_NODE_ARGS = process.env.RTP_SERVER_NODE_ARGS?.split(' ').filter((arg) => arg !== '') ?? [];
const runs = (part: string): boolean => ONLY === undefined || ONLY.includes(part);

/** The target of part 3 (bench/README.md). */
export const TARGET_DRAIN_S = 30;

/** Simulator scenarios (docs/simulator.md, "Request-to-pay"), chosen by the debtor's account number. */
const PAYS = '0799000100';
const NEVER_PRESENTED = '0799000201';
if (PENDING_DEBTOR !== NEVER_PRESENTED && PENDING_DEBTOR !== PAYS) throw new Error(`RTP_PENDING_DEBTOR must be ${NEVER_PRESENTED} (pending) or ${PAYS} (the control: paid)`);
/** Events a request posts: RECEIVED, ACCEPTED, REQUEST_PENDING, DELIVERED, STATUS_PENDING (docs/request-to-pay.md), then PRESENTED and PAID, or EXPIRED. */
const EVENTS_UNTIL_PENDING = 5;
const EVENTS_PAID = 7;
const EVENTS_EXPIRED = 6;
/** No request may outlive this. */
const REQUEST_TIMEOUT_MS = 30_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const round = (value: number, digits = 0): number => Number(value.toFixed(digits));
const mb = (kb: number): number => round(kb / 1024, 1);

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** A request-to-pay as the receiver saw it (receiver.ts). */
interface RtpSeen {
  readonly statuses: readonly string[];
  readonly at: Readonly<Record<string, number>>;
  readonly events: number;
  readonly lastEventAt: number;
}

interface Counts {
  readonly rtpPushCounts: Readonly<Record<string, number>>;
  readonly rtpEventCount: number;
}

async function counts(receiverUrl: string): Promise<Counts> {
  return (await (await fetch(`${receiverUrl}/_counts`)).json()) as Counts;
}

async function seen(receiverUrl: string): Promise<{ requests: Record<string, RtpSeen>; rtpDuplicatePushes: number }> {
  return (await (await fetch(`${receiverUrl}/_rtp`)).json()) as never;
}

/** Waits (at most `limitMs`) until `pushes` pushes of `status` and `events` request-to-pay events have arrived in all; whether they did. */
async function delivered(receiverUrl: string, status: string, pushes: number, events: number, limitMs: number): Promise<boolean> {
  const from = Date.now();
  for (;;) {
    const now = await counts(receiverUrl);
    if ((now.rtpPushCounts[status] ?? 0) >= pushes && now.rtpEventCount >= events) return true;
    if (Date.now() - from > limitMs) return false;
    await sleep(250);
  }
}

function statusKb(pid: number): { rss: number; anon: number; file: number; shmem: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string): number => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rss: field('VmRSS'), anon: field('RssAnon'), file: field('RssFile'), shmem: field('RssShmem') };
}

/** The main thread's V8 heap, in use and committed, from the service's /metrics (prom-client's default metrics). */
async function heapMb(serverUrl: string): Promise<{ used: number; total: number }> {
  const text = await (await fetch(`${serverUrl}/metrics`)).text();
  const value = (name: string): number => {
    const match = new RegExp(`^regpay_nodejs_heap_size_${name}_bytes (\\S+)$`, 'm').exec(text);
    return match === null ? Number.NaN : round(Number(match[1]) / 1024 / 1024, 1);
  };
  return { used: value('used'), total: value('total') };
}

/** The database, its WAL and its shared-memory index, in MB. */
function databaseMb(dir: string): number {
  return round(readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0) / 1024 / 1024, 1);
}

/** The whole machine's busy CPU time so far (all cores, µs), from /proc/stat: everything but idle and iowait. */
function machineBusyUs(): number {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = fields.slice(0, 8).reduce((sum, value) => sum + value, 0);
  return ((total - fields[3]! - fields[4]!) / 100) * 1e6;
}

const processCpuUs = (pid: number | undefined): number => (pid === undefined ? 0 : [...threadCpuUs(pid).values()].reduce((sum, us) => sum + us, 0));

/** The service and its integrator, on a fresh SQLite database in a scratch directory. */
interface Rig {
  readonly server: RunningServer;
  readonly pid: number;
  readonly receiverUrl: string;
  readonly receiverPid: number | undefined;
  readonly pool: Pool;
  readonly databaseDir: string;
  /** Requests answered other than 202, or not answered. */
  failures: number;
}


async function withRig<T>(use: (rig: Rig) => Promise<T>): Promise<T> {
  stopRigOnSignal();
  const receiver = await startBenchReceiver();
  const receiverChild = { kill: () => receiver.stop() };
  rigChildren.add(receiverChild);
  const databaseDir = scratchDir('regpay-rtp-bench-');
  const configPath = writeTestConfig({
    database: `sqlite:${join(databaseDir, 'bench.db')}`,
    integratorExtra: {
      partnerApiUrl: `${receiver.url}/partner-api/v1`,
      eventsApiUrl: `${receiver.url}/events-api/v1`,
      limits: { requestsPerSecond: 1_000_000, burst: 1_000_000 },
    },
    extra: {
      server: { host: '127.0.0.1', port: 0, logLevel: 'warn' },
      // As e2e.ts: the simulated operator reports at once, so the figures are the service's own.
      schemes: { ZA_RPP: { connector: 'simulator', timeBudgetMs: 10_000, simulatorLatencyMs: 0 } },
    },
  });
  let server: RunningServer | undefined;
  let pool: Pool | undefined;
  try {
    server = await startServer({ configPath, main: serviceMain(), nodeArgs: SERVER_NODE_ARGS });
    rigChildren.add(server.child);
    const pid = server.child.pid;
    if (pid === undefined) throw new Error('the server has no pid');
    pool = new Pool(server.url, { connections: 64, pipelining: 1, headersTimeout: REQUEST_TIMEOUT_MS, bodyTimeout: REQUEST_TIMEOUT_MS });
    return await use({ server, pid, receiverUrl: receiver.url, receiverPid: receiver.pid, pool, databaseDir, failures: 0 });
  } finally {
    await pool?.close();
    await server?.stop();
    receiver.stop();
    if (server !== undefined) rigChildren.delete(server.child);
    rigChildren.delete(receiverChild);
  }
}

/** Sends one request-to-pay of `debtor`'s scenario; resolves with its uetr and when its 202 came, or undefined (counted in rig.failures). */
async function send(rig: Rig, debtor: string, expiryAt: number): Promise<{ uetr: string; acceptedAt: number } | undefined> {
  const message = requestToPay('ACCOUNT');
  message.debtorAccount = { identification: { schema: 'GENERIC', value: debtor } };
  message.expiryDateTime = new Date(expiryAt).toISOString();
  try {
    const response = await rig.pool.request({
      method: 'POST',
      path: REQUEST_TO_PAY_PATH,
      headers: { 'content-type': 'application/json', authorization: basicAuth() },
      body: JSON.stringify(message),
    });
    const text = await response.body.text();
    if (response.statusCode === 202) return { uetr: message.transactionIdentifiers.uetr, acceptedAt: Date.now() };
    if (rig.failures === 0) process.stderr.write(`request-to-pay answered ${response.statusCode}: ${text.slice(0, 300)}\n`);
  } catch (error) {
    if (rig.failures === 0) process.stderr.write(`request-to-pay failed: ${String(error)}\n`);
  }
  rig.failures += 1;
  return undefined;
}

interface Offered {
  readonly sentAt: number;
  readonly acceptedAt: number;
}

/** Open loop: `ratePerS` requests per second for `durationS`, whether or not earlier ones were answered. */
async function offer(rig: Rig, ratePerS: number, durationS: number, accepted: Map<string, Offered>): Promise<void> {
  const started = Date.now();
  const total = Math.round(ratePerS * durationS);
  const inFlight = new Set<Promise<void>>();
  let sent = 0;
  while (sent < total) {
    const due = Math.min(total, Math.floor(((Date.now() - started) / 1000) * ratePerS));
    for (; sent < due; sent += 1) {
      const sentAt = Date.now();
      const request = send(rig, PAYS, sentAt + 10 * 60_000).then((result) => {
        if (result !== undefined) accepted.set(result.uetr, { sentAt, acceptedAt: result.acceptedAt });
      });
      inFlight.add(request);
      void request.finally(() => inFlight.delete(request));
    }
    await sleep(5);
  }
  await Promise.all(inFlight);
}

/** Closed loop: `count` requests, CONCURRENCY at a time, stopping early at `deadline`; the uetrs accepted. */
async function fill(rig: Rig, count: number, debtor: string, expiryAt: (sentAt: number) => number, deadline: number): Promise<string[]> {
  const accepted: string[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count && Date.now() < deadline) {
      next += 1;
      const result = await send(rig, debtor, expiryAt(Date.now()));
      if (result !== undefined) accepted.push(result.uetr);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return accepted;
}

export interface RtpThroughputFigures {
  readonly offeredPerS: number;
  readonly durationS: number;
  readonly warmUpS: number;
  readonly accepted: number;
  /** Every push (PENDING, PRESENTED, PAID, in that order) and all seven events delivered. */
  readonly completed: number;
  /** Completed while requests were still being offered, per second of offering (e2e.ts's completedDuringLoadPerS). */
  readonly completedDuringLoadPerS: number;
  /** Every request completed, over the time from the first request to the last completion. */
  readonly completedPerS: number;
  /** From the 202 to the PAID push. */
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  /** From the 202 to the last of its pushes and events. */
  readonly completeP50Ms: number;
  readonly completeP99Ms: number;
  readonly intakeP99Ms: number;
  /** p50/p99 (ms) of each leg: 202 to the PENDING push, PENDING to PRESENTED, PRESENTED to PAID, the PAID push to the last event. */
  readonly legs: Readonly<Record<'toPending' | 'toPresented' | 'toPaid' | 'toLastEvent', string>>;
  readonly drainMs: number;
  /** Requests whose pushes came in another order or count than PENDING, PRESENTED, PAID. */
  readonly wrongPushes: number;
  readonly duplicatePushes: number;
  readonly failures: number;
  readonly serviceCpuUsPerRequest: number;
  readonly cpuUsPerRequestByThread: readonly string[];
  /** Over the offered load: the machine's busy cores, and those of processes other than the service, the receiver and this one (others' work on a shared machine). */
  readonly machineBusyCores: number;
  readonly othersBusyCores: number;
  /** p50/p99 (202 to PAID) of the requests offered in each second of the load. */
  readonly latencyBySecond: readonly string[];
}

/** Part 1. */
export async function measureThroughput(ratePerS = RATE, durationS = DURATION_S): Promise<RtpThroughputFigures> {
  return withRig(async (rig) => {
    // Warm-up, drained (as e2e.ts: code compiled, connections open, the WAL file at its working size).
    const warmUp = new Map<string, Offered>();
    await offer(rig, Math.min(ratePerS, 300), WARM_UP_S, warmUp);
    if (!(await delivered(rig.receiverUrl, 'PAID', warmUp.size, warmUp.size * EVENTS_PAID, 60_000))) throw new Error('request-to-pay warm-up not drained within 60 s');

    const measured = new Map<string, Offered>();
    const own = (): number => processCpuUs(rig.pid) + processCpuUs(rig.receiverPid) + process.cpuUsage().user + process.cpuUsage().system;
    const cpuBefore = threadCpuUs(rig.pid);
    const busyBefore = { machine: machineBusyUs(), own: own() };
    const started = Date.now();
    await offer(rig, ratePerS, durationS, measured);
    const offeredEnd = Date.now();
    const windowUs = (offeredEnd - started) * 1000;
    const machineBusyCores = round((machineBusyUs() - busyBefore.machine) / windowUs, 2);
    const othersBusyCores = round(machineBusyCores - (own() - busyBefore.own) / windowUs, 2);
    const drainedAll = await delivered(rig.receiverUrl, 'PAID', warmUp.size + measured.size, (warmUp.size + measured.size) * EVENTS_PAID, 120_000);
    const drainMs = Date.now() - offeredEnd;
    if (!drainedAll) process.stderr.write('request-to-pay throughput: not drained within 120 s of the load\n');
    const cpu = cpuPerUnit(cpuBefore, threadCpuUs(rig.pid), Math.max(1, measured.size));
    const { requests, rtpDuplicatePushes } = await seen(rig.receiverUrl);

    const toPaid: number[] = [];
    const toComplete: number[] = [];
    const intake: number[] = [];
    const bySecond: number[][] = [];
    const legs = { toPending: [] as number[], toPresented: [] as number[], toPaid: [] as number[], toLastEvent: [] as number[] };
    let completedDuringLoad = 0;
    let lastCompleteAt = started + 1;
    let wrongPushes = 0;
    for (const [uetr, offered] of measured) {
      intake.push(offered.acceptedAt - offered.sentAt);
      const request = requests[uetr];
      if (request === undefined) continue;
      if (request.statuses.join() !== 'PENDING,PRESENTED,PAID') wrongPushes += 1;
      const paidAt = request.at.PAID;
      if (paidAt === undefined || request.at.PENDING === undefined || request.at.PRESENTED === undefined || request.events < EVENTS_PAID) continue;
      const completeAt = Math.max(paidAt, request.lastEventAt);
      legs.toPending.push(request.at.PENDING - offered.acceptedAt);
      legs.toPresented.push(request.at.PRESENTED - request.at.PENDING);
      legs.toPaid.push(paidAt - request.at.PRESENTED);
      legs.toLastEvent.push(request.lastEventAt - paidAt);
      toPaid.push(paidAt - offered.acceptedAt);
      toComplete.push(completeAt - offered.acceptedAt);
      (bySecond[Math.floor((offered.sentAt - started) / 1000)] ??= []).push(paidAt - offered.acceptedAt);
      if (completeAt <= offeredEnd) completedDuringLoad += 1;
      lastCompleteAt = Math.max(lastCompleteAt, completeAt);
    }
    for (const list of [toPaid, toComplete, intake, ...Object.values(legs)]) list.sort((a, b) => a - b);
    const leg = (list: readonly number[]): string => `${percentile(list, 50)}/${percentile(list, 99)}`;
    return {
      offeredPerS: ratePerS,
      durationS,
      warmUpS: WARM_UP_S,
      accepted: measured.size,
      completed: toComplete.length,
      completedDuringLoadPerS: round(completedDuringLoad / ((offeredEnd - started) / 1000), 1),
      completedPerS: round(toComplete.length / ((lastCompleteAt - started) / 1000), 1),
      p50Ms: percentile(toPaid, 50),
      p99Ms: percentile(toPaid, 99),
      maxMs: toPaid.at(-1) ?? Number.NaN,
      completeP50Ms: percentile(toComplete, 50),
      completeP99Ms: percentile(toComplete, 99),
      intakeP99Ms: percentile(intake, 99),
      legs: { toPending: leg(legs.toPending), toPresented: leg(legs.toPresented), toPaid: leg(legs.toPaid), toLastEvent: leg(legs.toLastEvent) },
      drainMs,
      wrongPushes,
      duplicatePushes: rtpDuplicatePushes,
      failures: rig.failures,
      serviceCpuUsPerRequest: Math.round(cpu.totalUs),
      cpuUsPerRequestByThread: cpu.byThread.slice(0, 4).map(([thread, us]) => `${thread}: ${Math.round(us)}`),
      machineBusyCores,
      othersBusyCores,
      latencyBySecond: Array.from(bySecond, (second) => {
        const sorted = (second ?? []).sort((a, b) => a - b);
        return `${percentile(sorted, 50)}/${percentile(sorted, 99)}`;
      }),
    };
  });
}

interface MemorySample {
  readonly pending: number;
  readonly rssMb: number;
  readonly rssAnonMb: number;
  readonly rssFileMb: number;
  readonly rssShmemMb: number;
  /** The main thread's V8 heap: in use (live and not yet collected) and committed. */
  readonly heapUsedMb: number;
  readonly heapTotalMb: number;
  readonly databaseMb: number;
}

export interface RtpPendingFigures {
  /** The scenario: 0799000201 never presented (pending), or the control 0799000100 (paid). */
  readonly debtor: string;
  readonly target: number;
  readonly pending: number;
  /** Whether every step's PENDING pushes and events arrived before it was sampled. */
  readonly allDelivered: boolean;
  readonly expiryS: number;
  readonly fillS: number;
  readonly failures: number;
  /** The service idle, before its first request. */
  readonly idle: MemorySample;
  /** After each step, its pushes and events delivered. */
  readonly samples: readonly MemorySample[];
  /** Least-squares slope of RSS over the steps, in MB per 10,000 pending. */
  readonly rssMbPer10k: number;
  readonly heapMbPer10k: number;
  readonly databaseMbPer10k: number;
}

async function memorySample(rig: Rig, pending: number): Promise<MemorySample> {
  const kb = statusKb(rig.pid);
  const heap = await heapMb(rig.server.url);
  return {
    pending,
    rssMb: mb(kb.rss),
    rssAnonMb: mb(kb.anon),
    rssFileMb: mb(kb.file),
    rssShmemMb: mb(kb.shmem),
    heapUsedMb: heap.used,
    heapTotalMb: heap.total,
    databaseMb: databaseMb(rig.databaseDir),
  };
}

/** Least-squares slope of y over x, per 10,000 of x. */
function slopePer10k(points: readonly (readonly [number, number])[]): number {
  if (points.length < 2) return Number.NaN;
  const meanX = points.reduce((sum, [x]) => sum + x, 0) / points.length;
  const meanY = points.reduce((sum, [, y]) => sum + y, 0) / points.length;
  const covariance = points.reduce((sum, [x, y]) => sum + (x - meanX) * (y - meanY), 0);
  const variance = points.reduce((sum, [x]) => sum + (x - meanX) ** 2, 0);
  return round((covariance / variance) * 10_000, 2);
}

/** Part 2. */
export async function measurePending(target = PENDING): Promise<RtpPendingFigures> {
  return withRig(async (rig) => {
    await sleep(2_000);
    const idle = await memorySample(rig, 0);
    const started = Date.now();
    // Stop filling well before the first request's expiry, so none expires while measured.
    const deadline = started + Math.max(60, PENDING_EXPIRY_S - 120) * 1000;
    const samples: MemorySample[] = [];
    let pending = 0;
    let allDelivered = true;
    while (pending < target && Date.now() < deadline) {
      const accepted = await fill(rig, Math.min(PENDING_STEP, target - pending), PENDING_DEBTOR, (sentAt) => sentAt + PENDING_EXPIRY_S * 1000, deadline);
      pending += accepted.length;
      if (accepted.length === 0) break;
      const [status, events] = PENDING_DEBTOR === PAYS ? ['PAID', EVENTS_PAID] : ['PENDING', EVENTS_UNTIL_PENDING];
      allDelivered = (await delivered(rig.receiverUrl, status, pending, pending * events, 180_000)) && allDelivered;
      await sleep(2_000);
      samples.push(await memorySample(rig, pending));
      process.stderr.write(`request-to-pay pending: ${JSON.stringify(samples.at(-1))}\n`);
    }
    const fillS = round((Date.now() - started) / 1000);
    const { rtpPushCounts } = await counts(rig.receiverUrl);
    if ((rtpPushCounts.EXPIRED ?? 0) > 0) process.stderr.write(`request-to-pay pending: ${rtpPushCounts.EXPIRED} expired while measured\n`);
    return {
      debtor: PENDING_DEBTOR,
      target,
      pending,
      allDelivered,
      expiryS: PENDING_EXPIRY_S,
      fillS,
      failures: rig.failures,
      idle,
      samples,
      rssMbPer10k: slopePer10k(samples.map((sample) => [sample.pending, sample.rssMb])),
      heapMbPer10k: slopePer10k(samples.map((sample) => [sample.pending, sample.heapUsedMb])),
      databaseMbPer10k: slopePer10k(samples.map((sample) => [sample.pending, sample.databaseMb])),
    };
  });
}

export interface RtpDrainFigures {
  readonly requests: number;
  readonly accepted: number;
  readonly failures: number;
  /** Seconds from the first request to the expiry instant. */
  readonly expiryS: number;
  /** Seconds the requests took to be accepted, and until their PENDING pushes and events were all delivered (before the expiry instant, or not). */
  readonly acceptS: number;
  readonly pendingDeliveredS: number;
  readonly pendingBeforeExpiry: number;
  /** From the expiry instant to the last EXPIRED push (the figure the target is judged by), and to its p50. */
  readonly drainMs: number;
  readonly firstExpiredMs: number;
  readonly p50Ms: number;
  readonly expired: number;
  /** From the expiry instant until every request's sixth event (EXPIRED) arrived too. */
  readonly eventsDrainMs: number;
  readonly wrongPushes: number;
  /** EXPIRED pushes that arrived in each second after the expiry instant. */
  readonly expiredPerSecond: readonly number[];
  /** CPU over the drain (from the expiry instant until everything arrived), µs per request, by thread and in all. */
  readonly serviceCpuUsPerRequest: number;
  readonly cpuUsPerRequestByThread: readonly string[];
  readonly receiverCpuUsPerRequest: number;
  /** How many of the machine's cores were busy over the drain, on average. */
  readonly machineBusyCores: number;
}

/** Part 3. */
export async function measureDrain(requests = DRAIN): Promise<RtpDrainFigures> {
  return withRig(async (rig) => {
    const started = Date.now();
    const expiryAt = started + DRAIN_EXPIRY_S * 1000;
    const accepted = await fill(rig, requests, NEVER_PRESENTED, () => expiryAt, expiryAt - 1_000);
    const acceptS = round((Date.now() - started) / 1000, 1);
    await delivered(rig.receiverUrl, 'PENDING', accepted.length, accepted.length * EVENTS_UNTIL_PENDING, Math.max(0, expiryAt - Date.now() - 500));
    const pendingDeliveredS = round((Date.now() - started) / 1000, 1);
    const pendingBeforeExpiry = (await counts(rig.receiverUrl)).rtpPushCounts.PENDING ?? 0;
    await sleep(Math.max(0, expiryAt - Date.now()));

    const cpuBefore = { service: threadCpuUs(rig.pid), receiver: processCpuUs(rig.receiverPid), machine: machineBusyUs(), at: Date.now() };
    const expiredCounts: number[] = [];
    let nextSecond = expiryAt + 1000;
    for (;;) {
      const now = await counts(rig.receiverUrl);
      while (Date.now() >= nextSecond) {
        expiredCounts.push(now.rtpPushCounts.EXPIRED ?? 0);
        nextSecond += 1000;
      }
      if ((now.rtpPushCounts.EXPIRED ?? 0) >= accepted.length && now.rtpEventCount >= accepted.length * EVENTS_EXPIRED) break;
      if (Date.now() - expiryAt > 300_000) {
        process.stderr.write('request-to-pay drain: not everything expired within 300 s\n');
        break;
      }
      await sleep(100);
    }
    const cpu = cpuPerUnit(cpuBefore.service, threadCpuUs(rig.pid), Math.max(1, accepted.length));
    const receiverUs = processCpuUs(rig.receiverPid) - cpuBefore.receiver;
    const machineBusyCores = round((machineBusyUs() - cpuBefore.machine) / ((Date.now() - cpuBefore.at) * 1000), 2);

    const { requests: seenRequests } = await seen(rig.receiverUrl);
    const expiredAt: number[] = [];
    let lastEventAt = 0;
    let wrongPushes = 0;
    for (const uetr of accepted) {
      const request = seenRequests[uetr];
      if (request === undefined) continue;
      if (request.statuses.join() !== 'PENDING,EXPIRED') wrongPushes += 1;
      if (request.at.EXPIRED !== undefined) expiredAt.push(request.at.EXPIRED - expiryAt);
      if (request.events >= EVENTS_EXPIRED) lastEventAt = Math.max(lastEventAt, request.lastEventAt);
    }
    expiredAt.sort((a, b) => a - b);
    return {
      requests,
      accepted: accepted.length,
      failures: rig.failures,
      expiryS: DRAIN_EXPIRY_S,
      acceptS,
      pendingDeliveredS,
      pendingBeforeExpiry,
      drainMs: expiredAt.at(-1) ?? Number.NaN,
      firstExpiredMs: expiredAt[0] ?? Number.NaN,
      p50Ms: percentile(expiredAt, 50),
      expired: expiredAt.length,
      eventsDrainMs: lastEventAt - expiryAt,
      wrongPushes,
      expiredPerSecond: expiredCounts.map((count, second) => count - (expiredCounts[second - 1] ?? 0)),
      serviceCpuUsPerRequest: Math.round(cpu.totalUs),
      cpuUsPerRequestByThread: cpu.byThread.slice(0, 4).map(([thread, us]) => `${thread}: ${Math.round(us)}`),
      receiverCpuUsPerRequest: Math.round(receiverUs / Math.max(1, accepted.length)),
      machineBusyCores,
    };
  });
}

export interface RequestToPayFigures {
  readonly throughput?: RtpThroughputFigures;
  /** The credit-transfer end-to-end run it is compared with (same offered rate), and the ratio of the rates completed while offered. */
  readonly creditTransfer?: E2eFigures;
  readonly ratioToCreditTransfer?: number;
  readonly pending?: RtpPendingFigures;
  readonly drain?: RtpDrainFigures;
}

/** Before a part: the previous part's dirty pages written out and its processes gone (as run.ts's settle()). */
async function settle(): Promise<void> {
  spawnSync('sync');
  await sleep(5_000);
}

/**
 * The three parts. `creditTransfer`: the end-to-end figures run.ts measured in this run; used when
 * offered at the same rate, otherwise e2e.ts runs here at RTP_RATE for RTP_DURATION_S.
 */
export async function runRequestToPay(options: { creditTransfer?: E2eFigures } = {}): Promise<RequestToPayFigures> {
  let throughput: RtpThroughputFigures | undefined;
  let creditTransfer: E2eFigures | undefined;
  if (runs('throughput')) {
    creditTransfer = options.creditTransfer?.offeredPerS === RATE ? options.creditTransfer : await settle().then(() => runE2e({ ratePerS: RATE, durationS: DURATION_S }));
    await settle();
    throughput = await measureThroughput();
  }
  const pending = runs('pending') ? await settle().then(() => measurePending()) : undefined;
  const drain = runs('drain') ? await settle().then(() => measureDrain()) : undefined;
  return {
    ...(throughput === undefined ? {} : { throughput }),
    ...(creditTransfer === undefined ? {} : { creditTransfer, ratioToCreditTransfer: round((throughput?.completedDuringLoadPerS ?? Number.NaN) / creditTransfer.completedDuringLoadPerS, 2) }),
    ...(pending === undefined ? {} : { pending }),
    ...(drain === undefined ? {} : { drain }),
  };
}

export function requestToPayRows(figures: RequestToPayFigures): string[] {
  const lines: string[] = [];
  const { throughput, creditTransfer, pending, drain } = figures;
  if (throughput !== undefined) {
    lines.push(
      `request-to-pay to PAID (SQLite, simulator 0 ms), ${throughput.offeredPerS}/s offered for ${throughput.durationS} s after ${throughput.warmUpS} s warm-up: ` +
        `${throughput.completedDuringLoadPerS}/s completed while offered (all 3 pushes and ${EVENTS_PAID} events; ${throughput.completedPerS}/s from first request to last completion), ` +
        `${throughput.completed}/${throughput.accepted} completed; 202 to PAID push p50 ${throughput.p50Ms} ms, p99 ${throughput.p99Ms} ms, max ${throughput.maxMs} ms; ` +
        `202 to last push or event p50 ${throughput.completeP50Ms} ms, p99 ${throughput.completeP99Ms} ms; intake p99 ${throughput.intakeP99Ms} ms; ` +
        `legs p50/p99: 202 to PENDING ${throughput.legs.toPending}, to PRESENTED ${throughput.legs.toPresented}, to PAID ${throughput.legs.toPaid}, PAID to last event ${throughput.legs.toLastEvent} ms; drained ${throughput.drainMs} ms after the load; ` +
        `pushes out of order ${throughput.wrongPushes}, duplicates ${throughput.duplicatePushes}, failures ${throughput.failures}; service CPU ${throughput.serviceCpuUsPerRequest} µs per request (${throughput.cpuUsPerRequestByThread.join(', ')}); ` +
        `machine ${throughput.machineBusyCores} cores busy while offered (others' ${throughput.othersBusyCores})` +
        (creditTransfer === undefined
          ? ''
          : `; credit transfer end to end at ${creditTransfer.offeredPerS}/s in this run: ${creditTransfer.completedDuringLoadPerS.toFixed(1)}/s completed while offered, p50 ${creditTransfer.p50Ms} ms, p99 ${creditTransfer.p99Ms} ms (from the request), ` +
            `CPU ${creditTransfer.serviceCpuUsPerTransfer} µs per transfer; ratio ${figures.ratioToCreditTransfer}`),
    );
  }
  if (pending !== undefined) {
    const first = pending.samples[0];
    const last = pending.samples.at(-1);
    const noun = pending.debtor === PAYS ? 'paid' : 'pending';
    lines.push(
      `request-to-pay pending (${pending.debtor === PAYS ? 'CONTROL: paid, nothing left pending' : 'never presented'}, expiring in ${pending.expiryS} s): ${pending.pending}/${pending.target} accepted in ${pending.fillS} s (failures ${pending.failures}, all pushes and events delivered: ${pending.allDelivered ? 'yes' : 'NO'}); ` +
        `service VmRSS idle ${pending.idle.rssMb} MB, at ${first?.pending} ${noun} ${first?.rssMb} MB, at ${last?.pending} ${noun} ${last?.rssMb} MB ` +
        `(anonymous ${first?.rssAnonMb} → ${last?.rssAnonMb}, file ${first?.rssFileMb} → ${last?.rssFileMb}); slope ${pending.rssMbPer10k} MB per 10k ${noun} ` +
        `(main-thread heap in use ${first?.heapUsedMb} → ${last?.heapUsedMb} MB, ${pending.heapMbPer10k} MB per 10k, committed ${first?.heapTotalMb} → ${last?.heapTotalMb} MB; database ${first?.databaseMb} → ${last?.databaseMb} MB, ${pending.databaseMbPer10k} MB per 10k); ` +
        `RSS by step [${pending.samples.map((sample) => sample.rssMb).join(', ')}] MB`,
    );
  }
  if (drain !== undefined) {
    lines.push(
      `request-to-pay expiry drain: ${drain.accepted}/${drain.requests} expiring at one instant ${drain.expiryS} s after the first was sent (accepted in ${drain.acceptS} s, ` +
        `${drain.pendingBeforeExpiry} PENDING pushes delivered by ${drain.pendingDeliveredS} s, failures ${drain.failures}): ` +
        `all ${drain.expired} EXPIRED pushes in ${drain.drainMs} ms after the instant (target ${TARGET_DRAIN_S} s: ${drain.expired === drain.accepted && drain.drainMs <= TARGET_DRAIN_S * 1000 ? 'met' : 'MISSED'}; ` +
        `first ${drain.firstExpiredMs} ms, p50 ${drain.p50Ms} ms), their events in ${drain.eventsDrainMs} ms; pushes out of order ${drain.wrongPushes}; ` +
        `EXPIRED pushes per second [${drain.expiredPerSecond.join(', ')}]; service CPU ${drain.serviceCpuUsPerRequest} µs per request (${drain.cpuUsPerRequestByThread.join(', ')}), ` +
        `receiver ${drain.receiverCpuUsPerRequest} µs; machine ${drain.machineBusyCores} cores busy`,
    );
  }
  return lines;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const figures = await runRequestToPay();
  process.stdout.write(`${requestToPayRows(figures).join('\n')}\n${JSON.stringify(figures, null, 2)}\n`);
}
