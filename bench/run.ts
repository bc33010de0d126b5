/**
 * `npm run bench`: accepted credit transfers per second and p99 latency of regpay (real
 * validation, durable group-committed store) as ratios to a bare Fastify server answering 202 to
 * the same payloads, all measured in this run. Figures are printed and written to
 * bench/results/latest.json. Knobs: BENCH_DURATION_S (default 15), BENCH_CONNECTIONS (32),
 * DATABASE_URL (PostgreSQL to use; otherwise an embedded one is started).
 */
import autocannon from 'autocannon';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { creditTransfer } from '../test/fixtures/credit-transfer.js';
import { freshPostgresUrl, withPostgres } from '../test/support/postgres.js';
import { basicAuth, freePort, startServer, writeTestConfig } from '../test/support/server.js';
import { runE2e, type E2eFigures } from './e2e.js';
import { startBenchReceiver } from './receiver-process.js';
import { scratchDir } from './scratch-dir.js';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 15);
const WARMUP_S = 3;
const SETTLE_MS = 5_000;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const PATH = '/api/v1/transactions/outbound/credit-transfer';
const ONLY = process.env.BENCH_ONLY?.split(',').map((part) => part.trim());
const SERVER_NODE_ARGS = process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter((arg) => arg !== '') ?? [];
const runs = (part: string): boolean => ONLY === undefined || ONLY.includes(part);

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
    requests: [
      {
        method: 'POST',
        path: PATH,
        headers: { 'content-type': 'application/json', authorization: basicAuth() },
        // Every request is a new transfer (new message id and uetr): no duplicate shortcuts.
        setupRequest: (request) => ({ ...request, body: JSON.stringify(creditTransfer('ZA_RPP')) }),
      },
    ],
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

async function measure(name: string, url: string): Promise<Figures> {
  await load(`${name} (warm-up)`, url, WARMUP_S);
  return load(name, url, DURATION_S);
}

/** A stand-in server (bare-server.ts or durable-bare-server.ts) started as its own process and measured. */
async function standIn(name: string, program: string, env: Record<string, string> = {}): Promise<Figures> {
  const port = await freePort();
  const child = spawn(process.execPath, [fileURLToPath(new URL(program, import.meta.url))], {
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: 'inherit',
  });
  const url = `http://127.0.0.1:${port}`;
  for (let tries = 0; ; tries += 1) {
    try {
      await fetch(`${url}${PATH}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      break;
    } catch (error) {
      if (tries > 200) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  try {
    return await measure(name, url);
  } finally {
    child.kill('SIGTERM');
  }
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
async function regpay(name: string, database: string, processing: boolean): Promise<Figures> {
  await settle();
  const receiver = await startBenchReceiver();
  const configPath = writeTestConfig({
    database,
    integratorExtra: {
      partnerApiUrl: `${receiver.url}/partner-api/v1`,
      eventsApiUrl: `${receiver.url}/events-api/v1`,
      limits: { requestsPerSecond: 1_000_000, burst: 1_000_000 },
    },
    extra: { server: { host: '127.0.0.1', port: 0, logLevel: 'warn' }, processing: { enabled: processing } },
  });
  const server = await startServer({ configPath, nodeArgs: SERVER_NODE_ARGS });
  try {
    return await measure(name, server.url);
  } finally {
    await server.stop();
    receiver.stop();
  }
}

const sqliteUrl = () => `sqlite:${join(scratchDir('regpay-bench-'), 'bench.db')}`;

function row(figures: Figures, baseline: Figures): string {
  const ratio = (figures.acceptedPerS / baseline.acceptedPerS).toFixed(2);
  return `${figures.name.padEnd(34)} ${figures.acceptedPerS.toFixed(0).padStart(7)} /s  ratio ${ratio}  p50 ${figures.p50Ms.toFixed(1).padStart(5)} ms  p99 ${figures.p99Ms.toFixed(1).padStart(6)} ms  non-2xx ${figures.non2xx}  errors ${figures.errors}`;
}

const baseline = await standIn('bare Fastify 202 (baseline)', './bare-server.js');
// The floor: what durability alone leaves of the baseline (no authentication, validation or state).
const floor = runs('floor')
  ? await standIn('bare + durable SQLite row (floor)', './durable-bare-server.js', { DATABASE_FILE: join(scratchDir('regpay-bench-'), 'floor.db') })
  : undefined;
const sqlite = runs('sqlite') ? await regpay('intake alone, SQLite (durable)', sqliteUrl(), false) : undefined;
const sqliteFull = runs('sqlite-full') ? await regpay('intake + processing, SQLite', sqliteUrl(), true) : undefined;
const [postgres, postgresFull] =
  runs('postgres') || runs('postgres-full')
    ? await withPostgres(async () => [
        runs('postgres') ? await regpay('intake alone, PostgreSQL', await freshPostgresUrl(), false) : undefined,
        runs('postgres-full') ? await regpay('intake + processing, PostgreSQL', await freshPostgresUrl(), true) : undefined,
      ])
    : [undefined, undefined];

const E2E_RATE = Number(process.env.E2E_RATE ?? 1000);
const E2E_DURATION_S = Number(process.env.E2E_DURATION_S ?? 60);
const e2e = runs('e2e') ? await settle().then(() => runE2e({ ratePerS: E2E_RATE, durationS: E2E_DURATION_S })) : undefined;

function e2eRow(figures: E2eFigures): string {
  return (
    `offered ${figures.offeredPerS}/s for ${figures.durationS} s: ${figures.completedDuringLoadPerS.toFixed(0)}/s reached their final callback while offered ` +
    `(${figures.completedPerS.toFixed(0)}/s from first request to last callback), events for ${figures.eventsDuringLoadPerS.toFixed(0)} transfers/s while offered, ` +
    `p50 ${figures.p50Ms} ms, p99 ${figures.p99Ms} ms (intake p99 ${figures.intakeP99Ms} ms); events ${figures.eventsDelivered}/${figures.eventsExpected}; ` +
    `backlog every 5 s [${figures.backlogSamples.join(', ')}]; drained ${figures.drainMs} ms after the load; ` +
    `service CPU ${figures.serviceCpuUsPerTransfer} µs per transfer (main thread ${figures.mainThreadCpuUsPerTransfer} µs)`
  );
}

const lines = [
  `credit-transfer intake: ${CONNECTIONS} connections, ${DURATION_S} s each after ${WARMUP_S} s warm-up, new transfer per request`,
  row(baseline, baseline),
  ...[floor, sqlite, sqliteFull, postgres, postgresFull].flatMap((figures) => (figures === undefined ? [] : [row(figures, baseline)])),
  ...(e2e === undefined ? [] : [`end to end (SQLite, simulator at zero latency, receiver process): ${e2eRow(e2e)}`]),
];
process.stdout.write(`${lines.join('\n')}\n`);
const resultsDir = fileURLToPath(new URL('../../bench/results/', import.meta.url));
mkdirSync(resultsDir, { recursive: true });
writeFileSync(join(resultsDir, 'latest.json'), JSON.stringify({ at: new Date().toISOString(), connections: CONNECTIONS, durationS: DURATION_S, baseline, floor, sqlite, sqliteFull, postgres, postgresFull, e2e }, null, 2));
