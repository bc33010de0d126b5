import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from 'undici';
import { BANK_A, BANK_B, basic, startTestApp, testConfig } from '../support/auth-app.js';
void describe('Basic authentication (RFC 7617)', () => {
    let server;
    before(async () => {
        server = await startTestApp(await testConfig({ auth: { mode: 'basic' }, integrators: undefined }), { host: '127.0.0.1' });
    });
    after(async () => server.close());
    const call = (authorization) => fetch(`${server.url}/api/v1/whoami`, { headers: authorization === undefined ? {} : { authorization } });
    async function assertUnauthenticated(response) {
        assert.equal(response.status, 401);
        assert.equal(response.headers.get('www-authenticate'), 'Basic realm="regpay", charset="UTF-8"');
        assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
        const body = (await response.json());
        assert.equal(body['schema'], 'ErrorDetail');
        assert.equal(body['message'], 'Missing or invalid credentials');
    }
    void it('lets the integrator in with its username and password', async () => {
        const response = await call(basic(BANK_A));
        assert.equal(response.status, 200);
        assert.deepEqual(await response.json(), { integrator: 'bank-a', address: '127.0.0.1' });
        const again = await call(basic(BANK_A));
        assert.equal(again.status, 200, 'a remembered success still answers');
    });
    void it('judges every request of one kept-alive connection by its own header', async () => {
        const connection = new Client(server.url, { pipelining: 1 });
        try {
            const whoami = async (authorization) => {
                const response = await connection.request({ method: 'GET', path: '/api/v1/whoami', headers: authorization === undefined ? {} : { authorization } });
                await response.body.dump();
                return response.statusCode;
            };
            assert.equal(await whoami(basic(BANK_A)), 200);
            assert.equal(await whoami(basic({ ...BANK_A, password: 'wrong' })), 401, 'a wrong password after an admitted one');
            assert.equal(await whoami(), 401, 'no header after an admitted one');
            assert.equal(await whoami(basic(BANK_A)), 200);
            assert.equal(await whoami(basic({ username: BANK_A.username, password: BANK_B.password })), 401);
            // bank-b's own allowlist is ::1 only: its credentials from here are held unanswered, also on a connection admitted for bank-a.
            await assert.rejects(whoami(basic(BANK_B)), { name: 'SocketError' });
        }
        finally {
            await connection.close();
        }
    });
    void it('answers 401 with a Basic challenge for a wrong password', async () => {
        await assertUnauthenticated(await call(basic({ ...BANK_A, password: 'wrong' })));
    });
    void it('answers 401 without an Authorization header', async () => {
        await assertUnauthenticated(await call());
    });
    void it('answers 401 for an unknown username', async () => {
        await assertUnauthenticated(await call(basic({ username: 'mallory', password: BANK_A.password })));
    });
    void it('answers 401 for a Bearer token or a malformed Basic value', async () => {
        await assertUnauthenticated(await call('Bearer abc'));
        await assertUnauthenticated(await call('Basic !!!'));
        await assertUnauthenticated(await call(`Basic ${Buffer.from('no-colon').toString('base64')}`));
    });
    void it("does not accept one integrator's password for another's username", async () => {
        await assertUnauthenticated(await call(basic({ username: BANK_A.username, password: BANK_B.password })));
    });
    void it('spends about as long on an unknown username as on a wrong password', async () => {
        const time = async (authorization) => {
            const started = process.hrtime.bigint();
            await (await call(authorization)).arrayBuffer();
            return Number(process.hrtime.bigint() - started) / 1e6;
        };
        const samples = async (authorization) => {
            const times = [];
            for (let i = 0; i < 5; i += 1)
                times.push(await time(authorization));
            return times.sort((a, b) => a - b)[2] ?? 0;
        };
        const unknown = await samples(basic({ username: 'nobody', password: 'x' }));
        const wrong = await samples(basic({ username: BANK_A.username, password: 'x' }));
        // Both pay one scrypt; without the dummy check the unknown user would answer in well under a millisecond.
        assert.ok(unknown > wrong / 3, `unknown user ${unknown.toFixed(1)} ms vs wrong password ${wrong.toFixed(1)} ms`);
    });
});
//# sourceMappingURL=auth-basic.test.js.map