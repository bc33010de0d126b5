/**
 * `npm run mutate [-- module ...]`: mutation testing (StrykerJS) of the modules that carry the
 * service's invariants, each against its own unit and contract tests (docs/simulation.md,
 * "Mutation testing"). Run by hand, not by .ci/run.
 *
 * Each module is one Stryker run: Stryker copies the project into .stryker-tmp, writes every
 * mutant of the module's TypeScript sources into them at once (mutant switching), compiles the
 * sandbox once with tsc, then runs the module's test files with node once per mutant,
 * the mutant chosen by an environment variable. One mutant at a time (concurrency 1: the
 * machines are shared). Reports go to reports/mutation/<module>.{json,html}; the last lines
 * printed are the score of each module, its surviving mutants, and the run's duration.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

interface MutatedModule {
  readonly name: string;
  /** Stryker `mutate` patterns: TypeScript sources, optionally `file:startLine-endLine`. */
  readonly mutate: readonly string[];
  /** Compiled test files (dist/…) run against every mutant. */
  readonly tests: readonly string[];
  /** A name that runs this module together with the others of its group. */
  readonly group?: string;
}

/** The machine files of src/domain/machines, each with its unit test `test/unit/<machine>-machine.test.ts`. */
const MACHINES = ['credit-transfer', 'identifier-determination', 'request-to-pay', 'inbound', 'inbound-request-to-pay'];
const machineTest = (machine: string): string => `dist/test/unit/${machine}-machine.test.js`;

/**
 * What is mutated, and by which tests. A module's tests are the unit and contract tests of its
 * invariant; e2e tests only where the behaviour is the bytes on the wire (the sender's signature,
 * against a receiver in the same process).
 */
export const MUTATED_MODULES: readonly MutatedModule[] = [
  { name: 'money', mutate: ['src/lib/money.ts'], tests: ['dist/test/unit/money.test.js'] },
  {
    name: 'duplicates',
    mutate: ['src/lib/canonical-json.ts', 'src/app/stored-message.ts'],
    tests: ['dist/test/unit/stored-message.test.js'],
  },
  // The address logic of the allowlist (parsing, blocks, X-Forwarded-For); the hooks that hold
  // connections are the e2e tests' (auth-allowlist, connection-gate).
  { name: 'allowlist', mutate: ['src/http/plugins/allowlist.ts:55-145'], tests: ['dist/test/unit/allowlist.test.js'] },
  { name: 'tokens', mutate: ['src/adapters/tokens/jose-tokens.ts'], tests: ['dist/test/unit/access-tokens.test.js'] },
  { name: 'signatures', mutate: ['src/lib/webhook-signature.ts'], tests: ['dist/test/e2e/delivery-sender.test.js'] },
  { name: 'proxy-link', mutate: ['src/app/proxy-link.ts'], tests: ['dist/test/unit/proxy-link.test.js'] },
  // The machines, one module per machine file (each against its own test, so each can be run
  // alone: `npm run mutate -- machines` runs them all), and what they share against all five.
  ...MACHINES.map((machine) => ({ name: `machines-${machine}`, group: 'machines', mutate: [`src/domain/machines/${machine}.ts`], tests: [machineTest(machine)] })),
  {
    name: 'machines-shared',
    group: 'machines',
    mutate: ['src/domain/machines/machine.ts', 'src/domain/machines/registry.ts'],
    tests: MACHINES.map(machineTest),
  },
];

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const REPORTS = join(ROOT, 'reports', 'mutation');
const TEMP = '.stryker-tmp';

/**
 * One test file runs in the process that loads it (node:test runs it on load, and exits 1 when a
 * test fails): `node --test` would start a second process per mutant, about 0.4 s of each 1 s.
 */
function testCommand(tests: readonly string[]): string {
  return tests.length === 1 ? `node --test-force-exit ${tests[0]}` : `node --test --test-force-exit --test-concurrency=1 ${tests.join(' ')}`;
}

function strykerConfig(module: MutatedModule): Record<string, unknown> {
  return {
    testRunner: 'command',
    commandRunner: { command: testCommand(module.tests) },
    buildCommand: 'npx tsc -p tsconfig.json',
    mutate: module.mutate,
    concurrency: 1,
    coverageAnalysis: 'off',
    // A mutant that hangs a test is killed as a timeout: the initial run's time, twice, plus 10 s.
    timeoutFactor: 2,
    timeoutMS: 10_000,
    reporters: ['clear-text', 'progress-append-only', 'json', 'html'],
    jsonReporter: { fileName: `reports/mutation/${module.name}.json` },
    htmlReporter: { fileName: `reports/mutation/${module.name}.html` },
    tempDirName: TEMP,
    cleanTempDir: true,
    ignorePatterns: ['dist', 'data', 'reports', 'bench/results', 'console/dist', '.pg-test', '*.db', '*.db-wal', '*.db-shm'],
    thresholds: { high: 100, low: 90, break: null },
  };
}

interface ReportMutant {
  readonly mutatorName: string;
  readonly replacement?: string;
  readonly status: string;
  readonly location: { readonly start: { readonly line: number; readonly column: number } };
}

interface Score {
  readonly name: string;
  readonly mutants: number;
  readonly killed: number;
  readonly survived: readonly string[];
  readonly seconds: number;
}

function score(module: MutatedModule, seconds: number): Score {
  const report = JSON.parse(readFileSync(join(REPORTS, `${module.name}.json`), 'utf8')) as { files: Record<string, { mutants: ReportMutant[] }> };
  let mutants = 0;
  let killed = 0;
  const survived: string[] = [];
  for (const [file, { mutants: found }] of Object.entries(report.files)) {
    for (const mutant of found) {
      if (mutant.status === 'CompileError' || mutant.status === 'Ignored') continue;
      mutants += 1;
      if (mutant.status === 'Killed' || mutant.status === 'Timeout') killed += 1;
      else survived.push(`${file}:${mutant.location.start.line}:${mutant.location.start.column} ${mutant.mutatorName} -> ${(mutant.replacement ?? '').replace(/\s+/g, ' ').slice(0, 80)} (${mutant.status})`);
    }
  }
  return { name: module.name, mutants, killed, survived, seconds };
}

function main(): number {
  const asked = process.argv.slice(2);
  const named = (module: MutatedModule): boolean => asked.includes(module.name) || (module.group !== undefined && asked.includes(module.group));
  const unknown = asked.filter((name) => !MUTATED_MODULES.some((module) => module.name === name || module.group === name));
  if (unknown.length > 0) {
    process.stderr.write(`unknown module ${unknown.join(', ')}; known: ${[...new Set(MUTATED_MODULES.flatMap((module) => [module.name, ...(module.group === undefined ? [] : [module.group])]))].join(', ')}\n`);
    return 2;
  }
  const modules = asked.length === 0 ? MUTATED_MODULES : MUTATED_MODULES.filter(named);
  mkdirSync(join(ROOT, TEMP), { recursive: true });
  const scores: Score[] = [];
  const started = Date.now();
  for (const module of modules) {
    const configFile = join(TEMP, `${module.name}.config.json`);
    writeFileSync(join(ROOT, configFile), JSON.stringify(strykerConfig(module), null, 2));
    process.stdout.write(`\n== ${module.name}: ${module.mutate.join(' ')}\n`);
    const moduleStarted = Date.now();
    const run = spawnSync('npx', ['stryker', 'run', configFile], { cwd: ROOT, stdio: 'inherit' });
    if (run.status !== 0) {
      process.stderr.write(`stryker failed on ${module.name} (exit ${run.status ?? run.signal})\n`);
      return 1;
    }
    scores.push(score(module, (Date.now() - moduleStarted) / 1000));
  }
  const width = Math.max('module'.length, ...scores.map((each) => each.name.length));
  process.stdout.write(`\n${'module'.padEnd(width)} score    killed/mutants  survived  seconds\n`);
  for (const each of scores) {
    const percent = each.mutants === 0 ? 100 : (100 * each.killed) / each.mutants;
    process.stdout.write(`${each.name.padEnd(width)} ${percent.toFixed(1).padStart(5)} %  ${`${each.killed}/${each.mutants}`.padStart(14)}  ${String(each.survived.length).padStart(8)}  ${each.seconds.toFixed(0).padStart(7)}\n`);
  }
  for (const each of scores) for (const survivor of each.survived) process.stdout.write(`survived ${survivor}\n`);
  process.stdout.write(`total ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
  return 0;
}

process.exitCode = main();
