/**
 * Rows as SQLite returns them and their records as the Store port names them. Shared by the
 * reads (main thread) and the write executor (writer thread, or main thread for `:memory:`).
 */
import type {
  DeliveryAttemptRecord,
  HistoryRecord,
  OutboxChannel,
  OutboxRecord,
  OutboxStatus,
  StoredMessage,
  TransactionKind,
  TransactionRecord,
} from '../../ports/store.js';
import type { SchemeName } from '../../domain/schemes.js';
import { OUTBOX_BLOCKED_AT, outboxBody, outboxPayloadSql } from '../store-ops.js';

/** Read with safeIntegers, so amount_minor never passes through a double. */
export interface TransactionRow {
  id: string;
  integrator_id: string;
  kind: string;
  uetr: string;
  scheme: string;
  message_id: string;
  state: string;
  version: bigint;
  amount_minor: bigint | null;
  currency: string | null;
  created_at: bigint;
  updated_at: bigint;
  due_at: bigint | null;
  traceparent: string | null;
  tracestate: string | null;
  data: string;
}

export interface MessageRow {
  integrator_id: string;
  message_id: string;
  transaction_id: string;
  payload_hash: string;
  raw_body: string;
  response: string | null;
  received_at: number;
}

export interface OutboxRow {
  id: string;
  transaction_id: string;
  integrator_id: string;
  seq: number;
  channel: string;
  url: string;
  body: string;
  headers: string;
  available_at: number;
  status: string;
  attempts: number;
  next_attempt_at: number;
  created_at: number;
  delivered_at: number | null;
  last_error: string | null;
  payload_version: number | null;
  payload: string | null;
}

export interface HistoryRow {
  transaction_id: string;
  version: number;
  from_state: string | null;
  to_state: string;
  at: number;
  cause: string | null;
}

export interface RefreshTokenRow {
  token_hash: string;
  family_id: string;
  integrator_id: string;
  expires_at: number;
  used_at: number | null;
  revoked: number;
}

export interface AttemptRow {
  outbox_id: string;
  at: number;
  duration_ms: number;
  http_status: number | null;
  error: string | null;
  delivered: number;
}

/**
 * A row limit given as a parameter. Written `LIMIT @limit` SQLite (3.46 and later) plans with the
 * bound value and expires the statement whenever `@limit` is bound again, so every run would
 * compile the statement anew (a claim of due outbox rows cost 20 µs instead of 3). An expression
 * over the parameter is evaluated at run time like any other and keeps the statement compiled.
 */
export const LIMIT_PARAM = 'LIMIT @limit + 0';

export const TRANSACTION_COLUMNS =
  'id, integrator_id, kind, uetr, scheme, message_id, state, version, amount_minor, currency, created_at, updated_at, due_at, traceparent, tracestate, data';
/** Columns of an outbox read, from a statement whose outbox table is not aliased; `payload` is an event's spliced-in message. */
export const OUTBOX_COLUMNS = `id, transaction_id, integrator_id, seq, channel, url, body, headers, available_at, status, attempts, next_attempt_at,
  created_at, delivered_at, last_error, payload_version, ${outboxPayloadSql('outbox')} AS payload`;

export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function toNumber(value: bigint | null): number | null {
  return value === null ? null : Number(value);
}

export function transactionFromRow(row: TransactionRow): TransactionRecord {
  return {
    id: row.id,
    integratorId: row.integrator_id,
    kind: row.kind as TransactionKind,
    uetr: row.uetr,
    scheme: row.scheme as SchemeName,
    messageId: row.message_id,
    state: row.state,
    version: Number(row.version),
    amountMinor: row.amount_minor,
    currency: row.currency,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    dueAt: toNumber(row.due_at),
    traceparent: row.traceparent,
    tracestate: row.tracestate,
    data: JSON.parse(row.data) as Record<string, unknown>,
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
    receivedAt: row.received_at,
  };
}

export function historyFromRow(row: HistoryRow): HistoryRecord {
  return {
    transactionId: row.transaction_id,
    version: row.version,
    fromState: row.from_state,
    toState: row.to_state,
    at: row.at,
    cause: row.cause,
  };
}

export function outboxFromRow(row: OutboxRow): OutboxRecord {
  return {
    id: row.id,
    transactionId: row.transaction_id,
    integratorId: row.integrator_id,
    seq: row.seq,
    channel: row.channel as OutboxChannel,
    url: row.url,
    body: outboxBody(row),
    headers: JSON.parse(row.headers) as Record<string, string>,
    availableAt: row.available_at,
    status: row.status as OutboxStatus,
    attempts: row.attempts,
    // A row waiting behind an earlier one of its queue reports when it may go at the earliest.
    nextAttemptAt: row.next_attempt_at === OUTBOX_BLOCKED_AT ? row.available_at : row.next_attempt_at,
    createdAt: row.created_at,
    deliveredAt: row.delivered_at,
    lastError: row.last_error,
  };
}

export function attemptFromRow(row: AttemptRow): DeliveryAttemptRecord {
  return {
    outboxId: row.outbox_id,
    at: row.at,
    durationMs: row.duration_ms,
    httpStatus: row.http_status,
    error: row.error,
    delivered: row.delivered !== 0,
  };
}
