import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { tracked } from '../support/children.js';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { creditTransfer } from '../fixtures/credit-transfer.js';
import { httpGet, rawRequest } from '../support/auth-app.js';
import { eventually } from '../support/delivery.js';
import { basicAuth, writeTestConfig } from '../support/server.js';
import { connections, open, startApp as start } from '../support/sockets.js';
/**
 * The allowlist decided on the connection (CONTRACT §5 and §7: a non-allowlisted client gets
 * nothing): real sockets against the whole application. The integrators are allowlisted on
 * 127.0.0.1; a client bound to 127.0.0.2 is a foreign address on the same loopback.
 */
const FOREIGN = '127.0.0.2';
const HALF_OPEN = 'POST /api/v1/transactions/outbound/credit-transfer HTTP/1.1\r\nHost: regpay.test\r\n';
void describe('allowlist on the connection', () => {
    void it('writes not a byte to a foreign address, for garbage, oversized headers or a half-open request, and closes it', async () => {
        const server = await start({ heldConnectionMs: 300 });
        try {
            const requests = ['GARBAGE\r\n\r\n', httpGet('/health/live', { 'x-filler': 'a'.repeat(64 * 1024) }), HALF_OPEN, httpGet('/health/live')];
            const exchanges = await Promise.all(requests.map((request) => rawRequest({ host: '127.0.0.1', port: server.port, request, localAddress: FOREIGN, timeoutMs: 10_000 })));
            for (const [index, exchange] of exchanges.entries()) {
                assert.equal(exchange.received, '', `request ${index} got an answer`);
                assert.ok(exchange.closedAfterMs >= 250, `request ${index} closed after ${exchange.closedAfterMs} ms, before the hold time`);
            }
        }
        finally {
            await server.close();
        }
    });
    void it('holds at most heldConnectionsMax foreign half-open connections, closes the rest at once, and keeps answering the allowlisted client and /health/live', async () => {
        const bound = 20;
        const server = await start({ heldConnectionMs: 60_000, heldConnectionsMax: bound });
        const foreign = [];
        try {
            let heldMax = 0;
            const sampler = setInterval(() => (heldMax = Math.max(heldMax, server.app.connectionHolder.size)), 5);
            try {
                for (let batch = 0; batch < 10; batch += 1) {
                    foreign.push(...(await Promise.all(Array.from({ length: 30 }, () => open(server.port, FOREIGN, HALF_OPEN)))));
                }
                await eventually(() => foreign.filter((watched) => watched.closed()).length === foreign.length - bound, 'every foreign connection beyond the bound is closed', 20_000);
                assert.ok((await connections(server.app)) <= bound, `the server keeps ${await connections(server.app)} connections`);
                const health = await fetch(`${server.url}/health/live`);
                assert.equal(health.status, 200);
                const transfer = await fetch(`${server.url}/api/v1/transactions/outbound/credit-transfer`, {
                    method: 'POST',
                    headers: { 'content-type': 'application/json', authorization: basicAuth() },
                    body: JSON.stringify(creditTransfer('ZA_RTC')),
                });
                assert.equal(transfer.status, 202);
            }
            finally {
                clearInterval(sampler);
            }
            assert.ok(heldMax <= bound, `held ${heldMax} at once`);
            assert.equal(heldMax, bound);
            assert.deepEqual(foreign.filter((watched) => watched.received() !== '').map((watched) => watched.received()), []);
        }
        finally {
            for (const watched of foreign)
                watched.socket.destroy();
            await server.close();
        }
    });
    void it('closes the app promptly while foreign connections are held', async () => {
        const server = await start({ heldConnectionMs: 60_000 });
        const held = await Promise.all(Array.from({ length: 5 }, () => open(server.port, FOREIGN, HALF_OPEN)));
        await eventually(() => server.app.connectionHolder.size === 5, 'five held', 10_000);
        const started = Date.now();
        await server.close();
        assert.ok(Date.now() - started < 3_000, `close took ${Date.now() - started} ms`);
        await eventually(() => held.every((watched) => watched.closed()), 'every held connection closed', 10_000);
        assert.deepEqual(held.map((watched) => watched.received()), ['', '', '', '', '']);
    });
    void it('admits an address of server.operationsAllowlist to the operations endpoints only, and holds its API requests', async () => {
        const server = await start({ heldConnectionMs: 300, operationsAllowlist: [`${FOREIGN}/32`] });
        try {
            const health = await rawRequest({ host: '127.0.0.1', port: server.port, request: httpGet('/health/live', { connection: 'close' }), localAddress: FOREIGN });
            assert.match(health.received, /^HTTP\/1\.1 200 /);
            const api = await rawRequest({ host: '127.0.0.1', port: server.port, request: httpGet('/api/v1/transactions/outbound/credit-transfer', { authorization: basicAuth() }), localAddress: FOREIGN });
            assert.equal(api.received, '');
            const other = await rawRequest({ host: '127.0.0.1', port: server.port, request: httpGet('/health/live', { connection: 'close' }), localAddress: '127.0.0.3' });
            assert.equal(other.received, '', 'an address in no list is not admitted, even for the health probe');
        }
        finally {
            await server.close();
        }
    });
    void it("admits a trusted proxy's connection and judges each request by its X-Forwarded-For", async () => {
        const server = await start({ heldConnectionMs: 300, trustedProxies: [`${FOREIGN}/32`] });
        try {
            const forwarded = (address) => rawRequest({ host: '127.0.0.1', port: server.port, request: httpGet('/api/v1/transactions/outbound/credit-transfer', { 'x-forwarded-for': address, connection: 'close' }), localAddress: FOREIGN });
            assert.match((await forwarded('127.0.0.1')).received, /^HTTP\/1\.1 405 /, 'the allowlisted client behind the proxy is answered');
            assert.equal((await forwarded('198.51.100.7')).received, '');
        }
        finally {
            await server.close();
        }
    });
    void it('closes connections beyond server.connectionsMax without a byte, and admits again once one has closed', async () => {
        const server = await start({ connectionsMax: 3 });
        const kept = [];
        try {
            for (let i = 0; i < 3; i += 1)
                kept.push(await open(server.port, '127.0.0.1', httpGet('/health/live')));
            await eventually(() => kept.every((watched) => watched.received().startsWith('HTTP/1.1 200 ')), 'three answered, kept alive', 10_000);
            const refused = await rawRequest({ host: '127.0.0.1', port: server.port, request: httpGet('/health/live') });
            assert.equal(refused.received, '');
            kept.pop()?.socket.destroy();
            await eventually(async () => (await connections(server.app)) === 2, 'the server saw the close', 10_000);
            const admitted = await rawRequest({ host: '127.0.0.1', port: server.port, request: httpGet('/health/live', { connection: 'close' }) });
            assert.match(admitted.received, /^HTTP\/1\.1 200 /);
        }
        finally {
            for (const watched of kept)
                watched.socket.destroy();
            await server.close();
        }
    });
    void it('refuses to start when connections could exhaust the open-file limit (ulimit -n), naming the keys', async () => {
        const main = fileURLToPath(new URL('../../src/main.js', import.meta.url));
        const configPath = writeTestConfig({ database: 'sqlite::memory:' });
        const child = tracked(spawn('/bin/sh', ['-c', `ulimit -n 2000 && exec "${process.execPath}" "${main}" --config "${configPath}"`], { stdio: ['ignore', 'pipe', 'pipe'] }));
        let output = '';
        child.stdout.on('data', (chunk) => (output += chunk.toString()));
        child.stderr.on('data', (chunk) => (output += chunk.toString()));
        const code = await new Promise((resolve) => {
            const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
            child.once('exit', (exitCode) => {
                clearTimeout(timer);
                resolve(exitCode);
            });
        });
        assert.equal(code, 1, output);
        assert.match(output, /server\.connectionsMax/);
        assert.match(output, /2000/);
    });
});
//# sourceMappingURL=connection-gate.test.js.map