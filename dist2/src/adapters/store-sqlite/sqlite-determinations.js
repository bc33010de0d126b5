/**
 * The identifier-determination reads of the SQLite store: the latest determinations of one proxy
 * or account (along `transactions_lookup`), which link a proxy payment to what resolved it.
 */
import { transactionFromRow } from '../store-rows.js';
import { LIMIT_PARAM, TRANSACTION_COLUMNS } from './sqlite-rows.js';
export function prepareDeterminationReads(db) {
    const recent = db
        .prepare(`SELECT ${TRANSACTION_COLUMNS} FROM transactions
       WHERE integrator_id = @integratorId AND lookup_key = @lookupKey AND created_at >= @since AND kind = 'IDENTIFIER_DETERMINATION'
       ORDER BY created_at DESC ${LIMIT_PARAM}`)
        .safeIntegers(true);
    return {
        recentDeterminations(integratorId, lookupKey, since, limit) {
            return recent.all({ integratorId, lookupKey, since, limit }).map(transactionFromRow);
        },
    };
}
//# sourceMappingURL=sqlite-determinations.js.map