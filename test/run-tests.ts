/**
 * `npm test`: run every compiled `*.test.js` under dist/test with node:test, against a real
 * PostgreSQL. Without DATABASE_URL an embedded server is started for the run and always stopped
 * and deleted afterwards (also on failure, SIGINT or SIGTERM). Exits with the test run's code.
 *
 * Test files are listed explicitly: given a directory, Node 20's runner also executes every other
 * .js file below a `test` folder (this runner, support modules), not just `*.test.js`.
 * Extra arguments replace the file list, e.g. `node dist/test/run-tests.js dist/test/contract/store-sqlite.test.js`.
 *
 * Invariant: a run reports the verdict of every test of every file, or fails naming the file.
 * - Each file's process ends on its own, once its event loop is empty: its report reaches
 *   `node --test` whole, since a write still pending on the pipe keeps the loop alive. No
 *   `--test-force-exit`: on Node 20 it makes each file's process (and `node --test` itself) call
 *   process.exit() as soon as its tests are done, and what is still queued for a reader that has
 *   not caught up (a busy machine) is lost, while the file counts as passed.
 * - A file that does not end (a handle left open, a test that never settles) fails, named, once it
 *   has run for the file timeout: `--test-timeout` given to `node --test` bounds each file's run as
 *   a whole. node:test then kills the file's process with SIGTERM, which takes the file's child
 *   processes with it (support/children.ts).
 * - Nothing in a test file calls process.exit(): that would cut its report short in the same way.
 * TEST_FILE_TIMEOUT_MS in the environment replaces FILE_TIMEOUT_MS_DEFAULT (a slower machine, a test of this runner).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { constants } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmbeddedPostgres, type RunningPostgres } from './support/postgres.js';

const TEST_CONCURRENCY = 2;
/** Longer than any file takes on a loaded machine: only a file that would never end reaches it. */
const FILE_TIMEOUT_MS_DEFAULT = 600_000;
const testRoot = fileURLToPath(new URL('.', import.meta.url));

function testFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== 'node_modules') found.push(...testFiles(path));
    else if (entry.isFile() && entry.name.endsWith('.test.js')) found.push(path);
  }
  return found.sort();
}

async function main(): Promise<number> {
  const files = process.argv.length > 2 ? process.argv.slice(2) : testFiles(testRoot);
  if (files.length === 0) {
    process.stderr.write(`no *.test.js files under ${testRoot}\n`);
    return 1;
  }
  const fileTimeoutMs = Number(process.env.TEST_FILE_TIMEOUT_MS ?? FILE_TIMEOUT_MS_DEFAULT);
  if (!Number.isSafeInteger(fileTimeoutMs) || fileTimeoutMs <= 0) {
    process.stderr.write(`TEST_FILE_TIMEOUT_MS must be a positive whole number of milliseconds, not ${process.env.TEST_FILE_TIMEOUT_MS}\n`);
    return 1;
  }

  // A stop request is passed on to the tests once they run; before that it only cancels the run.
  // Either way the finally below stops and deletes PostgreSQL.
  let child: ChildProcess | undefined;
  let interrupted: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals): void => {
    interrupted = signal;
    child?.kill(signal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  let postgres: RunningPostgres | undefined;
  try {
    let databaseUrl = process.env.DATABASE_URL;
    if (!databaseUrl) {
      postgres = await startEmbeddedPostgres();
      databaseUrl = postgres.url;
      process.stderr.write(`embedded PostgreSQL started on ${new URL(databaseUrl).host} in ${postgres.startMs.toFixed(0)} ms\n`);
    }
    if (interrupted) return signalExitCode(interrupted);
    const running = spawn(process.execPath, ['--enable-source-maps', '--test', `--test-concurrency=${TEST_CONCURRENCY}`, `--test-timeout=${fileTimeoutMs}`, ...files], {
      stdio: 'inherit',
      env: { ...process.env, DATABASE_URL: databaseUrl },
    });
    child = running;
    return await new Promise<number>((resolve, reject) => {
      running.on('error', reject);
      running.on('exit', (code, signal) => resolve(code ?? signalExitCode(signal ?? 'SIGTERM')));
    });
  } finally {
    await postgres?.stop();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

function signalExitCode(signal: NodeJS.Signals): number {
  return 128 + constants.signals[signal];
}

// Exit explicitly with the run's code: nothing left on the event loop may decide it.
main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
