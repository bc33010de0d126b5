import { fork, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { withPostgres } from '../test/support/postgres.js';
import { simulate, type SimOptions, type SimResult } from './run.js';

type StoreKind = NonNullable<SimOptions['store']>;
/** The store a run uses, as the command line chose it. */
interface StoreMode {
  readonly store: StoreKind;
  readonly serializeStore: boolean;
}

/**
 * `npm run simulate -- --seed S --transactions N [--seeds K] [--jobs J] [--store sqlite|postgres [--serialize-store]] [--verbose]`:
 * K runs (seeds S, S+1, ...) of N transactions each, spread over J worker processes (one per core
 * by default). A run that breaks an invariant prints its seed, step and the trace of the
 * transaction; no further seed is started and the process exits 1. The last line is
 * `trace <sha256>` over every run's trace hash in seed order, whatever J is. `--store postgres`
 * runs two instances on a database of their own per seed, on DATABASE_URL's server or an
 * embedded one started for the command; its trace hash is not a replay key (docs/simulation.md);
 * `--serialize-store` makes the store calls of both instances run one at a time (nearly replayable).
 */
function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  if (index < 0) return fallback;
  const value = Number(process.argv[index + 1]);
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`--${name} needs a whole number`);
  return value;
}

/** What a worker reports of one seed. */
interface SeedReport {
  readonly seed: number;
  readonly line: string;
  readonly traceHash: string;
  readonly violation: string | undefined;
}

function report(result: SimResult, seconds: number): SeedReport {
  const stats = Object.entries(result.stats).map(([key, value]) => `${key}=${value}`).join(' ');
  const line = `seed ${result.seed}: ${result.violation === undefined ? 'ok' : 'VIOLATION'} steps=${result.steps} simulated=${Math.round(result.simulatedMs / 1000)}s ${stats} ${seconds.toFixed(2)}s trace ${result.traceHash.slice(0, 16)}`;
  const v = result.violation;
  const violation = v === undefined ? undefined : `seed ${result.seed} step ${v.step} (simulated ${v.at} ms): ${v.message}\ntransaction ${v.transactionId ?? '?'}:\n${v.trace.map((text) => `  ${text}`).join('\n')}`;
  return { seed: result.seed, line, traceHash: result.traceHash, violation };
}

function storeOption(): StoreMode {
  const index = process.argv.indexOf('--store');
  const value = index < 0 ? 'sqlite' : process.argv[index + 1];
  if (value !== 'sqlite' && value !== 'postgres') throw new Error('--store needs sqlite or postgres');
  return { store: value, serializeStore: process.argv.includes('--serialize-store') };
}

async function runSeed(seed: number, transactions: number, verbose: boolean, mode: StoreMode): Promise<SeedReport> {
  const started = performance.now();
  const result = await simulate({ seed, transactions, ...mode, ...(verbose ? { onTraceLine: (text: string) => process.stdout.write(`${text}\n`) } : {}) });
  return report(result, (performance.now() - started) / 1000);
}

/** A worker process: runs the seeds it is sent, one at a time, and reports each. */
function worker(): void {
  process.on('message', (message: { seed: number; transactions: number; mode: StoreMode } | 'exit') => {
    if (message === 'exit') {
      if (process.connected) process.disconnect();
      return;
    }
    runSeed(message.seed, message.transactions, false, message.mode).then(
      (result) => process.send?.(result),
      (error: unknown) => {
        process.stderr.write(`simulation failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
        process.exit(2);
      },
    );
  });
}

/** Runs seeds first..first+count-1 on `jobs` workers; calls `done` for each in seed order up to the first violation, and starts no seed after one is found. */
async function runAll(first: number, count: number, transactions: number, mode: StoreMode, jobs: number, done: (result: SeedReport) => boolean): Promise<void> {
  const script = fileURLToPath(import.meta.url);
  const results = new Map<number, SeedReport>();
  let next = first;
  let reported = first;
  /** No further seed is started (a violation was found). */
  let halted = false;
  /** No further seed is reported (a violation was reported: the seeds after it ran for nothing). */
  let closed = false;
  await new Promise<void>((resolve, reject) => {
    let running = 0;
    const feed = (child: ChildProcess): void => {
      if (halted || next >= first + count) {
        if (child.connected) child.send('exit');
        return;
      }
      running += 1;
      child.send({ seed: next, transactions, mode });
      next += 1;
    };
    for (let n = 0; n < jobs; n += 1) {
      const child = fork(script, ['--worker'], { execArgv: process.execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
      child.on('message', (result: SeedReport) => {
        running -= 1;
        results.set(result.seed, result);
        if (result.violation !== undefined) halted = true;
        for (let ready = results.get(reported); ready !== undefined; ready = results.get(reported)) {
          results.delete(reported);
          reported += 1;
          if (!closed && !done(ready)) closed = true;
        }
        feed(child);
        if (running === 0 && (halted || next >= first + count)) resolve();
      });
      child.on('exit', (code) => {
        if (code !== 0 && code !== null) reject(new Error(`a simulation worker exited with ${code}`));
      });
      feed(child);
    }
  });
}

async function main(): Promise<void> {
  const seed = option('seed', 1);
  const seeds = option('seeds', 1);
  const transactions = option('transactions', 2_000);
  const verbose = process.argv.includes('--verbose');
  const mode = storeOption();
  const { store } = mode;
  // The trace printed line by line needs one process; so does a single seed.
  const jobs = verbose ? 1 : Math.max(1, Math.min(option('jobs', availableParallelism()), seeds));
  const all = createHash('sha256');
  const started = performance.now();
  let failed: SeedReport | undefined;
  const done = (result: SeedReport): boolean => {
    all.update(result.traceHash);
    process.stdout.write(`${result.line}\n`);
    if (result.violation === undefined) return true;
    process.stdout.write(`\n${result.violation}\n\n`);
    failed = result;
    return false;
  };
  const run = async (): Promise<void> => {
    if (jobs === 1) {
      for (let n = 0; n < seeds; n += 1) if (!done(await runSeed(seed + n, transactions, verbose, mode))) break;
    } else {
      await runAll(seed, seeds, transactions, mode, jobs, done);
    }
  };
  // PostgreSQL: DATABASE_URL's server, or an embedded one for the whole command (the workers inherit its URL), stopped at the end.
  await (store === 'postgres' ? withPostgres(run) : run());
  const elapsed = (performance.now() - started) / 1000;
  process.stdout.write(`${failed === undefined ? 'all ok' : `failed at seed ${failed.seed}`}; ${elapsed.toFixed(1)} s on ${jobs} ${jobs === 1 ? 'process' : 'processes'}\n`);
  // Two instances on a real database: answers of concurrent queries come back in any order, so a run does not replay byte for byte.
  process.stdout.write(`trace ${all.digest('hex')}${store === 'postgres' ? ' (PostgreSQL: not a replay key; the invariants were checked)' : ''}\n`);
  process.exitCode = failed === undefined ? 0 : 1;
}

if (process.argv.includes('--worker')) {
  worker();
} else {
  main().catch((error: unknown) => {
    process.stderr.write(`simulation failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(2);
  });
}
