import Database from 'better-sqlite3';
import pg from 'pg';
import type { TransactionKind } from '../src/domain/kinds.js';

/** A transaction as the invariants read it: the columns they compare, `data` unparsed. */
export interface TransactionView {
  readonly id: string;
  readonly kind: TransactionKind;
  readonly integratorId: string;
  readonly uetr: string;
  readonly messageId: string;
  readonly state: string;
  readonly version: number;
  readonly amountMinor: bigint | null;
  readonly dueAt: number | null;
  readonly data: string;
}

export interface HistoryView {
  readonly version: number;
  readonly fromState: string | null;
  readonly toState: string;
}

/** An outbox row; `body` only for callbacks (the invariants read outcomes from callbacks alone). */
export interface OutboxView {
  readonly id: string;
  readonly channel: 'event' | 'callback';
  readonly status: 'PENDING' | 'DELIVERED' | 'UNDELIVERED';
  readonly body: string | null;
}

/**
 * The invariants' read-only view of the service's database, beside the service's own store:
 * a separate connection, reading only committed rows, never through the store port (so a bug
 * injected into the port cannot hide from it). Reads the few columns the checks compare.
 */
export interface Inspector {
  transaction(id: string): Promise<TransactionView | undefined>;
  findTransaction(integratorId: string, uetr: string, kind: TransactionKind): Promise<TransactionView | undefined>;
  /** History rows with a version above `after`, in version order. */
  historyAfter(id: string, after: number): Promise<HistoryView[]>;
  outbox(id: string): Promise<OutboxView[]>;
  /** Ids of an integrator's outbox rows given up on (UNDELIVERED). */
  undelivered(integratorId: string): Promise<string[]>;
  /** Outbox ids recorded as delivered more than once. */
  deliveredTwice(): Promise<string[]>;
  /** When an outbox row was written, and when each of its acknowledged attempts was recorded, in order. */
  deliveries(outboxId: string): Promise<{ createdAt: number; delivered: number[] }>;
  /** The earliest time a transaction timer or a pending outbox row is due. */
  nextDue(): Promise<number | undefined>;
  pendingOutbox(): Promise<number>;
  /** A number that grows whenever a state is entered or a delivery attempted (the drain's progress). */
  progress(): Promise<number>;
  /** How many transactions are in each (kind, state). */
  stateCounts(): Promise<{ kind: TransactionKind; state: string; count: number }[]>;
  /** Every transaction's id, state and version, in id order (the end of the trace hash). */
  finalStates(): Promise<{ id: string; state: string; version: number }[]>;
  /** The transactions and outbox rows `owner` holds a lease on that has not lapsed at `now`. */
  leasedBy(owner: string, now: number): Promise<{ transactions: string[]; outbox: string[] }>;
  close(): Promise<void>;
}

interface TransactionRow {
  id: string;
  kind: TransactionKind;
  integrator_id: string;
  uetr: string;
  message_id: string;
  state: string;
  version: number;
  amount_minor: bigint | null;
  due_at: bigint | null;
  data: string;
}

const TRANSACTION_COLUMNS = 'id, kind, integrator_id, uetr, message_id, state, version, amount_minor, due_at, data';

function transactionView(row: TransactionRow | undefined): TransactionView | undefined {
  if (row === undefined) return undefined;
  return {
    id: row.id,
    kind: row.kind,
    integratorId: row.integrator_id,
    uetr: row.uetr,
    messageId: row.message_id,
    state: row.state,
    version: Number(row.version),
    amountMinor: row.amount_minor === null ? null : BigInt(row.amount_minor),
    dueAt: row.due_at === null ? null : Number(row.due_at),
    data: row.data,
  };
}

/** The inspector of an SQLite store file: synchronous prepared statements on a read-only connection. */
export function sqliteInspector(file: string): Inspector {
  const db = new Database(file, { readonly: true });
  db.defaultSafeIntegers(true);
  const transaction = db.prepare(`SELECT ${TRANSACTION_COLUMNS} FROM transactions WHERE id = ?`);
  const find = db.prepare(`SELECT ${TRANSACTION_COLUMNS} FROM transactions WHERE integrator_id = ? AND uetr = ? AND kind = ?`);
  const history = db.prepare('SELECT version, from_state AS fromState, to_state AS toState FROM state_history WHERE transaction_id = ? AND version > ? ORDER BY version');
  const outbox = db.prepare(`SELECT id, channel, status, CASE WHEN channel = 'callback' THEN body END AS body FROM outbox WHERE transaction_id = ? ORDER BY seq`);
  const twice = db.prepare('SELECT outbox_id FROM delivery_attempts WHERE delivered = 1 GROUP BY outbox_id HAVING COUNT(*) > 1').pluck();
  const undelivered = db.prepare(`SELECT id FROM outbox WHERE integrator_id = ? AND status = 'UNDELIVERED'`).pluck();
  // No index serves MIN(due_at) alone (the store's index orders by the claimable time): a scan, taken only when the run is idle.
  const nextDue = db.prepare(`SELECT MIN(t) FROM (SELECT MIN(due_at) AS t FROM transactions WHERE due_at IS NOT NULL UNION ALL SELECT MIN(next_attempt_at) FROM outbox WHERE status = 'PENDING')`).pluck();
  const pending = db.prepare(`SELECT COUNT(*) FROM outbox WHERE status = 'PENDING'`).pluck();
  // Both tables only grow: their largest rowid moves whenever a row is added.
  const progress = db.prepare('SELECT (SELECT COALESCE(MAX(rowid), 0) FROM state_history) + (SELECT COALESCE(MAX(id), 0) FROM delivery_attempts)').pluck();
  const counts = db.prepare('SELECT kind, state, COUNT(*) AS count FROM transactions GROUP BY kind, state');
  const finals = db.prepare('SELECT id, state, version FROM transactions ORDER BY id');
  const leasedTransactions = db.prepare('SELECT id FROM transactions WHERE lease_owner = ? AND lease_until > ?').pluck();
  const leasedOutbox = db.prepare('SELECT id FROM outbox WHERE lease_owner = ? AND lease_until > ?').pluck();
  const number = (value: unknown): number => Number(value);
  const createdAt = db.prepare('SELECT created_at FROM outbox WHERE id = ?').pluck();
  const deliveredAt = db.prepare('SELECT at FROM delivery_attempts WHERE outbox_id = ? AND delivered = 1 ORDER BY id').pluck();
  return {
    transaction: (id) => Promise.resolve(transactionView(transaction.get(id) as TransactionRow | undefined)),
    findTransaction: (integratorId, uetr, kind) => Promise.resolve(transactionView(find.get(integratorId, uetr, kind) as TransactionRow | undefined)),
    historyAfter: (id, after) => Promise.resolve((history.all(id, after) as { version: bigint; fromState: string | null; toState: string }[]).map((row) => ({ ...row, version: Number(row.version) }))),
    outbox: (id) => Promise.resolve(outbox.all(id) as OutboxView[]),
    undelivered: (integratorId) => Promise.resolve(undelivered.all(integratorId) as string[]),
    deliveredTwice: () => Promise.resolve(twice.all() as string[]),
    deliveries: (outboxId) =>
      Promise.resolve({ createdAt: number(createdAt.get(outboxId)), delivered: (deliveredAt.all(outboxId) as bigint[]).map(number) }),
    nextDue: () => {
      const due = nextDue.get() as bigint | null;
      return Promise.resolve(due === null ? undefined : Number(due));
    },
    pendingOutbox: () => Promise.resolve(number(pending.get())),
    progress: () => Promise.resolve(number(progress.get())),
    stateCounts: () => Promise.resolve((counts.all() as { kind: TransactionKind; state: string; count: bigint }[]).map((row) => ({ ...row, count: Number(row.count) }))),
    finalStates: () => Promise.resolve((finals.all() as { id: string; state: string; version: bigint }[]).map((row) => ({ ...row, version: Number(row.version) }))),
    leasedBy: (owner, now) => Promise.resolve({ transactions: leasedTransactions.all(owner, now) as string[], outbox: leasedOutbox.all(owner, now) as string[] }),
    close: () => {
      db.close();
      return Promise.resolve();
    },
  };
}

/**
 * The inspector of a PostgreSQL database: the same reads in SQL, on a connection of its own.
 * `pg` returns BIGINT columns (times, amounts, counts) as strings and JSONB `data` parsed: both
 * are converted to what the interface promises (`data` back to JSON text). Ids are ordered
 * byte-wise (COLLATE "C"), as SQLite orders them, whatever the server's default collation.
 */
export async function pgInspector(url: string): Promise<Inspector> {
  const client = new pg.Client({ connectionString: url, application_name: 'regpay-sim-inspector' });
  await client.connect();
  const rows = async <T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> => (await client.query<T>(text, values)).rows;
  const one = async (text: string, values: unknown[] = []): Promise<unknown> => Object.values((await rows(text, values))[0] ?? {})[0];
  type PgTransactionRow = Omit<TransactionRow, 'amount_minor' | 'due_at' | 'data'> & { amount_minor: string | null; due_at: string | null; data: unknown };
  const view = (row: PgTransactionRow | undefined): TransactionView | undefined =>
    row === undefined ? undefined : transactionView({ ...row, amount_minor: row.amount_minor === null ? null : BigInt(row.amount_minor), due_at: row.due_at === null ? null : BigInt(row.due_at), data: JSON.stringify(row.data) });
  return {
    transaction: async (id) => view((await rows<PgTransactionRow>(`SELECT ${TRANSACTION_COLUMNS} FROM transactions WHERE id = $1`, [id]))[0]),
    findTransaction: async (integratorId, uetr, kind) => view((await rows<PgTransactionRow>(`SELECT ${TRANSACTION_COLUMNS} FROM transactions WHERE integrator_id = $1 AND uetr = $2 AND kind = $3`, [integratorId, uetr, kind]))[0]),
    historyAfter: async (id, after) =>
      (await rows<{ version: number; fromState: string | null; toState: string }>('SELECT version, from_state AS "fromState", to_state AS "toState" FROM state_history WHERE transaction_id = $1 AND version > $2 ORDER BY version', [id, after])).map((row) => ({ ...row, version: Number(row.version) })),
    outbox: (id) => rows<OutboxView>(`SELECT id, channel, status, CASE WHEN channel = 'callback' THEN body END AS body FROM outbox WHERE transaction_id = $1 ORDER BY seq`, [id]),
    undelivered: async (integratorId) => (await rows<{ id: string }>(`SELECT id FROM outbox WHERE integrator_id = $1 AND status = 'UNDELIVERED'`, [integratorId])).map((row) => row.id),
    deliveredTwice: async () => (await rows<{ outbox_id: string }>('SELECT outbox_id FROM delivery_attempts WHERE delivered GROUP BY outbox_id HAVING COUNT(*) > 1')).map((row) => row.outbox_id),
    deliveries: async (outboxId) => ({
      createdAt: Number(await one('SELECT created_at FROM outbox WHERE id = $1', [outboxId])),
      delivered: (await rows<{ at: string }>('SELECT at FROM delivery_attempts WHERE outbox_id = $1 AND delivered ORDER BY id', [outboxId])).map((row) => Number(row.at)),
    }),
    nextDue: async () => {
      const due = await one(`SELECT MIN(t) FROM (SELECT MIN(due_at) AS t FROM transactions WHERE due_at IS NOT NULL UNION ALL SELECT MIN(next_attempt_at) FROM outbox WHERE status = 'PENDING') AS due`);
      return due === null || due === undefined ? undefined : Number(due);
    },
    pendingOutbox: async () => Number(await one(`SELECT COUNT(*) FROM outbox WHERE status = 'PENDING'`)),
    // No rowid: the history's row count and the attempts' largest id, both of which only grow.
    progress: async () => Number(await one('SELECT (SELECT COUNT(*) FROM state_history) + (SELECT COALESCE(MAX(id), 0) FROM delivery_attempts)')),
    stateCounts: async () => (await rows<{ kind: TransactionKind; state: string; count: string }>('SELECT kind, state, COUNT(*) AS count FROM transactions GROUP BY kind, state')).map((row) => ({ ...row, count: Number(row.count) })),
    finalStates: async () => (await rows<{ id: string; state: string; version: number }>('SELECT id, state, version FROM transactions ORDER BY id COLLATE "C"')).map((row) => ({ ...row, version: Number(row.version) })),
    leasedBy: async (owner, now) => ({
      transactions: (await rows<{ id: string }>('SELECT id FROM transactions WHERE lease_owner = $1 AND lease_until > $2', [owner, now])).map((row) => row.id),
      outbox: (await rows<{ id: string }>('SELECT id FROM outbox WHERE lease_owner = $1 AND lease_until > $2', [owner, now])).map((row) => row.id),
    }),
    close: () => client.end(),
  };
}
