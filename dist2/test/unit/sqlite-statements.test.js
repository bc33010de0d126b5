import { describe, it, mock } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { openSqliteStore } from '../../src/adapters/store-sqlite/sqlite-store.js';
/** Every SQL text the SQLite store prepares while it opens (its read and write statements). */
async function preparedByStore() {
    const prepare = mock.method(Database.prototype, 'prepare');
    try {
        const store = await openSqliteStore(':memory:');
        await store.close();
    }
    finally {
        prepare.mock.restore();
    }
    return prepare.mock.calls.map((call) => String(call.arguments[0]));
}
describe('SQLite statements', () => {
    it('never take a bare parameter as LIMIT, which would make SQLite compile the statement again on every run', async () => {
        const texts = await preparedByStore();
        const limited = texts.filter((text) => /\bLIMIT\b/i.test(text));
        // The claims and the listings of deliveries are limited by a parameter; the test must see them.
        assert.ok(limited.filter((text) => text.includes('LIMIT @limit + 0')).length >= 4, `limited statements seen: ${limited.length}`);
        const bare = texts.filter((text) => /\bLIMIT\s+[@:$?]\w*\s*(?:$|\)|;|OFFSET\b)/i.test(text));
        assert.deepEqual(bare, []);
    });
});
//# sourceMappingURL=sqlite-statements.test.js.map