/**
 * `npm run bench`: accepted credit transfers per second and p99 latency of regpay (real
 * validation, durable group-committed store) as ratios to a bare Fastify server answering 202 to
 * the same payloads, all measured in this run. Figures are printed and written to
 * bench/results/latest.json. Each part alternates with the bare server (paired()). Knobs:
 * BENCH_DURATION_S (seconds of each part under load, default 15), BENCH_ROUNDS (3), BENCH_CONNECTIONS (32),
 * DATABASE_URL (PostgreSQL to use; otherwise an embedded one is started). The last part,
 * `identifiers`, is identifier-determination.ts (added latency at a fixed rate against its own
 * stand-in, and the soak of held lookups), with its own knobs. Then `rtp`, request-to-pay.ts
 * (throughput to PAID against the credit-transfer end-to-end rate at the same offered rate, RSS with
 * 100,000 requests pending, the drain of 10,000 expiring at once), with its own knobs. Then
 * `metrics`: intake (SQLite, processing off) with metrics on against metrics off, alternating as
 * the other parts alternate with the bare server, and end to end with metrics off, on, off, on
 * (METRICS_E2E_RATE, default 300/s, METRICS_E2E_DURATION_S, default 15 s each). Then `scale-out`,
 * scale-out.ts: one instance, then three, at one offered rate on PostgreSQL with the standalone
 * operator simulator (SCALE_RATE, SCALE_DURATION_S, SCALE_INSTANCES). Then `inbound`, inbound.ts: credits
 * the simulated scheme originates (IN_RATE, IN_DURATION_S, IN_ROUNDS, IN_WARM_UP_S), the time the
 * service adds between pacs.008 and pacs.002 and the CPU per credit against outbound transfers
 * alternating with them, then an integrator answering after 30 s (IN_SLOW_CREDITS, IN_SLOW_ANSWER_MS).
 * With `--against <git ref>` it runs none of this: against.ts compares this build with the ref's
 * in the parts that support it (BENCH_ONLY of `cpu`, `identifiers`, `e2e`), BENCH_ROUNDS rounds of each.
 */
import autocannon from 'autocannon';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freshPostgresUrl, withPostgres } from '../test/support/postgres.js';
import { startServer, writeTestConfig } from '../test/support/server.js';
import { againstParts, againstRef, runAgainst } from './against.js';
import { runE2e, type E2eFigures } from './e2e.js';
import { identifierRows, runIdentifierDetermination } from './identifier-determination.js';
import { inboundRows, runInbound } from './inbound.js';
import { intakeRequests } from './intake-load.js';
import { requestToPayRows, runRequestToPay } from './request-to-pay.js';
import { startBenchReceiver } from './receiver-process.js';
import { runScaleOut, scaleOutRows } from './scale-out.js';
import { scratchDir } from './scratch-dir.js';
import { startStandIn } from './stand-in.js';
import { serviceMain } from './build-root.js';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 15);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WINDOW_S = Math.max(1, Math.round(DURATION_S / ROUNDS));
const WARMUP_S = 3;
const SETTLE_MS = 5_000;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const ONLY = process.env.BENCH_ONLY?.split(',').map((part) => part.trim());
const SERVER_NODE_ARGS = process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter((arg) => arg !== '') ?? [];
const runs = (part: string): boolean => ONLY === undefined || ONLY.includes(part);

// `npm run bench -- --against <ref>`: this build and the ref's, alternately, in the parts that compare (against.ts).
const againstWhat = againstRef(process.argv.slice(2));
if (againstWhat !== undefined) {
  const lines = await runAgainst(againstWhat, againstParts(ONLY), ROUNDS);
  process.stdout.write(`${lines.join('\n')}\n`);
  process.exit(0);
}

interface Figures {
  readonly name: string;
  readonly acceptedPerS: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly non2xx: number;
  readonly errors: number;
}

async function load(name: string, url: string, durationS: number): Promise<Figures> {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: durationS,
    requests: intakeRequests(),
  });
  return {
    name,
    acceptedPerS: result['2xx'] / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/** A subject's figures, measured in rounds between windows of the baseline. */
interface Paired extends Figures {
  /** Its rate over the baseline's in each round (against the mean of the baseline windows either side). */
  readonly roundRatios: readonly number[];
  /** The median of roundRatios: the figure the target is judged by. */
  readonly ratio: number;
  /** The baseline's windows of this part, in order. */
  readonly baselineWindows: readonly Figures[];
}

/**
 * The machine's speed drifts within a run (the same bare server measured minutes apart here gave
 * 8,058 and 17,575 /s), so one window of the baseline at the start and one of each subject later
 * compare two machines. Instead every part alternates with the baseline, each server warm and
 * idle while the other is loaded: baseline, subject, baseline, ... , baseline (ROUNDS windows
 * of the subject, WINDOW_S seconds each), and each round's ratio is the subject's rate
 * over the mean of the two baseline windows around it. The part's ratio is the median round;
 * its rate is over all its windows; its p50 the median and its p99 the worst of its windows.
 */
async function paired(name: string, url: string, baselineUrl: string): Promise<Paired> {
  await load(`${name} (warm-up)`, url, WARMUP_S);
  const baselineWindows: Figures[] = [await load('bare Fastify 202 (baseline)', baselineUrl, WINDOW_S)];
  const windows: Figures[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    windows.push(await load(name, url, WINDOW_S));
    baselineWindows.push(await load('bare Fastify 202 (baseline)', baselineUrl, WINDOW_S));
  }
  const roundRatios = windows.map((window, round) => window.acceptedPerS / ((baselineWindows[round]!.acceptedPerS + baselineWindows[round + 1]!.acceptedPerS) / 2));
  return { ...combined(name, windows), roundRatios, ratio: median(roundRatios), baselineWindows };
}

/** Windows of one server as one figure: the rate over all of them, the median p50 and the worst p99. */
function combined(name: string, windows: readonly Figures[]): Figures {
  return {
    name,
    acceptedPerS: windows.reduce((sum, window) => sum + window.acceptedPerS, 0) / windows.length,
    p50Ms: median(windows.map((window) => window.p50Ms)),
    p99Ms: Math.max(...windows.map((window) => window.p99Ms)),
    non2xx: windows.reduce((sum, window) => sum + window.non2xx, 0),
    errors: windows.reduce((sum, window) => sum + window.errors, 0),
  };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * Lets the machine settle before a part: the previous part's dirty pages written out (a part
 * leaves hundreds of megabytes of database behind, and their writeback would otherwise land in
 * the next part's measurement) and a few seconds for the processes it stopped to be gone.
 */
async function settle(): Promise<void> {
  spawnSync('sync');
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
}

/**
 * regpay on `database`. With `processing`, the whole service runs: every accepted transfer is
 * also processed and its callback and events delivered to a receiver process, so intake shares
 * the machine (and the store's writer) with that work. Without it (processing.enabled: false, an
 * API-tier instance), the figure is intake alone: validation, duplicate detection and the durable
 * group-committed write of the transaction, its message, first state and first event.
 */
async function regpay(name: string, database: string, processing: boolean, baselineUrl: string): Promise<Paired> {
  await settle();
  const receiver = await startBenchReceiver();
  const server = await startServer({ configPath: regpayConfig(database, receiver.url, processing, true), main: serviceMain(), nodeArgs: SERVER_NODE_ARGS });
  try {
    return await paired(name, server.url, baselineUrl);
  } finally {
    await server.stop();
    receiver.stop();
  }
}

function regpayConfig(database: string, receiverUrl: string, processing: boolean, metrics: boolean): string {
  return writeTestConfig({
    database,
    integratorExtra: {
      partnerApiUrl: `${receiverUrl}/partner-api/v1`,
      eventsApiUrl: `${receiverUrl}/events-api/v1`,
      limits: { requestsPerSecond: 1_000_000, burst: 1_000_000 },
    },
    extra: { server: { host: '127.0.0.1', port: 0, logLevel: 'warn' }, processing: { enabled: processing }, metrics: { enabled: metrics } },
  });
}

/**
 * What metrics cost the hot path: intake with metrics on, paired with the same service with
 * metrics off as its baseline (their ratio is on/off), and end to end off, on, off, on at one
 * offered rate (the ratio of the mean completion rates and of the mean p50/p99 latencies).
 */
async function metricsOverhead(): Promise<{ intake: Paired; e2eOff: E2eFigures[]; e2eOn: E2eFigures[] }> {
  await settle();
  const receiver = await startBenchReceiver();
  const off = await startServer({ configPath: regpayConfig(sqliteUrl(), receiver.url, false, false), main: serviceMain(), nodeArgs: SERVER_NODE_ARGS });
  const on = await startServer({ configPath: regpayConfig(sqliteUrl(), receiver.url, false, true), main: serviceMain(), nodeArgs: SERVER_NODE_ARGS });
  let intake: Paired;
  try {
    await load('intake, metrics off (warm-up)', off.url, WARMUP_S);
    intake = await paired('intake, metrics on (over metrics off)', on.url, off.url);
  } finally {
    await on.stop();
    await off.stop();
    receiver.stop();
  }
  const rate = Number(process.env.METRICS_E2E_RATE ?? 300);
  const durationS = Number(process.env.METRICS_E2E_DURATION_S ?? 15);
  const e2eOff: E2eFigures[] = [];
  const e2eOn: E2eFigures[] = [];
  for (let round = 0; round < 2; round += 1) {
    await settle();
    e2eOff.push(await runE2e({ ratePerS: rate, durationS, metrics: false }));
    await settle();
    e2eOn.push(await runE2e({ ratePerS: rate, durationS, metrics: true }));
  }
  return { intake, e2eOff, e2eOn };
}

const sqliteUrl = () => `sqlite:${join(scratchDir('regpay-bench-'), 'bench.db')}`;

function row(figures: Figures, ratio: string): string {
  return `${figures.name.padEnd(34)} ${figures.acceptedPerS.toFixed(0).padStart(7)} /s  ratio ${ratio}  p50 ${figures.p50Ms.toFixed(1).padStart(5)} ms  p99 ${figures.p99Ms.toFixed(1).padStart(6)} ms  non-2xx ${figures.non2xx}  errors ${figures.errors}`;
}

function pairedRows(figures: Paired): string[] {
  const rounds = figures.roundRatios.map((ratio) => ratio.toFixed(2)).join(', ');
  return [`${row(figures, figures.ratio.toFixed(2))}  (rounds ${rounds})`, row(combined(`  its baseline windows`, figures.baselineWindows), '1.00')];
}

// The bare server runs through every intake part, which all alternate with it (paired()).
const baselineServer = ['floor', 'sqlite', 'sqlite-full', 'postgres', 'postgres-full'].some(runs) ? await startStandIn('./bare-server.js') : undefined;
// Also when a part fails: the bare server is a process of its own and would outlive this one.
process.once('exit', () => baselineServer?.stop());
const baselineUrl = baselineServer?.url ?? '';
if (baselineServer !== undefined) await load('bare Fastify 202 (warm-up)', baselineUrl, WARMUP_S);
// The floor: what durability alone leaves of the baseline (no authentication, validation or state).
const floor = runs('floor')
  ? await (async () => {
      const server = await startStandIn('./durable-bare-server.js', { DATABASE_FILE: join(scratchDir('regpay-bench-'), 'floor.db') });
      try {
        return await paired('bare + durable SQLite row (floor)', server.url, baselineUrl);
      } finally {
        server.stop();
      }
    })()
  : undefined;
const sqlite = runs('sqlite') ? await regpay('intake alone, SQLite (durable)', sqliteUrl(), false, baselineUrl) : undefined;
const sqliteFull = runs('sqlite-full') ? await regpay('intake + processing, SQLite', sqliteUrl(), true, baselineUrl) : undefined;
const [postgres, postgresFull] =
  runs('postgres') || runs('postgres-full')
    ? await withPostgres(async () => [
        runs('postgres') ? await regpay('intake alone, PostgreSQL', await freshPostgresUrl(), false, baselineUrl) : undefined,
        runs('postgres-full') ? await regpay('intake + processing, PostgreSQL', await freshPostgresUrl(), true, baselineUrl) : undefined,
      ])
    : [undefined, undefined];
baselineServer?.stop();
const intakeParts = [floor, sqlite, sqliteFull, postgres, postgresFull].filter((part) => part !== undefined);
// The baseline as a whole: every window of it, in every part.
const baseline = intakeParts.length === 0 ? undefined : combined('bare Fastify 202 (baseline)', intakeParts.flatMap((part) => part.baselineWindows));

const E2E_RATE = Number(process.env.E2E_RATE ?? 1000);
const E2E_DURATION_S = Number(process.env.E2E_DURATION_S ?? 60);
const e2e = runs('e2e') ? await settle().then(() => runE2e({ ratePerS: E2E_RATE, durationS: E2E_DURATION_S })) : undefined;
const identifiers = runs('identifiers') ? await settle().then(() => runIdentifierDetermination()) : undefined;
// Compared with the end-to-end figures above when they were offered at its rate; otherwise it measures them itself.
const rtp = runs('rtp') ? await settle().then(() => runRequestToPay(e2e === undefined ? {} : { creditTransfer: e2e })) : undefined;
const metrics = runs('metrics') ? await metricsOverhead() : undefined;
const scaleOut = runs('scale-out') ? await settle().then(() => withPostgres(() => runScaleOut())) : undefined;
const inbound = runs('inbound') ? await settle().then(() => runInbound()) : undefined;

function metricsRows(figures: NonNullable<typeof metrics>): string[] {
  const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const ratio = (pick: (figures: E2eFigures) => number) => (mean(figures.e2eOn.map(pick)) / mean(figures.e2eOff.map(pick))).toFixed(3);
  return [
    'metrics on against metrics off (same run):',
    ...pairedRows(figures.intake),
    `  end to end at ${figures.e2eOn[0]?.offeredPerS ?? 0}/s, on/off: completed while offered ${ratio((f) => f.completedDuringLoadPerS)}, ` +
      `p50 ${ratio((f) => f.p50Ms)}, p99 ${ratio((f) => f.p99Ms)}, service CPU per transfer ${ratio((f) => f.serviceCpuUsPerTransfer)}`,
    ...figures.e2eOff.map((f) => `    off: ${e2eRow(f)}`),
    ...figures.e2eOn.map((f) => `    on:  ${e2eRow(f)}`),
  ];
}

function e2eRow(figures: E2eFigures): string {
  return (
    `offered ${figures.offeredPerS}/s for ${figures.durationS} s: ${figures.completedDuringLoadPerS.toFixed(0)}/s reached their final callback while offered ` +
    `(${figures.completedPerS.toFixed(0)}/s from first request to last callback), events for ${figures.eventsDuringLoadPerS.toFixed(0)} transfers/s while offered, ` +
    `p50 ${figures.p50Ms} ms, p99 ${figures.p99Ms} ms (intake p99 ${figures.intakeP99Ms} ms); events ${figures.eventsDelivered}/${figures.eventsExpected}; ` +
    `backlog every 5 s [${figures.backlogSamples.join(', ')}]; drained ${figures.drainMs} ms after the load; ` +
    `service CPU ${figures.serviceCpuUsPerTransfer} µs per transfer (main thread ${figures.mainThreadCpuUsPerTransfer} µs); ` +
    `store commits ${figures.commitsPerTransfer} (holding its state ${figures.transactionCommitsPerTransfer}) and fsyncs ${figures.fsyncsPerTransfer} (checkpoints' ${figures.checkpointFsyncsPerTransfer}) per transfer`
  );
}

const lines = [
  ...(baseline === undefined
    ? []
    : [
        `credit-transfer intake: ${CONNECTIONS} connections, new transfer per request; each part ${ROUNDS} windows of ${WINDOW_S} s ` +
          `after ${WARMUP_S} s warm-up, alternating with windows of the bare server (ratio: median of the rounds)`,
        row(baseline, '1.00'),
      ]),
  ...intakeParts.flatMap(pairedRows),
  ...(e2e === undefined ? [] : [`end to end (SQLite, simulator at zero latency, receiver process): ${e2eRow(e2e)}`]),
  ...(identifiers === undefined ? [] : identifierRows(identifiers)),
  ...(rtp === undefined ? [] : requestToPayRows(rtp)),
  ...(metrics === undefined ? [] : metricsRows(metrics)),
  ...(scaleOut === undefined ? [] : ['scale-out on PostgreSQL with the standalone operator simulator (same offered rate):', ...scaleOutRows(scaleOut).map((line) => `  ${line}`)]),
  ...(inbound === undefined ? [] : inboundRows(inbound)),
];
process.stdout.write(`${lines.join('\n')}\n`);
const resultsDir = fileURLToPath(new URL('../../bench/results/', import.meta.url));
mkdirSync(resultsDir, { recursive: true });
writeFileSync(join(resultsDir, 'latest.json'), JSON.stringify({ at: new Date().toISOString(), connections: CONNECTIONS, durationS: DURATION_S, rounds: ROUNDS, baseline, floor, sqlite, sqliteFull, postgres, postgresFull, e2e, identifiers, rtp, metrics, scaleOut, inbound }, null, 2));
