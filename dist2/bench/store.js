/**
 * `node dist/bench/store.js`: what durable SQLite intake costs the event loop. 64 callers each
 * write a new credit transfer (intake, group-committed, synchronous=FULL) again and again for
 * 5 s; printed are intakes/s, intake latency p50/p99 and the event loop's delay p99/max
 * (perf_hooks.monitorEventLoopDelay), once with the batch committed on the main thread (the
 * baseline) and once in the writer worker thread, each on a new database file, in this run.
 * The event-loop delay is what every HTTP request waits on top of its own work.
 * Knobs: BENCH_DURATION_S (default 5), BENCH_CONCURRENCY (64), BENCH_DIR (where the database
 * files go; default the temp directory: put it on the disk production uses).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { openSqliteStore } from '../src/adapters/store-sqlite/sqlite-store.js';
import { intakeTransfer } from './intake-transfer.js';
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 5);
const WARMUP_S = 1;
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64);
const NS_PER_MS = 1e6;
function percentile(sorted, p) {
    if (sorted.length === 0)
        return Number.NaN;
    return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}
/** CONCURRENCY callers, each starting its next intake as soon as the last one resolved. */
async function drive(store, durationS) {
    const latenciesMs = [];
    let failures = 0;
    const started = performance.now();
    const until = started + durationS * 1000;
    const caller = async () => {
        while (performance.now() < until) {
            const tx = intakeTransfer();
            const t0 = performance.now();
            try {
                const outcome = await store.intake(tx);
                if (outcome.kind === 'accepted')
                    latenciesMs.push(performance.now() - t0);
                else
                    failures += 1;
            }
            catch {
                failures += 1;
            }
        }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, caller));
    return { latenciesMs, failures, elapsedMs: performance.now() - started };
}
async function measure(name, writerThread) {
    const dir = mkdtempSync(join(process.env.BENCH_DIR ?? tmpdir(), 'regpay-store-bench-'));
    const store = await openSqliteStore(join(dir, 'bench.db'), { writerThread });
    try {
        await drive(store, WARMUP_S);
        const loop = monitorEventLoopDelay({ resolution: 1 });
        loop.enable();
        const run = await drive(store, DURATION_S);
        loop.disable();
        const sorted = [...run.latenciesMs].sort((a, b) => a - b);
        return {
            name,
            intakesPerS: (sorted.length / run.elapsedMs) * 1000,
            p50Ms: percentile(sorted, 50),
            p99Ms: percentile(sorted, 99),
            loopDelayP99Ms: loop.percentile(99) / NS_PER_MS,
            loopDelayMaxMs: loop.max / NS_PER_MS,
            failures: run.failures,
        };
    }
    finally {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
    }
}
function row(figures, baseline) {
    const ratio = (figures.intakesPerS / baseline.intakesPerS).toFixed(2);
    return [
        figures.name.padEnd(30),
        `${figures.intakesPerS.toFixed(0).padStart(6)} intakes/s (ratio ${ratio})`,
        `latency p50 ${figures.p50Ms.toFixed(1).padStart(5)} ms p99 ${figures.p99Ms.toFixed(1).padStart(6)} ms`,
        `event-loop delay p99 ${figures.loopDelayP99Ms.toFixed(1).padStart(6)} ms max ${figures.loopDelayMaxMs.toFixed(1).padStart(6)} ms`,
        `failures ${figures.failures}`,
    ].join('  ');
}
const baseline = await measure('commit on the main thread', 'main');
const worker = await measure('commit in the writer worker', 'worker');
process.stdout.write([
    `SQLite intake (WAL, synchronous=FULL): ${CONCURRENCY} concurrent callers, ${DURATION_S} s each after ${WARMUP_S} s warm-up`,
    row(baseline, baseline),
    row(worker, baseline),
    `event-loop delay p99: ${(worker.loopDelayP99Ms / baseline.loopDelayP99Ms).toFixed(2)} of the baseline`,
].join('\n') + '\n');
//# sourceMappingURL=store.js.map