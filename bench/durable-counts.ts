/**
 * The service's count of durable commits and fsyncs, read from its /metrics
 * (`regpay_store_commits_total`, `regpay_store_fsyncs_total` summed over its sources): the bench
 * reads it before and after a stretch of load and divides by the transactions it carried. A count
 * whose counter the service does not declare (a build that predates it, e.g. the ref of `npm run
 * bench -- --against`) is NaN, not 0; a declared counter without samples (the fsyncs on
 * PostgreSQL) is 0.
 */
export interface DurableCounts {
  readonly commits: number;
  /** Those holding a transaction's state (`holding="transactions"`): the commits on its path, not its deliveries'. */
  readonly transactionCommits: number;
  /** SQLite only (PostgreSQL's fsyncs are the server's own, not counted): a commit's WAL fsync, and the checkpointer's. */
  readonly fsyncs: number;
  readonly checkpointFsyncs: number;
}

export function durableCountsOf(metricsText: string): DurableCounts {
  const declared = (counter: string): boolean => metricsText.includes(`# TYPE ${counter} counter`);
  const sum = (counter: string, pattern: RegExp): number =>
    declared(counter) ? [...metricsText.matchAll(pattern)].reduce((total, match) => total + Number(match[1]), 0) : Number.NaN;
  return {
    commits: sum('regpay_store_commits_total', /^regpay_store_commits_total(?:\{[^}]*\})? (\S+)$/gm),
    transactionCommits: sum('regpay_store_commits_total', /^regpay_store_commits_total\{[^}]*holding="transactions"[^}]*\} (\S+)$/gm),
    fsyncs: sum('regpay_store_fsyncs_total', /^regpay_store_fsyncs_total(?:\{[^}]*\})? (\S+)$/gm),
    checkpointFsyncs: sum('regpay_store_fsyncs_total', /^regpay_store_fsyncs_total\{[^}]*source="checkpoint"[^}]*\} (\S+)$/gm),
  };
}

/** The counts of the service at `url` now. */
export async function durableTotals(url: string): Promise<DurableCounts> {
  const response = await fetch(`${url}/metrics`);
  if (!response.ok) throw new Error(`GET /metrics answered ${response.status}`);
  return durableCountsOf(await response.text());
}

/** What happened between two readings, per unit of work (two decimals). */
export function durablePer(before: DurableCounts, after: DurableCounts, units: number): DurableCounts {
  const per = (a: number, b: number): number => Math.round(((b - a) / Math.max(1, units)) * 100) / 100;
  return {
    commits: per(before.commits, after.commits),
    transactionCommits: per(before.transactionCommits, after.transactionCommits),
    fsyncs: per(before.fsyncs, after.fsyncs),
    checkpointFsyncs: per(before.checkpointFsyncs, after.checkpointFsyncs),
  };
}
