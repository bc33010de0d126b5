import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { HttpPartnerSender } from '../../src/adapters/partner-http/http-sender.js';
import { configFromObject } from '../../src/config/load.js';
import { Dispatcher } from '../../src/engine/dispatcher.js';
import { buildApp } from '../../src/http/app.js';
import { ManualClock, httpGet, rawRequest, sequentialIds } from '../support/auth-app.js';
import { TestReceiver, eventually, memoryStore, message, seedTransaction } from '../support/delivery.js';
/**
 * The operator's delivery API (`/admin/v1/deliveries…`) through the whole HTTP application:
 * listing what could not be delivered, looking at one message, and replaying by id or since a
 * time, behind the operator's Basic credentials and the admin allowlist.
 */
const T0 = Date.UTC(2025, 0, 15, 12, 0, 0);
const HOUR_MS = 3_600_000;
const OPERATOR = { username: 'ops', password: 'operator-password' };
const INTEGRATOR = { username: 'alice', password: 'alice-password' };
function basic(user) {
    return `Basic ${Buffer.from(`${user.username}:${user.password}`).toString('base64')}`;
}
function integrator(id, baseUrl, allowlist = ['127.0.0.1/32']) {
    return {
        id,
        institution: { bicfi: 'DEMOZAJJ' },
        allowlist,
        credentials: { username: id === 'bank-a' ? INTEGRATOR.username : `${id}-user`, password: INTEGRATOR.password },
        partnerApiUrl: `${baseUrl}/partner-api/v1`,
        eventsApiUrl: `${baseUrl}/events-api/v1`,
        schemes: ['ZA_RPP'],
    };
}
async function adminConfig(baseUrl, extra = {}) {
    return configFromObject({
        server: { heldConnectionMs: 300, heldConnectionsMax: 10, logLevel: 'silent', ...extra.server },
        database: 'sqlite::memory:',
        auth: { mode: 'basic', ...extra.auth },
        integrators: [integrator('bank-a', baseUrl, extra.allowlist), integrator('bank-b', baseUrl, extra.allowlist)],
        delivery: { retryScheduleMs: { callback: [0], event: [0] } },
        ...(extra.admin === null ? {} : { admin: extra.admin ?? OPERATOR }),
    });
}
void describe('admin API for deliveries', () => {
    let receiver;
    let store;
    let clock;
    let app;
    let dispatcher;
    let sender;
    let bankA;
    let bankB;
    beforeEach(async () => {
        receiver = await TestReceiver.start(() => ({ status: 503 }));
        store = await memoryStore();
        clock = new ManualClock(T0);
        app = undefined;
        dispatcher = undefined;
        sender = undefined;
    });
    afterEach(async () => {
        await app?.close();
        await dispatcher?.stop();
        await sender?.close();
        await store.close();
        await receiver.down();
    });
    async function start(config, options = {}) {
        [bankA, bankB] = config.integrators;
        if (options.withDispatcher === true) {
            sender = new HttpPartnerSender({ clock, timeoutMs: 1_000, connectionsPerOriginMax: 4, responseBytesMax: 4_096 });
            dispatcher = new Dispatcher({
                store,
                sender,
                integrators: new Map(config.integrators.map((each) => [each.id, each])),
                clock,
                instanceId: 'admin-test',
                retryScheduleMs: config.delivery.retryScheduleMs,
                retryJitterRatio: 0,
                pollIntervalMs: 60_000,
            });
            dispatcher.start();
        }
        app = await buildApp({ config, store, clock, ids: sequentialIds, readiness: { accepting: () => true }, ...(dispatcher === undefined ? {} : { delivery: dispatcher }) });
        return app;
    }
    /** A message the integrator never acknowledged: its one-attempt schedule is spent. */
    async function undelivered(target, at, channel = 'callback') {
        const row = message(target, channel);
        await seedTransaction(store, target, [row], at);
        await store.recordDelivery({ outboxId: row.id, at, durationMs: 3, httpStatus: 503, error: null, delivered: false, nextAttemptAt: null });
        return row.id;
    }
    const get = (url, authorization = basic(OPERATOR)) => app?.inject({ method: 'GET', url, headers: { authorization } });
    const replay = (payload, authorization = basic(OPERATOR)) => app?.inject({ method: 'POST', url: '/admin/v1/deliveries/replay', headers: { authorization, 'content-type': 'application/json' }, payload: JSON.stringify(payload) });
    void it('does not exist without an operator credential in the configuration', async () => {
        await start(await adminConfig(receiver.url, { admin: null }));
        const response = await get('/admin/v1/deliveries');
        assert.equal(response?.statusCode, 404);
        assert.equal(response?.json().schema, 'ErrorDetail');
    });
    void it("answers 401 with a Basic challenge without the operator's credentials", async () => {
        await start(await adminConfig(receiver.url));
        for (const authorization of ['', basic({ ...OPERATOR, password: 'wrong' }), basic({ username: 'other', password: OPERATOR.password }), basic(INTEGRATOR), 'Bearer abc']) {
            const response = await get('/admin/v1/deliveries', authorization);
            assert.equal(response?.statusCode, 401, authorization);
            assert.equal(response?.headers['www-authenticate'], 'Basic realm="regpay-admin", charset="UTF-8"');
            assert.equal(response?.json().message, 'Missing or invalid credentials');
        }
        const replayed = await replay({ integratorId: 'bank-a' }, basic(INTEGRATOR));
        assert.equal(replayed?.statusCode, 401, 'an integrator cannot replay');
    });
    void it('answers 429 with Retry-After once an address has spent its failed operator logins, and lets the operator in once one is back', async () => {
        await start(await adminConfig(receiver.url, { auth: { failedAuthentications: { burst: 2, perMinute: 6 } } }));
        const wrong = basic({ ...OPERATOR, password: 'wrong' });
        assert.equal((await get('/admin/v1/deliveries', wrong))?.statusCode, 401);
        assert.equal((await get('/admin/v1/deliveries', wrong))?.statusCode, 401);
        const held = await get('/admin/v1/deliveries');
        assert.equal(held?.statusCode, 429, 'right credentials are not checked while the address is held back');
        assert.equal(held?.headers['retry-after'], '10');
        assert.equal(held?.json().message, 'Too many failed authentications from this address');
        clock.advance(10_000);
        assert.equal((await get('/admin/v1/deliveries'))?.statusCode, 200);
    });
    void it('lists the undelivered messages of an integrator, oldest first, page by page', async () => {
        await start(await adminConfig(receiver.url));
        const first = await undelivered(bankA, T0);
        const second = await undelivered(bankA, T0 + HOUR_MS, 'event');
        const third = await undelivered(bankA, T0 + 2 * HOUR_MS);
        await undelivered(bankB, T0 + HOUR_MS);
        await seedTransaction(store, bankA, [message(bankA, 'callback')], T0);
        const page1 = await get('/admin/v1/deliveries?status=UNDELIVERED&integratorId=bank-a&limit=2');
        assert.equal(page1?.statusCode, 200);
        const body1 = page1?.json();
        assert.deepEqual(body1?.deliveries.map((delivery) => delivery['id']), [first, second]);
        assert.deepEqual(body1?.deliveries[0], {
            id: first,
            transactionId: body1?.deliveries[0]?.['transactionId'],
            integratorId: 'bank-a',
            channel: 'callback',
            url: `${receiver.url}/partner-api/v1/transactions/outbound/credit-transfer-response`,
            seq: 1,
            status: 'UNDELIVERED',
            attempts: 1,
            createdAt: '2025-01-15T12:00:00.000Z',
            nextAttemptAt: null,
            deliveredAt: null,
            lastError: 'HTTP 503',
        });
        assert.ok(typeof body1?.nextCursor === 'string');
        const page2 = await get(`/admin/v1/deliveries?integratorId=bank-a&limit=2&cursor=${body1?.nextCursor ?? ''}`);
        const body2 = page2?.json();
        assert.deepEqual(body2?.deliveries.map((delivery) => delivery.id), [third], 'UNDELIVERED is the default status');
        assert.equal(body2?.nextCursor, null);
        const all = await get('/admin/v1/deliveries');
        assert.equal(all?.json().deliveries.length, 4, 'every integrator without a filter');
        const pending = await get('/admin/v1/deliveries?status=PENDING');
        assert.equal(pending?.json().deliveries.length, 1);
    });
    void it('shows one message with its body, headers and every recorded attempt', async () => {
        await start(await adminConfig(receiver.url));
        const id = await undelivered(bankA, T0);
        const response = await get(`/admin/v1/deliveries/${id}`);
        assert.equal(response?.statusCode, 200);
        const body = response?.json();
        assert.equal(body?.['id'], id);
        assert.equal(JSON.parse(String(body?.['body'])).id, id);
        assert.deepEqual(body?.['attemptHistory'], [{ at: '2025-01-15T12:00:00.000Z', durationMs: 3, httpStatus: 503, error: null, delivered: false }]);
        assert.equal((await get('/admin/v1/deliveries/no-such-message'))?.statusCode, 404);
    });
    void it('replays one undelivered message by id, and it is delivered at once', async () => {
        await start(await adminConfig(receiver.url), { withDispatcher: true });
        const id = await undelivered(bankA, T0);
        const other = await undelivered(bankA, T0);
        receiver.respond = () => ({ status: 202 });
        clock.advance(HOUR_MS);
        const response = await replay({ outboxId: id });
        assert.equal(response?.statusCode, 200);
        assert.deepEqual(response?.json(), { replayed: 1 });
        await eventually(async () => (await store.outboxMessage(id))?.status === 'DELIVERED', 'the replayed message is delivered');
        assert.equal((await store.outboxMessage(other))?.status, 'UNDELIVERED', 'only that message');
        assert.deepEqual((await store.deliveryAttempts(id)).map((attempt) => [attempt.at, attempt.httpStatus]), [
            [T0, 503],
            [T0 + HOUR_MS, 202],
        ]);
        assert.deepEqual((await replay({ outboxId: id }))?.json(), { replayed: 0 }, 'a delivered message is not replayed');
        assert.equal((await replay({ outboxId: 'no-such-message' }))?.statusCode, 404);
    });
    void it('replays every undelivered message of an integrator since a time', async () => {
        await start(await adminConfig(receiver.url), { withDispatcher: true });
        const before = await undelivered(bankA, T0);
        const after1 = await undelivered(bankA, T0 + HOUR_MS);
        const after2 = await undelivered(bankA, T0 + 2 * HOUR_MS, 'event');
        const otherBank = await undelivered(bankB, T0 + 2 * HOUR_MS);
        receiver.respond = () => ({ status: 200 });
        const response = await replay({ integratorId: 'bank-a', since: '2025-01-15T15:00:00+02:00' });
        assert.deepEqual(response?.json(), { replayed: 2 });
        await eventually(async () => (await store.outboxMessage(after1))?.status === 'DELIVERED' && (await store.outboxMessage(after2))?.status === 'DELIVERED', 'both are delivered');
        assert.equal((await store.outboxMessage(before))?.status, 'UNDELIVERED');
        assert.equal((await store.outboxMessage(otherBank))?.status, 'UNDELIVERED');
    });
    void it('answers 400 naming every bad field of a replay request or listing query', async () => {
        await start(await adminConfig(receiver.url));
        const fields = async (payload) => {
            const response = await replay(payload);
            assert.equal(response?.statusCode, 400, JSON.stringify(payload));
            return response?.json().errors.map((error) => error.field) ?? [];
        };
        assert.deepEqual(await fields({ integratorId: 'no-such-bank', since: 'yesterday' }), ['/integratorId', '/since']);
        assert.deepEqual(await fields({ outboxId: 'x', since: '2025-01-15T12:00:00Z' }), ['/outboxId']);
        assert.deepEqual(await fields({}), ['']);
        assert.deepEqual(await fields({ outboxId: 42, extra: true }), ['/extra', '/outboxId']);
        assert.deepEqual(await fields([]), ['']);
        const listing = await get('/admin/v1/deliveries?status=DELIVERED&limit=0&cursor=zz&colour=blue');
        assert.equal(listing?.statusCode, 400);
        assert.deepEqual(listing?.json().errors.map((error) => error.field), ['/colour', '/status', '/limit', '/cursor']);
    });
    void it('answers operators from the admin allowlist even when no integrator may use that address', async () => {
        await start(await adminConfig(receiver.url, { allowlist: ['10.1.0.0/16'], admin: { ...OPERATOR, allowlist: ['127.0.0.1/32'] } }));
        const response = await get('/admin/v1/deliveries');
        assert.equal(response?.statusCode, 200);
    });
    void it('holds connections from outside the admin allowlist without a byte of answer', async () => {
        const config = await adminConfig(receiver.url, { admin: { ...OPERATOR, allowlist: ['10.0.0.0/8'] } });
        const server = await start(config);
        await server.listen({ host: '127.0.0.1', port: 0 });
        const address = server.server.address();
        const port = typeof address === 'object' && address !== null ? address.port : 0;
        const exchange = await rawRequest({ host: '127.0.0.1', port, request: httpGet('/admin/v1/deliveries', { Authorization: basic(OPERATOR) }), timeoutMs: 5_000 });
        assert.equal(exchange.received, '');
        assert.ok(exchange.closedAfterMs >= 250, `closed after ${exchange.closedAfterMs} ms`);
    });
});
//# sourceMappingURL=admin-deliveries.test.js.map