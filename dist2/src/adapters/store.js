import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { openPostgresStore } from './store-postgres/postgres-store.js';
import { openSqliteStore } from './store-sqlite/sqlite-store.js';
export { StoreClosedError, StoreOverloadedError } from './write-queue.js';
export { StoreUnavailableError, StoreWriteError } from './store-ops.js';
/**
 * Open the store a database URL names, applying migrations first:
 * - `sqlite:./data/regpay.db` (relative to the working directory; the directory is created),
 *   `sqlite:/var/lib/regpay/regpay.db`, `sqlite::memory:` (gone when closed: tests and demos only);
 * - `postgres://user:pass@host:5432/db` or `postgresql://…` (any libpq-style URL `pg` accepts).
 * Options a dialect does not use are ignored by it.
 */
export async function openStore(url, options = {}) {
    if (url.startsWith('sqlite:')) {
        const target = url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
        if (target === '')
            throw new Error('database URL "sqlite:" names no file; use sqlite:./data/regpay.db or sqlite::memory:');
        if (target === ':memory:')
            return openSqliteStore(':memory:', options);
        const file = resolve(target);
        mkdirSync(dirname(file), { recursive: true });
        return openSqliteStore(file, options);
    }
    if (url.startsWith('postgres://') || url.startsWith('postgresql://'))
        return openPostgresStore(url, options);
    // Only the scheme is echoed: the rest of a URL may hold a password.
    const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(url)?.[0] ?? '(none)';
    throw new Error(`unsupported database URL scheme ${scheme}; expected sqlite: or postgres://`);
}
//# sourceMappingURL=store.js.map