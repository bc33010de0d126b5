/**
 * `node dist/bench/wal-pages.js`: what one commit of intakes writes to the WAL, by B-tree. Runs
 * the SQLite store's own executor on this thread (no writer thread, no checkpoint) on a new
 * database: WAL_WARM_UP intakes first (default 100,000, so the tables and indexes have depth),
 * then WAL_BATCHES batches (2,000) of WAL_BATCH intakes each (11, the batch size of `npm run bench`
 * at saturation), each batch one transaction as in the store; then reads the WAL's frame headers
 * and names the table or index that owns each page (the `dbstat` table). Printed: frames per
 * commit and per intake, the bytes per commit, the time per intake (fsync included), and the
 * frames per commit of each B-tree, once with random message ids (as `npm run bench` sends) and
 * once with message ids that sort in the order they are sent, in this run. The WAL is emptied
 * before the measured batches, so each of their frames extends the file, which the service's
 * WAL, reused from its start, mostly does not: the time per intake is higher than the service's,
 * the frames are the same.
 */
import Database from 'better-sqlite3';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { migrate, openConnection } from '../src/adapters/store-sqlite/sqlite-connection.js';
import { SqliteExecutor } from '../src/adapters/store-sqlite/sqlite-executor.js';
import { intakeTransfer } from './intake-transfer.js';
import { scratchDir } from './scratch-dir.js';
const WARM_UP = Number(process.env.WAL_WARM_UP ?? 100_000);
const BATCHES = Number(process.env.WAL_BATCHES ?? 2_000);
const BATCH = Number(process.env.WAL_BATCH ?? 11);
const WAL_HEADER_BYTES = 32;
const FRAME_HEADER_BYTES = 24;
function measure(sequentialMessageIds) {
    const dir = scratchDir('regpay-wal-pages-');
    const file = join(dir, 'bench.db');
    const db = openConnection(file, 5_000, 'read-write');
    try {
        migrate(db);
        db.pragma('wal_autocheckpoint = 0');
        const executor = new SqliteExecutor(db);
        const run = (batches) => {
            for (let batch = 0; batch < batches; batch += 1) {
                executor.runBatch(Array.from({ length: BATCH }, () => ({ kind: 'intake', tx: intakeTransfer({ sequentialMessageIds }) })));
            }
        };
        run(Math.ceil(WARM_UP / BATCH));
        db.pragma('wal_checkpoint(TRUNCATE)');
        const started = performance.now();
        run(BATCHES);
        const usPerIntake = ((performance.now() - started) * 1000) / (BATCHES * BATCH);
        return { ...readWal(file), usPerIntake };
    }
    finally {
        db.close();
        // About a gigabyte of database and WAL: gone before the next measurement, not at exit.
        rmSync(dir, { recursive: true, force: true });
    }
}
/** The frames of the WAL (of its current salt), each attributed to the B-tree owning its page. */
function readWal(file) {
    const wal = readFileSync(`${file}-wal`);
    const pageSize = wal.readUInt32BE(8);
    const owners = new Database(file, { readonly: true });
    let owner;
    try {
        // An index is named with its columns: SQLite's own names (sqlite_autoindex_transactions_2) say little.
        const indexes = owners.prepare("SELECT name FROM sqlite_schema WHERE type = 'index'").pluck().all();
        const label = new Map(indexes.map((index) => [index, `${index} (${owners.pragma(`index_info('${index}')`).map((column) => column.name).join(', ')})`]));
        owner = new Map(owners.prepare('SELECT pageno, name FROM dbstat').all().map((row) => [row.pageno, label.get(row.name) ?? row.name]));
    }
    finally {
        owners.close();
    }
    const framesByTree = new Map();
    let frames = 0;
    let commits = 0;
    for (let offset = WAL_HEADER_BYTES; offset + FRAME_HEADER_BYTES + pageSize <= wal.length; offset += FRAME_HEADER_BYTES + pageSize) {
        // A frame of an earlier pass over the file carries another salt.
        if (wal.readUInt32BE(offset + 8) !== wal.readUInt32BE(16) || wal.readUInt32BE(offset + 12) !== wal.readUInt32BE(20))
            break;
        const page = wal.readUInt32BE(offset);
        const tree = page === 1 ? 'page 1 (header, schema)' : (owner.get(page) ?? 'freed since');
        framesByTree.set(tree, (framesByTree.get(tree) ?? 0) + 1);
        frames += 1;
        if (wal.readUInt32BE(offset + 4) !== 0)
            commits += 1;
    }
    return { frames, commits, pageSize, framesByTree };
}
function report(name, figures) {
    const perCommit = (count) => (count / figures.commits).toFixed(2).padStart(6);
    return [
        `${name}: ${figures.commits} commits of ${BATCH} intakes, ${(figures.frames / figures.commits).toFixed(1)} frames per commit ` +
            `(${(figures.frames / figures.commits / BATCH).toFixed(2)} per intake, ${((figures.frames / figures.commits) * (figures.pageSize + FRAME_HEADER_BYTES) / 1024).toFixed(0)} KiB), ` +
            `${figures.usPerIntake.toFixed(1)} µs per intake with the fsync`,
        ...[...figures.framesByTree].sort((a, b) => b[1] - a[1]).map(([tree, count]) => `  ${perCommit(count)} per commit  ${tree}`),
    ].join('\n');
}
const random = measure(false);
const sequential = measure(true);
process.stdout.write([
    report('random message ids', random),
    report('sequential message ids', sequential),
    `sequential / random: frames ${(sequential.frames / sequential.commits / (random.frames / random.commits)).toFixed(2)}, time per intake ${(sequential.usPerIntake / random.usPerIntake).toFixed(2)}`,
].join('\n') + '\n');
//# sourceMappingURL=wal-pages.js.map