import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { REASON_TEXTS } from '../../connectors/iso20022/reason-codes.js';
import { directionOf } from '../../domain/events.js';
import { MACHINES } from '../../domain/machines/registry.js';
import { ADMIN_PREFIX, adminErrors, adminSchema } from './admin.js';

/**
 * What the console (and any operator's script) names things by, in the admin scope:
 *
 * - `GET /admin/v1/states`: every kind's states as its state machine declares them, each marked
 *   final or not (the state filter's list, and what "waiting" means);
 * - `GET /admin/v1/reason-codes`: the reason codes the service and its schemes give, with their
 *   text (the connectors' table, the one the service writes its own texts from).
 */
export const TRANSACTION_STATES = [...MACHINES.values()].map((machine) => ({
  kind: machine.kind,
  direction: directionOf(machine.kind),
  initialState: machine.initialState,
  states: Object.entries(machine.transitions).map(([state, next]) => ({ state, final: next.length === 0 })),
}));

/** The states each kind can leave: what a transaction still waiting rests in. */
export const OPEN_STATES = TRANSACTION_STATES.map((kind) => ({ kind: kind.kind, states: kind.states.filter((state) => !state.final).map((state) => state.state) }));

const REASON_CODES = [...REASON_TEXTS.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([code, text]) => ({ code, text }));

const json = (id: string) => ({ content: { 'application/json': { schema: Type.Ref(id) } } });

export function adminReferenceRoutes(scope: FastifyInstance): void {
  scope.get(
    `${ADMIN_PREFIX}/states`,
    {
      schema: {
        ...adminSchema,
        operationId: 'adminTransactionStates',
        summary: "Every kind's states, from its state machine, each marked final or not",
        response: { 200: { description: 'The states per kind', ...json('TransactionStates') }, ...adminErrors },
      },
    },
    () => ({ kinds: TRANSACTION_STATES }),
  );
  scope.get(
    `${ADMIN_PREFIX}/reason-codes`,
    {
      schema: {
        ...adminSchema,
        operationId: 'adminReasonCodes',
        summary: 'The reason codes the service and its schemes give, with what each means',
        response: { 200: { description: 'The reason codes', ...json('ReasonCodes') }, ...adminErrors },
      },
    },
    () => ({ reasonCodes: REASON_CODES }),
  );
}
