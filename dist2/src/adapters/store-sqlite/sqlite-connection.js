import Database from 'better-sqlite3';
import { migrationSql, pendingMigrations, schemaMigrationsTableSql } from '../migrations.js';
/** Automatic checkpoint of a write connection, in pages (4 KiB). */
export const WAL_AUTOCHECKPOINT_PAGES = 10_000;
/** The writer's automatic checkpoint while the checkpointer thread runs: a backstop only. */
export const WAL_AUTOCHECKPOINT_BACKSTOP_PAGES = 100_000;
/**
 * Open a connection with the settings every regpay connection uses. WAL with synchronous=FULL:
 * a commit is durable once it returns (the WAL is fsynced on every commit), and readers never
 * block the writer nor wait for it. Read-only connections refuse writes (`query_only`), so the
 * writer connection stays the only one that changes the database (a checkpoint connection only
 * copies committed pages from the WAL into the database file).
 */
export function openConnection(filename, busyTimeoutMs, access) {
    const db = new Database(filename, { timeout: busyTimeoutMs });
    try {
        db.pragma('journal_mode = WAL');
        db.pragma('synchronous = FULL');
        db.pragma('foreign_keys = ON');
        db.pragma(`busy_timeout = ${Math.trunc(busyTimeoutMs)}`);
        // An 8 MiB page cache (the default is 2 MiB) holds the pages every write touches (the growing
        // end of each table and index, the newest transactions and outbox rows); older pages come from
        // the operating system's cache. Not larger: every COMMIT in WAL mode walks the whole page
        // cache's hash table (pcache1TruncateUnsafe), so the writer's CPU per commit grows with the
        // cache's size (bench/README.md).
        db.pragma('cache_size = -8192');
        db.pragma('temp_store = MEMORY');
        if (access === 'read-only')
            db.pragma('query_only = ON');
        // Checkpoint the WAL into the database every ~40 MiB instead of every ~4 MiB: each checkpoint
        // fsyncs the database file, and outbox rows rewritten several times within that window are
        // copied once. The writer thread raises this to a mere backstop once its checkpointer runs.
        else if (access === 'read-write')
            db.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
        // The checkpointer commits nothing; it checkpoints explicitly.
        else
            db.pragma('wal_autocheckpoint = 0');
        return db;
    }
    catch (error) {
        db.close();
        throw error;
    }
}
/**
 * BEGIN IMMEDIATE takes the write lock first, so two processes opening one file migrate one after
 * the other. Foreign keys are off while migrations run (a migration may rebuild a table, SQLite's
 * only way to change a constraint) and checked in full before the commit.
 */
export function migrate(db) {
    db.pragma('foreign_keys = OFF');
    db.exec('BEGIN IMMEDIATE');
    try {
        db.exec(schemaMigrationsTableSql('sqlite'));
        const applied = db.prepare('SELECT version, name FROM schema_migrations ORDER BY version').all();
        const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
        for (const migration of pendingMigrations(applied)) {
            for (const statement of migrationSql(migration, 'sqlite'))
                db.exec(statement);
            record.run(migration.version, migration.name, Date.now());
        }
        const broken = db.pragma('foreign_key_check');
        if (broken.length > 0)
            throw new Error(`migrations left ${broken.length} rows with a broken foreign key; nothing was changed`);
        db.exec('COMMIT');
    }
    catch (error) {
        if (db.inTransaction)
            db.exec('ROLLBACK');
        throw error;
    }
    finally {
        db.pragma('foreign_keys = ON');
    }
}
//# sourceMappingURL=sqlite-connection.js.map