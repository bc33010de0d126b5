/**
 * The identifier-determination reads of the SQLite store: the latest determinations of one proxy
 * or account (along `transactions_lookup`), which link a proxy payment to what resolved it.
 */
import { transactionFromRow, type TransactionRow } from '../store-rows.js';
import type { Db } from './sqlite-connection.js';
import { LIMIT_PARAM, TRANSACTION_COLUMNS } from './sqlite-rows.js';
import type { TransactionRecord } from '../../ports/store.js';

export function prepareDeterminationReads(db: Db) {
  const recent = db
    .prepare(
      `SELECT ${TRANSACTION_COLUMNS} FROM transactions
       WHERE integrator_id = @integratorId AND lookup_key = @lookupKey AND created_at >= @since AND kind = 'IDENTIFIER_DETERMINATION'
       ORDER BY created_at DESC ${LIMIT_PARAM}`,
    )
    .safeIntegers(true);
  return {
    recentDeterminations(integratorId: string, lookupKey: string, since: number, limit: number): TransactionRecord[] {
      return (recent.all({ integratorId, lookupKey, since, limit }) as TransactionRow[]).map(transactionFromRow);
    },
  };
}
