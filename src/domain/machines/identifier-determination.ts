import { AssertionError } from '../../lib/assert.js';
import { reasonTextOf } from '../../lib/text.js';
import type { ResolvedAccount } from '../messages/identifier-determination.js';
import type { MachineDefinition, Step } from './machine.js';

/**
 * The state machine of an outbound identifier determination (PayShap proxy or account
 * resolution; docs/state-machine.md). The service sends the scheme one request (acmt.023) and
 * waits for its report (acmt.024) within the scheme's time budget; the integrator gets exactly one
 * answer, the IdentifierDeterminationResponse: in sync mode as the 200 of its held HTTP request
 * (and of any retry of it), in async mode as a must-deliver callback. A successful run enters the
 * seven states of CONTRACT §4 in order.
 *
 * The answer is decided once: whatever comes first of the scheme's report and the end of the time
 * budget decides it, and a report arriving after that is ignored, so the answer given and the
 * state stored never disagree.
 */
export const ID = {
  RECEIVED: 'IDENTIFIER_DETERMINATION_REQUEST_RECEIVED',
  ACCEPTED: 'IDENTIFIER_DETERMINATION_REQUEST_ACCEPTED',
  REJECTED: 'IDENTIFIER_DETERMINATION_REQUEST_REJECTED',
  REQUEST_PENDING: 'IDENTIFIER_DETERMINATION_REQUEST_PENDING',
  REQUEST_DELIVERY_FAILURE: 'IDENTIFIER_DETERMINATION_REQUEST_DELIVERY_FAILURE',
  TIMEOUT: 'IDENTIFIER_DETERMINATION_TIMEOUT',
  RESPONSE_RECEIVED: 'IDENTIFIER_DETERMINATION_RESPONSE_RECEIVED',
  RESPONSE_ACCEPTED: 'IDENTIFIER_DETERMINATION_RESPONSE_ACCEPTED',
  RESPONSE_PENDING: 'IDENTIFIER_DETERMINATION_RESPONSE_PENDING',
  RESPONSE_DELIVERED: 'IDENTIFIER_DETERMINATION_RESPONSE_DELIVERED',
  RESPONSE_DELIVERY_FAILURE: 'IDENTIFIER_DETERMINATION_RESPONSE_DELIVERY_FAILURE',
} as const;

export type IdState = (typeof ID)[keyof typeof ID];

export const ID_TRANSITIONS: Readonly<Record<IdState, readonly IdState[]>> = {
  [ID.RECEIVED]: [ID.ACCEPTED, ID.REJECTED],
  [ID.ACCEPTED]: [ID.REQUEST_PENDING],
  [ID.REJECTED]: [ID.RESPONSE_PENDING],
  [ID.REQUEST_PENDING]: [ID.REQUEST_DELIVERY_FAILURE, ID.TIMEOUT, ID.RESPONSE_RECEIVED],
  [ID.REQUEST_DELIVERY_FAILURE]: [ID.TIMEOUT, ID.RESPONSE_RECEIVED],
  [ID.TIMEOUT]: [ID.RESPONSE_PENDING],
  [ID.RESPONSE_RECEIVED]: [ID.RESPONSE_ACCEPTED],
  [ID.RESPONSE_ACCEPTED]: [ID.RESPONSE_PENDING],
  [ID.RESPONSE_PENDING]: [ID.RESPONSE_DELIVERED, ID.RESPONSE_DELIVERY_FAILURE],
  [ID.RESPONSE_DELIVERY_FAILURE]: [ID.RESPONSE_DELIVERED],
  [ID.RESPONSE_DELIVERED]: [],
};

export const IDENTIFIER_DETERMINATION_MACHINE: MachineDefinition<IdState> = {
  kind: 'IDENTIFIER_DETERMINATION',
  name: 'identifier-determination',
  initialState: ID.RECEIVED,
  transitions: ID_TRANSITIONS,
};

/** How the integrator gets its answer: the held HTTP request (sync) or a callback (async). */
export type AnswerMode = 'sync' | 'async';

/** The outcome of a determination, as the IdentifierDeterminationResponse reports it. */
export interface Determination {
  readonly outcome: 'SUCCESSFUL' | 'FAILED';
  readonly reasonCode?: string;
  readonly reasonText?: string;
  readonly account?: ResolvedAccount;
}

/** The engine's working data for one determination. */
export interface IdData {
  readonly mode: AnswerMode;
  /** Requests sent to the scheme so far (the first included); each resend carries the same message id. */
  readonly sends?: number;
  /** The scheme's transport took the request. */
  readonly sent?: boolean;
  /**
   * When the time budget runs out (ms since epoch): counted from the integrator's request, set at
   * intake (else when the request is first sent), so a held request waits no longer than the
   * budget however long the request waited for an engine.
   */
  readonly deadlineAt?: number;
  /** The answer, once decided. */
  readonly determination?: Determination;
  /** The IdentifierDeterminationResponse as given (JSON text), set by the engine with the answer. */
  readonly response?: string;
  /** Outbox id of the async report callback. */
  readonly callbackId?: string;
}

export interface IdView {
  readonly state: IdState;
  readonly data: IdData;
  readonly dueAt: number | null;
}

export type IdInput =
  /** The timer is due (or the request was just accepted). `supported`: the scheme's connector can resolve identifiers, given in RECEIVED. */
  | { readonly type: 'tick'; readonly supported?: boolean }
  | { readonly type: 'sent'; readonly ok: true }
  /** `reasonCode`: why the scheme's message cannot carry the request (e.g. RC05), when the connector says. */
  | { readonly type: 'sent'; readonly ok: false; readonly retryable: boolean; readonly error: string; readonly reasonCode?: string }
  /** The scheme's report; `payloadJson` is the scheme message, the payload of the events it causes. */
  | { readonly type: 'scheme'; readonly determination: Determination; readonly payloadJson: string }
  /** The async report callback was acknowledged, or an attempt failed. */
  | { readonly type: 'callback'; readonly delivered: boolean };

export interface IdDecision {
  readonly steps: readonly Step<IdState>[];
  readonly data: IdData;
  readonly dueAt: number | null;
  /** Decide the answer now: the engine renders it (data.response), and in async mode queues it as a callback. */
  readonly answer?: Determination;
  /** Scheme calls to make once the change is committed. */
  readonly commands: readonly 'resolve'[];
}

export interface IdEnv {
  readonly now: number;
  readonly timeBudgetMs: number;
  /** Delay before sending a request again that the transport did not take: grows with sends, bounded. */
  readonly resendDelayMs: (sends: number) => number;
  /** While the async callback is undelivered, how often its outbox row is compared with the state. */
  readonly callbackCheckMs: number;
}

const NOTHING = (view: IdView): IdDecision => ({ steps: [], data: view.data, dueAt: view.dueAt, commands: [] });

/** States in which the request is with the scheme (or on its way) and its report is awaited. */
const AWAITING_REPORT: readonly IdState[] = [ID.REQUEST_PENDING, ID.REQUEST_DELIVERY_FAILURE];

export function decide(view: IdView, input: IdInput, env: IdEnv): IdDecision {
  switch (input.type) {
    case 'tick':
      return onTick(view, input.supported, env);
    case 'sent':
      return onSent(view, input, env);
    case 'scheme':
      if (!AWAITING_REPORT.includes(view.state)) return NOTHING(view); // late (after the timeout) or repeated
      return answer(view, input.determination, [ID.RESPONSE_RECEIVED, ID.RESPONSE_ACCEPTED].map((state) => ({ state, payloadJson: input.payloadJson })), env);
    case 'callback':
      return onCallback(view, input.delivered, env);
  }
}

function onTick(view: IdView, supported: boolean | undefined, env: IdEnv): IdDecision {
  const { data } = view;
  switch (view.state) {
    case ID.RECEIVED: {
      if (supported === undefined) throw new AssertionError('the connector capability must be given for a RECEIVED determination');
      if (!supported) {
        const refusal = { schema: 'SchemeCapability', error: 'the scheme connector does not resolve identifiers' };
        return answer(view, { outcome: 'FAILED', reasonCode: 'AG03', reasonText: 'Transaction type not supported' }, [{ state: ID.REJECTED, payloadJson: JSON.stringify(refusal) }], env);
      }
      const deadlineAt = data.deadlineAt ?? env.now + env.timeBudgetMs;
      if (env.now >= deadlineAt) {
        // The budget ran out before any engine took the request up: it is not sent at all.
        const timeout = JSON.stringify({ schema: 'SchemeTimeout', timeBudgetMs: env.timeBudgetMs, sent: false });
        const steps = [ID.ACCEPTED, ID.REQUEST_PENDING].map((state) => ({ state, payloadJson: null }));
        return answer(view, { outcome: 'FAILED', reasonCode: 'AB06', reasonText: 'Timeout at the instructed agent' }, [...steps, { state: ID.TIMEOUT, payloadJson: timeout }], env);
      }
      return {
        steps: [
          { state: ID.ACCEPTED, payloadJson: null },
          { state: ID.REQUEST_PENDING, payloadJson: null },
        ],
        data: { ...data, sends: 1, deadlineAt },
        // Should the process die before the send is recorded, the timer sends again (same message id).
        dueAt: Math.min(env.now + env.resendDelayMs(1), deadlineAt),
        commands: ['resolve'],
      };
    }
    case ID.REQUEST_PENDING:
    case ID.REQUEST_DELIVERY_FAILURE: {
      const deadlineAt = data.deadlineAt ?? env.now;
      if (env.now >= deadlineAt) {
        const timeout = JSON.stringify({ schema: 'SchemeTimeout', timeBudgetMs: env.timeBudgetMs });
        return answer(view, { outcome: 'FAILED', reasonCode: 'AB06', reasonText: 'Timeout at the instructed agent' }, [{ state: ID.TIMEOUT, payloadJson: timeout }], env);
      }
      if (data.sent === true) return { ...NOTHING(view), dueAt: deadlineAt };
      const sends = (data.sends ?? 1) + 1;
      return { steps: [], data: { ...data, sends }, dueAt: Math.min(env.now + env.resendDelayMs(sends), deadlineAt), commands: ['resolve'] };
    }
    case ID.ACCEPTED:
    case ID.REJECTED:
    case ID.TIMEOUT:
    case ID.RESPONSE_RECEIVED:
    case ID.RESPONSE_ACCEPTED:
      throw new AssertionError(`a determination never rests in ${view.state}`);
    case ID.RESPONSE_PENDING:
    case ID.RESPONSE_DELIVERY_FAILURE:
      // The engine turns a tick here into a callback input when the outbox row says so; otherwise look again later.
      return { ...NOTHING(view), dueAt: env.now + env.callbackCheckMs };
    case ID.RESPONSE_DELIVERED:
      return { ...NOTHING(view), dueAt: null };
  }
}

function onSent(view: IdView, input: Extract<IdInput, { type: 'sent' }>, env: IdEnv): IdDecision {
  const { data } = view;
  if (!AWAITING_REPORT.includes(view.state)) return NOTHING(view);
  const deadlineAt = data.deadlineAt ?? env.now;
  if (input.ok) return data.sent === true ? NOTHING(view) : { steps: [], data: { ...data, sent: true }, dueAt: deadlineAt, commands: [] };
  const failure = JSON.stringify({ schema: 'SchemeTransportFailure', error: input.error });
  if (!input.retryable) {
    // The scheme cannot take this request at all: no report will come.
    const before = view.state === ID.REQUEST_PENDING ? [{ state: ID.REQUEST_DELIVERY_FAILURE, payloadJson: failure }] : [];
    const steps = [...before, ...[ID.RESPONSE_RECEIVED, ID.RESPONSE_ACCEPTED].map((state) => ({ state, payloadJson: failure }))];
    return answer(view, { outcome: 'FAILED', reasonCode: input.reasonCode ?? 'AB10', reasonText: reasonTextOf(input.error) }, steps, env);
  }
  if (view.state !== ID.REQUEST_PENDING) return NOTHING(view); // the timer sends again
  return {
    steps: [{ state: ID.REQUEST_DELIVERY_FAILURE, payloadJson: failure }],
    data,
    dueAt: Math.min(env.now + env.resendDelayMs((data.sends ?? 1) + 1), deadlineAt),
    commands: [],
  };
}

/**
 * The answer is decided: `before` (the states leading to it), then RESPONSE_PENDING; in sync mode
 * RESPONSE_DELIVERED in the same commit, because the answer is given by being stored (the held
 * request and every retry of it are answered with it, and with nothing else).
 */
function answer(view: IdView, determination: Determination, before: readonly Step<IdState>[], env: IdEnv): IdDecision {
  const sync = view.data.mode === 'sync';
  const steps: Step<IdState>[] = [...before, { state: ID.RESPONSE_PENDING, payloadJson: null }];
  if (sync) steps.push({ state: ID.RESPONSE_DELIVERED, payloadJson: null });
  return {
    steps,
    data: { ...view.data, determination },
    dueAt: sync ? null : env.now + env.callbackCheckMs,
    answer: determination,
    commands: [],
  };
}

function onCallback(view: IdView, delivered: boolean, env: IdEnv): IdDecision {
  if (view.state === ID.RESPONSE_PENDING) {
    return {
      steps: [{ state: delivered ? ID.RESPONSE_DELIVERED : ID.RESPONSE_DELIVERY_FAILURE, payloadJson: null }],
      data: view.data,
      dueAt: delivered ? null : env.now + env.callbackCheckMs,
      commands: [],
    };
  }
  if (view.state === ID.RESPONSE_DELIVERY_FAILURE && delivered) {
    return { steps: [{ state: ID.RESPONSE_DELIVERED, payloadJson: null }], data: view.data, dueAt: null, commands: [] };
  }
  return NOTHING(view);
}
