/**
 * The operators' reads of the SQLite store: transactions found by a key or listed by creation
 * time (newest first, keyset paging), a transaction's scheme messages, and the outbox backlog.
 */
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
import type { Db } from './sqlite-connection.js';
import { LIMIT_PARAM } from './sqlite-rows.js';


const IN_INTEGRATORS = `IN (SELECT value FROM json_each(@integrators))`;

/**
 * What every search adds to its key: the time range and the page (sargable: always bound, to the
 * widest values when not asked for) and the optional filters, then newest first.
 */
const FILTERS_AND_ORDER = `
  AND t.created_at >= @from AND t.created_at < @to AND (t.created_at, t.id) < (@beforeCreatedAt, @beforeId)
  AND (@state IS NULL OR t.state = @state) AND (@scheme IS NULL OR t.scheme = @scheme)
  AND (@outcome IS NULL OR t.outcome = @outcome) AND (@kinds IS NULL OR t.kind IN (SELECT value FROM json_each(@kinds)))
  ORDER BY t.created_at DESC, t.id DESC ${LIMIT_PARAM}`;

export function prepareSearchReads(db: Db) {
  const statement = (sql: string) => db.prepare(sql).safeIntegers(true);
  const search = {
    id: statement(`SELECT ${SUMMARY_COLUMNS} FROM transactions t WHERE t.id = @id AND t.integrator_id ${IN_INTEGRATORS} ${FILTERS_AND_ORDER}`),
    // Along the unique key (integrator_id, uetr, kind), one seek per integrator.
    uetr: statement(`SELECT ${SUMMARY_COLUMNS} FROM transactions t WHERE t.integrator_id ${IN_INTEGRATORS} AND t.uetr = @uetr ${FILTERS_AND_ORDER}`),
    // Along the messages' primary key (integrator_id, message_id): the request, or a later message about the transaction.
    messageId: statement(
      `SELECT ${SUMMARY_COLUMNS} FROM messages m JOIN transactions t ON t.id = m.transaction_id
       WHERE m.integrator_id ${IN_INTEGRATORS} AND m.message_id = @messageId ${FILTERS_AND_ORDER}`,
    ),
    endToEndId: statement(`SELECT ${SUMMARY_COLUMNS} FROM transactions t WHERE t.integrator_id ${IN_INTEGRATORS} AND t.end_to_end_id = @endToEndId ${FILTERS_AND_ORDER}`),
    // Newest first along transactions_created, from the page's end; the planner is told which index
    // (an integrator filter could otherwise lead it to the unique key and a sort of every row).
    list: statement(`SELECT ${SUMMARY_COLUMNS} FROM transactions t INDEXED BY transactions_created WHERE t.integrator_id ${IN_INTEGRATORS} ${FILTERS_AND_ORDER}`),
  };
  const schemeMessages = statement(
    `SELECT transaction_id, direction, message_id, message_name, at, document FROM scheme_messages
     WHERE transaction_id = ? ORDER BY at, direction DESC, message_id`,
  );
  // Along outbox_pending_endpoint (the PENDING rows only): the backlog's size, not the table's.
  const backlog = statement(
    `SELECT integrator_id, channel, COUNT(*) AS pending, MIN(created_at) AS oldest_created_at
     FROM outbox WHERE status = 'PENDING' GROUP BY integrator_id, channel ORDER BY integrator_id, channel`,
  );
  const window = (sql: string) => statement(sql.replaceAll('{from}', '@from').replaceAll('{to}', '@to').replaceAll('{bucket}', '@bucket'));
  const health = { inFlight: statement(IN_FLIGHT_SQL), counts: window(WINDOW_COUNTS_SQL), latency: window(LATENCY_SQL) };
  const series = { counts: window(SERIES_COUNTS_SQL), latency: window(SERIES_LATENCY_SQL) };
  const waiting = statement(
    waitingSql(SUMMARY_COLUMNS, 'IN (SELECT value FROM json_each(@open))')
      .replace('LIMIT {limit}', LIMIT_PARAM)
      .replace(/\{(scheme|integrator|state|decided|afterCreatedAt|afterId)\}/g, '@$1'),
  );
  return {
    schemeHealth(from: number, to: number): SchemeHealth[] {
      return schemeHealthFromRows(health.inFlight.all() as InFlightRow[], health.counts.all({ from, to }) as WindowCountRow[], health.latency.all({ from, to }) as LatencyRow[]);
    },
    schemeSeries(from: number, to: number, bucketMs: number): SchemeSeries[] {
      const params = { from: BigInt(from), to: BigInt(to), bucket: BigInt(bucketMs) };
      return schemeSeriesFromRows(from, to, bucketMs, series.counts.all(params) as SeriesCountRow[], series.latency.all(params) as SeriesLatencyRow[]);
    },
    waitingTransactions(query: WaitingQuery): WaitingTransaction[] {
      const rows = waiting.all({
        open: JSON.stringify(openStateKeys(query.open)),
        scheme: query.scheme ?? null,
        integrator: query.integratorId ?? null,
        state: query.state ?? null,
        decided: decidedParam(query.decided),
        afterCreatedAt: query.after?.createdAt ?? Number.MIN_SAFE_INTEGER,
        afterId: query.after?.id ?? '',
        limit: query.limit,
      }) as (SummaryRow & { due_at: DbInteger })[];
      return rows.map((row) => ({ ...summaryFromRow(row), dueAt: Number(row.due_at) }));
    },
    searchTransactions(query: TransactionQuery): TransactionSummary[] {
      const params = {
        integrators: JSON.stringify(query.integratorIds),
        from: query.from ?? Number.MIN_SAFE_INTEGER,
        to: query.to ?? Number.MAX_SAFE_INTEGER,
        beforeCreatedAt: query.before?.createdAt ?? Number.MAX_SAFE_INTEGER,
        beforeId: query.before?.id ?? '',
        state: query.state ?? null,
        scheme: query.scheme ?? null,
        outcome: query.outcome ?? null,
        kinds: query.kinds === undefined ? null : JSON.stringify(query.kinds),
        limit: query.limit,
      };
      const rows =
        query.id !== undefined
          ? search.id.all({ ...params, id: query.id })
          : query.uetr !== undefined
            ? search.uetr.all({ ...params, uetr: query.uetr })
            : query.messageId !== undefined
              ? search.messageId.all({ ...params, messageId: query.messageId })
              : query.endToEndId !== undefined
                ? search.endToEndId.all({ ...params, endToEndId: query.endToEndId })
                : search.list.all(params);
      return (rows as SummaryRow[]).map(summaryFromRow);
    },
    schemeMessages(transactionId: string): SchemeMessageRecord[] {
      return (schemeMessages.all(transactionId) as SchemeMessageRow[]).map(schemeMessageFromRow);
    },
    outboxBacklog(): OutboxBacklog[] {
      return (backlog.all() as BacklogRow[]).map((row) => ({
        integratorId: row.integrator_id,
        channel: row.channel as OutboxBacklog['channel'],
        pending: Number(row.pending),
        oldestCreatedAt: Number(row.oldest_created_at),
      }));
    },
  };
}
