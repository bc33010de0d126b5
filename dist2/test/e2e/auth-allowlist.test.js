import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BANK_A, BANK_B, basic, httpGet, integrator, rawRequest, startTestApp, testConfig } from '../support/auth-app.js';
const HOLD_MS = 400;
void describe('IP allowlist over a real socket', () => {
    void it('writes not a byte to a non-allowlisted address and closes the connection after the hold time', async () => {
        const config = await testConfig({
            server: { heldConnectionMs: HOLD_MS },
            integrators: [integrator('bank-a', ['10.0.0.0/8'], BANK_A)],
        });
        const server = await startTestApp(config);
        try {
            const exchange = await rawRequest({ host: '127.0.0.1', port: server.port, request: httpGet('/api/v1/whoami', { authorization: basic(BANK_A) }) });
            assert.equal(exchange.received, '');
            assert.ok(exchange.closedAfterMs >= HOLD_MS - 50, `closed after ${exchange.closedAfterMs} ms, before the hold time`);
            assert.ok(exchange.closedAfterMs < HOLD_MS + 2_000, `closed after ${exchange.closedAfterMs} ms`);
        }
        finally {
            await server.close();
        }
    });
    void it('holds unknown paths and the token endpoint too, but answers the health probe', async () => {
        const config = await testConfig({ server: { heldConnectionMs: HOLD_MS }, integrators: [integrator('bank-a', ['10.0.0.0/8'], BANK_A)] });
        const server = await startTestApp(config);
        try {
            for (const path of ['/no/such/path', '/oauth/token', '/oauth/jwks']) {
                const exchange = await rawRequest({ host: '127.0.0.1', port: server.port, request: httpGet(path) });
                assert.equal(exchange.received, '', path);
            }
            const health = await fetch(`${server.url}/health/live`);
            assert.equal(health.status, 200);
        }
        finally {
            await server.close();
        }
    });
    void it('answers Expect: 100-continue from a non-allowlisted address with nothing either', async () => {
        const config = await testConfig({ server: { heldConnectionMs: HOLD_MS }, integrators: [integrator('bank-a', ['10.0.0.0/8'], BANK_A)] });
        const server = await startTestApp(config);
        try {
            const request = ['POST /api/v1/whoami HTTP/1.1', 'Host: regpay.test', 'Content-Type: application/json', 'Content-Length: 2', 'Expect: 100-continue', '', ''].join('\r\n');
            const exchange = await rawRequest({ host: '127.0.0.1', port: server.port, request });
            assert.equal(exchange.received, '');
        }
        finally {
            await server.close();
        }
    });
    void it('destroys connections at once beyond heldConnectionsMax', async () => {
        const config = await testConfig({ server: { heldConnectionMs: 5_000, heldConnectionsMax: 1 }, integrators: [integrator('bank-a', ['10.0.0.0/8'], BANK_A)] });
        const server = await startTestApp(config);
        try {
            const first = rawRequest({ host: '127.0.0.1', port: server.port, request: httpGet('/api/v1/whoami'), timeoutMs: 20_000 });
            await waitFor(() => server.app.connectionHolder.size === 1);
            const second = await rawRequest({ host: '127.0.0.1', port: server.port, request: httpGet('/api/v1/whoami') });
            assert.equal(second.received, '');
            assert.ok(second.closedAfterMs < 1_000, `second connection closed after ${second.closedAfterMs} ms`);
            assert.equal(server.app.connectionHolder.size, 1);
            await server.close();
            const held = await first;
            assert.equal(held.received, '');
            assert.ok(held.closedAfterMs < 3_000, 'closing the app released the held connection');
        }
        finally {
            await server.close();
        }
    });
    void it('closes the app promptly while a connection is held', async () => {
        const config = await testConfig({ server: { heldConnectionMs: 60_000 }, integrators: [integrator('bank-a', ['10.0.0.0/8'], BANK_A)] });
        const server = await startTestApp(config);
        const held = rawRequest({ host: '127.0.0.1', port: server.port, request: httpGet('/api/v1/whoami'), timeoutMs: 20_000 });
        await waitFor(() => server.app.connectionHolder.size === 1);
        const started = Date.now();
        await server.close();
        assert.ok(Date.now() - started < 2_000, `close took ${Date.now() - started} ms`);
        assert.equal((await held).received, '');
    });
    void it("honours a trusted proxy's X-Forwarded-For", async () => {
        const config = await testConfig({
            server: { heldConnectionMs: HOLD_MS, trustedProxies: ['127.0.0.1/32'] },
            integrators: [integrator('bank-a', ['10.0.0.0/8'], BANK_A)],
        });
        const server = await startTestApp(config, { host: '127.0.0.1' });
        try {
            const response = await fetch(`${server.url}/api/v1/whoami`, { headers: { authorization: 'Bearer not-a-token', 'x-forwarded-for': '198.51.100.7, 10.1.2.3' } });
            // Authenticated or not, the allowlist let it through: the answer is an HTTP response.
            assert.equal(response.status, 401);
            assert.match(response.headers.get('www-authenticate') ?? '', /^Bearer/);
            const spoofedLeft = await rawRequest({
                host: '127.0.0.1',
                port: server.port,
                request: httpGet('/api/v1/whoami', { 'x-forwarded-for': '10.1.2.3, 198.51.100.7' }),
            });
            assert.equal(spoofedLeft.received, '', 'only the right-most untrusted entry counts');
        }
        finally {
            await server.close();
        }
    });
    void it("ignores X-Forwarded-For from a peer that is not a trusted proxy", async () => {
        const config = await testConfig({
            server: { heldConnectionMs: HOLD_MS, trustedProxies: ['192.0.2.1/32'] },
            integrators: [integrator('bank-a', ['10.0.0.0/8'], BANK_A)],
        });
        const server = await startTestApp(config);
        try {
            const exchange = await rawRequest({ host: '127.0.0.1', port: server.port, request: httpGet('/api/v1/whoami', { 'x-forwarded-for': '10.1.2.3' }) });
            assert.equal(exchange.received, '');
        }
        finally {
            await server.close();
        }
    });
    void it('allows IPv6 ::1 by its own block and IPv4 arriving as IPv4-mapped IPv6 by the IPv4 block', async () => {
        const config = await testConfig({ auth: { mode: 'basic' }, server: { heldConnectionMs: HOLD_MS } });
        // Listening on :: makes IPv4 peers appear as ::ffff:127.0.0.1.
        const server = await startTestApp(config, { host: '::' });
        try {
            const v6 = await fetch(`http://[::1]:${server.port}/api/v1/whoami`, { headers: { authorization: basic(BANK_B) } });
            assert.equal(v6.status, 200);
            assert.deepEqual(await v6.json(), { integrator: 'bank-b', address: '::1' });
            const v4 = await fetch(`http://127.0.0.1:${server.port}/api/v1/whoami`, { headers: { authorization: basic(BANK_A) } });
            assert.equal(v4.status, 200);
            assert.deepEqual(await v4.json(), { integrator: 'bank-a', address: '127.0.0.1' });
        }
        finally {
            await server.close();
        }
    });
    void it("holds another integrator's valid credentials sent from this integrator's address", async () => {
        const config = await testConfig({ auth: { mode: 'basic' }, server: { heldConnectionMs: HOLD_MS } });
        const server = await startTestApp(config, { host: '::' });
        try {
            // 127.0.0.1 is bank-a's; bank-b is allowlisted only on ::1.
            const crossed = await rawRequest({ host: '127.0.0.1', port: server.port, request: httpGet('/api/v1/whoami', { authorization: basic(BANK_B) }) });
            assert.equal(crossed.received, '');
            assert.ok(crossed.closedAfterMs >= HOLD_MS - 50);
            const own = await rawRequest({
                host: '127.0.0.1',
                port: server.port,
                request: httpGet('/api/v1/whoami', { authorization: basic(BANK_A), connection: 'close' }),
            });
            assert.match(own.received, /^HTTP\/1\.1 200 /);
        }
        finally {
            await server.close();
        }
    });
});
async function waitFor(condition, timeoutMs = 5_000) {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
        if (Date.now() > deadline)
            throw new Error('condition not met in time');
        await new Promise((resolve) => setTimeout(resolve, 10));
    }
}
//# sourceMappingURL=auth-allowlist.test.js.map