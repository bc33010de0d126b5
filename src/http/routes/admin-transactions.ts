import type { FastifyInstance } from 'fastify';
import type { DemoInbox, InboxEntry } from '../../app/demo-inbox.js';
import { DIRECTIONS, directionOf, type Direction } from '../../domain/events.js';
import { TRANSACTION_KINDS, type TransactionKind } from '../../domain/kinds.js';
import { ApiError, type FieldError } from '../../domain/errors.js';
import { SCHEMES } from '../../domain/schemes.js';
import { formatAmount } from '../../lib/money.js';
import type { Config } from '../../config/types.js';
import type { HistoryRecord, Store, TransactionQuery, TransactionRecord, TransactionSummary } from '../../ports/store.js';
import { domainValidator, type Validated } from '../validation.js';
import { Type } from '@sinclair/typebox';
import { StringEnum } from '../../domain/messages/common.js';
import { errorResponse } from '../schemas.js';
import { timeoutCause } from './admin-timeouts.js';
import { ADMIN_PREFIX, adminErrors, adminSchema, attemptView, deliverySummary, encodeCursor, iso, isRecord, parseRfc3339 } from './admin.js';
import { QUERY_TEXT_CHARS_MAX, queryReader } from './admin-query.js';

/**
 * The operator API for transactions (docs/operations.md, "Finding a transaction"), registered in
 * the admin scope (admin credentials and allowlist):
 *
 * - `GET /admin/v1/transactions?uetr=|messageId=|endToEndId=&integratorId=&from=&to=&state=&scheme=&outcome=&kind=&direction=&limit=&cursor=`
 *   finds transactions by one key, or lists those created in [from, to), newest first; filters
 *   narrow either; `nextCursor` continues the page; each says its direction (INBOUND for the
 *   kinds the scheme starts);
 * - `GET /admin/v1/transactions/{id}` shows one: its request, every state entered (time and
 *   cause), every callback and event with each delivery attempt, and the scheme messages (XML);
 * - `GET /admin/v1/demo-inbox?after=&limit=` (demo only) lists what the demo integrator was sent.
 */
export interface AdminTransactionsDeps {
  readonly store: Store;
  /** Searches without integratorId look in these (the configured integrators). */
  readonly integratorIds: readonly string[];
  readonly demoInbox?: DemoInbox;
  /** The time budgets a timeout in the timeline names (admin-timeouts.ts). */
  readonly config: Pick<Config, 'schemes' | 'integrators'>;
}

const LIST_LIMIT_DEFAULT = 50;
const LIST_LIMIT_MAX = 500;
const TEXT_CHARS_MAX = QUERY_TEXT_CHARS_MAX;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const CODE = /^[A-Z][A-Z0-9_]{0,63}$/;
const QUERY_KEYS = ['uetr', 'messageId', 'endToEndId', 'integratorId', 'from', 'to', 'state', 'scheme', 'outcome', 'kind', 'direction', 'limit', 'cursor'];

type ListQuery = Omit<TransactionQuery, 'integratorIds' | 'kinds'> & { readonly integratorId?: string; readonly kind?: TransactionKind; readonly direction?: Direction };

export function adminTransactionRoutes(scope: FastifyInstance, deps: AdminTransactionsDeps): void {
  const { store } = deps;
  scope.get<{ Querystring: ListQuery }>(
    `${ADMIN_PREFIX}/transactions`,
    {
      schema: {
        ...adminSchema,
        operationId: 'adminFindTransactions',
        summary: 'Find transactions by uetr, message id or end-to-end id, or list them by integrator and time',
        description: 'Newest first, a page at a time: pass nextCursor as cursor for the next page. At most one of uetr, messageId and endToEndId.',
        querystring: Type.Object(
          {
            uetr: Type.Optional(Type.String({ format: 'uuid', description: 'The UETR the integrator gave' })),
            messageId: Type.Optional(Type.String({ maxLength: TEXT_CHARS_MAX, description: 'The messageIdentification of the request, or of a later request about it' })),
            endToEndId: Type.Optional(Type.String({ maxLength: TEXT_CHARS_MAX, description: 'The end-to-end identification' })),
            integratorId: Type.Optional(Type.String({ maxLength: TEXT_CHARS_MAX, description: 'Only this integrator’s (default: every configured integrator)' })),
            from: Type.Optional(Type.String({ format: 'date-time', description: 'Created at or after (RFC 3339)' })),
            to: Type.Optional(Type.String({ format: 'date-time', description: 'Created before (RFC 3339)' })),
            state: Type.Optional(Type.String({ description: 'Only in this state' })),
            scheme: Type.Optional(StringEnum(SCHEMES, { description: 'Only of this scheme' })),
            outcome: Type.Optional(Type.String({ description: 'Only with this outcome (e.g. APPROVED, REJECTED)' })),
            kind: Type.Optional(StringEnum(TRANSACTION_KINDS, { description: 'Only of this kind' })),
            direction: Type.Optional(StringEnum(DIRECTIONS, { description: 'Only those the scheme started for an integrator (INBOUND) or an integrator sent (OUTBOUND)' })),
            limit: Type.Optional(Type.Integer({ minimum: 1, maximum: LIST_LIMIT_MAX, default: LIST_LIMIT_DEFAULT, description: 'Page size' })),
            cursor: Type.Optional(Type.String({ description: 'nextCursor of the previous page' })),
          },
          { additionalProperties: false },
        ),
        response: { 200: { description: 'A page of transactions', content: { 'application/json': { schema: Type.Ref('TransactionList') } } }, ...adminErrors },
      },
      validatorCompiler: domainValidator(validateListQuery, 'transaction search'),
    },
    async (request) => {
      const { integratorId, kind, direction, ...query } = request.query;
      const integratorIds = integratorId === undefined ? deps.integratorIds : [integratorId];
      const kinds = kindsOf(kind, direction);
      const rows = await store.searchTransactions({ ...query, integratorIds, ...(kinds === undefined ? {} : { kinds }), limit: query.limit + 1 });
      const page = rows.slice(0, query.limit);
      const last = page.at(-1);
      return { transactions: page.map(summaryView), nextCursor: rows.length > query.limit && last !== undefined ? encodeCursor(last) : null };
    },
  );

  scope.get<{ Params: { id: string } }>(
    `${ADMIN_PREFIX}/transactions/:id`,
    {
      schema: {
        ...adminSchema,
        operationId: 'adminGetTransaction',
        summary: 'One transaction: its request, every state entered, every callback and event with each attempt, and the scheme messages (XML)',
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: TEXT_CHARS_MAX, description: 'The internal transaction id' }) }),
        response: {
          200: { description: 'The transaction', content: { 'application/json': { schema: Type.Ref('TransactionDetail') } } },
          ...adminErrors,
          404: errorResponse('No transaction has that id'),
        },
      },
      validatorCompiler: domainValidator(validateId, 'transaction id'),
    },
    async (request) => {
      const { id } = request.params;
      const transaction = await store.getTransaction(id);
      const [summary] = transaction === undefined ? [] : await store.searchTransactions({ integratorIds: [transaction.integratorId], id, limit: 1 });
      if (transaction === undefined || summary === undefined) throw new ApiError('TRANSACTION_NOT_FOUND', `No transaction ${id}`);
      const [message, history, outbox, schemeMessages] = await Promise.all([
        store.findMessage(transaction.integratorId, transaction.messageId),
        store.history(id),
        store.outbox(id),
        store.schemeMessages(id),
      ]);
      const deliveries = await Promise.all(
        outbox.map(async (record) => ({ ...deliverySummary(record), headers: record.headers, body: json(record.body), attemptHistory: (await store.deliveryAttempts(record.id)).map(attemptView) })),
      );
      return {
        ...summaryView(summary),
        traceparent: transaction.traceparent,
        dueAt: transaction.dueAt === null ? null : iso(transaction.dueAt),
        request: message === undefined ? null : json(message.rawBody),
        history: history.map((row) => historyView(row, transaction, deps.config)),
        deliveries,
        schemeMessages: schemeMessages.map((row) => ({ direction: row.direction, messageName: row.messageName, messageId: row.messageId, at: iso(row.at), document: row.document })),
      };
    },
  );

  const inbox = deps.demoInbox;
  if (inbox !== undefined) {
    scope.get<{ Querystring: { after: number; limit: number } }>(
      `${ADMIN_PREFIX}/demo-inbox`,
      {
        schema: {
          ...adminSchema,
          operationId: 'adminDemoInbox',
          summary: 'What the demo integrator was sent (demo only)',
          querystring: Type.Object(
            {
              after: Type.Optional(Type.Integer({ minimum: 0, description: 'Only what arrived after this seq' })),
              limit: Type.Optional(Type.Integer({ minimum: 1, description: 'Page size' })),
            },
            { additionalProperties: false },
          ),
          response: { 200: { description: 'Messages received', content: { 'application/json': { schema: Type.Ref('DemoInboxPage') } } }, ...adminErrors },
        },
        validatorCompiler: domainValidator(validateInboxQuery, 'demo inbox query'),
      },
      (request) => {
        const messages = inbox.list(request.query.after, request.query.limit).map(inboxView);
        return { messages, next: messages.at(-1)?.seq ?? request.query.after };
      },
    );
  }
}

/** The kinds a search asks for: the kind, those of the direction, or both at once (none when they disagree); undefined for every kind. */
function kindsOf(kind: TransactionKind | undefined, direction: Direction | undefined): readonly TransactionKind[] | undefined {
  if (kind === undefined && direction === undefined) return undefined;
  return (kind === undefined ? TRANSACTION_KINDS : [kind]).filter((each) => direction === undefined || directionOf(each) === direction);
}

export function summaryView(row: TransactionSummary) {
  return {
    id: row.id,
    integratorId: row.integratorId,
    kind: row.kind,
    direction: directionOf(row.kind),
    scheme: row.scheme,
    uetr: row.uetr,
    messageId: row.messageId,
    endToEndId: row.endToEndId,
    state: row.state,
    outcome: row.outcome,
    reasonCode: row.reasonCode,
    amount: row.amountMinor === null || row.currency === null ? null : { value: formatAmount({ minor: row.amountMinor, currency: row.currency }), currency: row.currency },
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

/**
 * A state entered, with what caused it: the scheme's answer or the decision, as JSON (null for
 * version 1, the request itself); a timeout also names the time budget that ran out.
 */
function historyView(row: HistoryRecord, transaction: TransactionRecord, config: AdminTransactionsDeps['config']) {
  const cause = row.cause === null ? null : json(row.cause);
  const timeout = timeoutCause(transaction, row.toState, cause, config);
  return { version: row.version, fromState: row.fromState, toState: row.toState, at: iso(row.at), cause, ...(timeout === undefined ? {} : { timeout }) };
}

function inboxView(entry: InboxEntry) {
  return { ...entry, receivedAt: iso(entry.receivedAt) };
}

/** Stored JSON text as JSON (it always is; text otherwise). */
function json(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}


function validateListQuery(query: unknown): Validated<ListQuery> {
  const { errors, text, oneOf, limit, cursor } = queryReader(query, QUERY_KEYS);
  const any = () => true;
  const uetr = text('uetr', (value) => UUID.test(value.toLowerCase()), 'must be a UUID')?.toLowerCase();
  const messageId = text('messageId', any, `must be a message id (1 to ${TEXT_CHARS_MAX} characters)`);
  const endToEndId = text('endToEndId', any, `must be an end-to-end id (1 to ${TEXT_CHARS_MAX} characters)`);
  const keys = [uetr, messageId, endToEndId].filter((key) => key !== undefined);
  if (keys.length > 1) errors.push({ field: '', message: 'give at most one of uetr, messageId and endToEndId' });
  const integratorId = text('integratorId', any, `must be an integrator id (1 to ${TEXT_CHARS_MAX} characters)`);
  const time = (key: string): number | undefined => {
    const value = text(key, (candidate) => parseRfc3339(candidate) !== undefined, 'must be an RFC 3339 date-time, e.g. 2025-01-15T12:00:00Z');
    return value === undefined ? undefined : parseRfc3339(value);
  };
  const from = time('from');
  const to = time('to');
  if (from !== undefined && to !== undefined && from >= to) errors.push({ field: '/to', message: 'must be later than from' });
  const state = text('state', (value) => CODE.test(value), 'must be a state name, e.g. PAYMENT_AUTH_RESPONSE_DELIVERED');
  const outcome = text('outcome', (value) => CODE.test(value), 'must be an outcome, e.g. APPROVED, REJECTED, PAID or FAILED');
  const scheme = oneOf('scheme', SCHEMES);
  const kind = oneOf('kind', TRANSACTION_KINDS);
  const direction = oneOf('direction', DIRECTIONS);
  const pageSize = limit(LIST_LIMIT_MAX, LIST_LIMIT_DEFAULT);
  const before = cursor();
  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    value: {
      limit: pageSize,
      ...(uetr === undefined ? {} : { uetr }),
      ...(messageId === undefined ? {} : { messageId }),
      ...(endToEndId === undefined ? {} : { endToEndId }),
      ...(integratorId === undefined ? {} : { integratorId }),
      ...(from === undefined ? {} : { from }),
      ...(to === undefined ? {} : { to }),
      ...(state === undefined ? {} : { state }),
      ...(outcome === undefined ? {} : { outcome }),
      ...(scheme === undefined ? {} : { scheme }),
      ...(kind === undefined ? {} : { kind }),
      ...(direction === undefined ? {} : { direction }),
      ...(before === undefined ? {} : { before }),
    },
  };
}

function validateId(params: unknown): Validated<{ id: string }> {
  const id = isRecord(params) ? params['id'] : undefined;
  if (typeof id !== 'string' || id === '' || id.length > TEXT_CHARS_MAX) return { ok: false, errors: [{ field: '/id', message: 'must be a transaction id' }] };
  return { ok: true, value: { id } };
}

function validateInboxQuery(query: unknown): Validated<{ after: number; limit: number }> {
  const input = isRecord(query) ? query : {};
  const errors: FieldError[] = [];
  for (const key of Object.keys(input)) {
    if (!['after', 'limit'].includes(key)) errors.push({ field: `/${key}`, message: 'is not a known query parameter' });
  }
  const number = (key: string, fallback: number, min: number, max: number): number => {
    const value = input[key];
    if (value === undefined) return fallback;
    if (typeof value === 'string' && /^[0-9]{1,9}$/.test(value) && Number(value) >= min && Number(value) <= max) return Number(value);
    errors.push({ field: `/${key}`, message: `must be an integer from ${min} to ${max}` });
    return fallback;
  };
  const after = number('after', 0, 0, 999_999_999);
  const limit = number('limit', 100, 1, 1_000);
  return errors.length > 0 ? { ok: false, errors } : { ok: true, value: { after, limit } };
}
