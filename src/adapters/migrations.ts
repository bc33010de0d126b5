/**
 * Versioned schema migrations, one list for both stores. A migration is written once as SQL with
 * a few type placeholders; each dialect fills them in, so the two schemas cannot drift apart.
 * Applied versions are recorded in `schema_migrations`; a store refuses a database whose schema
 * is newer than the code, or whose recorded history differs from this list.
 *
 * Never edit a released migration: add a new one. Times are BIGINT milliseconds since the Unix
 * epoch everywhere (the Clock port's unit), so no time zone or driver conversion is involved.
 */

export type SqlDialect = 'sqlite' | 'postgres';

export interface Migration {
  readonly version: number;
  readonly name: string;
  /**
   * SQL statements, with `{bigint}`, `{json}`, `{bool}`, `{false}`, `{identity}`, `{strict}` and
   * `{greatest}` placeholders; a statement the dialects cannot share (SQLite alters no constraint
   * in place) is given once per dialect.
   */
  readonly statements: readonly (string | { readonly sqlite: readonly string[]; readonly postgres: readonly string[] })[];
}

const TYPES: Readonly<Record<SqlDialect, Readonly<Record<string, string>>>> = {
  // STRICT tables make SQLite refuse a value of the wrong type (a float in amount_minor, say)
  // instead of storing it; STRICT knows only INTEGER, so 64-bit columns are INTEGER there.
  sqlite: {
    bigint: 'INTEGER',
    json: 'TEXT',
    bool: 'INTEGER',
    false: '0',
    identity: 'INTEGER PRIMARY KEY',
    strict: ' STRICT',
    // The larger of its (non-null) arguments.
    greatest: 'MAX',
  },
  postgres: {
    bigint: 'BIGINT',
    json: 'JSONB',
    bool: 'BOOLEAN',
    false: 'FALSE',
    identity: 'BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY',
    strict: '',
    greatest: 'GREATEST',
  },
};

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'initial schema',
    statements: [
      `CREATE TABLE transactions (
        id TEXT PRIMARY KEY,
        integrator_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        uetr TEXT NOT NULL,
        scheme TEXT NOT NULL,
        message_id TEXT NOT NULL,
        state TEXT NOT NULL,
        version INTEGER NOT NULL CHECK (version >= 1),
        amount_minor {bigint},
        currency TEXT,
        created_at {bigint} NOT NULL,
        updated_at {bigint} NOT NULL,
        due_at {bigint},
        lease_owner TEXT,
        lease_until {bigint},
        traceparent TEXT,
        tracestate TEXT,
        data {json} NOT NULL,
        CONSTRAINT transactions_integrator_uetr UNIQUE (integrator_id, uetr),
        CONSTRAINT transactions_amount_has_currency CHECK ((amount_minor IS NULL) = (currency IS NULL))
      ){strict}`,
      // claimDue: due rows in due order; rows without a timer stay out of the index.
      `CREATE INDEX transactions_due ON transactions (due_at) WHERE due_at IS NOT NULL`,

      `CREATE TABLE messages (
        integrator_id TEXT NOT NULL,
        message_id TEXT NOT NULL,
        transaction_id TEXT NOT NULL REFERENCES transactions (id),
        payload_hash TEXT NOT NULL,
        raw_body TEXT NOT NULL,
        response TEXT,
        received_at {bigint} NOT NULL,
        PRIMARY KEY (integrator_id, message_id)
      ){strict}`,
      `CREATE INDEX messages_transaction ON messages (transaction_id)`,

      `CREATE TABLE state_history (
        transaction_id TEXT NOT NULL REFERENCES transactions (id),
        version INTEGER NOT NULL,
        from_state TEXT,
        to_state TEXT NOT NULL,
        at {bigint} NOT NULL,
        cause TEXT,
        PRIMARY KEY (transaction_id, version)
      ){strict}`,

      `CREATE TABLE outbox (
        id TEXT PRIMARY KEY,
        transaction_id TEXT NOT NULL REFERENCES transactions (id),
        integrator_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        channel TEXT NOT NULL CHECK (channel IN ('event', 'callback')),
        url TEXT NOT NULL,
        body TEXT NOT NULL,
        headers {json} NOT NULL,
        available_at {bigint} NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('PENDING', 'DELIVERED', 'UNDELIVERED')),
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at {bigint} NOT NULL,
        lease_owner TEXT,
        lease_until {bigint},
        created_at {bigint} NOT NULL,
        delivered_at {bigint},
        last_error TEXT,
        CONSTRAINT outbox_transaction_seq UNIQUE (transaction_id, seq)
      ){strict}`,
      // claimOutbox: pending rows by due time, and the head-of-queue test per (transaction, channel).
      // Partial indexes stay as small as the backlog, however much history the table holds.
      `CREATE INDEX outbox_pending_due ON outbox (next_attempt_at) WHERE status = 'PENDING'`,
      `CREATE INDEX outbox_pending_queue ON outbox (transaction_id, channel, seq) WHERE status = 'PENDING'`,
      // replayUndelivered by integrator and time.
      `CREATE INDEX outbox_undelivered ON outbox (integrator_id, created_at) WHERE status = 'UNDELIVERED'`,

      `CREATE TABLE delivery_attempts (
        id {identity},
        outbox_id TEXT NOT NULL REFERENCES outbox (id),
        at {bigint} NOT NULL,
        duration_ms INTEGER NOT NULL,
        http_status INTEGER,
        error TEXT,
        delivered {bool} NOT NULL
      ){strict}`,
      `CREATE INDEX delivery_attempts_outbox ON delivery_attempts (outbox_id, at)`,

      `CREATE TABLE refresh_tokens (
        token_hash TEXT PRIMARY KEY,
        family_id TEXT NOT NULL,
        integrator_id TEXT NOT NULL,
        expires_at {bigint} NOT NULL,
        used_at {bigint},
        revoked {bool} NOT NULL DEFAULT {false}
      ){strict}`,
      `CREATE INDEX refresh_tokens_family ON refresh_tokens (family_id)`,

      `CREATE TABLE settings (
        name TEXT PRIMARY KEY,
        value TEXT NOT NULL
      ){strict}`,
    ],
  },
  {
    version: 2,
    name: 'claims read only what they can take: outbox queue heads per endpoint, transactions by claimable time',
    statements: [
      // From now on a row queued behind an earlier PENDING row of its (transaction, channel) carries
      // next_attempt_at = OUTBOX_BLOCKED_AT (store-ops.ts; 2^53 - 1, written out here because a
      // released migration never changes) until the row ahead of it leaves PENDING, so that
      // claimOutbox's due-time index only reaches queue heads. Rows written before this version
      // were all due at once: block every PENDING row that is not the head of its queue.
      `UPDATE outbox SET next_attempt_at = 9007199254740991
       WHERE status = 'PENDING' AND EXISTS (
         SELECT 1 FROM outbox p
         WHERE p.status = 'PENDING' AND p.transaction_id = outbox.transaction_id AND p.channel = outbox.channel AND p.seq < outbox.seq)`,
      // claimOutbox walks the endpoints (integrator, channel) with PENDING rows and takes each
      // one's due rows in order, so an endpoint it leaves out (its deliveries at their bound)
      // costs one index step, not a scan of its due rows. This index replaces the due-time one.
      `CREATE INDEX outbox_pending_endpoint ON outbox (integrator_id, channel, next_attempt_at, seq) WHERE status = 'PENDING'`,
      `DROP INDEX outbox_pending_due`,
      // claimDue: a transaction is claimable from the later of its timer and the end of its lease
      // (lease_until + 1: a lease is live through its last millisecond). Indexed by that time, a
      // claim never reads a due transaction whose lease is live (one being worked on, or one whose
      // processing failed and waits for its lease to lapse). The expression must stay identical to
      // the one in the claimDue statements. This index replaces the due-time one.
      `CREATE INDEX transactions_claimable ON transactions ({greatest}(due_at, COALESCE(lease_until + 1, 0)), due_at) WHERE due_at IS NOT NULL`,
      `DROP INDEX transactions_due`,
    ],
  },
  {
    version: 3,
    name: 'events refer to the message they repeat instead of copying it',
    statements: [
      // NULL: the body is complete as stored (every row written before this version, and callbacks).
      `ALTER TABLE outbox ADD COLUMN payload_version INTEGER`,
    ],
  },
  {
    version: 4,
    name: 'no index of messages by transaction',
    statements: [
      // No statement reads messages by transaction (a transaction finds its request by
      // (integrator_id, message_id), the primary key), and no transaction is ever deleted, so the
      // foreign key needs no index on this side either. It cost every intake and every recorded
      // request an insert into one more B-tree, and so WAL frames in every commit (bench/README.md).
      `DROP INDEX messages_transaction`,
    ],
  },
  {
    version: 5,
    name: 'a transaction is unique per integrator, uetr and kind; identifier determinations are found by what they looked up',
    statements: [
      // An identifier determination and the payment it resolved share their UETR (PayShap keeps
      // one UETR across every message of a payment), so the transaction key takes the kind in.
      // SQLite changes a table constraint only by rebuilding the table (its documented procedure:
      // the store runs migrations with foreign keys off and checks them before committing).
      {
        postgres: [
          `ALTER TABLE transactions DROP CONSTRAINT transactions_integrator_uetr`,
          `ALTER TABLE transactions ADD CONSTRAINT transactions_integrator_uetr_kind UNIQUE (integrator_id, uetr, kind)`,
          `ALTER TABLE transactions ADD COLUMN lookup_key TEXT`,
        ],
        sqlite: [
          `CREATE TABLE transactions_new (
            id TEXT PRIMARY KEY,
            integrator_id TEXT NOT NULL,
            kind TEXT NOT NULL,
            uetr TEXT NOT NULL,
            scheme TEXT NOT NULL,
            message_id TEXT NOT NULL,
            state TEXT NOT NULL,
            version INTEGER NOT NULL CHECK (version >= 1),
            amount_minor INTEGER,
            currency TEXT,
            created_at INTEGER NOT NULL,
            updated_at INTEGER NOT NULL,
            due_at INTEGER,
            lease_owner TEXT,
            lease_until INTEGER,
            traceparent TEXT,
            tracestate TEXT,
            data TEXT NOT NULL,
            lookup_key TEXT,
            CONSTRAINT transactions_integrator_uetr_kind UNIQUE (integrator_id, uetr, kind),
            CONSTRAINT transactions_amount_has_currency CHECK ((amount_minor IS NULL) = (currency IS NULL))
          ) STRICT`,
          `INSERT INTO transactions_new (id, integrator_id, kind, uetr, scheme, message_id, state, version, amount_minor, currency,
             created_at, updated_at, due_at, lease_owner, lease_until, traceparent, tracestate, data)
           SELECT id, integrator_id, kind, uetr, scheme, message_id, state, version, amount_minor, currency,
             created_at, updated_at, due_at, lease_owner, lease_until, traceparent, tracestate, data
           FROM transactions`,
          `DROP TABLE transactions`,
          `ALTER TABLE transactions_new RENAME TO transactions`,
          `CREATE INDEX transactions_claimable ON transactions (MAX(due_at, COALESCE(lease_until + 1, 0)), due_at) WHERE due_at IS NOT NULL`,
        ],
      },
      // The latest determinations of a proxy or account (store: recentDeterminations): only rows that name one.
      `CREATE INDEX transactions_lookup ON transactions (integrator_id, lookup_key, created_at) WHERE lookup_key IS NOT NULL`,
    ],
  },
  {
    version: 6,
    name: 'revoked sessions, read by every instance to refuse their access tokens',
    statements: [
      // One row per session (refresh-token family) revoked by the reuse of one of its refresh
      // tokens, with when: every instance reads the rows of the last few access-token lifetimes
      // (by revoked_at) to refuse the session's access tokens, and a refresh token of a session
      // listed here is refused even if it was stored after the revocation.
      `CREATE TABLE revoked_sessions (
        session_id TEXT PRIMARY KEY,
        revoked_at {bigint} NOT NULL
      ){strict}`,
      `CREATE INDEX revoked_sessions_at ON revoked_sessions (revoked_at)`,
    ],
  },
  {
    version: 7,
    name: 'operators find transactions: end-to-end id, outcome, scheme messages',
    statements: [
      // Set at intake from transactionIdentifiers.endToEndIdentification; rows written before this
      // version stay NULL (found by uetr or message id).
      `ALTER TABLE transactions ADD COLUMN end_to_end_id TEXT`,
      // The final answer (APPROVED, REJECTED, PAID, FAILED...) and its reason, set by the change that decides it.
      `ALTER TABLE transactions ADD COLUMN outcome TEXT`,
      `ALTER TABLE transactions ADD COLUMN reason_code TEXT`,
      // Lookups by uetr and by message id go per integrator along the unique keys the intake keeps
      // anyway (transactions_integrator_uetr_kind, the messages primary key); the end-to-end id
      // needs its own. Only rows that carry one.
      `CREATE INDEX transactions_end_to_end ON transactions (integrator_id, end_to_end_id) WHERE end_to_end_id IS NOT NULL`,
      // Listing newest first by creation time. Appended at its right end by every intake, so it
      // costs a page per commit, not a page per row.
      `CREATE INDEX transactions_created ON transactions (created_at, id)`,
      `CREATE TABLE scheme_messages (
        transaction_id TEXT NOT NULL REFERENCES transactions (id),
        direction TEXT NOT NULL CHECK (direction IN ('sent', 'received')),
        message_id TEXT NOT NULL,
        message_name TEXT NOT NULL,
        at {bigint} NOT NULL,
        document TEXT NOT NULL,
        PRIMARY KEY (transaction_id, direction, message_id)
      ){strict}`,
      // pruneSchemeMessages: the oldest first.
      `CREATE INDEX scheme_messages_at ON scheme_messages (at)`,
    ],
  },
  {
    version: 8,
    name: 'when the outcome was decided, for the time from acceptance to outcome per scheme',
    statements: [
      // Set with the outcome by the change that decides it; rows decided before this version stay NULL.
      `ALTER TABLE transactions ADD COLUMN outcome_at {bigint}`,
    ],
  },
  {
    version: 9,
    name: 'a spent refresh token keeps the token pair it was spent for, sealed, for the reuse interval',
    statements: [
      // Set when the token is spent: the new pair, encrypted under a key derived from the spent
      // token itself (stored only as its hash), so a reuse within auth.refreshTokenReuseIntervalS
      // gets the same pair and a reader of the database gets nothing. NULL on rows spent before.
      `ALTER TABLE refresh_tokens ADD COLUMN successor TEXT`,
    ],
  },
];

/** The statements of one migration in one dialect. */
export function migrationSql(migration: Migration, dialect: SqlDialect): string[] {
  const types = TYPES[dialect];
  return migration.statements.flatMap((entry) => (typeof entry === 'string' ? [entry] : entry[dialect])).map((statement) =>
    statement.replace(/\{(\w+)\}/g, (whole, key: string) => {
      const replacement = types[key];
      if (replacement === undefined) throw new Error(`migration ${migration.version}: unknown placeholder ${whole}`);
      return replacement;
    }),
  );
}

export function schemaMigrationsTableSql(dialect: SqlDialect): string {
  const types = TYPES[dialect];
  return `CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at ${types.bigint} NOT NULL
  )${types.strict}`;
}

export interface AppliedMigration {
  readonly version: number;
  readonly name: string;
}

/**
 * Which migrations still have to run, given what the database has recorded. Throws when the
 * database is ahead of this code or its history disagrees with this list: running on a schema
 * nobody designed for this build is how data gets damaged quietly.
 */
export function pendingMigrations(applied: readonly AppliedMigration[], migrations: readonly Migration[] = MIGRATIONS): Migration[] {
  const known = new Map(migrations.map((migration) => [migration.version, migration]));
  const latest = migrations.reduce((max, migration) => Math.max(max, migration.version), 0);
  for (const row of applied) {
    const migration = known.get(row.version);
    if (migration === undefined) {
      throw new Error(`database schema version ${row.version} is unknown to this build (latest known: ${latest}); refusing to run on it`);
    }
    if (migration.name !== row.name) {
      throw new Error(`database migration ${row.version} is recorded as "${row.name}" but this build calls it "${migration.name}"`);
    }
  }
  const done = new Set(applied.map((row) => row.version));
  return migrations.filter((migration) => !done.has(migration.version)).sort((a, b) => a.version - b.version);
}
