/**
 * Rows as the stores' drivers return them, and their records as the Store port names them: one
 * set of mappers for both stores. The drivers differ only in how they hand over a few column
 * types, and the types below say which: an integer is a number, a bigint (better-sqlite3 reading
 * with safeIntegers, so money never passes through a double) or a string (pg, for BIGINT); JSON
 * is text (SQLite) or already parsed (pg, for JSONB); a boolean is 0/1 (SQLite) or a boolean.
 */
import type { SchemeName } from '../domain/schemes.js';
import type {
  DeliveryAttemptRecord,
  HistoryRecord,
  OutboxChannel,
  OutboxRecord,
  OutboxStatus,
  SchemeMessageDirection,
  SchemeMessageRecord,
  StoredMessage,
  TransactionKind,
  TransactionRecord,
  TransactionSummary,
} from '../ports/store.js';
import { OUTBOX_BLOCKED_AT, outboxBody } from './store-ops.js';

/** An integer column as a driver hands it over. */
export type DbInteger = number | bigint | string;

/** A JSON column as a driver hands it over. */
export type DbJson<T> = string | T;

export interface TransactionRow {
  id: string;
  integrator_id: string;
  kind: string;
  uetr: string;
  scheme: string;
  message_id: string;
  state: string;
  version: DbInteger;
  amount_minor: DbInteger | null;
  currency: string | null;
  created_at: DbInteger;
  updated_at: DbInteger;
  due_at: DbInteger | null;
  traceparent: string | null;
  tracestate: string | null;
  data: DbJson<Record<string, unknown>>;
}

export interface SummaryRow {
  id: string;
  integrator_id: string;
  kind: string;
  uetr: string;
  scheme: string;
  message_id: string;
  end_to_end_id: string | null;
  state: string;
  amount_minor: DbInteger | null;
  currency: string | null;
  created_at: DbInteger;
  updated_at: DbInteger;
  outcome: string | null;
  reason_code: string | null;
}

export interface SchemeMessageRow {
  transaction_id: string;
  direction: string;
  message_id: string;
  message_name: string;
  at: DbInteger;
  document: string;
}

export interface BacklogRow {
  integrator_id: string;
  channel: string;
  pending: DbInteger;
  oldest_created_at: DbInteger;
}

export interface MessageRow {
  integrator_id: string;
  message_id: string;
  transaction_id: string;
  payload_hash: string;
  raw_body: string;
  response: string | null;
  received_at: DbInteger;
}

export interface OutboxRow {
  id: string;
  transaction_id: string;
  integrator_id: string;
  seq: number;
  channel: string;
  url: string;
  body: string;
  headers: DbJson<Record<string, string>>;
  available_at: DbInteger;
  status: string;
  attempts: number;
  next_attempt_at: DbInteger;
  created_at: DbInteger;
  delivered_at: DbInteger | null;
  last_error: string | null;
  payload_version: number | null;
  /** An event's payload, read with outboxPayloadSql. */
  payload: string | null;
}

export interface HistoryRow {
  transaction_id: string;
  version: number;
  from_state: string | null;
  to_state: string;
  at: DbInteger;
  cause: string | null;
}

export interface AttemptRow {
  outbox_id: string;
  at: DbInteger;
  duration_ms: number;
  http_status: number | null;
  error: string | null;
  delivered: number | boolean;
}

export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function nullableNumber(value: DbInteger | null): number | null {
  return value === null ? null : Number(value);
}

function json<T>(value: DbJson<T>): T {
  return typeof value === 'string' ? (JSON.parse(value) as T) : value;
}

/** The columns a transaction record and an operator's summary share, read the same way. */
function identityFromRow(row: TransactionRow | SummaryRow) {
  return {
    id: row.id,
    integratorId: row.integrator_id,
    kind: row.kind as TransactionKind,
    uetr: row.uetr,
    scheme: row.scheme as SchemeName,
    messageId: row.message_id,
    state: row.state,
    amountMinor: row.amount_minor === null ? null : BigInt(row.amount_minor),
    currency: row.currency,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

/** A transaction row joined with its message's raw body (Store.getTransactionWithMessage). */
export interface TransactionWithMessageRow extends TransactionRow {
  raw_body: string | null;
}

/** The columns of a transaction read, of the transactions table aliased `t` (a read joining another table). */
export function aliasedTransactionColumns(columns: string): string {
  return columns
    .split(',')
    .map((column) => `t.${column.trim()}`)
    .join(', ');
}

export function transactionFromRow(row: TransactionRow): TransactionRecord {
  return {
    ...identityFromRow(row),
    version: Number(row.version),
    dueAt: nullableNumber(row.due_at),
    traceparent: row.traceparent,
    tracestate: row.tracestate,
    data: json(row.data),
  };
}

/** The columns of an operator's summary (SummaryRow), of the transactions table aliased `t`, in both stores' SQL. */
export const SUMMARY_COLUMNS = ['id', 'integrator_id', 'kind', 'uetr', 'scheme', 'message_id', 'end_to_end_id', 'state', 'amount_minor', 'currency', 'created_at', 'updated_at', 'outcome', 'reason_code']
  .map((column) => `t.${column}`)
  .join(', ');

export function summaryFromRow(row: SummaryRow): TransactionSummary {
  return { ...identityFromRow(row), endToEndId: row.end_to_end_id, outcome: row.outcome, reasonCode: row.reason_code };
}

export function schemeMessageFromRow(row: SchemeMessageRow): SchemeMessageRecord {
  return {
    transactionId: row.transaction_id,
    direction: row.direction as SchemeMessageDirection,
    messageName: row.message_name,
    messageId: row.message_id,
    at: Number(row.at),
    document: row.document,
  };
}

export function messageFromRow(row: MessageRow): StoredMessage {
  return {
    integratorId: row.integrator_id,
    messageId: row.message_id,
    transactionId: row.transaction_id,
    payloadHash: row.payload_hash,
    rawBody: row.raw_body,
    response: row.response,
    receivedAt: Number(row.received_at),
  };
}

export function historyFromRow(row: HistoryRow): HistoryRecord {
  return {
    transactionId: row.transaction_id,
    version: row.version,
    fromState: row.from_state,
    toState: row.to_state,
    at: Number(row.at),
    cause: row.cause,
  };
}

export function outboxFromRow(row: OutboxRow): OutboxRecord {
  const availableAt = Number(row.available_at);
  const nextAttemptAt = Number(row.next_attempt_at);
  return {
    id: row.id,
    transactionId: row.transaction_id,
    integratorId: row.integrator_id,
    seq: row.seq,
    channel: row.channel as OutboxChannel,
    url: row.url,
    body: outboxBody(row),
    headers: json(row.headers),
    availableAt,
    status: row.status as OutboxStatus,
    attempts: row.attempts,
    // A row waiting behind an earlier one of its queue reports when it may go at the earliest.
    nextAttemptAt: nextAttemptAt === OUTBOX_BLOCKED_AT ? availableAt : nextAttemptAt,
    createdAt: Number(row.created_at),
    deliveredAt: nullableNumber(row.delivered_at),
    lastError: row.last_error,
  };
}

export function attemptFromRow(row: AttemptRow): DeliveryAttemptRecord {
  return {
    outboxId: row.outbox_id,
    at: Number(row.at),
    durationMs: row.duration_ms,
    httpStatus: row.http_status,
    error: row.error,
    delivered: row.delivered === true || row.delivered === 1,
  };
}
