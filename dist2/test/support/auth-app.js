import { connect } from 'node:net';
import Fastify from 'fastify';
import { openStore } from '../../src/adapters/store.js';
import { configFromObject } from '../../src/config/load.js';
import { allowlistPlugin } from '../../src/http/plugins/allowlist.js';
import { authPlugin } from '../../src/http/plugins/auth.js';
import { errorsPlugin } from '../../src/http/plugins/errors.js';
import { failedAuthPlugin } from '../../src/http/plugins/failed-auth.js';
import { rateLimitPlugin } from '../../src/http/plugins/rate-limit.js';
import { revokedSessionsPlugin } from '../../src/http/plugins/revoked-sessions.js';
import { oauthRoutes } from '../../src/http/routes/oauth.js';
/**
 * A small app with exactly the pieces the auth layer is made of (allowlist, failed-authentication
 * limit, revoked sessions, token routes, auth, rate limit, error rendering) around one API route that says who the caller is, listening on a
 * real socket.
 */
export class ManualClock {
    ms;
    constructor(ms = Date.UTC(2025, 0, 15, 12, 0, 0)) {
        this.ms = ms;
    }
    now() {
        return this.ms;
    }
    advance(ms) {
        this.ms += ms;
    }
}
let counter = 0;
export const sequentialIds = { uuid: () => `00000000-0000-4000-8000-${String((counter += 1)).padStart(12, '0')}` };
export const BANK_A = { username: 'alice', password: 'alice-password', clientId: 'bank-a-client', clientSecret: 'bank-a-secret' };
export const BANK_B = { username: 'bob', password: 'bob-password', clientId: 'bank-b-client', clientSecret: 'bank-b-secret' };
export function integrator(id, allowlist, credentials, extra = {}) {
    return {
        id,
        institution: { bicfi: 'DEMOZAJJ' },
        allowlist,
        credentials,
        partnerApiUrl: 'http://127.0.0.1:9/partner-api/v1',
        eventsApiUrl: 'http://127.0.0.1:9/events-api/v1',
        schemes: ['ZA_RPP'],
        ...extra,
    };
}
export async function testConfig(overrides = {}) {
    return configFromObject({
        server: { heldConnectionMs: 500, heldConnectionsMax: 10, ...overrides.server },
        database: 'sqlite::memory:',
        auth: { mode: 'oauth2', ...overrides.auth },
        integrators: overrides.integrators ?? [integrator('bank-a', ['127.0.0.1/32'], BANK_A), integrator('bank-b', ['::1/128'], BANK_B)],
    });
}
export async function startTestApp(config, options = {}) {
    const store = options.store ?? (await openStore('sqlite::memory:'));
    const clock = options.clock ?? new ManualClock(Date.now());
    const app = Fastify({ logger: false, forceCloseConnections: 'idle', return503OnClosing: true });
    await app.register(errorsPlugin);
    await app.register(allowlistPlugin, { config });
    await app.register(failedAuthPlugin, { auth: config.auth, clock });
    await app.register(revokedSessionsPlugin, { auth: config.auth, store, clock });
    app.get('/health/live', () => ({ status: 'ok' }));
    await app.register(async (scope) => oauthRoutes(scope, { config, store, clock, ids: sequentialIds }));
    await app.register(async (api) => {
        await api.register(authPlugin, { config, store, clock });
        await api.register(rateLimitPlugin, { config, clock });
        api.get('/whoami', (request) => ({ integrator: request.integrator.id, address: request.clientAddress }));
    }, { prefix: '/api/v1' });
    const host = options.host ?? '127.0.0.1';
    await app.listen({ host, port: 0 });
    const address = app.server.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
    return {
        app,
        store,
        clock,
        url,
        port,
        close: async () => {
            await app.close();
            if (options.store === undefined)
                await store.close();
        },
    };
}
/** Send raw HTTP over a plain socket and wait (at most `timeoutMs`) for the server to close it. */
export function rawRequest(options) {
    return new Promise((resolve, reject) => {
        const socket = connect({ host: options.host, port: options.port, ...(options.localAddress === undefined ? {} : { localAddress: options.localAddress }) });
        let received = '';
        let sentAt = 0;
        const limit = setTimeout(() => {
            socket.destroy();
            reject(new Error(`connection still open after ${options.timeoutMs ?? 10_000} ms; received ${JSON.stringify(received)}`));
        }, options.timeoutMs ?? 10_000);
        socket.on('connect', () => {
            sentAt = Date.now();
            socket.write(options.request);
        });
        socket.on('data', (chunk) => (received += chunk.toString('latin1')));
        socket.on('error', () => undefined);
        socket.on('close', () => {
            clearTimeout(limit);
            resolve({ received, closedAfterMs: Date.now() - sentAt });
        });
    });
}
export function httpGet(path, headers = {}) {
    const lines = [`GET ${path} HTTP/1.1`, 'Host: regpay.test', ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`), '', ''];
    return lines.join('\r\n');
}
export function basic(user) {
    return `Basic ${Buffer.from(`${user.username}:${user.password}`).toString('base64')}`;
}
export function form(fields) {
    return { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() };
}
//# sourceMappingURL=auth-app.js.map