import { after } from 'node:test';
import { openStore } from '../../src/adapters/store.js';
import { dropPostgresDatabase, dropPostgresSchema, freshPostgresSchemaUrl, freshPostgresUrl } from '../support/postgres.js';
import { storeContract } from './store.contract.js';
// One database for this file on the server DATABASE_URL names (npm test starts one), and a
// schema of its own per test: an empty database per test would cost a quarter second each.
let database;
after(async () => {
    if (database)
        await dropPostgresDatabase(await database);
});
storeContract('PostgreSQL', async () => {
    database ??= freshPostgresUrl();
    const url = await freshPostgresSchemaUrl(await database);
    return {
        open: () => openStore(url, { poolMax: 6 }),
        drop: () => dropPostgresSchema(url),
    };
});
//# sourceMappingURL=store-postgres.test.js.map