import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { MIGRATIONS, migrationSql, pendingMigrations } from '../../src/adapters/migrations.js';
import { openStore } from '../../src/adapters/store.js';
void describe('schema migrations', () => {
    void it('runs every migration, oldest first, on an empty database', () => {
        assert.deepEqual(pendingMigrations([]).map((migration) => migration.version), MIGRATIONS.map((migration) => migration.version).sort((a, b) => a - b));
    });
    void it('runs nothing on an up-to-date database', () => {
        assert.deepEqual(pendingMigrations(MIGRATIONS.map(({ version, name }) => ({ version, name }))), []);
    });
    void it('refuses a database whose schema is newer than this build', () => {
        assert.throws(() => pendingMigrations([{ version: 9_999, name: 'from the future' }]), /unknown to this build/);
    });
    void it('refuses a database whose recorded history differs from this build', () => {
        assert.throws(() => pendingMigrations([{ version: 1, name: 'renamed' }]), /recorded as "renamed"/);
    });
    void it('numbers migrations uniquely and leaves no placeholder unfilled in either dialect', () => {
        assert.equal(new Set(MIGRATIONS.map((migration) => migration.version)).size, MIGRATIONS.length);
        for (const migration of MIGRATIONS) {
            for (const dialect of ['sqlite', 'postgres']) {
                for (const statement of migrationSql(migration, dialect))
                    assert.doesNotMatch(statement, /\{\w+\}/);
            }
        }
    });
    void it('a store will not open a database migrated by a newer build', async () => {
        const dir = mkdtempSync(join(tmpdir(), 'regpay-migrations-'));
        try {
            const file = join(dir, 'regpay.db');
            await (await openStore(`sqlite:${file}`)).close();
            const raw = new Database(file);
            raw.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(9_999, 'from the future', 0);
            raw.close();
            await assert.rejects(openStore(`sqlite:${file}`), /unknown to this build/);
        }
        finally {
            rmSync(dir, { recursive: true, force: true });
        }
    });
});
void describe('openStore', () => {
    void it('creates the directory of a SQLite file that does not exist yet', async () => {
        const dir = mkdtempSync(join(tmpdir(), 'regpay-open-'));
        try {
            const store = await openStore(`sqlite:${join(dir, 'nested', 'deeper', 'regpay.db')}`);
            assert.equal(store.kind, 'sqlite');
            await store.ping();
            await store.close();
        }
        finally {
            rmSync(dir, { recursive: true, force: true });
        }
    });
    void it('opens an in-memory SQLite database', async () => {
        const store = await openStore('sqlite::memory:');
        assert.equal(await store.getOrCreateSetting('k', () => 'v'), 'v');
        await store.close();
    });
    void it('names only the scheme of a database URL it does not support', async () => {
        await assert.rejects(openStore('mysql://root:hunter2@db/regpay'), (error) => {
            assert.match(error.message, /mysql:/);
            assert.doesNotMatch(error.message, /hunter2/);
            return true;
        });
    });
});
//# sourceMappingURL=migrations.test.js.map