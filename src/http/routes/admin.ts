import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config/types.js';
import { ApiError, type FieldError } from '../../domain/errors.js';
import { StringEnum } from '../../domain/messages/common.js';
import type { Clock } from '../../ports/clock.js';
import type { OutboxDelivery } from '../../ports/delivery.js';
import type { DeliveryAttemptRecord, OutboxRecord, Store } from '../../ports/store.js';
import { ADMIN_REALM, adminGuard } from '../plugins/admin-auth.js';
import { SCHEME_NAMES } from '../openapi/document.js';
import { errorResponse } from '../schemas.js';
import { domainValidator, type Validated } from '../validation.js';
import type { DemoInbox } from '../../app/demo-inbox.js';
import { adminSchemeRoutes } from './admin-schemes.js';
import { adminInboundRoutes, type SimulatedInbound } from './admin-inbound.js';
import { adminSimulatorRoutes, type SampleDeps } from './admin-simulator.js';
import { adminTransactionRoutes } from './admin-transactions.js';
import { adminReferenceRoutes } from './admin-reference.js';
import { adminWaitingRoutes } from './admin-waiting.js';

/**
 * The operator API for deliveries (docs/delivery.md, "Admin API"), under `/admin/v1`:
 *
 * - `GET  /admin/v1/deliveries?status=UNDELIVERED&integratorId=…&limit=…&cursor=…` lists
 *   messages waiting for a replay (or, with `status=PENDING`, still being retried), oldest first;
 * - `GET  /admin/v1/deliveries/{id}` shows one message with its body and every recorded attempt;
 * - `POST /admin/v1/deliveries/replay` with `{"outboxId": "…"}` or
 *   `{"integratorId": "…", "since": "<RFC 3339>"}` (either part alone too) makes UNDELIVERED
 *   messages PENDING again with a fresh retry schedule, and answers `{"replayed": n}`;
 *
 * and, in the same scope, the transaction search of admin-transactions.ts, what still waits
 * (admin-waiting.ts), the states and reason codes (admin-reference.ts) and scheme health. Without an `admin`
 * section in the configuration nothing is registered, so the paths answer 404.
 * Register it in its own encapsulated scope: `app.register(async (scope) => adminRoutes(scope, deps))`.
 */
export interface AdminDeps {
  readonly config: Pick<Config, 'admin' | 'integrators' | 'schemes'>;
  readonly store: Store;
  /** What the simulator's samples are sent through: the integrator API's use cases. */
  readonly samples: SampleDeps;
  readonly clock: Clock;
  /** Woken after a replay, so replayed messages go out at once rather than at the next poll. */
  readonly delivery?: Pick<OutboxDelivery, 'wake'>;
  /** The demo's inbox, listed at /admin/v1/demo-inbox (demo only). */
  readonly demoInbox?: DemoInbox;
  /** The built-in simulator's operator, for the traffic it originates (admin-inbound.ts). */
  readonly simulatedInbound?: SimulatedInbound;
}

export const ADMIN_PREFIX = '/admin/v1';
const LIST_LIMIT_DEFAULT = 100;
const LIST_LIMIT_MAX = 1_000;
const ID_CHARS_MAX = 200;
/** RFC 3339 date-time: date, `T` (or `t`/space), time with optional fraction, then `Z` or an offset. */
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

type ListStatus = 'UNDELIVERED' | 'PENDING';

interface ListQuery {
  readonly status: ListStatus;
  readonly integratorId?: string;
  readonly limit: number;
  readonly after?: { readonly createdAt: number; readonly id: string };
}

type ReplayRequest = { readonly outboxId: string } | { readonly integratorId?: string; readonly since?: number };

const json = (id: string) => ({ content: { 'application/json': { schema: Type.Ref(id) } } });

/** What the document says of every admin route; validation is the validators below (domainValidator). */
export const adminSchema = {
  tags: ['admin'],
  security: [{ [SCHEME_NAMES.admin]: [] }],
};
export const adminErrors = {
  400: errorResponse('A bad parameter or body; `errors` names every one'),
  401: errorResponse('Missing or wrong operator credentials', { 'WWW-Authenticate': { type: 'string', description: `Basic realm="${ADMIN_REALM}"` } }),
  429: errorResponse('Too many failed authentications from this address', { 'Retry-After': { type: 'string', description: 'Seconds to wait' } }),
};
const ID_PARAMS = Type.Object({ id: Type.String({ minLength: 1, maxLength: ID_CHARS_MAX, description: 'The delivery id (webhook-id)' }) });

export async function adminRoutes(scope: FastifyInstance, deps: AdminDeps): Promise<void> {
  const { admin } = deps.config;
  if (admin === undefined) return;
  const integratorIds = new Set(deps.config.integrators.map((integrator) => integrator.id));
  scope.addHook('onRequest', await adminGuard(admin, deps.clock, scope.failedAuthentications));
  adminTransactionRoutes(scope, { store: deps.store, config: deps.config, integratorIds: [...integratorIds], ...(deps.demoInbox === undefined ? {} : { demoInbox: deps.demoInbox }) });
  adminWaitingRoutes(scope, deps);
  adminReferenceRoutes(scope);
  adminSchemeRoutes(scope, deps);
  adminSimulatorRoutes(scope, deps);
  adminInboundRoutes(scope, deps);

  scope.get<{ Querystring: ListQuery }>(
    `${ADMIN_PREFIX}/deliveries`,
    {
      schema: {
        ...adminSchema,
        operationId: 'adminListDeliveries',
        summary: 'List deliveries waiting for a replay (or still being retried)',
        description: 'Oldest first, a page at a time: pass nextCursor as cursor for the next page.',
        querystring: Type.Object(
          {
            status: Type.Optional(StringEnum(['UNDELIVERED', 'PENDING'], { default: 'UNDELIVERED', description: 'UNDELIVERED (the default) or PENDING' })),
            integratorId: Type.Optional(Type.String({ minLength: 1, maxLength: ID_CHARS_MAX, description: 'Only messages to this integrator' })),
            limit: Type.Optional(Type.Integer({ minimum: 1, maximum: LIST_LIMIT_MAX, default: LIST_LIMIT_DEFAULT, description: 'Page size' })),
            cursor: Type.Optional(Type.String({ description: 'nextCursor of the previous page' })),
          },
          { additionalProperties: false },
        ),
        response: { 200: { description: 'A page of deliveries', ...json('DeliveryList') }, ...adminErrors },
      },
      validatorCompiler: domainValidator(validateListQuery, 'delivery listing query'),
    },
    async (request) => {
      const query = request.query;
      const rows = await deps.store.listOutbox({ ...query, limit: query.limit + 1 });
      const page = rows.slice(0, query.limit);
      const last = page.at(-1);
      return {
        deliveries: page.map(deliverySummary),
        nextCursor: rows.length > query.limit && last !== undefined ? encodeCursor(last) : null,
      };
    },
  );

  scope.get<{ Params: { id: string } }>(
    `${ADMIN_PREFIX}/deliveries/:id`,
    {
      schema: {
        ...adminSchema,
        operationId: 'adminGetDelivery',
        summary: 'One delivery with its body and every attempt',
        params: ID_PARAMS,
        response: { 200: { description: 'The delivery', ...json('DeliveryDetail') }, ...adminErrors, 404: errorResponse('No delivery has that id') },
      },
      validatorCompiler: domainValidator(validateIdParams, 'delivery id'),
    },
    async (request) => {
      const record = await deps.store.outboxMessage(request.params.id);
      if (record === undefined) throw new ApiError('NOT_FOUND', `No delivery ${request.params.id}`);
      const attempts = await deps.store.deliveryAttempts(record.id);
      return { ...deliverySummary(record), headers: record.headers, body: record.body, attemptHistory: attempts.map(attemptView) };
    },
  );

  scope.post<{ Body: ReplayRequest }>(
    `${ADMIN_PREFIX}/deliveries/replay`,
    {
      schema: {
        ...adminSchema,
        operationId: 'adminReplayDeliveries',
        summary: 'Replay undelivered messages',
        description:
          'Makes UNDELIVERED messages PENDING again with a fresh retry schedule, and wakes delivery: one message by outboxId, or every one ' +
          'of an integrator and/or written since a time. An empty filter is refused, so nobody replays everything by accident.',
        body: Type.Ref('ReplayRequest'),
        response: { 200: { description: 'How many were replayed', ...json('ReplayResult') }, ...adminErrors, 404: errorResponse('No delivery has that outboxId') },
      },
      validatorCompiler: domainValidator((body) => validateReplay(body, integratorIds), 'replay request'),
    },
    async (request) => {
      const filter = request.body;
      if ('outboxId' in filter && (await deps.store.outboxMessage(filter.outboxId)) === undefined) {
        throw new ApiError('NOT_FOUND', `No delivery ${filter.outboxId}`);
      }
      const replayed = await deps.store.replayUndelivered(filter, deps.clock.now());
      request.log.info({ filter, replayed }, 'admin: undelivered messages replayed');
      if (replayed > 0) deps.delivery?.wake();
      return { replayed };
    },
  );
}

export function deliverySummary(record: OutboxRecord) {
  return {
    id: record.id,
    transactionId: record.transactionId,
    integratorId: record.integratorId,
    channel: record.channel,
    url: record.url,
    seq: record.seq,
    status: record.status,
    attempts: record.attempts,
    createdAt: iso(record.createdAt),
    nextAttemptAt: record.status === 'PENDING' ? iso(record.nextAttemptAt) : null,
    deliveredAt: record.deliveredAt === null ? null : iso(record.deliveredAt),
    lastError: record.lastError,
  };
}

export function attemptView(attempt: DeliveryAttemptRecord) {
  return { at: iso(attempt.at), durationMs: attempt.durationMs, httpStatus: attempt.httpStatus, error: attempt.error, delivered: attempt.delivered };
}

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** An opaque page token: the (createdAt, id) of the last row of the page (deliveries and transactions alike). */
export function encodeCursor(row: { readonly createdAt: number; readonly id: string }): string {
  return Buffer.from(JSON.stringify([row.createdAt, row.id]), 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): { createdAt: number; id: string } | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(value) || value.length !== 2) return undefined;
    const [createdAt, id] = value as unknown[];
    return Number.isSafeInteger(createdAt) && typeof id === 'string' ? { createdAt: createdAt as number, id } : undefined;
  } catch {
    return undefined;
  }
}

/** Milliseconds since the epoch of an RFC 3339 date-time, or undefined when it is not one. */
export function parseRfc3339(text: string): number | undefined {
  const match = RFC3339.exec(text);
  if (match === null) return undefined;
  const [, year, month, day, hour, minute, second] = match.map(Number) as [number, number, number, number, number, number, number];
  // Date.parse would roll 2025-02-30 over into March; a calendar check refuses it.
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  if (hour > 23 || minute > 59 || second > 60) return undefined;
  const ms = Date.parse(text.replace(' ', 'T').replace(':60', ':59'));
  return Number.isNaN(ms) ? undefined : ms;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function validateListQuery(query: unknown): Validated<ListQuery> {
  const input = isRecord(query) ? query : {};
  const errors: FieldError[] = [];
  for (const key of Object.keys(input)) {
    if (!['status', 'integratorId', 'limit', 'cursor'].includes(key)) errors.push({ field: `/${key}`, message: 'is not a known query parameter' });
  }
  const status = input['status'] ?? 'UNDELIVERED';
  if (status !== 'UNDELIVERED' && status !== 'PENDING') errors.push({ field: '/status', message: 'must be UNDELIVERED or PENDING' });
  const integratorId = input['integratorId'];
  if (integratorId !== undefined && (typeof integratorId !== 'string' || integratorId === '' || integratorId.length > ID_CHARS_MAX)) {
    errors.push({ field: '/integratorId', message: 'must be an integrator id' });
  }
  const limitText = input['limit'];
  const limit = limitText === undefined ? LIST_LIMIT_DEFAULT : typeof limitText === 'string' && /^[0-9]{1,4}$/.test(limitText) ? Number(limitText) : NaN;
  if (!(limit >= 1 && limit <= LIST_LIMIT_MAX)) errors.push({ field: '/limit', message: `must be an integer from 1 to ${LIST_LIMIT_MAX}` });
  const cursor = input['cursor'];
  const after = typeof cursor === 'string' ? decodeCursor(cursor) : undefined;
  if (cursor !== undefined && after === undefined) errors.push({ field: '/cursor', message: 'is not a cursor this API returned' });
  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    value: {
      status: status as ListStatus,
      limit,
      ...(typeof integratorId === 'string' ? { integratorId } : {}),
      ...(after === undefined ? {} : { after }),
    },
  };
}

function validateIdParams(params: unknown): Validated<{ id: string }> {
  const id = isRecord(params) ? params['id'] : undefined;
  if (typeof id !== 'string' || id === '' || id.length > ID_CHARS_MAX) return { ok: false, errors: [{ field: '/id', message: 'must be a delivery id' }] };
  return { ok: true, value: { id } };
}

function validateReplay(body: unknown, integratorIds: ReadonlySet<string>): Validated<ReplayRequest> {
  if (!isRecord(body)) return { ok: false, errors: [{ field: '', message: 'must be a JSON object' }] };
  const errors: FieldError[] = [];
  for (const key of Object.keys(body)) {
    if (!['outboxId', 'integratorId', 'since'].includes(key)) errors.push({ field: `/${key}`, message: 'is not a known field' });
  }
  const { outboxId, integratorId, since } = body;
  if (outboxId !== undefined) {
    if (typeof outboxId !== 'string' || outboxId === '' || outboxId.length > ID_CHARS_MAX) errors.push({ field: '/outboxId', message: 'must be a delivery id' });
    if (integratorId !== undefined || since !== undefined) errors.push({ field: '/outboxId', message: 'replays one message: give it alone, without integratorId or since' });
  } else if (integratorId === undefined && since === undefined) {
    errors.push({ field: '', message: 'give outboxId, or integratorId and/or since' });
  }
  if (integratorId !== undefined && (typeof integratorId !== 'string' || !integratorIds.has(integratorId))) {
    errors.push({ field: '/integratorId', message: 'is not a configured integrator' });
  }
  const sinceMs = typeof since === 'string' ? parseRfc3339(since) : undefined;
  if (since !== undefined && sinceMs === undefined) errors.push({ field: '/since', message: 'must be an RFC 3339 date-time, e.g. 2025-01-15T12:00:00Z' });
  if (errors.length > 0) return { ok: false, errors };
  if (typeof outboxId === 'string') return { ok: true, value: { outboxId } };
  return {
    ok: true,
    value: {
      ...(typeof integratorId === 'string' ? { integratorId } : {}),
      ...(sinceMs === undefined ? {} : { since: sinceMs }),
    },
  };
}
