/**
 * `npm run bench -- --against <git ref>`: two builds measured in one run (bench/README.md,
 * "Comparing two builds"). The ref is checked out in a scratch worktree under the temp directory,
 * its service compiled, and each selected part is run against this build (A) and the ref's (B)
 * alternately, A B A B … for BENCH_ROUNDS rounds, so both see the same machine and the same
 * load from the others' work. Each part is this build's bench script, run as a child process with
 * BENCH_BUILD_ROOT naming the build whose service it starts (build-root.ts) and BENCH_FIGURES_OUT
 * the file it writes its figures to: the load and the configuration are the same for both builds,
 * only the service differs. Every figure is printed for A and B (the median of their runs) with
 * the ratio B/A (the median of the rounds, each B run over the A run just before it), and which
 * build it favours. The scratch worktree is removed at the end, also when a part fails or the run
 * is interrupted.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CpuCostFigures } from './cpu-cost.js';
import type { E2eFigures } from './e2e.js';
import type { IdentifierFigures } from './identifier-determination.js';

/** The parts that can be compared, by the names BENCH_ONLY selects them with. */
export const AGAINST_PARTS = ['cpu', 'identifiers', 'e2e'] as const;
export type AgainstPart = (typeof AGAINST_PARTS)[number];

/** One figure of one run of a part; `better` says which way is an improvement. NaN: the build does not report it (shown "-"). */
export interface Figure {
  readonly name: string;
  readonly unit: string;
  readonly better: 'lower' | 'higher';
  readonly value: number;
}

export type Build = 'A' | 'B';

/**
 * The ref of `--against <ref>` (or `--against=<ref>`) among the runner's arguments, undefined
 * without it. Any other argument is refused, so a misspelt flag does not silently run the whole
 * bench of one build.
 */
export function againstRef(args: readonly string[]): string | undefined {
  let ref: string | undefined;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    const value = arg === '--against' ? args[(i += 1)] : arg.startsWith('--against=') ? arg.slice('--against='.length) : null;
    if (value === null) throw new Error(`unknown argument ${arg} (the bench takes only --against <git ref>)`);
    if (value === undefined || value === '' || value.startsWith('-')) throw new Error('--against needs a git ref, e.g. --against HEAD~1');
    if (ref !== undefined) throw new Error('--against given twice');
    ref = value;
  }
  return ref;
}

/** The parts BENCH_ONLY selects for a comparison (all of AGAINST_PARTS without it); a part that cannot be compared is refused. */
export function againstParts(only: readonly string[] | undefined): AgainstPart[] {
  if (only === undefined) return [...AGAINST_PARTS];
  const unknown = only.filter((part) => !(AGAINST_PARTS as readonly string[]).includes(part));
  if (unknown.length > 0) throw new Error(`--against compares only ${AGAINST_PARTS.join(', ')}; BENCH_ONLY names ${unknown.join(', ')}`);
  if (only.length === 0) throw new Error('BENCH_ONLY names no part');
  return only as AgainstPart[];
}

/** The order of the runs: A B A B … , `rounds` of each. */
export function alternation(rounds: number): Build[] {
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`BENCH_ROUNDS must be a whole number of at least 1, not ${rounds}`);
  return Array.from({ length: rounds * 2 }, (_, run) => (run % 2 === 0 ? 'A' : 'B'));
}

/** cpu-cost.ts's figures. */
export function cpuFigures(figures: CpuCostFigures): Figure[] {
  const { regpay } = figures;
  const main = regpay.server.byThread.find(([thread]) => thread === 'main')?.[1] ?? Number.NaN;
  return [
    { name: 'intake CPU per accepted transfer, service', unit: 'µs', better: 'lower', value: regpay.server.totalUs },
    { name: 'intake CPU per accepted transfer, main thread', unit: 'µs', better: 'lower', value: main },
    { name: "intake CPU per transfer over the bare server's per request", unit: '×', better: 'lower', value: regpay.server.totalUs / figures.bareServerUs },
    { name: `intake p50 at ${figures.ratePerS}/s offered`, unit: 'ms', better: 'lower', value: regpay.latency.p50 },
    { name: `intake p99 at ${figures.ratePerS}/s offered`, unit: 'ms', better: 'lower', value: regpay.latency.p99 },
    { name: 'intake accepted', unit: '/s', better: 'higher', value: regpay.acceptedPerS },
  ];
}

/** identifier-determination.ts's figures: each simulator latency's, and the soak's when it ran. */
export function identifierFigures(figures: IdentifierFigures): Figure[] {
  const latency = figures.latency.flatMap((part): Figure[] => {
    const at = `sync lookup, simulator ${part.simulatorLatencyMs} ms`;
    return [
      { name: `${at}: service CPU per lookup`, unit: 'µs', better: 'lower', value: part.serviceCpuUsPerLookup },
      { name: `${at}: added p50 at ${part.offeredPerS}/s`, unit: 'ms', better: 'lower', value: part.regpay.addedP50Ms },
      { name: `${at}: added p99 at ${part.offeredPerS}/s`, unit: 'ms', better: 'lower', value: part.regpay.addedP99Ms },
      { name: `${at}: one at a time, added p50`, unit: 'ms', better: 'lower', value: part.unloaded.addedP50Ms },
      { name: `${at}: one at a time, added p99`, unit: 'ms', better: 'lower', value: part.unloaded.addedP99Ms },
      { name: `${at}: wrong answers and errors`, unit: '', better: 'lower', value: part.regpay.wrong + part.regpay.errors },
    ];
  });
  const soak = figures.soak;
  if (soak === undefined) return latency;
  return [
    ...latency,
    { name: `soak, ${soak.lookups} held: time to answer all`, unit: 'ms', better: 'lower', value: soak.durationMs },
    { name: `soak, ${soak.lookups} held: p99`, unit: 'ms', better: 'lower', value: soak.p99Ms },
    { name: `soak, ${soak.lookups} held: service peak RSS (VmHWM)`, unit: 'MB', better: 'lower', value: soak.vmHwmMb },
  ];
}

/**
 * e2e.ts's figures, as read back from its JSON: a figure the build does not report (NaN, written
 * as null: the store's commits and fsyncs of a build that predates their counters) stays NaN.
 */
export function e2eFigures(figures: E2eFigures): Figure[] {
  const reported = (value: number | null): number => value ?? Number.NaN;
  const at = `at ${figures.offeredPerS}/s offered`;
  return [
    { name: 'service CPU per transfer', unit: 'µs', better: 'lower', value: reported(figures.serviceCpuUsPerTransfer) },
    { name: 'service CPU per transfer, main thread', unit: 'µs', better: 'lower', value: reported(figures.mainThreadCpuUsPerTransfer) },
    { name: `request to final callback p50 ${at}`, unit: 'ms', better: 'lower', value: reported(figures.p50Ms) },
    { name: `request to final callback p99 ${at}`, unit: 'ms', better: 'lower', value: reported(figures.p99Ms) },
    { name: `carried: final callbacks while offered ${at}`, unit: '/s', better: 'higher', value: reported(figures.completedDuringLoadPerS) },
    { name: 'final callbacks of transfers accepted', unit: '%', better: 'higher', value: (100 * figures.completed) / figures.accepted },
    { name: 'events delivered of expected', unit: '%', better: 'higher', value: (100 * figures.eventsDelivered) / figures.eventsExpected },
    { name: 'store commits per transfer', unit: '', better: 'lower', value: reported(figures.commitsPerTransfer) },
    { name: "store commits holding the transaction's state per transfer", unit: '', better: 'lower', value: reported(figures.transactionCommitsPerTransfer) },
    { name: 'store fsyncs per transfer', unit: '', better: 'lower', value: reported(figures.fsyncsPerTransfer) },
  ];
}

/** One figure of both builds over all rounds. */
export interface Compared {
  readonly name: string;
  readonly unit: string;
  readonly better: 'lower' | 'higher';
  readonly a: readonly number[];
  readonly b: readonly number[];
  /** Each round's B over the A run just before it. */
  readonly roundRatios: readonly number[];
  /** The median round's B/A: the figure to judge by. */
  readonly ratio: number;
}

/**
 * The runs of a part, in the order they ran (A B A B …), as one comparison per figure: a figure
 * is paired by its name, round by round; a figure some run lacks is left out.
 */
export function compare(runs: readonly { readonly build: Build; readonly figures: readonly Figure[] }[]): Compared[] {
  const a = runs.filter((run) => run.build === 'A');
  const b = runs.filter((run) => run.build === 'B');
  if (a.length !== b.length || a.length === 0) throw new Error(`runs of A and B must pair: ${a.length} and ${b.length}`);
  return (a[0]?.figures ?? []).flatMap((first): Compared[] => {
    const values = (of: typeof a) => of.map((run) => run.figures.find((figure) => figure.name === first.name)?.value);
    const aValues = values(a);
    const bValues = values(b);
    if ([...aValues, ...bValues].some((value) => value === undefined)) return [];
    const roundRatios = (bValues as number[]).map((value, round) => value / aValues[round]!);
    return [{ name: first.name, unit: first.unit, better: first.better, a: aValues as number[], b: bValues as number[], roundRatios, ratio: median(roundRatios) }];
  });
}

/** The median; NaN when a value is NaN (a figure some run did not report has no median). */
export function median(values: readonly number[]): number {
  if (values.some((value) => Number.isNaN(value))) return Number.NaN;
  const sorted = [...values].sort((x, y) => x - y);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * Which build a ratio favours, and in how many rounds: "B better (3 of 3 rounds)", "same", "— (not
 * reported by B)" when a build's runs lack the figure's value, or "—" when a ratio is not a number (0/0).
 */
export function verdict(compared: Compared): string {
  const unreported = (['A', 'B'] as const).filter((build) => (build === 'A' ? compared.a : compared.b).some((value) => Number.isNaN(value)));
  if (unreported.length > 0) return `— (not reported by ${unreported.join(' and ')})`;
  if (!Number.isFinite(compared.ratio)) return '—';
  if (compared.ratio === 1) return 'same';
  const bBetter = (ratio: number) => (compared.better === 'lower' ? ratio < 1 : ratio > 1);
  const winner = bBetter(compared.ratio) ? 'B' : 'A';
  const agreeing = compared.roundRatios.filter((ratio) => ratio !== 1 && bBetter(ratio) === (winner === 'B')).length;
  return `${winner} better (${agreeing} of ${compared.roundRatios.length} rounds)`;
}

/** A value as printed: "-" for one not reported (NaN), "n/a" for an infinite ratio (x/0). */
const figureText = (value: number): string => (Number.isNaN(value) ? '-' : !Number.isFinite(value) ? 'n/a' : Math.abs(value) >= 100 ? value.toFixed(0) : value.toFixed(2));

/** A part's comparison as lines of text: A and B (medians of their runs), B/A (rounds), the verdict. */
export function comparisonRows(part: string, compared: readonly Compared[]): string[] {
  const width = Math.max(...compared.map((figure) => figure.name.length), 10);
  return [
    `${part}: ${compared[0]?.a.length ?? 0} rounds (A B A B …); A and B the median of their runs, B/A the median round`,
    `  ${'figure'.padEnd(width)}  ${'A'.padStart(11)}  ${'B'.padStart(11)}  ${'B/A'.padStart(6)}  (rounds)`,
    ...compared.map((figure) => {
      const withUnit = (value: number) => `${figureText(value)}${figure.unit === '' ? '' : ` ${figure.unit}`}`.padStart(11);
      const rounds = figure.roundRatios.map((ratio) => figureText(ratio)).join(', ');
      return `  ${figure.name.padEnd(width)}  ${withUnit(median(figure.a))}  ${withUnit(median(figure.b))}  ${figureText(figure.ratio).padStart(6)}  (${rounds})  ${figure.better} is better: ${verdict(figure)}`;
    }),
  ];
}

/** The e2e part's knobs in a comparison, each unless set: 300/s for 20 s after 10 s of warm-up (past the SQLite WAL's growth, about 6 s at 300/s). */
export const E2E_AGAINST_DEFAULTS: Record<string, string> = {
  E2E_RATE: process.env.E2E_RATE ?? '300',
  E2E_DURATION_S: process.env.E2E_DURATION_S ?? '20',
  E2E_WARM_UP_S: process.env.E2E_WARM_UP_S ?? '10',
};

/** How each part is run: its script in dist/bench, the environment it needs, its figures. */
const PARTS: Record<AgainstPart, { readonly script: string; readonly env: Record<string, string>; readonly figures: (json: unknown) => Figure[] }> = {
  cpu: { script: 'cpu-cost.js', env: {}, figures: (json) => cpuFigures(json as CpuCostFigures) },
  // The latency half unless ID_ONLY asks otherwise: the soak takes minutes and measures memory, not cost per lookup.
  identifiers: { script: 'identifier-determination.js', env: { ID_ONLY: process.env.ID_ONLY ?? 'latency' }, figures: (json) => identifierFigures(json as IdentifierFigures) },
  // A rate the machine carries, so CPU and commits per transfer are not an overload's; shorter than
  // e2e.ts's defaults (a round, one run of each build, about 1.5 minutes), its own knobs override.
  e2e: { script: 'e2e.js', env: E2E_AGAINST_DEFAULTS, figures: (json) => e2eFigures(json as E2eFigures) },
};

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const SETTLE_MS = 5_000;

function git(args: readonly string[]): string {
  const result = spawnSync('git', args, { cwd: REPO, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${result.stderr.trim()}`);
  return result.stdout.trim();
}

/** The command running now (a build or a part), in a process group of its own with everything it started. */
let running: ChildProcess | undefined;

/**
 * Stops what runs now, its services and stand-ins with it, when this process exits before it
 * ended (a failure or a signal): they would outlive the run, and keep writing into the worktree.
 */
process.once('exit', () => {
  if (running?.pid !== undefined && running.exitCode === null && running.signalCode === null) {
    try {
      process.kill(-running.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

/** Runs `command` in `cwd`, its output going to stderr (the comparison's table alone goes to stdout). */
async function run(command: string, args: readonly string[], cwd: string, env: Record<string, string> = {}): Promise<void> {
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', process.stderr, process.stderr], detached: true });
  running = child;
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} (in ${cwd}) exited with ${code}`);
}

/**
 * A worktree of `commit` under the temp directory, its dependencies in place and its service
 * compiled; `remove` takes it away (also called when this process exits, so an interrupted run
 * leaves no worktree registered). node_modules is a link to this checkout's when the two
 * package-lock.json are the same, otherwise `npm ci` installs the ref's own.
 */
async function scratchBuild(commit: string): Promise<{ readonly root: string; readonly dependencies: string; remove(): void }> {
  const scratch = mkdtempSync(join(tmpdir(), 'regpay-against-'));
  const root = join(scratch, 'tree');
  let removed = false;
  const remove = () => {
    if (removed) return;
    removed = true;
    spawnSync('git', ['worktree', 'remove', '--force', root], { cwd: REPO });
    rmSync(scratch, { recursive: true, force: true });
    spawnSync('git', ['worktree', 'prune'], { cwd: REPO });
  };
  process.once('exit', remove);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(signal === 'SIGINT' ? 130 : 143));
  try {
    git(['worktree', 'add', '--detach', root, commit]);
    const sameLock = readFileSync(join(REPO, 'package-lock.json'), 'utf8') === readFileSync(join(root, 'package-lock.json'), 'utf8');
    if (sameLock) symlinkSync(realpathSync(join(REPO, 'node_modules')), join(root, 'node_modules'), 'dir');
    else await run('npm', ['ci', '--no-audit', '--no-fund'], root);
    // Only the service is needed (the bench scripts are this build's): src/ alone, where tsconfig.json puts it (dist/src).
    writeFileSync(join(root, 'tsconfig.against.json'), JSON.stringify({ extends: './tsconfig.json', include: ['src'] }));
    await run(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.against.json'], root);
    return { root, dependencies: sameLock ? 'node_modules linked (package-lock.json identical)' : 'npm ci (package-lock.json differs)', remove };
  } catch (error) {
    remove();
    throw error;
  }
}

/** Writes out the previous run's dirty pages and waits, as the runner does before each part (run.ts, settle()). */
async function settle(): Promise<void> {
  spawnSync('sync');
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
}

/** One run of a part against the build at `root`: its figures. */
async function runPart(part: AgainstPart, root: string): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'regpay-against-figures-'));
  try {
    const out = join(dir, 'figures.json');
    const { script, env, figures } = PARTS[part];
    await run(process.execPath, ['--enable-source-maps', join(REPO, 'dist', 'bench', script)], REPO, { ...env, BENCH_BUILD_ROOT: root, BENCH_FIGURES_OUT: out });
    return figures(JSON.parse(readFileSync(out, 'utf8')) as unknown);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The whole comparison: builds `ref`, runs `parts` alternately on both builds, returns the table's lines (also written to bench/results/against.json). */
export async function runAgainst(ref: string, parts: readonly AgainstPart[], rounds: number): Promise<string[]> {
  const order = alternation(rounds);
  const commit = git(['rev-parse', '--verify', `${ref}^{commit}`]);
  const head = git(['rev-parse', 'HEAD']);
  const dirty = git(['status', '--porcelain', '--untracked-files=no']) !== '';
  process.stderr.write(`building ${ref} (${commit.slice(0, 12)}) in a scratch worktree\n`);
  const b = await scratchBuild(commit);
  try {
    const results: { part: AgainstPart; compared: Compared[] }[] = [];
    for (const part of parts) {
      const runs: { build: Build; figures: Figure[] }[] = [];
      for (const [index, build] of order.entries()) {
        process.stderr.write(`\n${part}, build ${build}, round ${Math.floor(index / 2) + 1} of ${rounds}\n`);
        await settle();
        runs.push({ build, figures: await runPart(part, build === 'A' ? REPO : b.root) });
      }
      results.push({ part, compared: compare(runs) });
    }
    const lines = [
      `A: this build (${head.slice(0, 12)}${dirty ? ' with uncommitted changes' : ''}); B: ${ref} (${commit.slice(0, 12)}; ${b.dependencies})`,
      ...results.flatMap(({ part, compared }) => comparisonRows(part, compared)),
    ];
    const resultsDir = join(REPO, 'bench', 'results');
    mkdirSync(resultsDir, { recursive: true });
    writeFileSync(join(resultsDir, 'against.json'), JSON.stringify({ at: new Date().toISOString(), a: head, b: commit, ref, rounds, results }, null, 2));
    return lines;
  } finally {
    b.remove();
  }
}
