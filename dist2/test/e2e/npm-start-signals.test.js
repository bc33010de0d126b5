import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { tracked } from '../support/children.js';
import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, writeTestConfig } from '../support/server.js';
/**
 * `npm start` must hand a SIGTERM to the service, so its graceful shutdown runs and the port is
 * released (a supervisor or `docker stop` signals the npm process, not node). The start script
 * is run exactly as package.json writes it, by npm, through its shell, with its nested
 * `npm run build --silent`; only the body of the build script is a no-op here (the compiled tree
 * is the one this test runs from, linked in), since compiling takes a minute and would rewrite
 * dist/ under the tests running beside this one.
 */
const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const START_SCRIPT = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).scripts['start'] ?? '';
/** A generous bound for a two-core machine shared with other work; the service's own grace period is 10 s. */
const EXIT_WITHIN_MS = 30_000;
function alive(pid) {
    try {
        process.kill(pid, 0);
        return true;
    }
    catch (error) {
        return error.code !== 'ESRCH';
    }
}
async function portRefuses(port) {
    return new Promise((resolve) => {
        const socket = connect({ host: '127.0.0.1', port });
        socket.once('connect', () => {
            socket.destroy();
            resolve(false);
        });
        socket.once('error', (error) => resolve(error.code === 'ECONNREFUSED'));
    });
}
void describe('npm start', () => {
    let npm;
    after(() => {
        // Whatever happened, nothing of this test outlives it: npm was started as a process group of
        // its own, which a service left behind by npm (the failure this test is about) is still in.
        if (npm?.pid === undefined)
            return;
        try {
            process.kill(-npm.pid, 'SIGKILL');
        }
        catch (error) {
            if (error.code !== 'ESRCH')
                throw error;
        }
    });
    void it('builds, then execs the service in place of its shell', () => {
        assert.match(START_SCRIPT, /^npm run build --silent && exec node .*dist\/src\/main\.js$/);
    });
    void it('passes SIGTERM to the service: it shuts down gracefully, releases its port and exits, and npm exits', async () => {
        const dir = mkdtempSync(join(tmpdir(), 'regpay-npm-start-'));
        writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'regpay-npm-start', private: true, type: 'module', scripts: { start: START_SCRIPT, build: 'true' } }, null, 2));
        symlinkSync(join(REPO, 'dist'), join(dir, 'dist'));
        const configPath = writeTestConfig({ database: `sqlite:${join(dir, 'regpay.db')}` });
        const port = await freePort();
        npm = tracked(spawn('npm', ['start', '--', '--config', configPath], {
            cwd: dir,
            env: { ...process.env, PORT: String(port) },
            stdio: ['ignore', 'pipe', 'pipe'],
            detached: true,
        }));
        let output = '';
        npm.stdout?.on('data', (chunk) => (output += chunk.toString()));
        npm.stderr?.on('data', (chunk) => (output += chunk.toString()));
        const npmExited = new Promise((resolve, reject) => {
            npm?.once('error', reject);
            npm?.once('exit', (code, signal) => resolve({ code, signal }));
        });
        const readyBy = Date.now() + 60_000;
        for (;;) {
            if (npm.exitCode !== null)
                assert.fail(`npm start exited before the service was ready:\n${output}`);
            if (Date.now() > readyBy)
                assert.fail(`the service was not ready within 60 s:\n${output}`);
            const ready = await fetch(`http://127.0.0.1:${port}/health/ready`).then((response) => response.status === 200, () => false);
            if (ready)
                break;
            await new Promise((resolve) => setTimeout(resolve, 100));
        }
        // The service's JSON log names its process: with exec it is npm's own child, no shell between them.
        const servicePid = Number(/"pid":(\d+)/.exec(output)?.[1]);
        assert.ok(servicePid > 0 && servicePid !== npm.pid, `the service logged its pid:\n${output}`);
        assert.ok(alive(servicePid));
        const signalledAt = Date.now();
        npm.kill('SIGTERM');
        const exited = await Promise.race([npmExited, new Promise((resolve) => setTimeout(() => resolve(undefined), EXIT_WITHIN_MS))]);
        assert.ok(exited !== undefined, `npm start still running ${EXIT_WITHIN_MS} ms after SIGTERM:\n${output}`);
        const goneBy = Date.now() + 5_000;
        while (alive(servicePid) && Date.now() < goneBy)
            await new Promise((resolve) => setTimeout(resolve, 50));
        assert.equal(alive(servicePid), false, `the service (pid ${servicePid}) exited too, not left running without npm`);
        assert.equal(await portRefuses(port), true, `port ${port} is released`);
        assert.ok(Date.now() - signalledAt < EXIT_WITHIN_MS);
        assert.match(output, /"signal":"SIGTERM".*"msg":"shutting down: no new requests, finishing in-flight work"/, 'the graceful shutdown ran');
        assert.doesNotMatch(output, /shutdown grace period over|shutdown failed/, 'and finished within its grace period');
    });
});
//# sourceMappingURL=npm-start-signals.test.js.map