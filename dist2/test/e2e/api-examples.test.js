import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { tracked } from '../support/children.js';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openStore } from '../../src/adapters/store.js';
import { newPassword, newWebhookSecret } from '../../src/cli/secret-commands.js';
import { answerUetr, docExamples, examplesOutput, examplesScript, finalStatus, requireCurl } from '../support/doc-examples.js';
import { startDemo, startServer } from '../support/server.js';
/**
 * docs/api.md's examples, run as a reader runs them: `npm start`'s zero-config demo is started
 * (in a directory of its own, on a free port), the `export` line it prints is pasted into one bash
 * shell, and every marked example is run there in order with curl. Each must answer the status
 * its `# expect:` line documents, contain what its `# expect in answer:` lines say, and be
 * followed by the callbacks its `# then:` lines name (read from the service's outbox, the same
 * way for the demo, whose inbox is the service itself, and for examples/regpay.yaml, whose
 * receiver on port 9090 is usually not listening). The same run is repeated against the
 * service started with examples/regpay.yaml, which docs/api.md says they also run against.
 */
const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const API_DOC = join(REPO, 'docs/api.md');
const { examples: allExamples, unmarkedCurlLines } = docExamples(readFileSync(API_DOC, 'utf8'));
/** Ample for a busy two-core machine: the slowest example is a sync determination answered in about 50 ms. */
const SCRIPT_TIMEOUT_MS = 240_000;
const CALLBACK_WAIT_MS = 60_000;
const KIND_OF_CALLBACK = [
    ['credit-transfer-response', 'CREDIT_TRANSFER'],
    ['identifier-determination-report', 'IDENTIFIER_DETERMINATION'],
    ['request-to-pay-response', 'REQUEST_TO_PAY'],
    ['cancellation-response', 'REQUEST_TO_PAY'],
    ['credit-transfer-completion', 'INBOUND_CREDIT_TRANSFER'],
];
function describeCallback(then) {
    return `${then.count > 1 ? `${then.count} × ` : ''}${then.pathSuffix}${then.text === undefined ? '' : ` ${then.text}`}`;
}
function named(example) {
    return `docs/api.md:${example.line}`;
}
async function runBash(script, cwd) {
    const path = join(cwd, 'examples.sh');
    writeFileSync(path, script);
    // The reader's shell: nothing of this process's REGPAY_* settings leaks in; the pasted line sets them.
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('REGPAY_')));
    const child = tracked(spawn('bash', [path], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] }));
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk.toString()));
    child.stderr.on('data', (chunk) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), SCRIPT_TIMEOUT_MS);
    const code = await new Promise((resolve, reject) => {
        child.once('error', reject);
        child.once('exit', (exitCode) => resolve(exitCode));
    });
    clearTimeout(timer);
    assert.notEqual(code, null, `the examples did not finish within ${SCRIPT_TIMEOUT_MS} ms:\n${output}`);
    return output;
}
void describe('docs/api.md examples', () => {
    void it('marks every curl command of docs/api.md with what it answers', () => {
        assert.deepEqual(unmarkedCurlLines, [], 'each ```sh block with curl starts with "# expect: <status>" or "# run"');
    });
    void it('has an example for every operation, the token endpoint and every scheme', () => {
        const expecting = allExamples.filter((example) => example.kind === 'expect').map((example) => example.script);
        const paths = [
            '/oauth/token',
            '/api/v1/transactions/outbound/credit-transfer"',
            '/api/v1/transactions/outbound/credit-transfer/status-request"',
            '/api/v1/identifiers/outbound/identifier-determination"',
            '/api/v1/identifiers/identifier-determination"',
            '/api/v1/transactions/outbound/request-to-pay"',
            '/api/v1/transactions/outbound/request-to-pay/status-request"',
            '/api/v1/transactions/outbound/request-to-pay/cancellation-request"',
            '/api/v1/transactions/inbound/credit-transfer-authorisation-response"',
            '/api/v1/identifiers/inbound/identifier-determination-report"',
            '/admin/v1/simulator/inbound"',
        ];
        for (const path of paths)
            assert.ok(expecting.some((script) => script.includes(path)), `an example calls ${path}`);
        const transfers = expecting.filter((script) => script.includes('"schema": "CreditTransfer"'));
        for (const scheme of ['ZA_RPP', 'ZA_RTC', 'ZA_EFT', 'ZA_AC', 'ZA_RMS', 'CBPR_PLUS', 'TCIB']) {
            assert.ok(transfers.some((script) => script.includes(`"paymentScheme": { "schema": "${scheme}"`) || script.includes(`"schema": "${scheme}",\n`)), `a credit transfer on ${scheme}`);
        }
        assert.ok(transfers.some((script) => script.includes('"schemeData": { "chargeBearer"')), 'CBPR_PLUS with its schemeData');
        assert.ok(expecting.some((script) => script.includes('prefer: respond-async')), 'an async identifier determination');
    });
});
function examplesAgainst(title, start, demo) {
    // A `# demo only` example needs the demo's inbox answering as the receiving bank; elsewhere it is not part of the run.
    const examples = allExamples.filter((example) => demo || !example.demoOnly);
    void describe(`docs/api.md examples against ${title}`, () => {
        let server;
        let store;
        let outputs = [];
        before(async () => {
            requireCurl();
            const cwd = mkdtempSync(join(tmpdir(), 'regpay-api-examples-'));
            const target = await start(cwd);
            server = target.server;
            const output = await runBash(examplesScript(target.exportLine, examples), cwd);
            outputs = examplesOutput(output, examples.length);
            // Both targets keep their database at ./data/regpay.db under the directory they run in.
            store = await openStore(`sqlite:${join(cwd, 'data', 'regpay.db')}`);
        });
        after(async () => {
            await store?.close();
            const code = await server?.stop();
            assert.equal(code, 0, 'the service shuts down cleanly on SIGTERM');
        });
        for (const [index, example] of examples.entries()) {
            const title = example.kind === 'run'
                ? `${named(example)}: the setup step runs`
                : `${named(example)}: answers ${example.status ?? '?'}${example.then.map((then) => `, then ${describeCallback(then)}`).join('')}`;
            void it(title, async () => {
                const result = outputs[index];
                assert.ok(result !== undefined && result.exitCode !== undefined, `the example ran to its end:\n${example.script}\n--- output:\n${result?.text ?? ''}`);
                const context = `\n--- example:\n${example.script}\n--- output:\n${result.text}`;
                if (example.kind === 'run') {
                    assert.equal(result.exitCode, 0, `the setup step exits 0${context}`);
                    return;
                }
                assert.equal(finalStatus(result.text), example.status, `the documented status${context}`);
                for (const text of example.answerContains)
                    assert.ok(result.text.includes(text), `the answer contains ${text}${context}`);
                const uetr = example.uetr ?? answerUetr(result.text);
                for (const then of example.then)
                    await assertCallback(example, uetr, then);
            });
        }
        async function assertCallback(example, uetr, then) {
            const kind = KIND_OF_CALLBACK.find(([suffix]) => then.pathSuffix.endsWith(suffix))?.[1];
            assert.ok(kind !== undefined && uetr !== undefined, `${named(example)}: "# then:" names a known callback and the block or its answer a uetr`);
            const deadline = Date.now() + CALLBACK_WAIT_MS;
            let bodies = [];
            for (;;) {
                const transaction = await store.findTransaction('demo-bank', uetr, kind);
                if (transaction !== undefined) {
                    bodies = (await store.outbox(transaction.id)).filter((row) => row.channel === 'callback' && row.url.endsWith(`/${then.pathSuffix}`)).map((row) => row.body);
                    const text = then.text;
                    if (bodies.length >= then.count && (text === undefined || bodies.some((body) => body.includes(`"${text}"`))))
                        return;
                }
                if (Date.now() > deadline)
                    assert.fail(`${named(example)}: not ${describeCallback(then)} within ${CALLBACK_WAIT_MS} ms; callbacks: ${JSON.stringify(bodies)}`);
                await new Promise((resolve) => setTimeout(resolve, 200));
            }
        }
    });
}
// No --config and no REGPAY_CONFIG: the demo; the line it prints is what the reader pastes.
examplesAgainst('the zero-config demo', async (cwd) => {
    const { server, exportLine } = await startDemo(cwd, { REGPAY_CONFIG: '' });
    return { server, exportLine };
}, true);
// examples/regpay.yaml is the demo written out: the same examples run against it, given the secrets it reads.
examplesAgainst('examples/regpay.yaml', async (cwd) => {
    const env = { REGPAY_PASSWORD: newPassword(), REGPAY_CLIENT_SECRET: newPassword(), REGPAY_WEBHOOK_SECRET: newWebhookSecret(), REGPAY_ADMIN_PASSWORD: newPassword() };
    const server = await startServer({ cwd, configPath: join(REPO, 'examples/regpay.yaml'), env });
    return { server, exportLine: `export REGPAY_URL=${server.url} REGPAY_PASSWORD='${env.REGPAY_PASSWORD}' REGPAY_CLIENT_SECRET='${env.REGPAY_CLIENT_SECRET}'` };
}, false);
//# sourceMappingURL=api-examples.test.js.map