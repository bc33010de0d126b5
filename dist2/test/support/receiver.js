import { spawn } from 'node:child_process';
import { tracked } from './children.js';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './server.js';
const MAIN = fileURLToPath(new URL('./receiver-main.js', import.meta.url));
/** The integrator's side, as a separate process (test/support/receiver-main.ts). */
export class Receiver {
    port;
    file;
    #child;
    constructor(port, file) {
        this.port = port;
        this.file = file;
    }
    static async start(options = {}) {
        const receiver = new Receiver(await freePort(), join(mkdtempSync(join(tmpdir(), 'regpay-receiver-')), 'received.jsonl'));
        await receiver.up(options);
        return receiver;
    }
    get partnerApiUrl() {
        return `http://127.0.0.1:${this.port}/partner-api/v1`;
    }
    get eventsApiUrl() {
        return `http://127.0.0.1:${this.port}/events-api/v1`;
    }
    /** (Re)start listening on the same port. */
    async up(options = {}) {
        const child = tracked(spawn(process.execPath, [MAIN], {
            env: { ...process.env, PORT: String(this.port), RECEIVER_FILE: this.file, RECEIVER_FAIL_FIRST: String(options.failFirst ?? 0), RECEIVER_ANSWER_DELAY_MS: String(options.answerDelayMs ?? 0) },
            stdio: ['ignore', 'pipe', 'inherit'],
        }));
        this.#child = child;
        await new Promise((resolve, reject) => {
            child.once('exit', (code) => reject(new Error(`receiver exited with ${code}`)));
            child.stdout.once('data', () => resolve());
        });
    }
    /** Stop listening: the integrator is down. */
    async down() {
        const child = this.#child;
        if (child === undefined || child.exitCode !== null)
            return;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        await exited;
    }
    received() {
        if (!existsSync(this.file))
            return [];
        // The receiver may be appending right now: only lines already ended by a newline are whole.
        const lines = readFileSync(this.file, 'utf8').split('\n').slice(0, -1);
        return lines.filter((line) => line.length > 0).map((line) => JSON.parse(line));
    }
    /** Wait until `done(received)` holds, or fail after `timeoutMs` with what was received. */
    async waitFor(done, timeoutMs = 20_000) {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
            const received = this.received();
            if (done(received))
                return received;
            if (Date.now() > deadline)
                throw new Error(`receiver: condition not met within ${timeoutMs} ms; got ${received.length} messages`);
            await new Promise((resolve) => setTimeout(resolve, 50));
        }
    }
}
//# sourceMappingURL=receiver.js.map