import { connect } from 'node:net';
import { openStore } from '../../src/adapters/store.js';
import { systemClock, systemIds } from '../../src/adapters/system/system.js';
import { configFromObject } from '../../src/config/load.js';
import { buildApp } from '../../src/http/app.js';
import { testConfigObject } from './server.js';
/** `server` is merged into the server section; `extra` into the top level of the config. */
export async function startApp(server, extra = {}) {
    const store = await openStore('sqlite::memory:');
    const config = await configFromObject(testConfigObject({ database: 'sqlite::memory:', extra: { server: { host: '127.0.0.1', port: 0, ...server }, ...extra } }));
    const app = await buildApp({ config, store, clock: systemClock, ids: systemIds, readiness: { accepting: () => true } });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    return {
        app,
        store,
        port,
        url: `http://127.0.0.1:${port}`,
        close: async () => {
            await app.close();
            await store.close();
        },
    };
}
/**
 * Connect from `localAddress`, write `data` and keep watching. With `allowHalfOpen` the client
 * keeps its side open after the server ended its own, as a client still sending a body does.
 */
export function open(port, localAddress, data, options = {}) {
    return new Promise((resolve, reject) => {
        let received = '';
        let closedAt;
        const openedAt = Date.now();
        const socket = connect({ host: '127.0.0.1', port, localAddress, allowHalfOpen: options.allowHalfOpen ?? false });
        socket.on('data', (chunk) => (received += chunk.toString('latin1')));
        socket.on('error', () => undefined);
        socket.on('close', () => (closedAt = Date.now()));
        socket.once('connect', () => {
            socket.write(data);
            resolve({ socket, received: () => received, closed: () => closedAt !== undefined, closedAfterMs: () => (closedAt === undefined ? undefined : closedAt - openedAt) });
        });
        socket.once('error', reject);
    });
}
/** Connections the app's server has open (admitted and held alike). */
export function connections(app) {
    return new Promise((resolve, reject) => app.server.getConnections((error, count) => (error ? reject(error) : resolve(count))));
}
//# sourceMappingURL=sockets.js.map