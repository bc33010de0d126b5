/**
 * `node dist/bench/cpu-cost.js`: CPU time regpay spends per accepted credit transfer, by thread,
 * at a fixed offered rate (open loop) that the machine can carry. Throughput on a shared 2-core
 * machine moves by ±20 % between runs; CPU per transfer moves far less, so this is the figure to
 * compare when judging a change to the intake path (run it before and after, several times).
 * Intake alone (processing.enabled: false) on SQLite. Knobs: CPU_RATE (transfers/s offered,
 * default 2000), CPU_DURATION_S (10), BENCH_SERVER_NODE_ARGS (node flags for the server, e.g.
 * `--perf-basic-prof` to name JavaScript frames for `perf record`). Linux only (reads /proc).
 */
import autocannon from 'autocannon';
import { join } from 'node:path';
import { creditTransfer } from '../test/fixtures/credit-transfer.js';
import { basicAuth, startServer, writeTestConfig } from '../test/support/server.js';
import { cpuPerUnit, threadCpuUs } from './thread-cpu.js';
import { scratchDir } from './scratch-dir.js';

const RATE = Number(process.env.CPU_RATE ?? 2000);
const DURATION_S = Number(process.env.CPU_DURATION_S ?? 10);
const WARMUP_S = 3;
const configPath = writeTestConfig({
  database: `sqlite:${join(scratchDir('regpay-cpu-'), 'bench.db')}`,
  integratorExtra: { limits: { requestsPerSecond: 1_000_000, burst: 1_000_000 } },
  extra: { server: { host: '127.0.0.1', port: 0, logLevel: 'warn' }, processing: { enabled: false } },
});
const server = await startServer({ configPath, nodeArgs: process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter((arg) => arg !== '') ?? [] });
const pid = server.child.pid;
if (pid === undefined) throw new Error('the server has no pid');

const offer = (durationS: number) =>
  autocannon({
    url: server.url,
    connections: 32,
    duration: durationS,
    overallRate: RATE,
    requests: [
      {
        method: 'POST',
        path: '/api/v1/transactions/outbound/credit-transfer',
        headers: { 'content-type': 'application/json', authorization: basicAuth() },
        setupRequest: (request) => ({ ...request, body: JSON.stringify(creditTransfer('ZA_RPP')) }),
      },
    ],
  });

try {
  await offer(WARMUP_S);
  const before = threadCpuUs(pid);
  const result = await offer(DURATION_S);
  const accepted = result['2xx'];
  const cpu = cpuPerUnit(before, threadCpuUs(pid), accepted);
  process.stdout.write(
    `intake alone, SQLite, ${RATE}/s offered for ${DURATION_S} s: ${(accepted / result.duration).toFixed(0)}/s accepted, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}\n` +
      `CPU per accepted transfer: ${cpu.totalUs.toFixed(0)} µs = ${cpu.byThread.map(([thread, us]) => `${thread} ${us.toFixed(0)}`).join(' + ')}\n`,
  );
} finally {
  await server.stop();
}
