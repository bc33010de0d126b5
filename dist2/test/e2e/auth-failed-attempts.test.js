import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BANK_A, BANK_B, ManualClock, basic, integrator, startTestApp, testConfig } from '../support/auth-app.js';
/**
 * Failed credential checks are limited per client address (auth.failedAuthentications): here
 * three at once, then one a second. Client addresses come from X-Forwarded-For behind the
 * loopback address, configured as a trusted proxy, so one test can speak from several.
 */
const LIMIT = { burst: 3, perMinute: 60 };
const FROM_ONE = { 'x-forwarded-for': '10.0.0.1' };
const FROM_TWO = { 'x-forwarded-for': '10.0.0.2' };
const WRONG_A = { ...BANK_A, password: 'not-alice-password' };
async function limitedConfig(mode) {
    return testConfig({
        auth: { mode, failedAuthentications: LIMIT },
        server: { trustedProxies: ['127.0.0.1/32'] },
        integrators: [integrator('bank-a', ['10.0.0.0/8'], BANK_A), integrator('bank-b', ['10.0.0.0/8'], BANK_B)],
    });
}
/** Sends one request per user to the API all at once, from FROM_ONE; the statuses, sorted. */
async function allAtOnce(server, users) {
    const statuses = await Promise.all(users.map((user) => fetch(`${server.url}/api/v1/whoami`, { headers: { authorization: basic(user), ...FROM_ONE } }).then((response) => response.status)));
    return statuses.sort((a, b) => a - b);
}
async function assertHeldBack(response, retryAfterS) {
    assert.equal(response.status, 429);
    assert.equal(response.headers.get('retry-after'), retryAfterS);
    const body = (await response.json());
    assert.equal(body['schema'], 'ErrorDetail');
    assert.equal(body['message'], 'Too many failed authentications from this address');
}
void describe('failed authentications per client address', () => {
    void it('answers 429 with Retry-After once an address has spent its failures, even to right credentials it would have to check, and only for that address', async () => {
        const clock = new ManualClock();
        const server = await startTestApp(await limitedConfig('basic'), { clock });
        const whoami = (user, from) => fetch(`${server.url}/api/v1/whoami`, { headers: { authorization: basic(user), ...from } });
        try {
            assert.equal((await whoami(BANK_A, FROM_ONE)).status, 200, 'bank-a is admitted, and its success remembered');
            for (let i = 0; i < LIMIT.burst; i += 1)
                assert.equal((await whoami(WRONG_A, FROM_ONE)).status, 401, `failure ${i + 1} is checked`);
            await assertHeldBack(await whoami(BANK_B, FROM_ONE), '1');
            await assertHeldBack(await whoami(WRONG_A, FROM_ONE), '1');
            assert.equal((await whoami(BANK_A, FROM_ONE)).status, 200, 'a remembered success needs no check and is still admitted');
            assert.equal((await whoami(BANK_B, FROM_TWO)).status, 200, 'another address has failures of its own');
            clock.advance(1_000);
            assert.equal((await whoami(WRONG_A, FROM_ONE)).status, 401, 'a second later one more check is allowed');
            await assertHeldBack(await whoami(WRONG_A, FROM_ONE), '1');
        }
        finally {
            await server.close();
        }
    });
    void it('lets at most the burst of checks run when wrong passwords arrive all at once', async () => {
        const server = await startTestApp(await limitedConfig('basic'));
        try {
            const guesses = Array.from({ length: 10 }, (_, i) => ({ ...BANK_A, password: `guess-${i}` }));
            assert.deepEqual(await allAtOnce(server, guesses), [401, 401, 401, 429, 429, 429, 429, 429, 429, 429], 'a check counts as failed from the moment it starts');
        }
        finally {
            await server.close();
        }
    });
    void it('admits a client opening many connections at once with right credentials: requests sharing one check count once', async () => {
        const server = await startTestApp(await limitedConfig('basic'));
        try {
            assert.deepEqual(new Set(await allAtOnce(server, Array.from({ length: 30 }, () => BANK_A))), new Set([200]));
        }
        finally {
            await server.close();
        }
    });
    void it('does not count successes or requests without credentials', async () => {
        const server = await startTestApp(await limitedConfig('basic'));
        try {
            for (let i = 0; i < LIMIT.burst * 2; i += 1) {
                assert.equal((await fetch(`${server.url}/api/v1/whoami`, { headers: FROM_ONE })).status, 401, 'no credentials');
                assert.equal((await fetch(`${server.url}/api/v1/whoami`, { headers: { authorization: 'Basic !!', ...FROM_ONE } })).status, 401, 'not base64');
            }
            for (const user of [BANK_A, BANK_B])
                assert.equal((await fetch(`${server.url}/api/v1/whoami`, { headers: { authorization: basic(user), ...FROM_ONE } })).status, 200);
        }
        finally {
            await server.close();
        }
    });
    void it('counts wrong client secrets and passwords at the token endpoint, where a held-back address gets 429 in the RFC 6749 error form', async () => {
        const clock = new ManualClock();
        const server = await startTestApp(await limitedConfig('oauth2'), { clock });
        const token = (fields) => fetch(`${server.url}/oauth/token`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded', ...FROM_ONE },
            body: new URLSearchParams(fields).toString(),
        });
        const grant = { grant_type: 'password', username: BANK_A.username, password: BANK_A.password, client_id: BANK_A.clientId, client_secret: BANK_A.clientSecret };
        try {
            assert.equal((await token({ grant_type: 'password' })).status, 400, 'a malformed request costs no check and is not counted');
            assert.equal((await token({ ...grant, client_secret: 'wrong' })).status, 401);
            assert.equal((await token({ ...grant, password: 'wrong' })).status, 400);
            assert.equal((await token({ grant_type: 'refresh_token', refresh_token: 'made-up', client_id: BANK_A.clientId, client_secret: BANK_A.clientSecret })).status, 400);
            const held = await token(grant);
            assert.equal(held.status, 429);
            assert.equal(held.headers.get('retry-after'), '1');
            assert.equal(held.headers.get('cache-control'), 'no-store');
            const body = (await held.json());
            assert.equal(body['error'], 'temporarily_unavailable');
            assert.match(String(body['error_description']), /too many failed authentications/);
            clock.advance(1_000);
            assert.equal((await token(grant)).status, 200, 'right credentials a second later');
        }
        finally {
            await server.close();
        }
    });
    void it('counts wrong client secrets of the client-credentials grant like those of the password grant', async () => {
        const clock = new ManualClock();
        const server = await startTestApp(await limitedConfig('oauth2'), { clock });
        const token = (secret) => fetch(`${server.url}/oauth/token`, {
            method: 'POST',
            headers: {
                'content-type': 'application/x-www-form-urlencoded',
                authorization: `Basic ${Buffer.from(`${BANK_A.clientId}:${secret}`).toString('base64')}`,
                ...FROM_ONE,
            },
            body: 'grant_type=client_credentials',
        });
        try {
            for (let failure = 0; failure < LIMIT.burst; failure += 1)
                assert.equal((await token('wrong')).status, 401);
            const held = await token(BANK_A.clientSecret);
            assert.equal(held.status, 429, 'the right secret is not checked once the address has spent its failures');
            assert.equal((await held.json())['error'], 'temporarily_unavailable');
            clock.advance(1_000);
            assert.equal((await token(BANK_A.clientSecret)).status, 200, 'the right secret a second later');
        }
        finally {
            await server.close();
        }
    });
});
//# sourceMappingURL=auth-failed-attempts.test.js.map