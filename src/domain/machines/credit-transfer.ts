import { AssertionError } from '../../lib/assert.js';
import { reasonTextOf } from '../../lib/text.js';
import { assertLegalTransition, isStateOf, type MachineDefinition } from './machine.js';

/**
 * The state machine of an outbound credit transfer (docs/state-machine.md). Each state is named
 * after the event type emitted when it is entered (CONTRACT §4), so "one event per state
 * entered" holds by construction. `decide()` is pure: the engine feeds it the transaction's
 * current view and one input, and commits what it returns (states entered, next timer, working
 * data, callbacks) atomically, then carries out the scheme commands after the commit.
 */
export const CT = {
  RECEIVED: 'PAYMENT_AUTH_REQUEST_RECEIVED',
  ACCEPTED: 'PAYMENT_AUTH_REQUEST_ACCEPTED',
  REJECTED: 'PAYMENT_AUTH_REQUEST_REJECTED',
  REQUEST_PENDING: 'PAYMENT_AUTH_REQUEST_PENDING',
  REQUEST_DELIVERED: 'PAYMENT_AUTH_REQUEST_DELIVERED',
  REQUEST_DELIVERY_FAILURE: 'PAYMENT_AUTH_REQUEST_DELIVERY_FAILURE',
  TIMEOUT: 'PAYMENT_AUTH_TIMEOUT',
  RESPONSE_RECEIVED: 'PAYMENT_AUTH_RESPONSE_RECEIVED',
  RESPONSE_ACCEPTED: 'PAYMENT_AUTH_RESPONSE_ACCEPTED',
  RESPONSE_PENDING: 'PAYMENT_AUTH_RESPONSE_PENDING',
  RESPONSE_DELIVERED: 'PAYMENT_AUTH_RESPONSE_DELIVERED',
  RESPONSE_DELIVERY_FAILURE: 'PAYMENT_AUTH_RESPONSE_DELIVERY_FAILURE',
} as const;

export type CtState = (typeof CT)[keyof typeof CT];

export const CREDIT_TRANSFER_INITIAL_STATE: CtState = CT.RECEIVED;

/** Every legal transition; the engine asserts each one it commits (an illegal transition is a bug). */
export const CT_TRANSITIONS: Readonly<Record<CtState, readonly CtState[]>> = {
  [CT.RECEIVED]: [CT.ACCEPTED, CT.REJECTED],
  [CT.ACCEPTED]: [CT.REQUEST_PENDING],
  [CT.REJECTED]: [CT.RESPONSE_PENDING],
  [CT.REQUEST_PENDING]: [CT.REQUEST_DELIVERED, CT.REQUEST_DELIVERY_FAILURE, CT.TIMEOUT, CT.RESPONSE_RECEIVED],
  [CT.REQUEST_DELIVERY_FAILURE]: [CT.REQUEST_DELIVERED, CT.TIMEOUT, CT.RESPONSE_RECEIVED],
  [CT.REQUEST_DELIVERED]: [CT.TIMEOUT, CT.RESPONSE_RECEIVED],
  [CT.TIMEOUT]: [CT.RESPONSE_RECEIVED],
  [CT.RESPONSE_RECEIVED]: [CT.RESPONSE_ACCEPTED],
  [CT.RESPONSE_ACCEPTED]: [CT.RESPONSE_PENDING],
  [CT.RESPONSE_PENDING]: [CT.RESPONSE_DELIVERED, CT.RESPONSE_DELIVERY_FAILURE],
  [CT.RESPONSE_DELIVERY_FAILURE]: [CT.RESPONSE_DELIVERED],
  [CT.RESPONSE_DELIVERED]: [],
};

export const CREDIT_TRANSFER_MACHINE: MachineDefinition<CtState> = {
  kind: 'CREDIT_TRANSFER',
  name: 'credit-transfer',
  initialState: CREDIT_TRANSFER_INITIAL_STATE,
  transitions: CT_TRANSITIONS,
};

export function isCtState(value: string): value is CtState {
  return isStateOf(CREDIT_TRANSFER_MACHINE, value);
}

export function assertTransition(from: string, to: string): void {
  assertLegalTransition(CREDIT_TRANSFER_MACHINE, from, to);
}

/** The outcome told to the integrator in the credit-transfer-response callback. */
export type Outcome = 'APPROVED' | 'REJECTED' | 'CANCELLED' | 'PENDING';

export interface Verdict {
  readonly outcome: Outcome;
  readonly reasonCode?: string;
  readonly reasonText?: string;
}

/** The engine's working data for one transfer, kept with the transaction. */
export interface CtData {
  /** Scheme submissions so far (first one included). */
  readonly submissions?: number;
  /** Status enquiries sent so far. */
  readonly enquiries?: number;
  /** When the scheme's time budget runs out (ms since epoch), set when the transfer is first sent. */
  readonly deadlineAt?: number;
  /** The final verdict, once the scheme (or a scheme rule) gave one. */
  readonly verdict?: Verdict;
  /** Outbox id of the outcome callback carrying the verdict (set by the engine when it queues it). */
  readonly callbackId?: string;
  /** A payment to a proxy: the identifier determination it is linked to (set at intake). */
  readonly determination?: ProxyLink;
}

/** The successful identifier determination a payment to a proxy is linked to. */
export interface ProxyLink {
  readonly transactionId: string;
  readonly uetr: string;
  /** The account number the proxy resolved to. */
  readonly account: string;
}

export interface CtView {
  readonly state: CtState;
  readonly data: CtData;
  /** The transaction's current timer. */
  readonly dueAt: number | null;
}

export interface SchemeAnswer {
  readonly kind: 'status' | 'not_found';
  readonly status: 'ACCEPTED' | 'REJECTED' | 'PENDING';
  readonly reasonCode?: string;
  readonly reasonText?: string;
  /** JSON text of the scheme message, the payload of the events it causes. */
  readonly payloadJson: string;
}

export type CtInput =
  /** The transaction's timer is due (or it was just accepted). `rules` is the scheme's verdict on its own rules, given in RECEIVED. */
  | { readonly type: 'tick'; readonly rules?: { readonly ok: true } | { readonly ok: false; readonly reasonCode: string; readonly reasonText: string } }
  /** Outcome of handing the transfer (or an enquiry) to the scheme's transport. */
  | { readonly type: 'sent'; readonly what: 'submit' | 'enquire'; readonly ok: true }
  | { readonly type: 'sent'; readonly what: 'submit' | 'enquire'; readonly ok: false; readonly retryable: boolean; readonly error: string }
  /** An answer from the scheme. */
  | { readonly type: 'scheme'; readonly answer: SchemeAnswer }
  /** The outcome callback was acknowledged by the integrator, or an attempt failed. */
  | { readonly type: 'callback'; readonly delivered: boolean };

export interface CtStep {
  readonly state: CtState;
  /**
   * JSON text of the message that caused entering this state (the event payload); null: the
   * original request, or in RESPONSE_PENDING, RESPONSE_DELIVERED and RESPONSE_DELIVERY_FAILURE
   * the outcome callback (its PaymentStatusReport), which the engine's driver renders and fills in.
   */
  readonly payloadJson: string | null;
}

export type Command = 'submit' | 'enquire';

export interface CtDecision {
  /** States entered, in order (empty: nothing changes). */
  readonly steps: readonly CtStep[];
  readonly data: CtData;
  /** Next timer (ms since epoch) or null. */
  readonly dueAt: number | null;
  /** Queue the outcome callback with this verdict, in the same commit as the steps. */
  readonly callback?: Verdict;
  /** Scheme calls to make once the change is committed. */
  readonly commands: readonly Command[];
}

export interface CtEnv {
  readonly now: number;
  /** The scheme's time budget from first submission to a verdict. */
  readonly timeBudgetMs: number;
  /** Delay before retrying a failed submission: grows with attempts, bounded. */
  readonly resubmitDelayMs: (submissions: number) => number;
  /** Delay between status enquiries after the time budget: grows with enquiries, bounded. */
  readonly enquiryDelayMs: (enquiries: number) => number;
  /**
   * While the outcome callback is undelivered, how often the engine compares the state with the
   * callback's outbox row: the dispatcher's notice of an acknowledgement can be lost in a crash,
   * the outbox row cannot.
   */
  readonly callbackCheckMs: number;
}

/** Nothing changes: same state, data and timer. */
const NOTHING = (view: CtView): CtDecision => ({ steps: [], data: view.data, dueAt: view.dueAt, commands: [] });
/** A decision that keeps the state but may change timer, data or send commands. */
const stay = (view: CtView, dueAt: number | null, data: CtData, commands: readonly Command[] = []): CtDecision => ({ steps: [], data, dueAt, commands });

/** States in which the transfer is with the scheme and a verdict is awaited. */
const AWAITING_VERDICT: readonly CtState[] = [CT.REQUEST_PENDING, CT.REQUEST_DELIVERED, CT.REQUEST_DELIVERY_FAILURE, CT.TIMEOUT];

export function decide(view: CtView, input: CtInput, env: CtEnv): CtDecision {
  switch (input.type) {
    case 'tick':
      return onTick(view, input, env);
    case 'sent':
      return onSent(view, input, env);
    case 'scheme':
      return onScheme(view, input.answer, env);
    case 'callback':
      return onCallback(view, input.delivered, env);
  }
}

function onTick(view: CtView, input: Extract<CtInput, { type: 'tick' }>, env: CtEnv): CtDecision {
  const { data } = view;
  switch (view.state) {
    case CT.RECEIVED: {
      if (input.rules === undefined) throw new AssertionError('scheme rules must be checked for a RECEIVED transfer');
      if (!input.rules.ok) {
        const verdict: Verdict = { outcome: 'REJECTED', reasonCode: input.rules.reasonCode, reasonText: input.rules.reasonText };
        const violation = JSON.stringify({ schema: 'SchemeRuleViolation', reasonCode: input.rules.reasonCode, reasonText: input.rules.reasonText });
        return {
          steps: [
            { state: CT.REJECTED, payloadJson: violation },
            { state: CT.RESPONSE_PENDING, payloadJson: null },
          ],
          data: { ...data, verdict },
          dueAt: env.now + env.callbackCheckMs,
          callback: verdict,
          commands: [],
        };
      }
      return {
        steps: [
          { state: CT.ACCEPTED, payloadJson: null },
          { state: CT.REQUEST_PENDING, payloadJson: null },
        ],
        data: { ...data, submissions: 1, deadlineAt: env.now + env.timeBudgetMs },
        // If the process dies before the submission is recorded, the timer resubmits (same idempotency key).
        dueAt: env.now + env.resubmitDelayMs(1),
        commands: ['submit'],
      };
    }
    case CT.REQUEST_PENDING:
    case CT.REQUEST_DELIVERY_FAILURE:
    case CT.REQUEST_DELIVERED: {
      const deadlineAt = data.deadlineAt ?? env.now;
      if (env.now >= deadlineAt) {
        const enquiries = (data.enquiries ?? 0) + 1;
        return {
          steps: [{ state: CT.TIMEOUT, payloadJson: JSON.stringify({ schema: 'SchemeTimeout', timeBudgetMs: env.timeBudgetMs }) }],
          data: { ...data, enquiries },
          dueAt: env.now + env.enquiryDelayMs(enquiries),
          commands: ['enquire'],
        };
      }
      if (view.state === CT.REQUEST_DELIVERED) return stay(view, deadlineAt, data);
      // Not yet known to be with the scheme: submit again (idempotent), no later than the deadline.
      const submissions = (data.submissions ?? 1) + 1;
      return stay(view, Math.min(env.now + env.resubmitDelayMs(submissions), deadlineAt), { ...data, submissions }, ['submit']);
    }
    case CT.TIMEOUT: {
      const enquiries = (data.enquiries ?? 0) + 1;
      return stay(view, env.now + env.enquiryDelayMs(enquiries), { ...data, enquiries }, ['enquire']);
    }
    case CT.ACCEPTED:
    case CT.REJECTED:
    case CT.RESPONSE_RECEIVED:
    case CT.RESPONSE_ACCEPTED:
      // Transient states: entered and left within one commit, never waited in.
      throw new AssertionError(`a transfer never rests in ${view.state}`);
    case CT.RESPONSE_PENDING:
    case CT.RESPONSE_DELIVERY_FAILURE:
      // The engine turns a tick here into a callback input when the outbox row says so; otherwise look again later.
      return stay(view, env.now + env.callbackCheckMs, data);
    case CT.RESPONSE_DELIVERED:
      return { ...NOTHING(view), dueAt: null };
  }
}

function onSent(view: CtView, input: Extract<CtInput, { type: 'sent' }>, env: CtEnv): CtDecision {
  const { data } = view;
  if (!AWAITING_VERDICT.includes(view.state)) return NOTHING(view);
  const deadlineAt = data.deadlineAt ?? env.now;
  if (input.ok) {
    if (input.what === 'enquire' || view.state === CT.REQUEST_DELIVERED || view.state === CT.TIMEOUT) return NOTHING(view);
    return { steps: [{ state: CT.REQUEST_DELIVERED, payloadJson: null }], data, dueAt: deadlineAt, commands: [] };
  }
  if (input.what === 'enquire') return NOTHING(view); // the enquiry timer asks again
  if (!input.retryable) {
    // The scheme cannot take this message at all: it will never be paid, so it is declined.
    const verdict: Verdict = { outcome: 'REJECTED', reasonCode: 'AB10', reasonText: reasonTextOf(input.error) };
    return verdictSteps(view, verdict, JSON.stringify({ schema: 'SchemeTransportFailure', error: input.error }), [CT.REQUEST_DELIVERY_FAILURE], env);
  }
  if (view.state === CT.REQUEST_PENDING) {
    const submissions = data.submissions ?? 1;
    return {
      steps: [{ state: CT.REQUEST_DELIVERY_FAILURE, payloadJson: JSON.stringify({ schema: 'SchemeTransportFailure', error: input.error }) }],
      data,
      dueAt: Math.min(env.now + env.resubmitDelayMs(submissions + 1), deadlineAt),
      commands: [],
    };
  }
  return NOTHING(view);
}

function onScheme(view: CtView, answer: SchemeAnswer, env: CtEnv): CtDecision {
  const { data } = view;
  if (!AWAITING_VERDICT.includes(view.state)) return NOTHING(view); // e.g. a second answer after the verdict
  if (answer.kind === 'not_found') {
    // The scheme never got the transfer: resubmitting with the same idempotency key is safe.
    const submissions = (data.submissions ?? 1) + 1;
    return stay(view, env.now + env.enquiryDelayMs((data.enquiries ?? 0) + 1), { ...data, submissions }, ['submit']);
  }
  if (answer.status === 'PENDING') {
    // Still unknown: never guessed. Wait for the verdict until the deadline, then enquire.
    if (view.state === CT.TIMEOUT) return NOTHING(view);
    return stay(view, data.deadlineAt ?? env.now, data);
  }
  const verdict: Verdict =
    answer.status === 'ACCEPTED'
      ? { outcome: 'APPROVED' }
      : {
          outcome: 'REJECTED',
          ...(answer.reasonCode === undefined ? {} : { reasonCode: answer.reasonCode }),
          ...(answer.reasonText === undefined ? {} : { reasonText: answer.reasonText }),
        };
  // A verdict proves the scheme has the request, even when it overtook the transport's acknowledgement.
  return verdictSteps(view, verdict, answer.payloadJson, [CT.REQUEST_DELIVERED], env);
}

/** The scheme (or its transport) gave a verdict: record it and queue the outcome callback. `before`: states entered first where legal. */
function verdictSteps(view: CtView, verdict: Verdict, payloadJson: string, before: readonly CtState[], env: CtEnv): CtDecision {
  const steps: CtStep[] = before.filter((state) => CT_TRANSITIONS[view.state].includes(state)).map((state) => ({ state, payloadJson }));
  steps.push(
    { state: CT.RESPONSE_RECEIVED, payloadJson },
    { state: CT.RESPONSE_ACCEPTED, payloadJson },
    { state: CT.RESPONSE_PENDING, payloadJson: null },
  );
  return { steps, data: { ...view.data, verdict }, dueAt: env.now + env.callbackCheckMs, callback: verdict, commands: [] };
}

function onCallback(view: CtView, delivered: boolean, env: CtEnv): CtDecision {
  if (view.state === CT.RESPONSE_PENDING) {
    return {
      steps: [{ state: delivered ? CT.RESPONSE_DELIVERED : CT.RESPONSE_DELIVERY_FAILURE, payloadJson: null }],
      data: view.data,
      dueAt: delivered ? null : env.now + env.callbackCheckMs,
      commands: [],
    };
  }
  if (view.state === CT.RESPONSE_DELIVERY_FAILURE && delivered) {
    return { steps: [{ state: CT.RESPONSE_DELIVERED, payloadJson: null }], data: view.data, dueAt: null, commands: [] };
  }
  return NOTHING(view);
}
