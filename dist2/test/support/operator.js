import { spawn } from 'node:child_process';
import { tracked } from './children.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { linkPki } from './pki.js';
import { freePort } from './server.js';
/** The compiled entry point, as `npm run operator` runs it. */
const MAIN = fileURLToPath(new URL('../../src/operator/main.js', import.meta.url));
/**
 * The standalone operator simulator as its own process (`src/operator/main.ts`), on a port chosen
 * before it starts and kept across restarts, with its store in a temporary directory, so services
 * can be configured with its URL first and it can be killed and started again on the same state.
 */
export class OperatorProcess {
    port;
    storePath;
    configPath;
    #child;
    #exited = Promise.resolve(null);
    #output = '';
    constructor(port, dir, options) {
        this.port = port;
        this.storePath = join(dir, 'operator.db');
        this.configPath = join(dir, 'operator.json');
        const pki = linkPki();
        writeFileSync(this.configPath, JSON.stringify({
            listen: { host: '127.0.0.1', port },
            ...(options.controlPort === undefined ? {} : { control: { host: '127.0.0.1', port: options.controlPort } }),
            store: this.storePath,
            link: {
                caFile: pki.caFile,
                certFile: pki.operator.certFile,
                keyFile: pki.operator.keyFile,
                signingKeyFile: pki.operator.signing.privateFile,
                bankKeyFiles: [pki.bank.signing.publicFile],
                bankUrls: options.bankUrls,
                requestTimeoutMs: 5_000,
            },
            ...(options.schemes === undefined ? {} : { schemes: options.schemes }),
            delivery: { retryDelayMs: 100, retryDelayMaxMs: 1_000 },
        }));
    }
    static async start(options) {
        const operator = new OperatorProcess(await freePort(), mkdtempSync(join(tmpdir(), 'regpay-operator-')), options);
        await operator.up();
        return operator;
    }
    get url() {
        return `https://127.0.0.1:${this.port}`;
    }
    /** Everything the process wrote, for diagnosing a failed test. */
    output() {
        return this.#output;
    }
    /** (Re)start on the same port, configuration and store; resolves once it listens. */
    async up() {
        const child = tracked(spawn(process.execPath, ['--enable-source-maps', MAIN, '--config', this.configPath], { stdio: ['ignore', 'pipe', 'pipe'] }));
        this.#child = child;
        this.#exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
        // What this start prints: the output of an earlier start (before a restart) already says it listened.
        const startedAt = this.#output.length;
        await new Promise((resolve, reject) => {
            const deadline = setTimeout(() => reject(new Error(`operator simulator not listening within 30 s:\n${this.#output}`)), 30_000);
            const onData = (chunk) => {
                this.#output += chunk.toString();
                if (this.#output.slice(startedAt).includes('regpay operator simulator listening on')) {
                    clearTimeout(deadline);
                    resolve();
                }
            };
            child.stdout.on('data', onData);
            child.stderr.on('data', (chunk) => (this.#output += chunk.toString()));
            void this.#exited.then((code) => {
                clearTimeout(deadline);
                reject(new Error(`operator simulator exited with ${code} before it listened:\n${this.#output}`));
            });
        });
    }
    /** SIGTERM and wait for the exit code. */
    async stop() {
        if (this.#child?.exitCode === null)
            this.#child.kill('SIGTERM');
        return this.#exited;
    }
    /** kill -9: nothing flushed, nothing closed. */
    async kill9() {
        if (this.#child?.exitCode === null)
            this.#child.kill('SIGKILL');
        await this.#exited;
    }
}
/**
 * `schemes` entries of a service configuration sending each named scheme to the operator at
 * `operatorUrl` over the link, the operator's messages received on `inboundPort`.
 */
export function operatorLinkSchemes(operatorUrl, inboundPort, timeBudgetsMs, linkExtra = {}) {
    const pki = linkPki();
    const operatorLink = {
        url: operatorUrl,
        caFile: pki.caFile,
        certFile: pki.bank.certFile,
        keyFile: pki.bank.keyFile,
        signingKeyFile: pki.bank.signing.privateFile,
        operatorKeyFiles: [pki.operator.signing.publicFile],
        inbound: { host: '127.0.0.1', port: inboundPort },
        requestTimeoutMs: 5_000,
        ...linkExtra,
    };
    return Object.fromEntries(Object.entries(timeBudgetsMs).map(([scheme, timeBudgetMs]) => [scheme, { connector: 'operator-link', timeBudgetMs, operatorLink }]));
}
//# sourceMappingURL=operator.js.map