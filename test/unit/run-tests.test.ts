import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

/** `npm test`'s runner (test/run-tests.ts), run on the test files in test/fixtures/runner/. */
const RUNNER = fileURLToPath(new URL('../run-tests.js', import.meta.url));
const fixture = (name: string): string => fileURLToPath(new URL(`../fixtures/runner/${name}.js`, import.meta.url));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runTests(files: readonly string[], env: Record<string, string> = {}): Promise<Run> {
  // The fixtures need no database; NODE_TEST_CONTEXT would make the inner `node --test` skip its files.
  const { NODE_TEST_CONTEXT: _, ...outer } = process.env;
  const child = spawn(process.execPath, [RUNNER, ...files], {
    env: { ...outer, DATABASE_URL: 'postgres://unused.invalid/', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A count from the run's summary, as the tap (piped) or spec (terminal) reporter prints it. */
function summaryCount(run: Run, name: string): number | undefined {
  const match = new RegExp(`^(?:# |ℹ )${name} (\\d+)$`, 'm').exec(run.stdout);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

/** Whether the process runs: a killed child whose parent is gone may stay a zombie (pid 1 need not reap it). */
function isRunning(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

void describe('the test runner (npm test)', () => {
  void it('reports the verdict of every test of a file whose last verdict is still queued for the runner when its tests are done', async () => {
    const run = await runTests([fixture('last-verdict-behind-a-stalled-runner')]);
    const tail = run.stdout.slice(-3_000);
    assert.equal(run.code, 0, run.stderr);
    assert.match(tail, /^(?:ok \d+ - |✔ )stops the runner reading this file/m, `the last test's verdict, in:\n${tail}`);
    assert.equal(summaryCount(run, 'tests'), 11, `the 10 tests before the stall and the one that stalls, in:\n${tail}`);
    assert.equal(summaryCount(run, 'pass'), 11);
  });

  void it('fails a file that does not end on its own once it has run for the time per file, naming it, and kills the processes it left running', async () => {
    const started = performance.now();
    const run = await runTests([fixture('handle-left-open')], { TEST_FILE_TIMEOUT_MS: '2000' });
    assert.notEqual(run.code, 0, 'the run fails');
    assert.ok(performance.now() - started < 30_000, 'it does not wait for the file to end');
    assert.match(run.stdout, /handle-left-open\.js/);
    assert.match(run.stdout, /test timed out after 2000ms/);
    assert.equal(summaryCount(run, 'cancelled'), 1, `the file, cut short:\n${run.stdout}`);
    const pid = Number(/child pid (\d+)/.exec(run.stdout)?.[1]);
    assert.ok(pid > 0, `the file told its child's pid:\n${run.stdout}`);
    for (let waitedMs = 0; isRunning(pid) && waitedMs < 5_000; waitedMs += 100) await sleep(100);
    assert.equal(isRunning(pid), false, 'the child process the file left running is gone');
  });
});
