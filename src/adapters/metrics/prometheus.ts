import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { PartnerSender } from '../../ports/partner.js';
import type { DurableCounts, OutboxBacklog } from '../../ports/store.js';

/**
 * The service's Prometheus metrics (served at /metrics, listed in docs/operations.md). Names
 * follow Prometheus conventions, units last; labels are bounded sets (route patterns, status
 * codes, kinds, schemes, states, reason codes of the ISO table, configured integrators,
 * channels), never ids. Everything here is a counter or histogram bumped in memory, except the
 * outbox gauges, which a scrape computes from one store query at most every `backlogRefreshMs`,
 * and the store's commit and fsync counters, which a scrape reads from the store's own counts.
 */
export interface Metrics {
  readonly registry: Registry;
  readonly httpRequestSeconds: Histogram<'method' | 'route' | 'status'>;
  readonly statesEntered: Counter<'kind' | 'scheme' | 'state'>;
  readonly transitionsRefused: Counter<'kind'>;
  readonly outcomes: Counter<'kind' | 'scheme' | 'outcome' | 'reason'>;
  readonly outcomeSeconds: Histogram<'kind' | 'scheme'>;
  readonly timeBudgetsSpent: Counter<'kind' | 'scheme'>;
  readonly schemeSends: Counter<'scheme' | 'command' | 'result'>;
  readonly deliveries: Counter<'channel' | 'result'>;
  readonly deliveryAckRecordSeconds: Histogram<'channel'>;
  readonly storeBatchWrites: Histogram;
  readonly storeCommitSeconds: Histogram;
  readonly storeBatchRetries: Counter<'reason'>;
}

export interface MetricsOptions {
  /** The outbox backlog (Store.outboxBacklog), read when /metrics is scraped. */
  readonly backlog: () => Promise<readonly OutboxBacklog[]>;
  /** A scrape within this long of the last backlog read reuses it. */
  readonly backlogRefreshMs: number;
  readonly now: () => number;
  /** Reason codes that get a label of their own; any other is counted as `other`. */
  readonly knownReason: (code: string) => boolean;
  /** The store's durable commits and fsyncs so far (Store.durableCounts), read when /metrics is scraped. */
  readonly durable: () => DurableCounts;
}

export function createMetrics(options: MetricsOptions): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'regpay_' });
  const backlog = backlogReader(options);
  new Gauge({
    name: 'regpay_outbox_pending_messages',
    help: 'Callbacks and events not yet delivered (PENDING: due, being retried, or queued behind an earlier message of their transaction), per integrator and channel',
    labelNames: ['integrator', 'channel'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const row of await backlog()) this.set({ integrator: row.integratorId, channel: row.channel }, row.pending);
    },
  });
  new Gauge({
    name: 'regpay_outbox_oldest_pending_age_seconds',
    help: 'Age of the oldest callback or event not yet delivered, per integrator and channel',
    labelNames: ['integrator', 'channel'],
    registers: [registry],
    async collect() {
      this.reset();
      const now = options.now();
      for (const row of await backlog()) this.set({ integrator: row.integratorId, channel: row.channel }, Math.max(0, now - row.oldestCreatedAt) / 1000);
    },
  });
  const { durable } = options;
  new Counter({
    name: 'regpay_store_commits_total',
    help:
      'Durable commits of the store since the process started (SQLite: write transactions of its writer that changed rows, each one fsync of the WAL; PostgreSQL: COMMITs of its write batches), ' +
      "by what they held: a transaction's state (transactions), else callbacks and events (deliveries), else claims, leases and the rest (other)",
    labelNames: ['holding'],
    registers: [registry],
    collect() {
      this.reset();
      const { commitsHolding } = durable();
      for (const holding of ['transactions', 'deliveries', 'other'] as const) this.inc({ holding }, commitsHolding[holding]);
    },
  });
  new Counter({
    name: 'regpay_store_fsyncs_total',
    help: "fsyncs the SQLite store made since the process started, by source: a commit's of the WAL, a checkpoint's of the WAL and the database file (absent on PostgreSQL, whose fsyncs are the server's)",
    labelNames: ['source'],
    registers: [registry],
    collect() {
      this.reset();
      const counts = durable();
      if (counts.fsyncs === undefined || counts.checkpointFsyncs === undefined) return;
      this.inc({ source: 'commit' }, counts.fsyncs - counts.checkpointFsyncs);
      this.inc({ source: 'checkpoint' }, counts.checkpointFsyncs);
    },
  });
  const metrics: Metrics = {
    registry,
    httpRequestSeconds: new Histogram({
      name: 'regpay_http_request_duration_seconds',
      help: 'Time from request to response, by route pattern and status (its _count: requests by route and status)',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
      registers: [registry],
    }),
    statesEntered: new Counter({
      name: 'regpay_transaction_states_entered_total',
      help: 'Transaction states entered (one event each), by kind, scheme and state',
      labelNames: ['kind', 'scheme', 'state'],
      registers: [registry],
    }),
    transitionsRefused: new Counter({
      name: 'regpay_transitions_refused_total',
      help: 'Inputs a state machine refused as illegal transitions (e.g. a PAID report after EXPIRED): logged, never reported',
      labelNames: ['kind'],
      registers: [registry],
    }),
    outcomes: new Counter({
      name: 'regpay_transaction_outcomes_total',
      help: 'Final answers decided (APPROVED, REJECTED; SUCCESSFUL, FAILED; PAID, REJECTED, EXPIRED, CANCELLED), by kind, scheme, outcome and ISO reason code (none, or other when not in the table)',
      labelNames: ['kind', 'scheme', 'outcome', 'reason'],
      registers: [registry],
    }),
    outcomeSeconds: new Histogram({
      name: 'regpay_transaction_outcome_duration_seconds',
      help: 'Time from the request accepted (its 202) to its final answer decided, by kind and scheme',
      labelNames: ['kind', 'scheme'],
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 3600],
      registers: [registry],
    }),
    timeBudgetsSpent: new Counter({
      name: 'regpay_scheme_time_budgets_spent_total',
      help: "Transactions whose scheme's time budget ran out without an answer (a *_TIMEOUT state entered; status enquiries follow)",
      labelNames: ['kind', 'scheme'],
      registers: [registry],
    }),
    schemeSends: new Counter({
      name: 'regpay_scheme_messages_sent_total',
      help: "Scheme messages handed to a scheme's transport, by command (submit, enquire, resolve, request, cancel, expire) and result (delivered, failed)",
      labelNames: ['scheme', 'command', 'result'],
      registers: [registry],
    }),
    deliveries: new Counter({
      name: 'regpay_delivery_attempts_total',
      help: 'Attempts to deliver callbacks and events to integrators, by outcome',
      labelNames: ['channel', 'result'],
      registers: [registry],
    }),
    deliveryAckRecordSeconds: new Histogram({
      name: 'regpay_delivery_ack_record_seconds',
      help: "Time from an integrator's acknowledgement (its 2xx) to the commit that records the message DELIVERED, by channel",
      labelNames: ['channel'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    storeBatchWrites: new Histogram({
      name: 'regpay_store_batch_writes',
      help: 'Writes group-committed in one database transaction',
      buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024],
      registers: [registry],
    }),
    storeCommitSeconds: new Histogram({
      name: 'regpay_store_commit_duration_seconds',
      help: 'Time to run and commit one group-commit batch (SQLite: with the writer thread round trip)',
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
      registers: [registry],
    }),
    storeBatchRetries: new Counter({
      name: 'regpay_store_batch_retries_total',
      help: 'Store write batches PostgreSQL aborted (deadlock, serialization failure) and that were run again',
      labelNames: ['reason'],
      registers: [registry],
    }),
  };
  return metrics;
}

/** The reason label of an outcome: its code when in the table, `none` without one, `other` for the rest (a bounded set). */
export function reasonLabel(code: string | null, knownReason: (code: string) => boolean): string {
  if (code === null) return 'none';
  return knownReason(code) ? code : 'other';
}

/** One backlog query shared by both gauges of a scrape, and by scrapes closer together than backlogRefreshMs. */
function backlogReader(options: MetricsOptions): () => Promise<readonly OutboxBacklog[]> {
  let last: { at: number; rows: Promise<readonly OutboxBacklog[]> } | undefined;
  return () => {
    const now = options.now();
    if (last === undefined || now - last.at >= options.backlogRefreshMs) {
      const rows = options.backlog().catch(() => [] as const);
      last = { at: now, rows };
    }
    return last.rows;
  };
}

/** Wraps a sender so every attempt is counted by channel and result (delivered, rejected by status, or failed without one). */
export function countingSender(sender: PartnerSender, metrics: Metrics): PartnerSender {
  return {
    async send(message, integrator, options) {
      const result = await sender.send(message, integrator, options);
      const outcome = result.delivered ? 'delivered' : result.httpStatus === null ? 'no_answer' : `http_${Math.floor(result.httpStatus / 100)}xx`;
      metrics.deliveries.inc({ channel: message.channel, result: outcome });
      return result;
    },
    async call(call, integrator, options) {
      const result = await sender.call(call, integrator, options);
      const outcome = result.delivered ? 'delivered' : result.httpStatus === null ? 'no_answer' : `http_${Math.floor(result.httpStatus / 100)}xx`;
      metrics.deliveries.inc({ channel: 'call', result: outcome });
      return result;
    },
    close: () => sender.close(),
  };
}
