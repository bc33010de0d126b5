/**
 * Every statement of the PostgreSQL store, named so each connection parses and plans it once.
 * The statements that lock rows take their locks in id (or unique-key) order, so two batches of
 * different instances never wait on each other in a cycle.
 */
import type pg from 'pg';
import { OUTBOX_BLOCKED_AT, outboxPayloadSql } from '../store-ops.js';
import { aliasedTransactionColumns } from '../store-rows.js';

export const TRANSACTION_COLUMNS =
  'id, integrator_id, kind, uetr, scheme, message_id, state, version, amount_minor, currency, created_at, updated_at, due_at, traceparent, tracestate, data';
export const OUTBOX_COLUMNS =
  'id, transaction_id, integrator_id, seq, channel, url, body, payload_version, headers, available_at, status, attempts, next_attempt_at, created_at, delivered_at, last_error';

/** Named statements are parsed and planned once per connection. */
export function named(name: string, text: string): pg.QueryConfig {
  return { name: `regpay_${name}`, text };
}

export const SQL = {
  transactionById: named('transaction_by_id', `SELECT ${TRANSACTION_COLUMNS} FROM transactions WHERE id = $1`),
  // The engine taking up a transaction it does not remember: the row and its message in one round trip.
  transactionWithMessage: named(
    'transaction_with_message',
    `SELECT ${aliasedTransactionColumns(TRANSACTION_COLUMNS)}, m.raw_body
     FROM transactions t LEFT JOIN messages m ON m.integrator_id = t.integrator_id AND m.message_id = t.message_id
     WHERE t.id = $1`,
  ),
  transactionByUetr: named('transaction_by_uetr', `SELECT ${TRANSACTION_COLUMNS} FROM transactions WHERE integrator_id = $1 AND uetr = $2 AND kind = $3`),
  messageByKey: named('message_by_key', 'SELECT * FROM messages WHERE integrator_id = $1 AND message_id = $2'),
  historyOf: named('history_of', 'SELECT * FROM state_history WHERE transaction_id = $1 ORDER BY version'),
  outboxOf: named('outbox_of', `SELECT ${OUTBOX_COLUMNS}, ${outboxPayloadSql('o')} AS payload FROM outbox o WHERE transaction_id = $1 ORDER BY seq`),
  outboxById: named('outbox_by_id', `SELECT ${OUTBOX_COLUMNS}, ${outboxPayloadSql('o')} AS payload FROM outbox o WHERE id = $1`),
  // One statement per status, each naming its status literally, so each can use its partial index.
  listUndelivered: named(
    'list_undelivered',
    `SELECT ${OUTBOX_COLUMNS}, ${outboxPayloadSql('o')} AS payload FROM outbox o
     WHERE status = 'UNDELIVERED' AND ($1::text IS NULL OR integrator_id = $1::text)
       AND ($2::bigint IS NULL OR created_at > $2::bigint OR (created_at = $2::bigint AND id > $3::text))
     ORDER BY created_at, id LIMIT $4`,
  ),
  listPending: named(
    'list_pending',
    `SELECT ${OUTBOX_COLUMNS}, ${outboxPayloadSql('o')} AS payload FROM outbox o
     WHERE status = 'PENDING' AND ($1::text IS NULL OR integrator_id = $1::text)
       AND ($2::bigint IS NULL OR created_at > $2::bigint OR (created_at = $2::bigint AND id > $3::text))
     ORDER BY created_at, id LIMIT $4`,
  ),
  attemptsOf: named(
    'attempts_of',
    'SELECT outbox_id, at, duration_ms, http_status, error, delivered FROM delivery_attempts WHERE outbox_id = $1 ORDER BY at, id',
  ),
  settingByName: named('setting_by_name', 'SELECT value FROM settings WHERE name = $1'),

  insertTransactions: named(
    'insert_transactions',
    `INSERT INTO transactions (id, integrator_id, kind, uetr, scheme, message_id, state, version, amount_minor, currency,
       created_at, updated_at, due_at, lease_owner, lease_until, traceparent, tracestate, data, lookup_key, end_to_end_id)
     SELECT id, integrator_id, kind, uetr, scheme, message_id, state, version, amount_minor, currency, at, at, due_at, lease_owner, lease_until,
       traceparent, tracestate, data, lookup_key, end_to_end_id
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::bigint[], $9::text[],
                 $10::bigint[], $11::bigint[], $12::text[], $13::text[], $14::text[], $15::bigint[], $16::jsonb[], $17::text[], $18::text[], $19::int[])
       WITH ORDINALITY AS i(id, integrator_id, kind, uetr, scheme, message_id, state, amount_minor, currency, at, due_at, traceparent, tracestate,
                            lease_owner, lease_until, data, lookup_key, end_to_end_id, version, ord)
     ORDER BY ord
     ON CONFLICT DO NOTHING
     RETURNING id`,
  ),
  insertMessages: named(
    'insert_messages',
    `INSERT INTO messages (integrator_id, message_id, transaction_id, payload_hash, raw_body, response, received_at)
     SELECT integrator_id, message_id, transaction_id, payload_hash, raw_body, NULL, received_at
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[])
       WITH ORDINALITY AS m(integrator_id, message_id, transaction_id, payload_hash, raw_body, received_at, ord)
     ORDER BY ord
     ON CONFLICT DO NOTHING
     RETURNING transaction_id, integrator_id, message_id`,
  ),
  deleteTransactions: named('delete_transactions', 'DELETE FROM transactions WHERE id = ANY($1::text[])'),
  messagesByKeys: named(
    'messages_by_keys',
    `SELECT m.integrator_id, m.message_id, m.transaction_id, m.payload_hash, m.raw_body, m.response
     FROM messages m JOIN unnest($1::text[], $2::text[]) AS k(integrator_id, message_id)
       ON m.integrator_id = k.integrator_id AND m.message_id = k.message_id`,
  ),
  transactionsByUetrs: named(
    'transactions_by_uetrs',
    `SELECT t.integrator_id, t.uetr, t.kind
     FROM transactions t JOIN unnest($1::text[], $2::text[], $3::text[]) AS k(integrator_id, uetr, kind)
       ON t.integrator_id = k.integrator_id AND t.uetr = k.uetr AND t.kind = k.kind`,
  ),
  insertHistoryAndOutbox: named(
    'insert_history_and_outbox',
    `WITH history AS (
       INSERT INTO state_history (transaction_id, version, from_state, to_state, at, cause)
       SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::bigint[], $6::text[])
     )
     INSERT INTO outbox (id, transaction_id, integrator_id, seq, channel, url, body, payload_version, headers, available_at, status, attempts,
       next_attempt_at, lease_owner, lease_until, created_at)
     SELECT o.id, o.transaction_id, o.integrator_id, o.seq, o.channel, o.url, o.body, o.payload_version, o.headers, o.available_at, 'PENDING', 0,
       CASE WHEN o.queued OR ahead.found THEN ${OUTBOX_BLOCKED_AT} ELSE o.available_at END,
       -- Leased as written (StateChange.leaseOutbox) when due at once: a queue head available by now.
       CASE WHEN NOT (o.queued OR ahead.found IS TRUE) AND o.available_at <= o.created_at THEN o.lease_owner END,
       CASE WHEN NOT (o.queued OR ahead.found IS TRUE) AND o.available_at <= o.created_at AND o.lease_owner IS NOT NULL THEN o.lease_until END,
       o.created_at
     FROM unnest($7::text[], $8::text[], $9::text[], $10::int[], $11::text[], $12::text[], $13::text[], $14::jsonb[], $15::bigint[], $16::bigint[],
                 $17::boolean[], $18::int[], $19::text[], $20::bigint[])
       AS o(id, transaction_id, integrator_id, seq, channel, url, body, headers, available_at, created_at, queued, payload_version, lease_owner, lease_until)
       -- A lateral probe per row (LIMIT keeps the planner from hashing every PENDING row instead).
       LEFT JOIN LATERAL (
         SELECT TRUE AS found FROM outbox p
         WHERE p.status = 'PENDING' AND p.transaction_id = o.transaction_id AND p.channel = o.channel
         LIMIT 1) ahead ON TRUE
     RETURNING id, lease_owner IS NOT NULL AS leased`,
  ),
  outboxByIds: named('outbox_by_ids', `SELECT ${OUTBOX_COLUMNS}, ${outboxPayloadSql('o')} AS payload FROM outbox o WHERE id = ANY($1::text[]) ORDER BY transaction_id, seq`),
  setResponse: named('set_response', 'UPDATE messages SET response = $1 WHERE integrator_id = $2 AND message_id = $3'),

  lockForChange: named(
    'lock_for_change',
    `SELECT t.id, t.version, t.state, t.integrator_id,
       (SELECT COALESCE(MAX(o.seq), 0) FROM outbox o WHERE o.transaction_id = t.id)::int AS max_seq
     FROM transactions t WHERE t.id = ANY($1::text[])
     ORDER BY t.id
     FOR UPDATE OF t`,
  ),
  // Of changes decided on an older version (StateChange.commutes): each row's working data and the states entered since that version.
  enteredSince: named(
    'entered_since',
    `SELECT t.id, t.data,
       ARRAY(SELECT h.to_state FROM state_history h WHERE h.transaction_id = t.id AND h.version > c.expected ORDER BY h.version) AS entered
     FROM unnest($1::text[], $2::int[]) AS c(id, expected) JOIN transactions t ON t.id = c.id`,
  ),
  // Transactions by id, and those of outbox messages by message id, locked in one id order.
  lockTransactions: named(
    'lock_transactions',
    `SELECT t.id FROM transactions t
     WHERE t.id = ANY (ARRAY(SELECT unnest($1::text[]) UNION SELECT o.transaction_id FROM outbox o WHERE o.id = ANY($2::text[])))
     ORDER BY t.id
     FOR UPDATE OF t`,
  ),
  updateStates: named(
    'update_states',
    `UPDATE transactions t
     SET state = c.to_state, version = c.version, updated_at = c.at, due_at = c.due_at, data = COALESCE(c.data, t.data),
       outcome = COALESCE(c.outcome, t.outcome), reason_code = CASE WHEN c.outcome IS NULL THEN t.reason_code ELSE c.reason_code END,
       outcome_at = CASE WHEN c.outcome IS NULL THEN t.outcome_at ELSE COALESCE(t.outcome_at, c.at) END
     FROM unnest($1::text[], $2::int[], $3::text[], $4::bigint[], $5::bigint[], $6::jsonb[], $7::int[], $8::text[], $9::text[])
       AS c(id, expected, to_state, at, due_at, data, version, outcome, reason_code)
     WHERE t.id = c.id AND t.version = c.expected`,
  ),

  // SKIP LOCKED: rows another instance is claiming right now are passed over, not waited for.
  // A row claimed and committed by another instance fails the lease test on re-check.
  // Claimable from the later of the timer and the lease's end: `due_at <= now` and the lease not
  // live (`lease_until IS NULL OR lease_until < now`), read along transactions_claimable (the
  // expression is the index's), so live leases are never read. Order: that time, then timer.
  claimDue: named(
    'claim_due',
    `WITH candidates AS (
       SELECT id FROM transactions
       WHERE due_at IS NOT NULL AND GREATEST(due_at, COALESCE(lease_until + 1, 0)) <= $1
       ORDER BY GREATEST(due_at, COALESCE(lease_until + 1, 0)), due_at
       LIMIT $2
       FOR UPDATE SKIP LOCKED
     )
     UPDATE transactions t SET lease_owner = $3, lease_until = $4
     WHERE t.id = ANY (ARRAY(SELECT id FROM candidates))
     RETURNING ${TRANSACTION_COLUMNS.split(', ')
       .map((column) => `t.${column}`)
       .join(', ')}`,
  ),
  release: named(
    'release',
    `UPDATE transactions t SET lease_owner = NULL, lease_until = NULL
     FROM unnest($1::text[], $2::text[]) AS r(id, owner)
     WHERE t.id = r.id AND t.lease_owner = r.owner`,
  ),

  // Only the head of each (transaction, channel) queue is deliverable: the lowest-seq PENDING row.
  // Rows behind a head are blocked (next_attempt_at = OUTBOX_BLOCKED_AT), so the due-time range
  // reaches heads only. The head test (o.seq is its queue's lowest PENDING seq) stays as the
  // safety net for the few due rows that are not heads (those behind a replayed message); it
  // runs on those candidates only. It is written for the planner: a scalar subquery, not NOT
  // EXISTS, so it cannot become a join (without fresh statistics that was planned as a scan of
  // the channel's rows per candidate); `<=`, which for a PENDING o means `=`, so its default
  // selectivity keeps the ordered index scan that stops after $2 rows (with `=` the planner
  // expected few rows to pass and read and sorted every due row of the endpoint instead); and
  // the lease is set by id = ANY(...), an index probe per row, never a scan of the table.
  // UNDELIVERED rows are not PENDING, so a message given up on no longer holds back the ones
  // after it; it waits for an operator replay, and the receiver orders by seq/webhook-id.
  //
  // `endpoints` walks the (integrator, channel) pairs with PENDING rows, one index step each (a
  // skip scan along outbox_pending_endpoint); an excluded one is passed over without reading its
  // rows, however many are due. Each other endpoint gives its first $2 due rows in order, locked
  // SKIP LOCKED as they are read (rows another instance is claiming right now are passed over,
  // not waited for, and the next ones taken); the first $2 of all of them are leased. A row
  // claimed and committed by another instance meanwhile fails the lease test on re-check.
  claimOutbox: named(
    'claim_outbox',
    `WITH RECURSIVE endpoints AS (
       (SELECT integrator_id, channel FROM outbox WHERE status = 'PENDING' ORDER BY integrator_id, channel LIMIT 1)
       UNION ALL
       SELECT next.integrator_id, next.channel
       FROM endpoints e CROSS JOIN LATERAL (
         SELECT n.integrator_id, n.channel FROM outbox n
         WHERE n.status = 'PENDING' AND (n.integrator_id, n.channel) > (e.integrator_id, e.channel)
         ORDER BY n.integrator_id, n.channel LIMIT 1) next
     ), candidates AS (
       SELECT d.id, d.next_attempt_at, d.seq
       FROM endpoints e CROSS JOIN LATERAL (
         SELECT o.id, o.next_attempt_at, o.seq FROM outbox o
         WHERE o.status = 'PENDING' AND o.integrator_id = e.integrator_id AND o.channel = e.channel
           AND o.next_attempt_at <= $1
           AND (o.lease_until IS NULL OR o.lease_until < $1)
           AND o.seq <= (
             SELECT min(p.seq) FROM outbox p
             WHERE p.status = 'PENDING' AND p.transaction_id = o.transaction_id AND p.channel = o.channel)
         ORDER BY o.next_attempt_at, o.seq
         LIMIT $2
         FOR UPDATE OF o SKIP LOCKED) d
       WHERE NOT ((e.channel || ' ' || e.integrator_id) = ANY($5::text[]))
       ORDER BY d.next_attempt_at, d.seq, d.id
       LIMIT $2
     )
     UPDATE outbox u SET lease_owner = $3, lease_until = $4
     WHERE u.id = ANY (ARRAY(SELECT id FROM candidates))
     RETURNING ${OUTBOX_COLUMNS.split(', ')
       .map((column) => `u.${column}`)
       .join(', ')}, ${outboxPayloadSql('u')} AS payload`,
  ),
  // A late acknowledgement still counts, even for a message already given up on; a failure
  // reported after another instance delivered the message changes nothing but the count.
  // left_pending: this attempt took the message out of PENDING; `p` is the row as the statement
  // found it (its status cannot move meanwhile: the transaction is locked).
  recordDeliveries: named(
    'record_deliveries',
    `WITH a AS (
       SELECT * FROM unnest($1::text[], $2::bigint[], $3::int[], $4::int[], $5::text[], $6::boolean[], $7::bigint[], $8::text[])
         AS a(id, at, duration_ms, http_status, error, delivered, next_at, last_error)
     ), updated AS (
       UPDATE outbox o SET
         status = CASE WHEN a.delivered THEN 'DELIVERED'
                       WHEN o.status = 'PENDING' AND a.next_at IS NULL THEN 'UNDELIVERED'
                       ELSE o.status END,
         delivered_at = CASE WHEN a.delivered THEN COALESCE(o.delivered_at, a.at) ELSE o.delivered_at END,
         attempts = o.attempts + 1,
         last_error = CASE WHEN NOT a.delivered AND o.status = 'PENDING' THEN a.last_error ELSE o.last_error END,
         next_attempt_at = CASE WHEN NOT a.delivered AND o.status = 'PENDING' AND a.next_at IS NOT NULL THEN a.next_at
                                ELSE o.next_attempt_at END,
         lease_owner = NULL, lease_until = NULL
       FROM a JOIN outbox p ON p.id = a.id WHERE o.id = a.id
       RETURNING o.id, o.transaction_id, o.channel, o.status, p.status = 'PENDING' AND o.status <> 'PENDING' AS left_pending
     ), attempts AS (
       INSERT INTO delivery_attempts (outbox_id, at, duration_ms, http_status, error, delivered)
       SELECT a.id, a.at, a.duration_ms, a.http_status, a.error, a.delivered FROM a JOIN updated ON updated.id = a.id
     )
     SELECT id, transaction_id, channel, status, left_pending FROM updated`,
  ),
  // The head of each queue, if blocked, becomes due: at once, or at its available_at if later (a
  // replay: at once).
  unblockHeads: named(
    'unblock_heads',
    `UPDATE outbox o SET next_attempt_at = CASE WHEN q.replay THEN q.now ELSE GREATEST(q.now, o.available_at) END
     FROM unnest($1::text[], $2::text[], $3::bigint[], $4::boolean[]) AS q(transaction_id, channel, now, replay)
       CROSS JOIN LATERAL (
         SELECT h.id FROM outbox h
         WHERE h.status = 'PENDING' AND h.transaction_id = q.transaction_id AND h.channel = q.channel
         ORDER BY h.seq LIMIT 1) head
     WHERE o.id = head.id AND o.next_attempt_at = ${OUTBOX_BLOCKED_AT}`,
  ),
  // recordDelivery's leaseNext: the head of each queue, leased if it is due and free. Its
  // transaction is locked (lockTransactions), so no SKIP LOCKED: passing over a locked head would
  // hand out a later message out of order.
  leaseHeads: named(
    'lease_heads',
    `UPDATE outbox u SET lease_owner = q.owner, lease_until = q.lease_until
     FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[], $5::bigint[]) AS q(transaction_id, channel, now, owner, lease_until)
       CROSS JOIN LATERAL (
         SELECT h.id FROM outbox h
         WHERE h.status = 'PENDING' AND h.transaction_id = q.transaction_id AND h.channel = q.channel
         ORDER BY h.seq LIMIT 1) head
     WHERE u.id = head.id AND u.next_attempt_at <= q.now AND (u.lease_until IS NULL OR u.lease_until < q.now)
     RETURNING ${OUTBOX_COLUMNS.split(', ')
       .map((column) => `u.${column}`)
       .join(', ')}, ${outboxPayloadSql('u')} AS payload`,
  ),
  // The transactions a replay would touch, to lock them before it runs.
  replayScope: named(
    'replay_scope',
    `SELECT DISTINCT transaction_id FROM outbox
     WHERE status = 'UNDELIVERED'
       AND ($1::text IS NULL OR id = $1::text)
       AND ($2::text IS NULL OR integrator_id = $2::text)
       AND ($3::bigint IS NULL OR created_at >= $3::bigint)`,
  ),
  // attempts restarts at 0: a replayed message gets a whole new retry schedule; the full record
  // of earlier attempts stays in delivery_attempts. Rows come back blocked; replay() then
  // unblocks the head of each queue they are in.
  replay: named(
    'replay',
    `UPDATE outbox SET status = 'PENDING', next_attempt_at = ${OUTBOX_BLOCKED_AT}, attempts = 0, lease_owner = NULL, lease_until = NULL
     WHERE status = 'UNDELIVERED'
       AND ($1::text IS NULL OR id = $1::text)
       AND ($2::text IS NULL OR integrator_id = $2::text)
       AND ($3::bigint IS NULL OR created_at >= $3::bigint)
       AND transaction_id = ANY($4::text[])
     RETURNING transaction_id, channel`,
  ),

  insertRefreshToken: named(
    'insert_refresh_token',
    `INSERT INTO refresh_tokens (token_hash, family_id, integrator_id, expires_at, used_at, revoked)
     VALUES ($1, $2, $3, $4, NULL, FALSE) ON CONFLICT (token_hash) DO NOTHING`,
  ),
  // The conditional UPDATE is the atomic step: of two concurrent rotations, the second waits on the row and then finds it spent.
  spendRefreshToken: named(
    'spend_refresh_token',
    `UPDATE refresh_tokens SET used_at = $2, successor = $3
     WHERE token_hash = $1 AND used_at IS NULL AND NOT revoked AND expires_at > $2
       AND NOT EXISTS (SELECT 1 FROM revoked_sessions r WHERE r.session_id = refresh_tokens.family_id)
     RETURNING token_hash`,
  ),
  spentRefreshToken: named(
    'spent_refresh_token',
    `SELECT family_id, used_at, successor,
       NOT revoked AND NOT EXISTS (SELECT 1 FROM revoked_sessions r WHERE r.session_id = refresh_tokens.family_id) AS session_alive
     FROM refresh_tokens WHERE token_hash = $1`,
  ),
  refreshTokenByHash: named('refresh_token_by_hash', 'SELECT * FROM refresh_tokens WHERE token_hash = $1'),
  forgetExpiredRefreshTokens: named('forget_expired_refresh_tokens', 'DELETE FROM refresh_tokens WHERE expires_at < $1'),
  // Rows another transaction holds are skipped, not waited for: the next write erases them, and
  // their time is checked anyway (a successor past its interval is never answered).
  forgetSealedSuccessors: named(
    'forget_sealed_successors',
    `UPDATE refresh_tokens SET successor = NULL
     WHERE token_hash IN (SELECT token_hash FROM refresh_tokens WHERE successor IS NOT NULL AND used_at < $1 FOR UPDATE SKIP LOCKED)`,
  ),
  revokeFamily: named('revoke_family', 'UPDATE refresh_tokens SET revoked = TRUE WHERE family_id = $1'),
  // The first revocation's time stands: a later reuse of the same session's token adds nothing.
  revokeSession: named('revoke_session', 'INSERT INTO revoked_sessions (session_id, revoked_at) VALUES ($1, $2) ON CONFLICT (session_id) DO NOTHING'),
  forgetRevokedSessions: named(
    'forget_revoked_sessions',
    `DELETE FROM revoked_sessions
     WHERE revoked_at < $1 AND NOT EXISTS (SELECT 1 FROM refresh_tokens t WHERE t.family_id = revoked_sessions.session_id)`,
  ),
  // Along revoked_sessions_at.
  revokedSessionsSince: named('revoked_sessions_since', 'SELECT session_id, revoked_at FROM revoked_sessions WHERE revoked_at >= $1'),
  // Along transactions_claimable and the pending outbox rows, as on SQLite.
  leaseOwners: named(
    'lease_owners',
    `SELECT lease_owner FROM transactions
     WHERE due_at IS NOT NULL AND GREATEST(due_at, COALESCE(lease_until + 1, 0)) > $1 AND lease_until >= $1
     UNION
     SELECT lease_owner FROM outbox WHERE status = 'PENDING' AND lease_until >= $1
     ORDER BY 1`,
  ),
  // The dead owners' leases: rows another batch holds locked are passed over (SKIP LOCKED), never
  // waited for, since this runs after the batch's lock phase; such a lease lapses at its time.
  releaseTransactionLeases: named(
    'release_transaction_leases',
    `WITH held AS (
       SELECT id FROM transactions
       WHERE lease_owner = ANY($1) AND due_at IS NOT NULL AND GREATEST(due_at, COALESCE(lease_until + 1, 0)) > $2
       ORDER BY id FOR UPDATE SKIP LOCKED)
     UPDATE transactions SET lease_owner = NULL, lease_until = NULL WHERE id IN (SELECT id FROM held)`,
  ),
  // Rows another instance holds locked are skipped (their engine's callback check still finds them);
  // the others are locked in id order, as every multi-row lock here is.
  wakeDeliveredCallbacks: named(
    'wake_delivered_callbacks',
    `WITH waiting AS (
       SELECT t.id FROM transactions t
       WHERE t.due_at IS NOT NULL AND GREATEST(t.due_at, COALESCE(t.lease_until + 1, 0)) > $1 AND t.due_at > $1
         AND EXISTS (SELECT 1 FROM outbox o WHERE o.id = t.data->>'callbackId' AND o.status = 'DELIVERED')
       ORDER BY t.id FOR UPDATE SKIP LOCKED)
     UPDATE transactions SET due_at = $1 WHERE id IN (SELECT id FROM waiting)`,
  ),
  releaseOutboxLeases: named(
    'release_outbox_leases',
    `WITH held AS (SELECT id FROM outbox WHERE status = 'PENDING' AND lease_owner = ANY($1) ORDER BY id FOR UPDATE SKIP LOCKED)
     UPDATE outbox SET lease_owner = NULL, lease_until = NULL WHERE id IN (SELECT id FROM held)`,
  ),
  notifyChanged: named('notify_changed', `SELECT pg_notify('regpay_transaction_changed', id) FROM unnest($1::text[]) AS n(id)`),
  // A message already kept (a resend, or one received twice) is skipped. The transactions are
  // locked already (the batch's lock phase, or the change's), so the foreign key's check waits on nobody.
  insertSchemeMessages: named(
    'insert_scheme_messages',
    `INSERT INTO scheme_messages (transaction_id, direction, message_id, message_name, at, document)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::text[])
     ON CONFLICT (transaction_id, direction, message_id) DO NOTHING`,
  ),
  // The oldest first, along scheme_messages_at; rows another batch holds are passed over.
  pruneSchemeMessages: named(
    'prune_scheme_messages',
    `DELETE FROM scheme_messages WHERE ctid = ANY (ARRAY(
       SELECT ctid FROM scheme_messages WHERE at < $1 ORDER BY at LIMIT $2 FOR UPDATE SKIP LOCKED))`,
  ),
  insertSetting: named('insert_setting', 'INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING'),
} as const;
