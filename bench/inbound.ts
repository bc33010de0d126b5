/**
 * Receiving (bench/README.md, "Receiving (`inbound`)"): scheme-originated credits (CONTRACT §11),
 * SQLite, the built-in simulator as the scheme (ZA_RPP, answering at once), the integrator a
 * receiver process (receiver.ts) answering the sync authorisation APPROVED, its limits raised.
 * The simulator is made to originate each credit through the admin route (POST
 * /admin/v1/simulator/inbound, open loop at a fixed rate): its steady inbound rate is not in the
 * configuration yet.
 *
 * 1. `latency`: inbound credits offered at IN_RATE (200/s) for IN_DURATION_S (60 s) in IN_ROUNDS
 *    (3) windows, alternating with windows of outbound credit transfers (e2e.ts's load: the intake
 *    API, the simulator answering at once, the final callback to the receiver) offered at the same
 *    rate, on one service: outbound, inbound, outbound, ... , outbound, after IN_WARM_UP_S (10 s)
 *    of each, drained. Each window is drained (every completion or callback arrived, then no event
 *    for 1 s) before the next, and its CPU (the service's, every thread, from its first request
 *    until drained) divided by what it accepted. The simulated operator is asked about each credit
 *    after its window (it keeps a bounded number). Reported: the time the service adds between the
 *    pacs.008 in and the pacs.002 out, p50/p99 (the operator's own record: when it handed the
 *    pacs.008 over and when the answer reached it; and the service's, the transaction's creation
 *    to the pacs.002 recorded sent), with the integrator answering in 0 ms; CPU per inbound credit
 *    over CPU per outbound transfer (each round against the mean of the outbound windows either
 *    side, the median round); completions received against credits offered, duplicates.
 * 2. `timeout`: the integrator answers after IN_SLOW_ANSWER_MS (30 s); IN_SLOW_CREDITS (5,000)
 *    credits offered at IN_RATE with `inbound.answerTimeoutMs` IN_ANSWER_TIMEOUT_MS (5,000, what
 *    the configuration gives ZA_RPP's 10 s budget by default). Reported: how many the scheme got
 *    RJCT AB06 and how long after it sent the pacs.008 (against the budget + 100 ms); the
 *    service's VmRSS every second from idle until the receiver's late answers are all written and
 *    2 s more (first, peak, last).
 *
 * Each part runs its own service and receiver on a fresh database. IN_ONLY=latency or timeout;
 * IN_SERVER_NODE_ARGS passes node flags to the service (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof").
 * Every wait is bounded, and every process this starts is stopped by it.
 */
import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { creditTransfer } from '../test/fixtures/credit-transfer.js';
import { basicAuth, startServer, writeTestConfig, type RunningServer } from '../test/support/server.js';
import { INTAKE_PATH } from './intake-load.js';
import { startBenchReceiver } from './receiver-process.js';
import { scratchDir } from './scratch-dir.js';
import { cpuPerUnit, threadCpuUs } from './thread-cpu.js';
import { rigChildren, stopRigOnSignal } from './rig-children.js';
import { serviceMain } from './build-root.js';

const RATE = Number(process.env.IN_RATE ?? 200);
const DURATION_S = Number(process.env.IN_DURATION_S ?? 60);
const ROUNDS = Number(process.env.IN_ROUNDS ?? 3);
const WINDOW_S = DURATION_S / ROUNDS;
const WARM_UP_S = Number(process.env.IN_WARM_UP_S ?? 10);
const SLOW_CREDITS = Number(process.env.IN_SLOW_CREDITS ?? 5_000);
const SLOW_ANSWER_MS = Number(process.env.IN_SLOW_ANSWER_MS ?? 30_000);
const ANSWER_TIMEOUT_MS = Number(process.env.IN_ANSWER_TIMEOUT_MS ?? 5_000);
const ONLY = process.env.IN_ONLY?.split(',').map((part) => part.trim());
const SERVER_NODE_ARGS = process.env.IN_SERVER_NODE_ARGS?.split(' ').filter((arg) => arg !== '') ?? [];
const runs = (part: string): boolean => ONLY === undefined || ONLY.includes(part);

/** Targets (issue #24). */
export const TARGET_ADDED_P99_MS = 25;
export const TARGET_CPU_RATIO = 1.2;
/** The scheme gets its RJCT AB06 at most this long after the integrator's budget. */
export const TARGET_TIMEOUT_SLACK_MS = 100;

const ADMIN = { username: 'bench-ops', password: 'bench-ops-password' };
const ORIGINATE_PATH = '/admin/v1/simulator/inbound';
/** A window is drained once no event has arrived for this long after its last completion (callback), or after at most EVENTS_QUIET_MS_MAX. */
const EVENTS_QUIET_MS = 1_000;
const EVENTS_QUIET_MS_MAX = 60_000;
/** No request may outlive this. */
const REQUEST_TIMEOUT_MS = 30_000;
/** How long a window may take to drain after its load. */
const DRAIN_MS_MAX = 120_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const round = (value: number, digits = 0): number => Number(value.toFixed(digits));

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

interface Counts {
  readonly callbackCount: number;
  readonly eventCount: number;
  readonly authorisationCalls: number;
  readonly authorisationAnswers: number;
  readonly completionCount: number;
  readonly duplicateCompletions: number;
}

interface Completion {
  readonly at: number;
  readonly outcome: string;
  readonly reason?: string;
}

/** The service, its integrator and a connection pool to the service, on a fresh SQLite database. */
interface Rig {
  readonly server: RunningServer;
  readonly pid: number;
  readonly receiverUrl: string;
  readonly pool: Pool;
  readonly databaseFile: string;
  /** Requests answered other than 202, or not answered. */
  failures: number;
}


async function withRig<T>(receiverEnv: Record<string, string>, use: (rig: Rig) => Promise<T>): Promise<T> {
  stopRigOnSignal();
  const receiver = await startBenchReceiver(receiverEnv);
  const receiverChild = { kill: () => receiver.stop() };
  rigChildren.add(receiverChild);
  const databaseFile = join(scratchDir('regpay-inbound-bench-'), 'bench.db');
  const configPath = writeTestConfig({
    database: `sqlite:${databaseFile}`,
    integratorExtra: {
      partnerApiUrl: `${receiver.url}/partner-api/v1`,
      eventsApiUrl: `${receiver.url}/events-api/v1`,
      limits: { requestsPerSecond: 1_000_000, burst: 1_000_000 },
    },
    extra: {
      server: { host: '127.0.0.1', port: 0, logLevel: 'warn' },
      admin: { ...ADMIN, allowlist: ['127.0.0.1/32', '::1/128'] },
      // As e2e.ts: the simulated operator answers at once, so the figures are the service's own.
      schemes: { ZA_RPP: { connector: 'simulator', timeBudgetMs: 10_000, simulatorLatencyMs: 0, inbound: { answerTimeoutMs: ANSWER_TIMEOUT_MS } } },
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
    return await use({ server, pid, receiverUrl: receiver.url, pool, databaseFile, failures: 0 });
  } finally {
    await pool?.close();
    await server?.stop();
    receiver.stop();
    if (server !== undefined) rigChildren.delete(server.child);
    rigChildren.delete(receiverChild);
  }
}

async function counts(rig: Rig): Promise<Counts> {
  return (await (await fetch(`${rig.receiverUrl}/_counts`)).json()) as Counts;
}

async function completions(rig: Rig): Promise<{ completions: Record<string, Completion>; duplicateCompletions: number }> {
  return (await (await fetch(`${rig.receiverUrl}/_inbound`)).json()) as never;
}

/** Waits (at most `limitMs`) until `done` holds of the receiver's counts; whether it did. */
async function until(rig: Rig, done: (now: Counts) => boolean, limitMs: number): Promise<boolean> {
  const from = Date.now();
  for (;;) {
    if (done(await counts(rig))) return true;
    if (Date.now() - from > limitMs) return false;
    await sleep(100);
  }
}

/**
 * Waits until no event has arrived for EVENTS_QUIET_MS (at most EVENTS_QUIET_MS_MAX); whether it
 * did. Not a count: a credit posts one event per state entered, and how many states it enters
 * depends on how its integrator call went.
 */
async function eventsQuiet(rig: Rig): Promise<boolean> {
  const from = Date.now();
  let last = (await counts(rig)).eventCount;
  let quietSince = Date.now();
  while (Date.now() - from < EVENTS_QUIET_MS_MAX) {
    await sleep(100);
    const now = (await counts(rig)).eventCount;
    if (now !== last) {
      last = now;
      quietSince = Date.now();
    } else if (Date.now() - quietSince >= EVENTS_QUIET_MS) return true;
  }
  return false;
}

/** One POST to the service: the parsed answer of a 202, or undefined (counted in rig.failures). */
async function post(rig: Rig, path: string, body: unknown, authorization: string): Promise<Record<string, unknown> | undefined> {
  try {
    const response = await rig.pool.request({ method: 'POST', path, headers: { 'content-type': 'application/json', authorization }, body: JSON.stringify(body) });
    const text = await response.body.text();
    if (response.statusCode === 202) return text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
    if (rig.failures === 0) process.stderr.write(`${path} answered ${response.statusCode}: ${text.slice(0, 300)}\n`);
  } catch (error) {
    if (rig.failures === 0) process.stderr.write(`${path} failed: ${String(error)}\n`);
  }
  rig.failures += 1;
  return undefined;
}

/** The simulator originates one credit to demo-bank's customer; its uetr. */
async function originateCredit(rig: Rig): Promise<string | undefined> {
  const started = await post(rig, ORIGINATE_PATH, { integratorId: 'demo-bank', scheme: 'ZA_RPP', scenario: 'CREDIT', accountNumber: '4071000001', amount: '10.00' }, basicAuth(ADMIN));
  return typeof started?.uetr === 'string' ? started.uetr : undefined;
}

/** One outbound credit transfer through the intake API; its uetr. */
async function sendTransfer(rig: Rig): Promise<string | undefined> {
  const transfer = creditTransfer('ZA_RPP');
  return (await post(rig, INTAKE_PATH, transfer, basicAuth())) === undefined ? undefined : transfer.transactionIdentifiers.uetr;
}

/** Open loop: `send` `ratePerS` times a second for `durationS`, whether or not earlier ones were answered; the uetrs accepted. */
async function offer(ratePerS: number, durationS: number, send: () => Promise<string | undefined>): Promise<string[]> {
  const started = Date.now();
  const total = Math.round(ratePerS * durationS);
  const accepted: string[] = [];
  const inFlight = new Set<Promise<void>>();
  let sent = 0;
  while (sent < total) {
    const due = Math.min(total, Math.floor(((Date.now() - started) / 1000) * ratePerS));
    for (; sent < due; sent += 1) {
      const request = send().then((uetr) => {
        if (uetr !== undefined) accepted.push(uetr);
      });
      inFlight.add(request);
      void request.finally(() => inFlight.delete(request));
    }
    await sleep(5);
  }
  await Promise.all(inFlight);
  return accepted;
}

type Direction = 'inbound' | 'outbound';

interface Window {
  readonly direction: Direction;
  readonly offered: number;
  readonly accepted: readonly string[];
  /** From its first request until every completion (callback) and event arrived. */
  readonly spanMs: number;
  readonly drained: boolean;
  /** The service's CPU over that span per accepted credit (transfer), every thread, and its main thread. */
  readonly cpuUs: number;
  readonly mainCpuUs: number;
  readonly byThread: readonly string[];
  /** Its span on the monotonic clock (µs, process.hrtime), the clock of `--cpu-prof` samples: to split a profile by direction. */
  readonly monotonicUs: readonly [number, number];
  /** Events that arrived per accepted credit (transfer): one per state entered, so fewer when states are skipped (an inbound credit: 10 approved in time, 9 when the call failed and the credit timed out, …). */
  readonly eventsPerUnit: number;
}

/** A window of one direction at `ratePerS` for `durationS`, drained, and what it cost the service. */
async function measureWindow(rig: Rig, direction: Direction, ratePerS: number, durationS: number): Promise<Window> {
  const before = await counts(rig);
  const cpuBefore = threadCpuUs(rig.pid);
  const started = Date.now();
  const startedUs = monotonicUs();
  const accepted = await offer(ratePerS, durationS, direction === 'inbound' ? () => originateCredit(rig) : () => sendTransfer(rig));
  const n = accepted.length;
  const drained =
    direction === 'inbound'
      ? await until(rig, (now) => now.completionCount - before.completionCount >= n, DRAIN_MS_MAX)
      : await until(rig, (now) => now.callbackCount - before.callbackCount >= n, DRAIN_MS_MAX);
  const eventsSettled = await eventsQuiet(rig);
  const after = await counts(rig);
  const spanMs = Date.now() - started;
  const endedUs = monotonicUs();
  const cpu = cpuPerUnit(cpuBefore, threadCpuUs(rig.pid), Math.max(1, n));
  if (!drained || !eventsSettled) {
    process.stderr.write(
      `inbound bench: ${direction} window not drained (completions or callbacks within ${DRAIN_MS_MAX} ms: ${drained}, events quiet within ${EVENTS_QUIET_MS_MAX} ms: ${eventsSettled}): ` +
        `of ${n} accepted, completions ${after.completionCount - before.completionCount}, callbacks ${after.callbackCount - before.callbackCount}, events ${after.eventCount - before.eventCount}\n`,
    );
  }
  return {
    direction,
    offered: Math.round(ratePerS * durationS),
    accepted,
    spanMs,
    drained,
    cpuUs: Math.round(cpu.totalUs),
    mainCpuUs: Math.round(cpu.byThread.find(([thread]) => thread === 'main')?.[1] ?? 0),
    byThread: cpu.byThread.slice(0, 4).map(([thread, us]) => `${thread}: ${Math.round(us)}`),
    monotonicUs: [startedUs, endedUs],
    eventsPerUnit: round((after.eventCount - before.eventCount) / Math.max(1, n), 2),
  };
}

const monotonicUs = (): number => Number(process.hrtime.bigint() / 1000n);

/** A credit as the service recorded it: its creation (the pacs.008 taken), and its first pacs.002 sent to the scheme with status and reason. */
interface ServiceRecord {
  readonly createdAt: number;
  readonly answeredAt?: number;
  readonly status?: string;
  readonly reason?: string;
}

/** Every inbound credit of the (stopped or running) service's database, by uetr. */
function serviceRecords(databaseFile: string): Map<string, ServiceRecord> {
  const database = new Database(databaseFile, { readonly: true, fileMustExist: true });
  try {
    const rows = database
      .prepare(
        `SELECT t.uetr AS uetr, t.created_at AS createdAt, m.at AS answeredAt, m.document AS document
           FROM transactions t LEFT JOIN scheme_messages m ON m.transaction_id = t.id AND m.direction = 'sent' AND m.message_name LIKE 'pacs.002.%'
          WHERE t.kind = 'INBOUND_CREDIT_TRANSFER' ORDER BY m.at`,
      )
      .all() as { uetr: string; createdAt: number; answeredAt: number | null; document: string | null }[];
    const records = new Map<string, ServiceRecord>();
    for (const row of rows) {
      if (records.has(row.uetr)) continue;
      const status = row.document === null ? undefined : /<TxSts>([A-Z]{4})<\/TxSts>/.exec(row.document)?.[1];
      const reason = row.document === null ? undefined : /<Rsn>\s*<Cd>([A-Z0-9]{4})<\/Cd>/.exec(row.document)?.[1];
      records.set(row.uetr, {
        createdAt: Number(row.createdAt),
        ...(row.answeredAt === null ? {} : { answeredAt: Number(row.answeredAt) }),
        ...(status === undefined ? {} : { status }),
        ...(reason === undefined ? {} : { reason }),
      });
    }
    return records;
  } finally {
    database.close();
  }
}

/** What the simulated operator saw of a credit it originated (GET /admin/v1/simulator/inbound/:scheme/:uetr): when it sent the pacs.008, and the service's first answer. */
interface OperatorRecord {
  readonly sentAt: number;
  readonly answeredAt?: number;
  readonly status?: string;
  readonly reason?: string;
}

async function operatorRecords(rig: Rig, uetrs: readonly string[]): Promise<Map<string, OperatorRecord>> {
  const records = new Map<string, OperatorRecord>();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < uetrs.length) {
      const uetr = uetrs[next]!;
      next += 1;
      const response = await rig.pool.request({ method: 'GET', path: `${ORIGINATE_PATH}/ZA_RPP/${uetr}`, headers: { authorization: basicAuth(ADMIN) } });
      const text = await response.body.text();
      if (response.statusCode !== 200) continue;
      const view = JSON.parse(text) as { sent: { kind: string; at: number }[]; answers: { about: string; status: string; reasonCode?: string; at: number }[] };
      const sent = view.sent.find((document) => document.kind === 'credit');
      const answer = view.answers.find((taken) => taken.about === 'credit');
      if (sent === undefined) continue;
      records.set(uetr, {
        sentAt: sent.at,
        ...(answer === undefined ? {} : { answeredAt: answer.at, status: answer.status, ...(answer.reasonCode === undefined ? {} : { reason: answer.reasonCode }) }),
      });
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return records;
}

const sortedNumbers = (values: Iterable<number>): number[] => [...values].sort((a, b) => a - b);

export interface InboundLatencyFigures {
  readonly offeredPerS: number;
  readonly windowS: number;
  readonly rounds: number;
  readonly warmUpS: number;
  readonly offered: number;
  readonly accepted: number;
  readonly failures: number;
  /** pacs.008 handed over → the service's answer taken, as the simulated operator recorded them (ms). */
  readonly operatorP50Ms: number;
  readonly operatorP99Ms: number;
  readonly operatorMaxMs: number;
  /** The credit's creation in the store → its pacs.002 recorded sent, as the service recorded them (ms). */
  readonly serviceP50Ms: number;
  readonly serviceP99Ms: number;
  /** p50/p99 (operator's view) by inbound window. */
  readonly byWindow: readonly string[];
  /** Answers other than ACSP, and credits the operator no longer knew when asked. */
  readonly notApproved: number;
  readonly unknownToOperator: number;
  readonly completions: number;
  readonly completionsApproved: number;
  readonly duplicateCompletions: number;
  readonly inbound: readonly Omit<Window, 'accepted'>[];
  readonly outbound: readonly Omit<Window, 'accepted'>[];
  /** Each round's CPU per inbound credit over the mean CPU per outbound transfer of the windows either side, and their median. */
  readonly cpuRoundRatios: readonly number[];
  readonly cpuRatio: number;
  readonly mainCpuRatio: number;
  readonly loadAverage: readonly number[];
}

const withoutUetrs = ({ accepted: _accepted, ...window }: Window): Omit<Window, 'accepted'> => window;

/** Part 1. */
export async function measureLatency(): Promise<InboundLatencyFigures> {
  return withRig({}, async (rig) => {
    const loadAverage = loadAverages();
    await measureWindow(rig, 'outbound', RATE, WARM_UP_S);
    await measureWindow(rig, 'inbound', RATE, WARM_UP_S);
    const outbound: Window[] = [await measureWindow(rig, 'outbound', RATE, WINDOW_S)];
    const inbound: Window[] = [];
    // Asked after each inbound window (outside every window's CPU span): the simulated operator keeps a bounded number of the credits it originated.
    const operator = new Map<string, OperatorRecord>();
    for (let round = 0; round < ROUNDS; round += 1) {
      inbound.push(await measureWindow(rig, 'inbound', RATE, WINDOW_S));
      for (const [uetr, record] of await operatorRecords(rig, inbound.at(-1)?.accepted ?? [])) operator.set(uetr, record);
      outbound.push(await measureWindow(rig, 'outbound', RATE, WINDOW_S));
    }
    const cpuRoundRatios = inbound.map((window, round) => round3(window.cpuUs / ((outbound[round]!.cpuUs + outbound[round + 1]!.cpuUs) / 2)));
    const mainRoundRatios = inbound.map((window, round) => window.mainCpuUs / ((outbound[round]!.mainCpuUs + outbound[round + 1]!.mainCpuUs) / 2));
    const accepted = inbound.flatMap((window) => window.accepted);
    const seen = await completions(rig);
    const service = serviceRecords(rig.databaseFile);
    const operatorMs = (uetrs: readonly string[]) => sortedNumbers(uetrs.flatMap((uetr) => { const record = operator.get(uetr); return record?.answeredAt === undefined ? [] : [record.answeredAt - record.sentAt]; }));
    const all = operatorMs(accepted);
    const serviceMs = sortedNumbers(accepted.flatMap((uetr) => { const record = service.get(uetr); return record?.answeredAt === undefined ? [] : [record.answeredAt - record.createdAt]; }));
    const measuredCompletions = accepted.map((uetr) => seen.completions[uetr]).filter((completion) => completion !== undefined);
    return {
      offeredPerS: RATE,
      windowS: WINDOW_S,
      rounds: ROUNDS,
      warmUpS: WARM_UP_S,
      offered: inbound.reduce((sum, window) => sum + window.offered, 0),
      accepted: accepted.length,
      failures: rig.failures,
      operatorP50Ms: percentile(all, 50),
      operatorP99Ms: percentile(all, 99),
      operatorMaxMs: all.at(-1) ?? Number.NaN,
      serviceP50Ms: percentile(serviceMs, 50),
      serviceP99Ms: percentile(serviceMs, 99),
      byWindow: inbound.map((window) => { const sorted = operatorMs(window.accepted); return `${percentile(sorted, 50)}/${percentile(sorted, 99)}`; }),
      notApproved: accepted.filter((uetr) => operator.has(uetr) && operator.get(uetr)?.status !== 'ACSP').length,
      unknownToOperator: accepted.filter((uetr) => !operator.has(uetr)).length,
      completions: measuredCompletions.length,
      completionsApproved: measuredCompletions.filter((completion) => completion.outcome === 'APPROVED').length,
      duplicateCompletions: seen.duplicateCompletions,
      inbound: inbound.map(withoutUetrs),
      outbound: outbound.map(withoutUetrs),
      cpuRoundRatios,
      cpuRatio: round3(median(cpuRoundRatios)),
      mainCpuRatio: round3(median(mainRoundRatios)),
      loadAverage: [...loadAverage, ...loadAverages()],
    };
  });
}

const round3 = (value: number): number => round(value, 3);

/** The machine's 1-minute load average now. */
function loadAverages(): number[] {
  return [Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0])];
}

/** The main thread's V8 heap in use, MB, from the service's /metrics (prom-client's default metrics). */
async function heapUsedMb(serverUrl: string): Promise<number> {
  const text = await (await fetch(`${serverUrl}/metrics`)).text();
  const match = /^regpay_nodejs_heap_size_used_bytes (\S+)$/m.exec(text);
  return match === null ? Number.NaN : round(Number(match[1]) / 1024 / 1024, 1);
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return round(Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? Number.NaN) / 1024, 1);
}

export interface InboundTimeoutFigures {
  readonly credits: number;
  readonly offeredPerS: number;
  readonly answerTimeoutMs: number;
  readonly integratorAnswerMs: number;
  readonly accepted: number;
  readonly failures: number;
  /** Credits the scheme got RJCT AB06 for, and of those within answerTimeoutMs + TARGET_TIMEOUT_SLACK_MS of its pacs.008. */
  readonly rejectedAb06: number;
  readonly withinBudget: number;
  /** pacs.008 sent → answer taken, minus answerTimeoutMs, as the operator recorded them (ms). */
  readonly overBudgetP50Ms: number;
  readonly overBudgetP99Ms: number;
  readonly overBudgetMaxMs: number;
  /** The same from the service's own record: creation → pacs.002 recorded sent, minus the budget. */
  readonly serviceOverBudgetP99Ms: number;
  readonly serviceOverBudgetMaxMs: number;
  /** Answers other than RJCT AB06 (status/reason: count). */
  readonly otherAnswers: Readonly<Record<string, number>>;
  readonly completions: number;
  readonly completionsRejectedAb06: number;
  readonly duplicateCompletions: number;
  /** The integrator's late answers that it could still write (the service had not closed the call). */
  readonly lateAnswersWritten: number;
  readonly rssIdleMb: number;
  readonly rssFirstMb: number;
  readonly rssPeakMb: number;
  readonly rssLastMb: number;
  /** VmRSS every second from the first credit (MB). */
  readonly rssBySecond: readonly number[];
  /** The main thread's V8 heap in use, idle and at the end (it includes garbage not yet collected). */
  readonly heapIdleMb: number;
  readonly heapLastMb: number;
  readonly loadAverage: readonly number[];
}

/** Part 2. */
export async function measureTimeout(): Promise<InboundTimeoutFigures> {
  return withRig({ RECEIVER_ANSWER_DELAY_MS: String(SLOW_ANSWER_MS) }, async (rig) => {
    const loadAverage = loadAverages();
    await sleep(2_000);
    const rssIdleMb = rssMb(rig.pid);
    const heapIdleMb = await heapUsedMb(rig.server.url);
    const rssBySecond: number[] = [];
    const sampler = setInterval(() => rssBySecond.push(rssMb(rig.pid)), 1_000);
    try {
      const accepted = await offer(RATE, SLOW_CREDITS / RATE, () => originateCredit(rig));
      const n = accepted.length;
      // Every credit answered and completed, then every late answer of the integrator written (or dropped), then 2 s.
      if (!(await until(rig, (now) => now.completionCount >= n, ANSWER_TIMEOUT_MS + DRAIN_MS_MAX))) process.stderr.write('inbound bench: not every timed-out credit completed\n');
      await sleep(SLOW_ANSWER_MS + 2_000);
      clearInterval(sampler);
      rssBySecond.push(rssMb(rig.pid));
      const heapLastMb = await heapUsedMb(rig.server.url);
      const final = await counts(rig);
      const operator = await operatorRecords(rig, accepted);
      const seen = await completions(rig);
      const service = serviceRecords(rig.databaseFile);
      const overBudget: number[] = [];
      const otherAnswers: Record<string, number> = {};
      let rejectedAb06 = 0;
      let withinBudget = 0;
      for (const uetr of accepted) {
        const record = operator.get(uetr);
        const answer = record?.answeredAt === undefined ? 'none' : `${record.status ?? ''}/${record.reason ?? ''}`;
        if (answer !== 'RJCT/AB06' || record?.answeredAt === undefined) {
          otherAnswers[answer] = (otherAnswers[answer] ?? 0) + 1;
          continue;
        }
        rejectedAb06 += 1;
        const over = record.answeredAt - record.sentAt - ANSWER_TIMEOUT_MS;
        overBudget.push(over);
        if (over <= TARGET_TIMEOUT_SLACK_MS) withinBudget += 1;
      }
      overBudget.sort((a, b) => a - b);
      const serviceOver = sortedNumbers(accepted.flatMap((uetr) => { const record = service.get(uetr); return record?.answeredAt === undefined ? [] : [record.answeredAt - record.createdAt - ANSWER_TIMEOUT_MS]; }));
      const measuredCompletions = accepted.map((uetr) => seen.completions[uetr]).filter((completion) => completion !== undefined);
      return {
        credits: SLOW_CREDITS,
        offeredPerS: RATE,
        answerTimeoutMs: ANSWER_TIMEOUT_MS,
        integratorAnswerMs: SLOW_ANSWER_MS,
        accepted: n,
        failures: rig.failures,
        rejectedAb06,
        withinBudget,
        overBudgetP50Ms: percentile(overBudget, 50),
        overBudgetP99Ms: percentile(overBudget, 99),
        overBudgetMaxMs: overBudget.at(-1) ?? Number.NaN,
        serviceOverBudgetP99Ms: percentile(serviceOver, 99),
        serviceOverBudgetMaxMs: serviceOver.at(-1) ?? Number.NaN,
        otherAnswers,
        completions: measuredCompletions.length,
        completionsRejectedAb06: measuredCompletions.filter((completion) => completion.outcome === 'REJECTED' && completion.reason === 'AB06').length,
        duplicateCompletions: seen.duplicateCompletions,
        lateAnswersWritten: final.authorisationAnswers,
        rssIdleMb,
        rssFirstMb: rssBySecond[0] ?? Number.NaN,
        rssPeakMb: Math.max(...rssBySecond),
        rssLastMb: rssBySecond.at(-1) ?? Number.NaN,
        rssBySecond,
        heapIdleMb,
        heapLastMb,
        loadAverage: [...loadAverage, ...loadAverages()],
      };
    } finally {
      clearInterval(sampler);
    }
  });
}

export interface InboundFigures {
  readonly latency?: InboundLatencyFigures;
  readonly timeout?: InboundTimeoutFigures;
}

export async function runInbound(): Promise<InboundFigures> {
  const latency = runs('latency') ? await measureLatency() : undefined;
  const timeout = runs('timeout') ? await measureTimeout() : undefined;
  return { ...(latency === undefined ? {} : { latency }), ...(timeout === undefined ? {} : { timeout }) };
}

const verdict = (met: boolean): string => (met ? 'met' : 'MISSED');

export function inboundRows(figures: InboundFigures): string[] {
  const lines: string[] = [];
  const { latency, timeout } = figures;
  if (latency !== undefined) {
    const windows = (list: readonly Omit<Window, 'accepted'>[]) => list.map((window) => `${window.cpuUs} (main ${window.mainCpuUs}, events ${window.eventsPerUnit})`).join(', ');
    lines.push(
      `inbound credits (SQLite, simulator 0 ms, integrator answering at once), ${latency.offeredPerS}/s for ${latency.rounds} windows of ${latency.windowS} s ` +
        `alternating with outbound credit transfers at the same rate, after ${latency.warmUpS} s of each: ${latency.accepted}/${latency.offered} originated (failures ${latency.failures}); ` +
        `pacs.008 in to pacs.002 out, as the scheme saw it: p50 ${latency.operatorP50Ms} ms, p99 ${latency.operatorP99Ms} ms, max ${latency.operatorMaxMs} ms ` +
        `(target p99 ≤ ${TARGET_ADDED_P99_MS} ms: ${verdict(latency.operatorP99Ms <= TARGET_ADDED_P99_MS)}; by window ${latency.byWindow.join(', ')}); ` +
        `as the service recorded it (created to pacs.002 sent) p50 ${latency.serviceP50Ms} ms, p99 ${latency.serviceP99Ms} ms; answers other than ACSP ${latency.notApproved} (unknown to the operator when asked ${latency.unknownToOperator}); ` +
        `completions ${latency.completions}/${latency.accepted} (APPROVED ${latency.completionsApproved}), duplicates ${latency.duplicateCompletions}`,
      `  service CPU per inbound credit / per outbound transfer: ${latency.cpuRatio} (rounds ${latency.cpuRoundRatios.join(', ')}; target ≤ ${TARGET_CPU_RATIO}: ${verdict(latency.cpuRatio <= TARGET_CPU_RATIO)}), ` +
        `main thread ${latency.mainCpuRatio}; µs per inbound credit [${windows(latency.inbound)}], per outbound transfer [${windows(latency.outbound)}]; ` +
        `inbound by thread ${latency.inbound[0]?.byThread.join(', ')}; outbound ${latency.outbound[0]?.byThread.join(', ')}; load average ${latency.loadAverage.join(' → ')}`,
    );
  }
  if (timeout !== undefined) {
    lines.push(
      `inbound credits with the integrator answering after ${timeout.integratorAnswerMs} ms, answerTimeoutMs ${timeout.answerTimeoutMs}: ${timeout.accepted}/${timeout.credits} originated at ${timeout.offeredPerS}/s (failures ${timeout.failures}); ` +
        `RJCT AB06 to the scheme ${timeout.rejectedAb06}, within the budget + ${TARGET_TIMEOUT_SLACK_MS} ms ${timeout.withinBudget} ` +
        `(target all: ${verdict(timeout.withinBudget === timeout.accepted && timeout.accepted === timeout.credits)}); past the budget p50 ${timeout.overBudgetP50Ms} ms, p99 ${timeout.overBudgetP99Ms} ms, max ${timeout.overBudgetMaxMs} ms ` +
        `(service's record p99 ${timeout.serviceOverBudgetP99Ms}, max ${timeout.serviceOverBudgetMaxMs} ms); other answers ${JSON.stringify(timeout.otherAnswers)}; ` +
        `completions ${timeout.completions} (REJECTED AB06 ${timeout.completionsRejectedAb06}), duplicates ${timeout.duplicateCompletions}; late answers the integrator could still write ${timeout.lateAnswersWritten}; ` +
        `service VmRSS idle ${timeout.rssIdleMb} MB, first ${timeout.rssFirstMb}, peak ${timeout.rssPeakMb}, last ${timeout.rssLastMb} MB (main-thread heap in use ${timeout.heapIdleMb} → ${timeout.heapLastMb} MB); load average ${timeout.loadAverage.join(' → ')}`,
      `  VmRSS every second (MB): [${timeout.rssBySecond.join(', ')}]`,
    );
  }
  return lines;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const figures = await runInbound();
  process.stdout.write(`${inboundRows(figures).join('\n')}\n${JSON.stringify(figures, null, 2)}\n`);
}
