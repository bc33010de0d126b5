import { CALLBACK_PATHS } from '../../domain/callback-paths.js';
import {
  decide,
  ID,
  IDENTIFIER_DETERMINATION_MACHINE,
  type Determination,
  type IdData,
  type IdInput,
  type IdState,
} from '../../domain/machines/identifier-determination.js';
import { identifierDeterminationResponseJson, type IdentifierDeterminationRequest } from '../../domain/messages/identifier-determination.js';
import type { OutboundLookup } from '../../ports/scheme.js';
import type { NewOutboxMessage } from '../../ports/store.js';
import { callbackMessage, callbackRowInput, carrying, outboundOf, sentInput, stateIn, type DriverEnv, type EngineInput, type KindContext, type KindDecision, type KindDriver } from './kind.js';

/**
 * The engine's side of an identifier determination: the machine of
 * domain/machines/identifier-determination.ts. The answer it decides is rendered once, as the
 * IdentifierDeterminationResponse, and kept in the working data (`response`): the held request
 * and every retry of it are answered with exactly that text, and in async mode it is also the
 * report callback's body. The change that stores it notifies every instance, so a request held
 * by another instance is answered at once.
 */
export const IDENTIFIER_DETERMINATION_DRIVER: KindDriver = {
  machine: IDENTIFIER_DETERMINATION_MACHINE,

  answers(_transaction, report) {
    return report.kind === 'identification';
  },

  async decide(context, input, env) {
    const { transaction } = context;
    const state = stateIn(IDENTIFIER_DETERMINATION_MACHINE, transaction);
    const data = transaction.data as unknown as IdData;
    const idInput = await machineInput(context, state, data, input, env);
    if (idInput === undefined) return undefined;
    const decision = decide({ state, data, dueAt: transaction.dueAt }, idInput, {
      now: env.now,
      timeBudgetMs: env.timeBudgetMs,
      resendDelayMs: env.delays.resendDelayMs,
      callbackCheckMs: env.delays.callbackCheckMs,
    });
    if (decision.answer === undefined) {
      const steps = carrying(decision.steps, CARRYING_THE_RESPONSE, data.response);
      return { steps, data: decision.data as unknown as Record<string, unknown>, dueAt: decision.dueAt, commands: decision.commands, outbox: [] };
    }
    return withAnswer(context, decision.answer, decision, env);
  },

  execute(context) {
    return context.connector.resolve(outboundLookup(context));
  },
};

async function machineInput(context: KindContext, state: IdState, data: IdData, input: EngineInput, env: DriverEnv): Promise<IdInput | undefined> {
  switch (input.type) {
    case 'tick': {
      if (state === ID.RECEIVED) return { type: 'tick', supported: context.connector.capabilities.identifierDetermination === true };
      if ((state === ID.RESPONSE_PENDING || state === ID.RESPONSE_DELIVERY_FAILURE) && data.callbackId !== undefined) {
        const callback = await callbackRowInput(env, context.transaction.id, data.callbackId, state === ID.RESPONSE_PENDING);
        if (callback?.type === 'callback') return { type: 'callback', delivered: callback.delivered };
      }
      return { type: 'tick' };
    }
    case 'sent':
      return { type: 'sent', ...sentInput(input.outcome) };
    case 'scheme': {
      const { report } = input;
      if (report.kind !== 'identification') return undefined;
      const determination: Determination = {
        outcome: report.outcome,
        ...(report.outcome === 'FAILED' ? failureReason(report.reasonCode, report.reasonText) : {}),
        ...(report.account === undefined ? {} : { account: report.account }),
      };
      return { type: 'scheme', determination, payloadJson: JSON.stringify(report.message) };
    }
    case 'callback':
      return input.outboxId === data.callbackId ? { type: 'callback', delivered: input.delivered } : undefined;
  }
}

/** The states whose event carries the answer, the IdentifierDeterminationResponse (decided, delivered, or its callback failing). */
const CARRYING_THE_RESPONSE: ReadonlySet<string> = new Set([ID.RESPONSE_PENDING, ID.RESPONSE_DELIVERED, ID.RESPONSE_DELIVERY_FAILURE]);

/**
 * The decided answer rendered: the response is the payload of the states that give it
 * (RESPONSE_PENDING, and RESPONSE_DELIVERED in sync mode; later, in async mode, RESPONSE_DELIVERED
 * and RESPONSE_DELIVERY_FAILURE from the working data), it is kept in the working data, and in
 * async mode it is queued as the report callback.
 */
function withAnswer(
  context: KindContext,
  determination: Determination,
  decision: { readonly steps: KindDecision['steps']; readonly data: IdData; readonly dueAt: number | null; readonly commands: readonly string[] },
  env: DriverEnv,
): KindDecision {
  const id = env.ids.uuid();
  const response = identifierDeterminationResponseJson({
    request: context.message as IdentifierDeterminationRequest,
    scheme: context.transaction.scheme,
    messageIdentification: id.replaceAll('-', ''),
    createdAt: env.now,
    ...determination,
  });
  const steps = carrying(decision.steps, CARRYING_THE_RESPONSE, response);
  const outbox: NewOutboxMessage[] = [];
  let data: IdData = { ...decision.data, response };
  if (data.mode === 'async') {
    outbox.push(callbackMessage(context, id, CALLBACK_PATHS.identifierDeterminationReport, response, env.now));
    data = { ...data, callbackId: id };
  }
  return {
    steps,
    data: data as unknown as Record<string, unknown>,
    dueAt: decision.dueAt,
    commands: decision.commands,
    outbox,
    notify: true,
    outcome: { outcome: determination.outcome, reasonCode: determination.reasonCode ?? null },
  };
}

/**
 * A FAILED answer always names an ISO reason code (the spec's table): a scheme that gave none, or
 * a proprietary one, is answered AB10 (error at the instructed agent) with what it said as text.
 */
function failureReason(code: string | undefined, text: string | undefined): { reasonCode: string; reasonText?: string } {
  if (code !== undefined && /^[A-Z0-9]{4}$/.test(code)) return { reasonCode: code, ...(text === undefined ? {} : { reasonText: text }) };
  const said = [code, text].filter((part) => part !== undefined).join(': ');
  return { reasonCode: 'AB10', ...(said === '' ? {} : { reasonText: said }) };
}

function outboundLookup(context: KindContext): OutboundLookup {
  return { ...outboundOf(context.transaction), message: context.message as IdentifierDeterminationRequest };
}
