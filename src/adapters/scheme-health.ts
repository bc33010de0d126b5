/**
 * Per-scheme health for operators (Store.schemeHealth, Store.schemeSeries) and what still waits
 * (Store.waitingTransactions), the same SQL in both stores: each query names its parameters
 * (`{from}`, `{to}`, …), which each store turns into its own placeholders.
 */
import type { SchemeHealth, SchemeSeries, WaitingQuery } from '../ports/store.js';
import type { SchemeName } from '../domain/schemes.js';

/** A transaction waits for its scheme while a timer runs and no outcome is decided: along transactions_claimable (timed rows only). */
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

type Count = number | bigint | string;
export interface InFlightRow { scheme: string; n: Count }
export interface WindowCountRow { scheme: string; outcome: string | null; reason_code: string | null; timed_out: Count; n: Count }
export interface LatencyRow { scheme: string; n: Count; p50: Count; p95: Count; max: Count }

/** One entry per scheme that has a transaction in flight or in the window, in scheme order. */
export function schemeHealthFromRows(inFlight: readonly InFlightRow[], counts: readonly WindowCountRow[], latencies: readonly LatencyRow[]): SchemeHealth[] {
  const byScheme = new Map<string, { inFlight: number; created: number; timedOut: number; outcomes: SchemeHealth['outcomes'][number][]; latencyMs: SchemeHealth['latencyMs'] }>();
  const entry = (scheme: string) => {
    let found = byScheme.get(scheme);
    if (found === undefined) {
      found = { inFlight: 0, created: 0, timedOut: 0, outcomes: [], latencyMs: null };
      byScheme.set(scheme, found);
    }
    return found;
  };
  for (const row of inFlight) entry(row.scheme).inFlight = Number(row.n);
  for (const row of counts) {
    const health = entry(row.scheme);
    health.created += Number(row.n);
    health.timedOut += Number(row.timed_out);
    if (row.outcome !== null) health.outcomes.push({ outcome: row.outcome, reasonCode: row.reason_code, count: Number(row.n) });
  }
  for (const row of latencies) entry(row.scheme).latencyMs = { count: Number(row.n), p50: Number(row.p50), p95: Number(row.p95), max: Number(row.max) };
  return [...byScheme.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([scheme, health]) => ({
      scheme: scheme as SchemeName,
      ...health,
      outcomes: health.outcomes.sort((a, b) => b.count - a.count || a.outcome.localeCompare(b.outcome) || (a.reasonCode ?? '').localeCompare(b.reasonCode ?? '')),
    }));
}

/**
 * The window cut into buckets of `{bucket}` ms from `{from}` (bucket n holds the transactions
 * created in [from + n × bucket, from + (n + 1) × bucket)): how many were accepted, and of those
 * the decided ones by outcome. Along transactions_created, like WINDOW_COUNTS_SQL.
 */
export const SERIES_COUNTS_SQL = `SELECT scheme, (created_at - {from}) / {bucket} AS bucket, outcome, COUNT(*) AS n
  FROM transactions WHERE created_at >= {from} AND created_at < {to}
  GROUP BY scheme, (created_at - {from}) / {bucket}, outcome`;

/** Per bucket, the nearest-rank p95 of the time from acceptance to outcome of its decided transactions (as LATENCY_SQL). */
export const SERIES_LATENCY_SQL = `WITH d AS (
    SELECT scheme, (created_at - {from}) / {bucket} AS bucket, outcome_at - created_at AS ms,
      ROW_NUMBER() OVER (PARTITION BY scheme, (created_at - {from}) / {bucket} ORDER BY outcome_at - created_at) AS rn,
      COUNT(*) OVER (PARTITION BY scheme, (created_at - {from}) / {bucket}) AS n
    FROM transactions WHERE created_at >= {from} AND created_at < {to} AND outcome_at IS NOT NULL)
  SELECT scheme, bucket, MAX(CASE WHEN rn = (95 * n + 99) / 100 THEN ms END) AS p95
  FROM d GROUP BY scheme, bucket`;

export interface SeriesCountRow { scheme: string; bucket: Count; outcome: string | null; n: Count }
export interface SeriesLatencyRow { scheme: string; bucket: Count; p95: Count }

/**
 * Every bucket of the window for each scheme with a transaction in it (empty buckets included, so
 * a chart's x axis is time), in scheme order.
 */
export function schemeSeriesFromRows(from: number, to: number, bucketMs: number, counts: readonly SeriesCountRow[], latencies: readonly SeriesLatencyRow[]): SchemeSeries[] {
  const size = Math.ceil((to - from) / bucketMs);
  const byScheme = new Map<string, { accepted: number; outcomes: Map<string, number>; p95Ms: number | null }[]>();
  const buckets = (scheme: string) => {
    let found = byScheme.get(scheme);
    if (found === undefined) {
      found = Array.from({ length: size }, () => ({ accepted: 0, outcomes: new Map<string, number>(), p95Ms: null }));
      byScheme.set(scheme, found);
    }
    return found;
  };
  for (const row of counts) {
    const bucket = buckets(row.scheme)[Number(row.bucket)];
    if (bucket === undefined) continue;
    bucket.accepted += Number(row.n);
    if (row.outcome !== null) bucket.outcomes.set(row.outcome, (bucket.outcomes.get(row.outcome) ?? 0) + Number(row.n));
  }
  for (const row of latencies) {
    const bucket = buckets(row.scheme)[Number(row.bucket)];
    if (bucket !== undefined && row.p95 !== null) bucket.p95Ms = Number(row.p95);
  }
  return [...byScheme.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([scheme, list]) => ({
      scheme: scheme as SchemeName,
      buckets: list.map((bucket, index) => ({
        from: from + index * bucketMs,
        accepted: bucket.accepted,
        outcomes: [...bucket.outcomes.entries()].sort(([a, x], [b, y]) => y - x || a.localeCompare(b)).map(([outcome, count]) => ({ outcome, count })),
        p95Ms: bucket.p95Ms,
      })),
    }));
}

/**
 * What still waits, for operators (Store.waitingTransactions), the same SQL in both stores with
 * named parameters `{open}` (a list of "KIND STATE" texts: the states each kind can leave, from
 * the machines), `{scheme}`, `{integrator}`, `{state}`, `{decided}` ('yes' or 'no'; each null for any), `{afterCreatedAt}`,
 * `{afterId}` and `{limit}`. A transaction rests in a state it can leave only with a timer, so the
 * timed rows (transactions_claimable) are all there is to read, not the whole table; a final state
 * that keeps a timer for a last notice to the scheme is left out by `{open}`. Longest waiting first.
 */
export function waitingSql(columns: string, open: string): string {
  return `SELECT ${columns}, t.due_at FROM transactions t
  WHERE t.due_at IS NOT NULL AND t.kind || ' ' || t.state ${open}
    AND ({scheme} IS NULL OR t.scheme = {scheme}) AND ({integrator} IS NULL OR t.integrator_id = {integrator}) AND ({state} IS NULL OR t.state = {state})
    AND ({decided} IS NULL OR (CASE WHEN t.outcome IS NULL THEN 'no' ELSE 'yes' END) = {decided})
    AND (t.created_at, t.id) > ({afterCreatedAt}, {afterId})
  ORDER BY t.created_at, t.id LIMIT {limit}`;
}

/** The `{decided}` parameter of WaitingQuery.decided. */
export function decidedParam(decided: boolean | undefined): 'yes' | 'no' | null {
  return decided === undefined ? null : decided ? 'yes' : 'no';
}

/** The `{open}` texts of WaitingQuery.open. */
export function openStateKeys(open: WaitingQuery['open']): string[] {
  return open.flatMap((kind) => kind.states.map((state) => `${kind.kind} ${state}`));
}
