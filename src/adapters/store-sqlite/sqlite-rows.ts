/**
 * SQLite's own pieces of reading rows (the row types and mappers both stores share are in
 * store-rows.ts). Shared by the reads (main thread) and the write executor (writer thread, or
 * main thread for `:memory:`).
 */
import { outboxPayloadSql } from '../store-ops.js';

export interface RefreshTokenRow {
  token_hash: string;
  family_id: string;
  integrator_id: string;
  expires_at: number;
  used_at: number | null;
  revoked: number;
  successor: string | null;
}

/**
 * A row limit given as a parameter. Written `LIMIT @limit` SQLite (3.46 and later) plans with the
 * bound value and expires the statement whenever `@limit` is bound again, so every run would
 * compile the statement anew, a cost far above the claim's own (bench/README.md). An expression
 * over the parameter is evaluated at run time like any other and keeps the statement compiled.
 */
export const LIMIT_PARAM = 'LIMIT @limit + 0';

export const TRANSACTION_COLUMNS =
  'id, integrator_id, kind, uetr, scheme, message_id, state, version, amount_minor, currency, created_at, updated_at, due_at, traceparent, tracestate, data';
/** Columns of an outbox read, from a statement whose outbox table is not aliased; `payload` is an event's spliced-in message. */
export const OUTBOX_COLUMNS = `id, transaction_id, integrator_id, seq, channel, url, body, headers, available_at, status, attempts, next_attempt_at,
  created_at, delivered_at, last_error, payload_version, ${outboxPayloadSql('outbox')} AS payload`;
