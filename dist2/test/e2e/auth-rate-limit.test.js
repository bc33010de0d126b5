import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BANK_A, BANK_B, ManualClock, basic, integrator, startTestApp, testConfig } from '../support/auth-app.js';
void describe('per-integrator rate limit', () => {
    void it('answers 429 with Retry-After once the burst is spent, for that integrator only, and recovers with time', async () => {
        const limits = { requestsPerSecond: 0.5, burst: 3 };
        const config = await testConfig({
            auth: { mode: 'basic' },
            integrators: [integrator('bank-a', ['127.0.0.1/32'], BANK_A, { limits }), integrator('bank-b', ['127.0.0.1/32'], BANK_B)],
        });
        const clock = new ManualClock();
        const server = await startTestApp(config, { clock });
        const call = (user) => fetch(`${server.url}/api/v1/whoami`, { headers: { authorization: basic(user) } });
        try {
            for (let i = 0; i < limits.burst; i += 1)
                assert.equal((await call(BANK_A)).status, 200, `request ${i + 1} is within the burst`);
            const limited = await call(BANK_A);
            assert.equal(limited.status, 429);
            assert.equal(limited.headers.get('retry-after'), '2');
            const body = (await limited.json());
            assert.equal(body['schema'], 'ErrorDetail');
            assert.equal(body['message'], 'Rate limit exceeded for this integrator');
            assert.equal((await call(BANK_B)).status, 200, 'another integrator has its own bucket');
            clock.advance(2_000);
            assert.equal((await call(BANK_A)).status, 200, 'one token is back after Retry-After');
            assert.equal((await call(BANK_A)).status, 429);
        }
        finally {
            await server.close();
        }
    });
    void it('does not count requests that fail authentication', async () => {
        const config = await testConfig({
            auth: { mode: 'basic' },
            integrators: [integrator('bank-a', ['127.0.0.1/32'], BANK_A, { limits: { requestsPerSecond: 1, burst: 1 } })],
        });
        const server = await startTestApp(config);
        try {
            const wrong = await fetch(`${server.url}/api/v1/whoami`, { headers: { authorization: basic({ ...BANK_A, password: 'nope' }) } });
            assert.equal(wrong.status, 401);
            const right = await fetch(`${server.url}/api/v1/whoami`, { headers: { authorization: basic(BANK_A) } });
            assert.equal(right.status, 200);
        }
        finally {
            await server.close();
        }
    });
});
//# sourceMappingURL=auth-rate-limit.test.js.map