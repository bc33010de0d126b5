import { simulate, type SimResult } from './run.js';

/**
 * `npm run simulate -- --seed S --transactions N [--seeds K] [--verbose]`: K runs (seeds S, S+1, ...)
 * of N transactions each. A run that breaks an invariant prints its seed, step and the trace of
 * the transaction, and the process exits 1. The last line is `trace <sha256>` over every run.
 */
function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  if (index < 0) return fallback;
  const value = Number(process.argv[index + 1]);
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`--${name} needs a whole number`);
  return value;
}

async function main(): Promise<void> {
  const seed = option('seed', 1);
  const seeds = option('seeds', 1);
  const transactions = option('transactions', 2_000);
  const verbose = process.argv.includes('--verbose');
  const { createHash } = await import('node:crypto');
  const all = createHash('sha256');
  const started = performance.now();
  let failed: SimResult | undefined;
  for (let n = 0; n < seeds; n += 1) {
    const runStarted = performance.now();
    const result = await simulate({ seed: seed + n, transactions, ...(verbose ? { onTraceLine: (line: string) => process.stdout.write(`${line}\n`) } : {}) });
    all.update(result.traceHash);
    const seconds = ((performance.now() - runStarted) / 1000).toFixed(2);
    const stats = Object.entries(result.stats).map(([key, value]) => `${key}=${value}`).join(' ');
    process.stdout.write(`seed ${result.seed}: ${result.violation === undefined ? 'ok' : 'VIOLATION'} steps=${result.steps} simulated=${Math.round(result.simulatedMs / 1000)}s ${stats} ${seconds}s trace ${result.traceHash.slice(0, 16)}\n`);
    if (result.violation !== undefined) {
      const v = result.violation;
      process.stdout.write(`\nseed ${result.seed} step ${v.step} (simulated ${v.at} ms): ${v.message}\ntransaction ${v.transactionId ?? '?'}:\n${v.trace.map((line) => `  ${line}`).join('\n')}\n\n`);
      failed = result;
      break;
    }
  }
  const elapsed = (performance.now() - started) / 1000;
  process.stdout.write(`${failed === undefined ? 'all ok' : `failed at seed ${failed.seed}`}; ${elapsed.toFixed(1)} s\n`);
  process.stdout.write(`trace ${all.digest('hex')}\n`);
  process.exitCode = failed === undefined ? 0 : 1;
}

main().catch((error: unknown) => {
  process.stderr.write(`simulation failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(2);
});
