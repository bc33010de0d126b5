import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { after, describe, it } from 'node:test';
import pg from 'pg';
import { openStore } from '../../src/adapters/store.js';
import { configFromObject } from '../../src/config/load.js';
import { ERROR_CATALOGUE } from '../../src/domain/errors.js';
import { buildApp } from '../../src/http/app.js';
import { creditTransfer } from '../fixtures/credit-transfer.js';
import { eventually } from '../support/delivery.js';
import { dropPostgresDatabase, freshPostgresUrl } from '../support/postgres.js';
import { DEMO_USER, basicAuth, testConfigObject } from '../support/server.js';
/**
 * The two ways the service says "not now" (CONTRACT §5: 503 with Retry-After, the identical
 * request may be retried), through the whole HTTP application on a listening socket: a request
 * that arrives while the app closes, and a request the store cannot queue a write for.
 */
const CREDIT_TRANSFER_PATH = '/api/v1/transactions/outbound/credit-transfer';
async function startApp(options) {
    const config = await configFromObject(testConfigObject({ database: options.database, auth: options.auth, extra: { server: { host: '127.0.0.1', port: 0, logLevel: 'silent' } } }));
    const store = await openStore(config.database, options.store);
    const app = await buildApp({ config, store, clock: { now: () => Date.now() }, ids: { uuid: () => randomUUID() }, readiness: { accepting: () => true } });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    return { app, store, url: `http://127.0.0.1:${port}`, port };
}
/** The responses in what a server wrote on one connection (each with a Content-Length, or none). */
function parseResponses(received) {
    const responses = [];
    let rest = received;
    while (rest.length > 0) {
        const end = rest.indexOf('\r\n\r\n');
        assert.ok(end > 0, `an incomplete response: ${JSON.stringify(rest)}`);
        const [statusLine = '', ...lines] = rest.slice(0, end).split('\r\n');
        const headers = {};
        for (const line of lines) {
            const colon = line.indexOf(':');
            headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
        }
        const length = Number(headers['content-length'] ?? 0);
        responses.push({ status: Number(statusLine.split(' ')[1]), headers, body: rest.slice(end + 4, end + 4 + length) });
        rest = rest.slice(end + 4 + length);
    }
    return responses;
}
function assertUnavailable(response, body, code) {
    assert.equal(response.status, 503);
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    assert.match(response.headers.get('retry-after') ?? '', /^[1-9][0-9]*$/, 'Retry-After in whole seconds');
    const detail = body;
    assert.equal(detail['schema'], 'ErrorDetail');
    assert.equal(detail['message'], ERROR_CATALOGUE[code].message);
    assert.deepEqual(detail['errors'], []);
}
void describe('503 with Retry-After, over real HTTP', () => {
    let database;
    after(async () => {
        if (database !== undefined)
            await dropPostgresDatabase(database);
    });
    void it('answers 503 NOT_READY with Retry-After, as an ErrorDetail, to a request that arrives on a kept-alive connection while the app closes', async () => {
        const { app, store, port } = await startApp({ database: 'sqlite::memory:', auth: 'basic' });
        let socket;
        try {
            const body = JSON.stringify(creditTransfer('ZA_RPP'));
            let received = '';
            socket = connect({ host: '127.0.0.1', port });
            const closed = new Promise((resolve) => socket?.once('close', () => resolve()));
            socket.on('data', (chunk) => (received += chunk.toString('latin1')));
            socket.on('error', () => undefined);
            // The server answers `100 Continue` once it has the headers: the request is in flight, and
            // its connection in use, when the app starts closing.
            socket.write([
                `POST ${CREDIT_TRANSFER_PATH} HTTP/1.1`,
                'Host: regpay.test',
                `Authorization: ${basicAuth(DEMO_USER)}`,
                'Content-Type: application/json',
                `Content-Length: ${Buffer.byteLength(body)}`,
                'Expect: 100-continue',
                '',
                '',
            ].join('\r\n'));
            await eventually(() => received.startsWith('HTTP/1.1 100 Continue\r\n\r\n'), 'the server read the first request\'s headers', 10_000);
            received = received.slice('HTTP/1.1 100 Continue\r\n\r\n'.length);
            const closing = app.close();
            await eventually(() => !app.server.listening, 'the app stopped listening', 10_000);
            // The first request's body, and a second request on the same connection behind it.
            socket.write(`${body}GET /api/v1/transactions/outbound/credit-transfer HTTP/1.1\r\nHost: regpay.test\r\nAuthorization: ${basicAuth(DEMO_USER)}\r\n\r\n`);
            await closing;
            await closed;
            const [first, second, ...more] = parseResponses(received);
            assert.equal(first?.status, 202, 'the request in flight is finished');
            assert.ok(second, `the request that arrived while closing is answered: ${JSON.stringify(received)}`);
            assert.deepEqual(more, []);
            assertUnavailable({ status: second.status, headers: { get: (name) => second.headers[name] ?? null } }, JSON.parse(second.body), 'NOT_READY');
            assert.equal(second.headers['connection'], 'close');
        }
        finally {
            socket?.destroy();
            await app.close();
            await store.close();
        }
    });
    void it('answers 503 OVERLOADED with Retry-After, as an ErrorDetail (token endpoint: temporarily_unavailable), while the write queue is full, and accepts the identical request once it drained', async () => {
        database = await freshPostgresUrl();
        // One commit in flight at a time and two writes waiting: a stalled commit fills the queue at once.
        const { app, store, url } = await startApp({ database, auth: 'oauth2', store: { groupCommitConcurrency: 1, groupCommitQueueMax: 2 } });
        const stall = new pg.Client({ connectionString: database });
        let stalled = false;
        try {
            const tokenForm = { grant_type: 'password', username: DEMO_USER.username, password: DEMO_USER.password, client_id: DEMO_USER.clientId, client_secret: DEMO_USER.clientSecret };
            const tokenRequest = () => fetch(`${url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(tokenForm).toString() });
            const issued = await tokenRequest();
            assert.equal(issued.status, 200);
            const accessToken = (await issued.json()).access_token;
            const post = (body) => fetch(`${url}${CREDIT_TRANSFER_PATH}`, { method: 'POST', headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' }, body });
            // Another session holds a lock every intake's commit needs (its history row): the commit waits.
            await stall.connect();
            await stall.query('BEGIN');
            await stall.query('LOCK TABLE state_history IN SHARE MODE');
            stalled = true;
            const bodies = Array.from({ length: 10 }, () => JSON.stringify(creditTransfer('ZA_RPP')));
            const answers = bodies.map(() => undefined);
            const settled = bodies.map((body, index) => post(body).then((response) => (answers[index] = response)));
            // At most one commit's writes (two) and two waiting can be taken: the other six are refused at once.
            await eventually(() => answers.filter((answer) => answer !== undefined).length >= 6, 'the writes beyond the queue are refused', 20_000);
            assert.deepEqual(new Set(answers.flatMap((answer) => (answer === undefined ? [] : [answer.status]))), new Set([503]), 'nothing is taken while the commit waits');
            const token = await tokenRequest();
            assert.equal(token.status, 503, 'a token needs a write too');
            assert.match(token.headers.get('retry-after') ?? '', /^[1-9][0-9]*$/);
            assert.equal((await token.json())['error'], 'temporarily_unavailable');
            await stall.query('ROLLBACK');
            stalled = false;
            const final = await Promise.all(settled);
            const refused = final.flatMap((answer, index) => (answer.status === 503 ? [{ answer, index }] : []));
            assert.ok(refused.length >= 6);
            assert.equal(final.filter((answer) => answer.status === 202).length, bodies.length - refused.length, 'the rest are taken: 202 once committed');
            for (const { answer } of refused)
                assertUnavailable(answer, await answer.json(), 'OVERLOADED');
            for (const { index } of refused)
                assert.equal((await post(bodies[index] ?? '')).status, 202, 'the identical request is accepted when retried');
        }
        finally {
            if (stalled)
                await stall.query('ROLLBACK');
            await stall.end();
            await app.close();
            await store.close();
        }
    });
});
//# sourceMappingURL=http-unavailable.test.js.map