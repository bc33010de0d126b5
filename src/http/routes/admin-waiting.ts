import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { DIRECTIONS, directionOf, type Direction } from '../../domain/events.js';
import { TRANSACTION_KINDS, type TransactionKind } from '../../domain/kinds.js';
import { StringEnum } from '../../domain/messages/common.js';
import { SCHEMES } from '../../domain/schemes.js';
import type { Clock } from '../../ports/clock.js';
import type { Store } from '../../ports/store.js';
import { domainValidator, type Validated } from '../validation.js';
import { ADMIN_PREFIX, adminErrors, adminSchema, encodeCursor, iso } from './admin.js';
import { QUERY_TEXT_CHARS_MAX, queryReader } from './admin-query.js';
import { OPEN_STATES } from './admin-reference.js';
import { summaryView } from './admin-transactions.js';

/**
 * `GET /admin/v1/waiting?scheme=&kind=&direction=&integratorId=&state=&decided=&limit=&cursor=`, in the
 * admin scope: the transactions not final yet (in a state their machine can leave), waiting
 * longest first, each with how long it has waited and its next timer (Store.waitingTransactions).
 * What an operator looks at first when payments seem stuck.
 */
export interface AdminWaitingDeps {
  readonly store: Store;
  readonly clock: Clock;
}

const LIMIT_DEFAULT = 50;
const LIMIT_MAX = 500;
const QUERY_KEYS = ['scheme', 'kind', 'direction', 'integratorId', 'state', 'decided', 'limit', 'cursor'];
const OPEN_STATE_NAMES: ReadonlySet<string> = new Set(OPEN_STATES.flatMap((kind) => kind.states));

interface WaitingListQuery {
  readonly scheme?: string;
  readonly kind?: TransactionKind;
  readonly direction?: Direction;
  readonly integratorId?: string;
  readonly state?: string;
  readonly decided?: boolean;
  readonly limit: number;
  readonly after?: { readonly createdAt: number; readonly id: string };
}

export function adminWaitingRoutes(scope: FastifyInstance, deps: AdminWaitingDeps): void {
  scope.get<{ Querystring: WaitingListQuery }>(
    `${ADMIN_PREFIX}/waiting`,
    {
      schema: {
        ...adminSchema,
        operationId: 'adminWaitingTransactions',
        summary: 'The transactions not final yet, waiting longest first, with how long each has waited and its next timer',
        description: 'A page at a time: pass nextCursor as cursor for the next page.',
        querystring: Type.Object(
          {
            scheme: Type.Optional(StringEnum(SCHEMES, { description: 'Only of this scheme' })),
            kind: Type.Optional(StringEnum(TRANSACTION_KINDS, { description: 'Only of this kind' })),
            direction: Type.Optional(StringEnum(DIRECTIONS, { description: 'Only INBOUND or OUTBOUND ones' })),
            integratorId: Type.Optional(Type.String({ maxLength: QUERY_TEXT_CHARS_MAX, description: 'Only this integrator’s' })),
            state: Type.Optional(Type.String({ description: 'Only in this state (one a machine can leave: GET /admin/v1/states)' })),
            decided: Type.Optional(
              Type.Boolean({ description: 'false: only those with no outcome yet (waiting for an answer: what scheme health counts in flight); true: only those decided whose callback is still due' }),
            ),
            limit: Type.Optional(Type.Integer({ minimum: 1, maximum: LIMIT_MAX, default: LIMIT_DEFAULT, description: 'Page size' })),
            cursor: Type.Optional(Type.String({ description: 'nextCursor of the previous page' })),
          },
          { additionalProperties: false },
        ),
        response: { 200: { description: 'A page of waiting transactions', content: { 'application/json': { schema: Type.Ref('WaitingList') } } }, ...adminErrors },
      },
      validatorCompiler: domainValidator(validateWaitingQuery, 'waiting transactions query'),
    },
    async (request) => {
      const { kind, direction, limit, ...filters } = request.query;
      const open = OPEN_STATES.filter((each) => (kind === undefined || each.kind === kind) && (direction === undefined || directionOf(each.kind) === direction));
      const asOf = deps.clock.now();
      const rows = await deps.store.waitingTransactions({ ...filters, open, limit: limit + 1 });
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        asOf: iso(asOf),
        transactions: page.map((row) => ({ ...summaryView(row), dueAt: iso(row.dueAt), waitedMs: Math.max(0, asOf - row.createdAt) })),
        nextCursor: rows.length > limit && last !== undefined ? encodeCursor(last) : null,
      };
    },
  );
}

function validateWaitingQuery(query: unknown): Validated<WaitingListQuery> {
  const { errors, text, oneOf, limit, cursor } = queryReader(query, QUERY_KEYS);
  const scheme = oneOf('scheme', SCHEMES);
  const kind = oneOf('kind', TRANSACTION_KINDS);
  const direction = oneOf('direction', DIRECTIONS);
  const integratorId = text('integratorId', () => true, `must be an integrator id (1 to ${QUERY_TEXT_CHARS_MAX} characters)`);
  const state = text('state', (value) => OPEN_STATE_NAMES.has(value), 'must be a state a transaction can wait in (GET /admin/v1/states: one that is not final)');
  const decidedText = text('decided', (value) => value === 'true' || value === 'false', 'must be true or false');
  const pageSize = limit(LIMIT_MAX, LIMIT_DEFAULT);
  const after = cursor();
  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    value: {
      limit: pageSize,
      ...(scheme === undefined ? {} : { scheme }),
      ...(kind === undefined ? {} : { kind }),
      ...(direction === undefined ? {} : { direction }),
      ...(integratorId === undefined ? {} : { integratorId }),
      ...(state === undefined ? {} : { state }),
      ...(decidedText === undefined ? {} : { decided: decidedText === 'true' }),
      ...(after === undefined ? {} : { after }),
    },
  };
}
