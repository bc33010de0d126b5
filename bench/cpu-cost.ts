/**
 * `node dist/bench/cpu-cost.js`: CPU time regpay spends per accepted credit transfer, by thread,
 * at a fixed offered rate (open loop) that the machine can carry. Throughput on a shared 2-core
 * machine moves by ±20 % between runs; CPU per transfer moves far less, so this is the figure to
 * compare when judging a change to the intake path (run it before and after, several times).
 * Intake alone (processing.enabled: false) on SQLite, and the bare Fastify server of `npm run
 * bench` at the same rate (before and after regpay), with the load generator's own CPU per request: from these it projects
 * the rate ratio `npm run bench` would show where CPU runs out. Every figure per request also
 * carries costs paid per second (timers, collections), so the projection holds only at a rate
 * near regpay's capacity (2,000-3,000/s on these machines; at 1,000/s it says 0.57).
 * Knobs: CPU_RATE (transfers/s offered, default 2000), CPU_DURATION_S (10),
 * BENCH_SERVER_NODE_ARGS (node flags for the server, e.g. `--perf-basic-prof` to name JavaScript
 * frames for `perf record`), BENCH_BUILD_ROOT (the build whose service to measure, build-root.ts),
 * BENCH_FIGURES_OUT (a file to write the figures to as JSON). Linux only (reads /proc).
 */
import autocannon from 'autocannon';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, writeTestConfig } from '../test/support/server.js';
import { intakeRequests } from './intake-load.js';
import { cpuPerUnit, threadCpuUs } from './thread-cpu.js';
import { scratchDir } from './scratch-dir.js';
import { startStandIn } from './stand-in.js';
import { serviceMain } from './build-root.js';

const RATE = Number(process.env.CPU_RATE ?? 2000);
const DURATION_S = Number(process.env.CPU_DURATION_S ?? 10);
const WARMUP_S = 3;
const configPath = writeTestConfig({
  database: `sqlite:${join(scratchDir('regpay-cpu-'), 'bench.db')}`,
  integratorExtra: { limits: { requestsPerSecond: 1_000_000, burst: 1_000_000 } },
  extra: { server: { host: '127.0.0.1', port: 0, logLevel: 'warn' }, processing: { enabled: false } },
});

/** What BENCH_FIGURES_OUT receives (read by `npm run bench -- --against`, against.ts). */
export interface CpuCostFigures {
  readonly ratePerS: number;
  readonly durationS: number;
  readonly regpay: Cost;
  /** The bare server's CPU per request and the load generator's against it, the mean of before and after regpay. */
  readonly bareServerUs: number;
  readonly bareGeneratorUs: number;
  readonly projected: number;
}

export interface Cost {
  readonly acceptedPerS: number;
  readonly latency: { readonly p50: number; readonly average: number; readonly p99: number };
  readonly non2xx: number;
  /** The server's CPU per 2xx, by thread. */
  readonly server: ReturnType<typeof cpuPerUnit>;
  /** The load generator's (this process's) CPU per 2xx. */
  readonly generatorUs: number;
}

const offer = (url: string, durationS: number) => autocannon({ url, connections: 32, duration: durationS, overallRate: RATE, requests: intakeRequests() });

/** Offer RATE/s to `url` (served by process `pid`) for DURATION_S and measure what it cost. */
async function cost(url: string, pid: number): Promise<Cost> {
  const before = threadCpuUs(pid);
  const generatorBefore = process.cpuUsage();
  const result = await offer(url, DURATION_S);
  const generator = process.cpuUsage(generatorBefore);
  const accepted = result['2xx'];
  return {
    acceptedPerS: accepted / result.duration,
    latency: result.latency,
    non2xx: result.non2xx,
    server: cpuPerUnit(before, threadCpuUs(pid), accepted),
    generatorUs: (generator.user + generator.system) / accepted,
  };
}

const byThread = (figures: Cost): string => figures.server.byThread.map(([thread, us]) => `${thread} ${us.toFixed(0)}`).join(' + ');
// Both servers run at once, each idle while the other is measured, and the bare server is
// measured before and after regpay: the machine's speed drifts within minutes, and CPU per
// request drifts with it (npm run bench's paired() for the same reason).
const bare = await startStandIn('./bare-server.js');
const server = await startServer({ configPath, main: serviceMain(), nodeArgs: process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter((arg) => arg !== '') ?? [] });
try {
  const pid = server.child.pid;
  if (pid === undefined) throw new Error('the server has no pid');
  await offer(bare.url, WARMUP_S);
  await offer(server.url, WARMUP_S);
  const bareBefore = await cost(bare.url, bare.pid);
  const regpay = await cost(server.url, pid);
  const bareAfter = await cost(bare.url, bare.pid);
  const bareServerUs = (bareBefore.server.totalUs + bareAfter.server.totalUs) / 2;
  const bareGeneratorUs = (bareBefore.generatorUs + bareAfter.generatorUs) / 2;
  // At saturation the two cores are shared by the server and the load generator, so a server's
  // rate goes as 1 / (its CPU per request + the generator's): the ratio this projects for
  // `npm run bench` where CPU is what runs out, from figures that move far less than rates do.
  const projected = (bareServerUs + bareGeneratorUs) / (regpay.server.totalUs + regpay.generatorUs);
  const figuresOut = process.env.BENCH_FIGURES_OUT;
  if (figuresOut !== undefined) writeFileSync(figuresOut, JSON.stringify({ ratePerS: RATE, durationS: DURATION_S, regpay, bareServerUs, bareGeneratorUs, projected } satisfies CpuCostFigures));
  process.stdout.write(
    `${RATE}/s offered for ${DURATION_S} s each\n` +
      `bare Fastify 202, before and after regpay: p99 ${bareBefore.latency.p99} and ${bareAfter.latency.p99} ms; ` +
      `CPU per request: server ${bareBefore.server.totalUs.toFixed(0)} and ${bareAfter.server.totalUs.toFixed(0)} µs, ` +
      `load generator ${bareBefore.generatorUs.toFixed(0)} and ${bareAfter.generatorUs.toFixed(0)} µs\n` +
      `intake alone, SQLite: ${regpay.acceptedPerS.toFixed(0)}/s accepted, p50 ${regpay.latency.p50} ms, mean ${regpay.latency.average} ms, p99 ${regpay.latency.p99} ms, non-2xx ${regpay.non2xx}; ` +
      `CPU per accepted transfer: server ${regpay.server.totalUs.toFixed(0)} µs = ${byThread(regpay)}, load generator ${regpay.generatorUs.toFixed(0)} µs\n` +
      `CPU per request, regpay / bare: ${(regpay.server.totalUs / bareServerUs).toFixed(2)}; rate ratio projected where CPU runs out: ${projected.toFixed(2)}\n`,
  );
} finally {
  bare.stop();
  await server.stop();
}
