/** A transaction waits for its scheme while a timer runs and no outcome is decided: along transactions_due (timed rows only). */
export const IN_FLIGHT_SQL = `SELECT scheme, COUNT(*) AS n FROM transactions WHERE due_at IS NOT NULL AND outcome IS NULL GROUP BY scheme`;
/**
 * Of the transactions created in the window (along transactions_created): how many ran past
 * their scheme's time budget (in a *_TIMEOUT state now, or failed by the service with AB06),
 * and the outcomes by reason code.
 */
export const WINDOW_COUNTS_SQL = `SELECT scheme, outcome, reason_code,
    SUM(CASE WHEN state LIKE '%\\_TIMEOUT' ESCAPE '\\' OR reason_code = 'AB06' THEN 1 ELSE 0 END) AS timed_out, COUNT(*) AS n
  FROM transactions WHERE created_at >= {from} AND created_at < {to}
  GROUP BY scheme, outcome, reason_code`;
/**
 * Time from acceptance to outcome of the window's decided transactions: nearest-rank p50 and p95
 * (rank = ceil(p × n / 100), in integer arithmetic), and the slowest.
 */
export const LATENCY_SQL = `WITH d AS (
    SELECT scheme, outcome_at - created_at AS ms,
      ROW_NUMBER() OVER (PARTITION BY scheme ORDER BY outcome_at - created_at) AS rn,
      COUNT(*) OVER (PARTITION BY scheme) AS n
    FROM transactions WHERE created_at >= {from} AND created_at < {to} AND outcome_at IS NOT NULL)
  SELECT scheme, MAX(n) AS n,
    MAX(CASE WHEN rn = (50 * n + 99) / 100 THEN ms END) AS p50,
    MAX(CASE WHEN rn = (95 * n + 99) / 100 THEN ms END) AS p95,
    MAX(ms) AS max
  FROM d GROUP BY scheme`;
/** One entry per scheme that has a transaction in flight or in the window, in scheme order. */
export function schemeHealthFromRows(inFlight, counts, latencies) {
    const byScheme = new Map();
    const entry = (scheme) => {
        let found = byScheme.get(scheme);
        if (found === undefined) {
            found = { inFlight: 0, created: 0, timedOut: 0, outcomes: [], latencyMs: null };
            byScheme.set(scheme, found);
        }
        return found;
    };
    for (const row of inFlight)
        entry(row.scheme).inFlight = Number(row.n);
    for (const row of counts) {
        const health = entry(row.scheme);
        health.created += Number(row.n);
        health.timedOut += Number(row.timed_out);
        if (row.outcome !== null)
            health.outcomes.push({ outcome: row.outcome, reasonCode: row.reason_code, count: Number(row.n) });
    }
    for (const row of latencies)
        entry(row.scheme).latencyMs = { count: Number(row.n), p50: Number(row.p50), p95: Number(row.p95), max: Number(row.max) };
    return [...byScheme.entries()]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([scheme, health]) => ({
        scheme: scheme,
        ...health,
        outcomes: health.outcomes.sort((a, b) => b.count - a.count || a.outcome.localeCompare(b.outcome) || (a.reasonCode ?? '').localeCompare(b.reasonCode ?? '')),
    }));
}
//# sourceMappingURL=scheme-health.js.map