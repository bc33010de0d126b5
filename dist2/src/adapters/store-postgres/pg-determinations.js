import { transactionFromRow } from '../store-rows.js';
import { TRANSACTION_COLUMNS } from './pg-sql.js';
const RECENT = {
    name: 'recent_determinations',
    text: `SELECT ${TRANSACTION_COLUMNS} FROM transactions
         WHERE integrator_id = $1 AND lookup_key = $2 AND created_at >= $3 AND kind = 'IDENTIFIER_DETERMINATION'
         ORDER BY created_at DESC LIMIT $4`,
};
export async function recentDeterminations(pool, integratorId, lookupKey, since, limit) {
    const result = await pool.query({ ...RECENT, values: [integratorId, lookupKey, since, limit] });
    return result.rows.map(transactionFromRow);
}
//# sourceMappingURL=pg-determinations.js.map