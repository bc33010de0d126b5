/**
 * The identifier-determination SQL of the PostgreSQL store: the latest determinations of one
 * proxy or account (along `transactions_lookup`), which link a proxy payment to what resolved it.
 */
import type pg from 'pg';
import type { TransactionRecord } from '../../ports/store.js';
import { transactionFromRow, type TransactionRow } from '../store-rows.js';
import { TRANSACTION_COLUMNS } from './pg-sql.js';

const RECENT: pg.QueryConfig = {
  name: 'recent_determinations',
  text: `SELECT ${TRANSACTION_COLUMNS} FROM transactions
         WHERE integrator_id = $1 AND lookup_key = $2 AND created_at >= $3 AND kind = 'IDENTIFIER_DETERMINATION'
         ORDER BY created_at DESC LIMIT $4`,
};

export async function recentDeterminations(pool: pg.Pool, integratorId: string, lookupKey: string, since: number, limit: number): Promise<TransactionRecord[]> {
  const result = await pool.query<TransactionRow>({ ...RECENT, values: [integratorId, lookupKey, since, limit] });
  return result.rows.map(transactionFromRow);
}
