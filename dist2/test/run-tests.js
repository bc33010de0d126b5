/**
 * `npm test`: run every compiled `*.test.js` under dist/test with node:test, against a real
 * PostgreSQL. Without DATABASE_URL an embedded server is started for the run and always stopped
 * and deleted afterwards (also on failure, SIGINT or SIGTERM). Exits with the test run's code.
 *
 * Test files are listed explicitly: given a directory, Node 20's runner also executes every other
 * .js file below a `test` folder (this runner, support modules), not just `*.test.js`.
 * Extra arguments replace the file list, e.g. `node dist/test/run-tests.js dist/test/contract/store-sqlite.test.js`.
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { constants } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmbeddedPostgres } from './support/postgres.js';
const TEST_CONCURRENCY = 2;
const testRoot = fileURLToPath(new URL('.', import.meta.url));
function testFiles(dir) {
    const found = [];
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory() && entry.name !== 'node_modules')
            found.push(...testFiles(path));
        else if (entry.isFile() && entry.name.endsWith('.test.js'))
            found.push(path);
    }
    return found.sort();
}
async function main() {
    const files = process.argv.length > 2 ? process.argv.slice(2) : testFiles(testRoot);
    if (files.length === 0) {
        process.stderr.write(`no *.test.js files under ${testRoot}\n`);
        return 1;
    }
    // A stop request is passed on to the tests once they run; before that it only cancels the run.
    // Either way the finally below stops and deletes PostgreSQL.
    let child;
    let interrupted;
    const onSignal = (signal) => {
        interrupted = signal;
        child?.kill(signal);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    let postgres;
    try {
        let databaseUrl = process.env.DATABASE_URL;
        if (!databaseUrl) {
            postgres = await startEmbeddedPostgres();
            databaseUrl = postgres.url;
            process.stderr.write(`embedded PostgreSQL started on ${new URL(databaseUrl).host} in ${postgres.startMs.toFixed(0)} ms\n`);
        }
        if (interrupted)
            return signalExitCode(interrupted);
        // --test-force-exit: a file's process ends once its tests are done, even if a failed test left
        // a handle open; its child processes die with it (support/children.ts).
        const running = spawn(process.execPath, ['--enable-source-maps', '--test', '--test-force-exit', `--test-concurrency=${TEST_CONCURRENCY}`, ...files], {
            stdio: 'inherit',
            env: { ...process.env, DATABASE_URL: databaseUrl },
        });
        child = running;
        return await new Promise((resolve, reject) => {
            running.on('error', reject);
            running.on('exit', (code, signal) => resolve(code ?? signalExitCode(signal ?? 'SIGTERM')));
        });
    }
    finally {
        await postgres?.stop();
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
    }
}
function signalExitCode(signal) {
    return 128 + constants.signals[signal];
}
// Exit explicitly with the run's code: nothing left on the event loop may decide it.
main().then((code) => process.exit(code), (error) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
});
//# sourceMappingURL=run-tests.js.map