/**
 * `node dist/bench/cpu-cost.js`: CPU time regpay spends per accepted credit transfer, by thread,
 * at a fixed offered rate (open loop) that the machine can carry. Throughput on a shared 2-core
 * machine moves by ±20 % between runs; CPU per transfer moves far less, so this is the figure to
 * compare when judging a change to the intake path (run it before and after, several times).
 * Intake alone (processing.enabled: false) on SQLite. Knobs: CPU_RATE (transfers/s offered,
 * default 2000), CPU_DURATION_S (10). Linux only (reads /proc).
 */
import autocannon from 'autocannon';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { creditTransfer } from '../test/fixtures/credit-transfer.js';
import { basicAuth, startServer, writeTestConfig } from '../test/support/server.js';

const RATE = Number(process.env.CPU_RATE ?? 2000);
const DURATION_S = Number(process.env.CPU_DURATION_S ?? 10);
const WARMUP_S = 3;
const CLOCK_TICKS_PER_S = 100;

/** CPU time (user + system) of every thread of a process so far, in clock ticks: `main`, or `thread <id>` (worker threads, libuv's pool). */
function threadTicks(pid: number): Map<string, number> {
  const ticks = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks.set(tid === String(pid) ? 'main' : `thread ${tid}`, Number(fields[11]) + Number(fields[12]));
  }
  return ticks;
}

const configPath = writeTestConfig({
  database: `sqlite:${join(mkdtempSync(join(tmpdir(), 'regpay-cpu-')), 'bench.db')}`,
  integratorExtra: { limits: { requestsPerSecond: 1_000_000, burst: 1_000_000 } },
  extra: { server: { host: '127.0.0.1', port: 0, logLevel: 'warn' }, processing: { enabled: false } },
});
const server = await startServer({ configPath });
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
  const before = threadTicks(pid);
  const result = await offer(DURATION_S);
  const after = threadTicks(pid);
  const accepted = result['2xx'];
  const perTransferUs = [...after]
    .map(([thread, ticks]) => [thread, ((ticks - (before.get(thread) ?? 0)) / CLOCK_TICKS_PER_S / accepted) * 1e6] as const)
    .filter(([, us]) => us >= 1)
    .sort((a, b) => b[1] - a[1]);
  const total = perTransferUs.reduce((sum, [, us]) => sum + us, 0);
  process.stdout.write(
    `intake alone, SQLite, ${RATE}/s offered for ${DURATION_S} s: ${(accepted / result.duration).toFixed(0)}/s accepted, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}\n` +
      `CPU per accepted transfer: ${total.toFixed(0)} µs = ${perTransferUs.map(([thread, us]) => `${thread} ${us.toFixed(0)}`).join(' + ')}\n`,
  );
} finally {
  await server.stop();
}
