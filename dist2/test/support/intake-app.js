import { openStore } from '../../src/adapters/store.js';
import { systemClock, systemIds } from '../../src/adapters/system/system.js';
import { configFromObject } from '../../src/config/load.js';
import { buildApp } from '../../src/http/app.js';
import { testConfigObject } from './server.js';
/** The service's HTTP app on an in-memory store, no engine, the test integrators unthrottled: intake alone, for app.inject(). */
export async function intakeApp() {
    const store = await openStore('sqlite::memory:');
    const config = await configFromObject(testConfigObject({ database: 'sqlite::memory:', integratorExtra: { limits: { requestsPerSecond: 1_000_000, burst: 1_000_000 } } }));
    const app = await buildApp({ config, store, clock: systemClock, ids: systemIds, readiness: { accepting: () => true } });
    return {
        app,
        store,
        close: async () => {
            await app.close();
            await store.close();
        },
    };
}
//# sourceMappingURL=intake-app.js.map