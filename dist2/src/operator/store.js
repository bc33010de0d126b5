import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
/**
 * The operator simulator's own store: one SQLite file, shared by nothing but the operator, so every
 * service instance talks to one operator that remembers every message it took across its own
 * restarts. It holds
 * - the operator's records (operator-state.ts) by scheme, kind and id, as JSON;
 * - the work it scheduled (answers due later), so a restart plays them at their time, or at once
 *   when that time has passed while it was down;
 * - the documents it has to deliver to the service, until the service acknowledged each.
 *
 * better-sqlite3 is synchronous, and so is the operator's logic: taking a message, its record
 * changes and the answers it schedules are one transaction (`transaction`). WAL with
 * synchronous=NORMAL: a committed transaction survives the operator's process being killed (not
 * a power loss, which a simulator need not survive).
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS records (
  scheme TEXT NOT NULL,
  kind TEXT NOT NULL,
  id TEXT NOT NULL,
  uetr TEXT,
  body TEXT NOT NULL,
  PRIMARY KEY (scheme, kind, id)
);
CREATE INDEX IF NOT EXISTS records_by_uetr ON records (scheme, kind, uetr) WHERE uetr IS NOT NULL;
CREATE TABLE IF NOT EXISTS sequences (
  scheme TEXT PRIMARY KEY,
  value INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS scheduled (
  id INTEGER PRIMARY KEY,
  scheme TEXT NOT NULL,
  due_at INTEGER NOT NULL,
  action TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS deliveries (
  id INTEGER PRIMARY KEY,
  scheme TEXT NOT NULL,
  subject TEXT NOT NULL,
  message_name TEXT NOT NULL,
  message_id TEXT NOT NULL,
  document TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  due_at INTEGER NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS deliveries_by_subject ON deliveries (scheme, subject, id);
CREATE INDEX IF NOT EXISTS deliveries_by_due ON deliveries (due_at);
`;
class SqliteTable {
    scheme;
    kind;
    #get;
    #put;
    #idOf;
    #size;
    constructor(db, scheme, kind) {
        this.scheme = scheme;
        this.kind = kind;
        this.#get = db.prepare('SELECT body FROM records WHERE scheme = ? AND kind = ? AND id = ?');
        this.#put = db.prepare(`INSERT INTO records (scheme, kind, id, uetr, body) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (scheme, kind, id) DO UPDATE SET body = excluded.body, uetr = COALESCE(excluded.uetr, records.uetr)`);
        this.#idOf = db.prepare('SELECT id FROM records WHERE scheme = ? AND kind = ? AND uetr = ? ORDER BY rowid DESC LIMIT 1');
        this.#size = db.prepare('SELECT count(*) AS count FROM records WHERE scheme = ? AND kind = ?');
    }
    get size() {
        return this.#size.get(this.scheme, this.kind)?.count ?? 0;
    }
    get(id) {
        const row = this.#get.get(this.scheme, this.kind, id);
        return row === undefined ? undefined : JSON.parse(row.body);
    }
    put(id, record, uetr) {
        this.#put.run(this.scheme, this.kind, id, uetr?.toLowerCase() ?? null, JSON.stringify(record));
    }
    idOf(uetr) {
        return this.#idOf.get(this.scheme, this.kind, uetr.toLowerCase())?.id;
    }
}
export class OperatorStore {
    #db;
    #states = new Map();
    #statements;
    /** Opens (creating it when missing) the store at `path`; `readonly` for a look from another process (tests, tools). */
    constructor(path, options = {}) {
        const readonly = options.readonly === true;
        if (!readonly)
            mkdirSync(dirname(path), { recursive: true });
        const db = new Database(path, { readonly, fileMustExist: readonly });
        this.#db = db;
        db.pragma('busy_timeout = 5000');
        if (!readonly) {
            db.pragma('journal_mode = WAL');
            db.pragma('synchronous = NORMAL');
            db.exec(SCHEMA);
        }
        this.#statements = {
            nextSequence: db.prepare('INSERT INTO sequences (scheme, value) VALUES (?, 1) ON CONFLICT (scheme) DO UPDATE SET value = value + 1 RETURNING value'),
            schedule: db.prepare('INSERT INTO scheduled (scheme, due_at, action) VALUES (?, ?, ?)'),
            scheduled: db.prepare('SELECT id, scheme, due_at, action FROM scheduled ORDER BY id'),
            takeScheduled: db.prepare('DELETE FROM scheduled WHERE id = ? RETURNING id, scheme, due_at, action'),
            addDelivery: db.prepare('INSERT INTO deliveries (scheme, subject, message_name, message_id, document, created_at, due_at) VALUES (?, ?, ?, ?, ?, ?, ?)'),
            dueDeliveries: db.prepare(`SELECT * FROM deliveries d
         WHERE d.due_at <= ?
           AND NOT EXISTS (SELECT 1 FROM deliveries e WHERE e.scheme = d.scheme AND e.subject = d.subject AND e.id < d.id)
         ORDER BY d.id LIMIT ?`),
            nextDeliveryAt: db.prepare(`SELECT min(d.due_at) AS due FROM deliveries d
         WHERE NOT EXISTS (SELECT 1 FROM deliveries e WHERE e.scheme = d.scheme AND e.subject = d.subject AND e.id < d.id)`),
            due: db.prepare('UPDATE deliveries SET due_at = ? WHERE id = ?'),
            dueNow: db.prepare('UPDATE deliveries SET due_at = ? WHERE due_at > ?'),
            delivered: db.prepare('DELETE FROM deliveries WHERE id = ?'),
            retryDelivery: db.prepare('UPDATE deliveries SET attempts = attempts + 1, due_at = ? WHERE id = ?'),
            pendingDeliveries: db.prepare('SELECT count(*) AS count FROM deliveries'),
        };
    }
    /** Runs `work` as one transaction: all of its writes are kept, or none. */
    transaction(work) {
        return this.#db.transaction(work)();
    }
    /** The operator's state of one scheme. */
    state(scheme) {
        let state = this.#states.get(scheme);
        if (state === undefined) {
            const db = this.#db;
            const next = this.#statements.nextSequence;
            state = {
                transfers: new SqliteTable(db, scheme, 'transfer'),
                failedOnce: new SqliteTable(db, scheme, 'failed_once'),
                lookups: new SqliteTable(db, scheme, 'lookup'),
                requests: new SqliteTable(db, scheme, 'request'),
                cancellations: new SqliteTable(db, scheme, 'cancellation'),
                inbound: new SqliteTable(db, scheme, 'inbound'),
                inboundMessages: new SqliteTable(db, scheme, 'inbound_message'),
                nextSequence: () => next.get(scheme)?.value ?? 0,
            };
            this.#states.set(scheme, state);
        }
        return state;
    }
    schedule(scheme, dueAt, action) {
        return Number(this.#statements.schedule.run(scheme, dueAt, JSON.stringify(action)).lastInsertRowid);
    }
    /** Every action scheduled and not yet run. */
    scheduled() {
        return this.#statements.scheduled.all().map(scheduledRow);
    }
    /** Takes the scheduled action out of the store to run it; undefined when it already ran. */
    takeScheduled(id) {
        const row = this.#statements.takeScheduled.get(id);
        return row === undefined ? undefined : scheduledRow(row);
    }
    addDelivery(scheme, subject, document, now, dueAt) {
        this.#statements.addDelivery.run(scheme, subject, document.messageName, document.messageId, document.document, now, dueAt);
    }
    /**
     * Deliveries due by `now` that head their subject's queue (nothing earlier of the same subject
     * waits), oldest first: documents about one transaction reach the service in order.
     */
    dueDeliveries(now, limit) {
        return this.#statements.dueDeliveries.all(now, limit).map(deliveryRow);
    }
    /** When the next delivery that heads its subject's queue falls due; undefined when none waits. */
    nextDeliveryAt() {
        return this.#statements.nextDeliveryAt.get()?.due ?? undefined;
    }
    /** Sets when a delivery is due: later while it is being sent (so it is not taken twice), or when it is to be tried again. */
    dueAt(id, at) {
        this.#statements.due.run(at, id);
    }
    /** Every delivery due at `now` at the latest: at start, nothing waits for a send or a pause of a process that is gone. */
    allDueBy(now) {
        this.#statements.dueNow.run(now, now);
    }
    delivered(id) {
        this.#statements.delivered.run(id);
    }
    retryDelivery(id, dueAt) {
        this.#statements.retryDelivery.run(dueAt, id);
    }
    /** Deliveries not yet acknowledged. */
    get pendingDeliveries() {
        return this.#statements.pendingDeliveries.get()?.count ?? 0;
    }
    close() {
        this.#db.close();
    }
}
function scheduledRow(row) {
    return { id: row.id, scheme: row.scheme, dueAt: row.due_at, action: JSON.parse(row.action) };
}
function deliveryRow(row) {
    return {
        id: row.id,
        scheme: row.scheme,
        subject: row.subject,
        messageName: row.message_name,
        messageId: row.message_id,
        document: row.document,
        createdAt: row.created_at,
        dueAt: row.due_at,
        attempts: row.attempts,
    };
}
//# sourceMappingURL=store.js.map