/**
 * The operators' reads of the PostgreSQL store: transactions found by a key or listed by creation
 * time (newest first, keyset paging), a transaction's scheme messages, and the outbox backlog.
 */
import type pg from 'pg';
import type { OutboxBacklog, SchemeHealth, SchemeMessageRecord, SchemeSeries, TransactionQuery, TransactionSummary, WaitingQuery, WaitingTransaction } from '../../ports/store.js';
import {
  IN_FLIGHT_SQL,
  LATENCY_SQL,
  decidedParam,
  openStateKeys,
  schemeHealthFromRows,
  schemeSeriesFromRows,
  SERIES_COUNTS_SQL,
  SERIES_LATENCY_SQL,
  waitingSql,
  WINDOW_COUNTS_SQL,
  type InFlightRow,
  type LatencyRow,
  type SeriesCountRow,
  type SeriesLatencyRow,
  type WindowCountRow,
} from '../scheme-health.js';
import { schemeMessageFromRow, SUMMARY_COLUMNS, summaryFromRow, type BacklogRow, type DbInteger, type SchemeMessageRow, type SummaryRow } from '../store-rows.js';
import { named } from './pg-sql.js';


/**
 * What every search adds to its key ($1, and the integrators $2): the time range and the page
 * (sargable: always bound, to the widest values when not asked for) and the optional filters,
 * then newest first.
 */
const FILTERS_AND_ORDER = `
  AND t.created_at >= $3 AND t.created_at < $4 AND (t.created_at, t.id) < ($5::bigint, $6::text)
  AND ($7::text IS NULL OR t.state = $7) AND ($8::text IS NULL OR t.scheme = $8)
  AND ($9::text IS NULL OR t.outcome = $9) AND ($10::text[] IS NULL OR t.kind = ANY($10::text[]))
  ORDER BY t.created_at DESC, t.id DESC LIMIT $11`;

const SEARCH = {
  id: named('search_by_id', `SELECT ${SUMMARY_COLUMNS} FROM transactions t WHERE t.id = $1 AND t.integrator_id = ANY($2::text[]) ${FILTERS_AND_ORDER}`),
  // Along the unique key (integrator_id, uetr, kind), one descent per integrator.
  uetr: named('search_by_uetr', `SELECT ${SUMMARY_COLUMNS} FROM transactions t WHERE t.integrator_id = ANY($2::text[]) AND t.uetr = $1 ${FILTERS_AND_ORDER}`),
  // Along the messages' primary key (integrator_id, message_id): the request, or a later message about the transaction.
  messageId: named(
    'search_by_message_id',
    `SELECT ${SUMMARY_COLUMNS} FROM messages m JOIN transactions t ON t.id = m.transaction_id
     WHERE m.integrator_id = ANY($2::text[]) AND m.message_id = $1 ${FILTERS_AND_ORDER}`,
  ),
  endToEndId: named(
    'search_by_end_to_end_id',
    `SELECT ${SUMMARY_COLUMNS} FROM transactions t WHERE t.integrator_id = ANY($2::text[]) AND t.end_to_end_id = $1 ${FILTERS_AND_ORDER}`,
  ),
  // Newest first along transactions_created, from the page's end ($1 unused: every search has the same parameters).
  list: named('search_list', `SELECT ${SUMMARY_COLUMNS} FROM transactions t WHERE ($1::text IS NULL) AND t.integrator_id = ANY($2::text[]) ${FILTERS_AND_ORDER}`),
};

const SCHEME_MESSAGES = named(
  'scheme_messages_of',
  `SELECT transaction_id, direction, message_id, message_name, at, document FROM scheme_messages
   WHERE transaction_id = $1 ORDER BY at, direction DESC, message_id`,
);

// Along outbox_pending_endpoint (the PENDING rows only): the backlog's size, not the table's.
const BACKLOG = named(
  'outbox_backlog',
  `SELECT integrator_id, channel, COUNT(*) AS pending, MIN(created_at) AS oldest_created_at
   FROM outbox WHERE status = 'PENDING' GROUP BY integrator_id, channel ORDER BY integrator_id, channel`,
);

export async function searchTransactions(pool: pg.Pool, query: TransactionQuery): Promise<TransactionSummary[]> {
  const [statement, key] =
    query.id !== undefined
      ? [SEARCH.id, query.id]
      : query.uetr !== undefined
        ? [SEARCH.uetr, query.uetr]
        : query.messageId !== undefined
          ? [SEARCH.messageId, query.messageId]
          : query.endToEndId !== undefined
            ? [SEARCH.endToEndId, query.endToEndId]
            : [SEARCH.list, null];
  const result = await pool.query<SummaryRow>(statement, [
    key,
    query.integratorIds,
    query.from ?? Number.MIN_SAFE_INTEGER,
    query.to ?? Number.MAX_SAFE_INTEGER,
    query.before?.createdAt ?? Number.MAX_SAFE_INTEGER,
    query.before?.id ?? '',
    query.state ?? null,
    query.scheme ?? null,
    query.outcome ?? null,
    query.kinds ?? null,
    query.limit,
  ]);
  return result.rows.map(summaryFromRow);
}

const HEALTH = {
  inFlight: named('scheme_health_in_flight', IN_FLIGHT_SQL),
  counts: named('scheme_health_counts', WINDOW_COUNTS_SQL.replaceAll('{from}', '$1').replaceAll('{to}', '$2')),
  latency: named('scheme_health_latency', LATENCY_SQL.replaceAll('{from}', '$1').replaceAll('{to}', '$2')),
};

export async function schemeHealth(pool: pg.Pool, from: number, to: number): Promise<SchemeHealth[]> {
  const [inFlight, counts, latency] = await Promise.all([
    pool.query<InFlightRow>(HEALTH.inFlight),
    pool.query<WindowCountRow>(HEALTH.counts, [from, to]),
    pool.query<LatencyRow>(HEALTH.latency, [from, to]),
  ]);
  return schemeHealthFromRows(inFlight.rows, counts.rows, latency.rows);
}

const window = (sql: string) => sql.replaceAll('{from}', '$1::bigint').replaceAll('{to}', '$2::bigint').replaceAll('{bucket}', '$3::bigint');
const SERIES = {
  counts: named('scheme_series_counts', window(SERIES_COUNTS_SQL)),
  latency: named('scheme_series_latency', window(SERIES_LATENCY_SQL)),
};

export async function schemeSeries(pool: pg.Pool, from: number, to: number, bucketMs: number): Promise<SchemeSeries[]> {
  const [counts, latency] = await Promise.all([pool.query<SeriesCountRow>(SERIES.counts, [from, to, bucketMs]), pool.query<SeriesLatencyRow>(SERIES.latency, [from, to, bucketMs])]);
  return schemeSeriesFromRows(from, to, bucketMs, counts.rows, latency.rows);
}

const WAITING = named(
  'waiting_transactions',
  waitingSql(SUMMARY_COLUMNS, '= ANY($1::text[])')
    .replaceAll('{scheme}', '$2::text')
    .replaceAll('{integrator}', '$3::text')
    .replaceAll('{state}', '$4::text')
    .replaceAll('{decided}', '$5::text')
    .replace('{afterCreatedAt}', '$6::bigint')
    .replace('{afterId}', '$7::text')
    .replace('{limit}', '$8'),
);

export async function waitingTransactions(pool: pg.Pool, query: WaitingQuery): Promise<WaitingTransaction[]> {
  const result = await pool.query<SummaryRow & { due_at: DbInteger }>(WAITING, [
    openStateKeys(query.open),
    query.scheme ?? null,
    query.integratorId ?? null,
    query.state ?? null,
    decidedParam(query.decided),
    query.after?.createdAt ?? Number.MIN_SAFE_INTEGER,
    query.after?.id ?? '',
    query.limit,
  ]);
  return result.rows.map((row) => ({ ...summaryFromRow(row), dueAt: Number(row.due_at) }));
}

export async function schemeMessages(pool: pg.Pool, transactionId: string): Promise<SchemeMessageRecord[]> {
  const result = await pool.query<SchemeMessageRow>(SCHEME_MESSAGES, [transactionId]);
  return result.rows.map(schemeMessageFromRow);
}

export async function outboxBacklog(pool: pg.Pool): Promise<OutboxBacklog[]> {
  const result = await pool.query<BacklogRow>(BACKLOG);
  return result.rows.map((row) => ({
    integratorId: row.integrator_id,
    channel: row.channel as OutboxBacklog['channel'],
    pending: Number(row.pending),
    oldestCreatedAt: Number(row.oldest_created_at),
  }));
}
