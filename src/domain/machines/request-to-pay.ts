import { AssertionError } from '../../lib/assert.js';
import { reasonTextOf } from '../../lib/text.js';
import type { MachineDefinition, Step } from './machine.js';

/**
 * The state machine of an outbound PayShap request-to-pay (docs/state-machine.md). The
 * integrator's customer is the creditor; the scheme presents the request to the debtor, whose
 * bank reports its progress (pain.014). Every status the request takes is a state of its own,
 * named after its event (REQUEST_TO_PAY_STATUS_<STATUS>), and entering one queues the
 * RequestToPayResponse callback that reports it: one push per status change, in order.
 *
 * PAID, REJECTED, EXPIRED and CANCELLED are final: nothing leaves them. Whatever the scheme says
 * afterwards (PAID after EXPIRED, a second PAID) is never reported; the decision names it as
 * `refused` so the engine logs and counts it. A race (a PAID report against the expiry timer or
 * a cancellation) is decided once, by whichever input the machine sees first.
 */
export const RTP = {
  RECEIVED: 'REQUEST_TO_PAY_REQUEST_RECEIVED',
  ACCEPTED: 'REQUEST_TO_PAY_REQUEST_ACCEPTED',
  REJECTED: 'REQUEST_TO_PAY_REQUEST_REJECTED',
  REQUEST_PENDING: 'REQUEST_TO_PAY_REQUEST_PENDING',
  REQUEST_DELIVERY_FAILURE: 'REQUEST_TO_PAY_REQUEST_DELIVERY_FAILURE',
  REQUEST_DELIVERED: 'REQUEST_TO_PAY_REQUEST_DELIVERED',
  PENDING: 'REQUEST_TO_PAY_STATUS_PENDING',
  PRESENTED: 'REQUEST_TO_PAY_STATUS_PRESENTED',
  ACCEPTED_BY_PAYER: 'REQUEST_TO_PAY_STATUS_ACCEPTED',
  PAID: 'REQUEST_TO_PAY_STATUS_PAID',
  STATUS_REJECTED: 'REQUEST_TO_PAY_STATUS_REJECTED',
  EXPIRED: 'REQUEST_TO_PAY_STATUS_EXPIRED',
  CANCELLED: 'REQUEST_TO_PAY_STATUS_CANCELLED',
} as const;

export type RtpState = (typeof RTP)[keyof typeof RTP];

/** The statuses told to the integrator (CONTRACT §10). */
export type RtpStatus = 'PENDING' | 'PRESENTED' | 'ACCEPTED' | 'PAID' | 'REJECTED' | 'EXPIRED' | 'CANCELLED';

export const STATE_OF_STATUS: Readonly<Record<RtpStatus, RtpState>> = {
  PENDING: RTP.PENDING,
  PRESENTED: RTP.PRESENTED,
  ACCEPTED: RTP.ACCEPTED_BY_PAYER,
  PAID: RTP.PAID,
  REJECTED: RTP.STATUS_REJECTED,
  EXPIRED: RTP.EXPIRED,
  CANCELLED: RTP.CANCELLED,
};

const FINAL: readonly RtpState[] = [RTP.PAID, RTP.STATUS_REJECTED, RTP.EXPIRED, RTP.CANCELLED];
const OPEN_STATUSES: readonly RtpState[] = [RTP.PENDING, RTP.PRESENTED, RTP.ACCEPTED_BY_PAYER];
/** States before the scheme has confirmed it holds the request. */
const SENDING: readonly RtpState[] = [RTP.REQUEST_PENDING, RTP.REQUEST_DELIVERY_FAILURE];
/** Where a status may still change. */
const OPEN: readonly RtpState[] = [...SENDING, RTP.REQUEST_DELIVERED, ...OPEN_STATUSES];

export const RTP_TRANSITIONS: Readonly<Record<RtpState, readonly RtpState[]>> = {
  [RTP.RECEIVED]: [RTP.ACCEPTED, RTP.REJECTED],
  [RTP.REJECTED]: [RTP.STATUS_REJECTED],
  [RTP.ACCEPTED]: [RTP.REQUEST_PENDING],
  [RTP.REQUEST_PENDING]: [RTP.REQUEST_DELIVERED, RTP.REQUEST_DELIVERY_FAILURE, RTP.EXPIRED, RTP.CANCELLED],
  [RTP.REQUEST_DELIVERY_FAILURE]: [RTP.REQUEST_DELIVERED, RTP.STATUS_REJECTED, RTP.EXPIRED, RTP.CANCELLED],
  [RTP.REQUEST_DELIVERED]: [RTP.PENDING],
  [RTP.PENDING]: [RTP.PRESENTED, RTP.ACCEPTED_BY_PAYER, RTP.PAID, RTP.STATUS_REJECTED, RTP.EXPIRED, RTP.CANCELLED],
  [RTP.PRESENTED]: [RTP.ACCEPTED_BY_PAYER, RTP.PAID, RTP.STATUS_REJECTED, RTP.EXPIRED, RTP.CANCELLED],
  [RTP.ACCEPTED_BY_PAYER]: [RTP.PAID, RTP.STATUS_REJECTED, RTP.EXPIRED, RTP.CANCELLED],
  [RTP.PAID]: [],
  [RTP.STATUS_REJECTED]: [],
  [RTP.EXPIRED]: [],
  [RTP.CANCELLED]: [],
};

export const REQUEST_TO_PAY_MACHINE: MachineDefinition<RtpState> = {
  kind: 'REQUEST_TO_PAY',
  name: 'request-to-pay',
  initialState: RTP.RECEIVED,
  transitions: RTP_TRANSITIONS,
};

export function isFinal(state: RtpState): boolean {
  return FINAL.includes(state);
}

/** The status a state reports, if it is a status state. */
export function statusOf(state: RtpState): RtpStatus | undefined {
  const found = (Object.entries(STATE_OF_STATUS) as [RtpStatus, RtpState][]).find(([, candidate]) => candidate === state);
  return found?.[0];
}

/** A status push to queue: the status, with its reason when it is a rejection. */
export interface StatusPush {
  readonly status: RtpStatus;
  readonly reasonCode?: string;
  readonly reasonText?: string;
}

/** One cancellation the integrator asked for. */
export interface CancellationAsked {
  /** The cancellation message's id (idempotency: asking again with it changes nothing). */
  readonly messageId: string;
  /** Its messageIdentifiers as sent, which its answer names as original. */
  readonly messageIdentifiers: Readonly<Record<string, unknown>>;
  readonly reasonCode: string;
  /** The trace context of the cancellation request, which its answer continues. */
  readonly trace?: Readonly<Record<string, string>>;
}

/** The answer to a cancellation, queued as its RequestToPayCancellationResponse. */
export interface CancellationAnswer {
  readonly messageId: string;
  readonly messageIdentifiers: Readonly<Record<string, unknown>>;
  readonly accepted: boolean;
  readonly reasonCode?: string;
  readonly reasonText?: string;
  /** The request's status after the attempt. */
  readonly status: RtpStatus;
  readonly trace?: Readonly<Record<string, string>>;
}

export interface RtpData {
  /** expiryDateTime (ms since epoch), set at intake. */
  readonly expiresAt: number;
  readonly sends?: number;
  /** The scheme's transport took the request. */
  readonly sent?: boolean;
  /**
   * The cancellation asked and not yet answered (one at a time; later ones are refused DUPL). Its
   * camt.056 goes to the scheme only once the scheme holds the request (`schemeHolds`): before, it
   * would name a pain.013 the scheme may not know.
   */
  readonly cancelling?: CancellationAsked;
  /** Whether `cancelling` (or the expiry notice) was taken by the transport. */
  readonly cancelSent?: boolean;
  /** Cancellation messages already answered, so a repeated one is not answered twice. */
  readonly cancellationsAnswered?: readonly string[];
  /** The scheme has been told of the expiry (or refused to be, for good). */
  readonly expiryNoticeSent?: boolean;
  /** The latest status pushed, with its reason: what a status request re-sends. */
  readonly pushed?: StatusPush;
}

export interface RtpView {
  readonly state: RtpState;
  readonly data: RtpData;
  readonly dueAt: number | null;
}

/** A reported status, mapped from the scheme's ISO code. */
export type ReportedStatus = 'PENDING' | 'PRESENTED' | 'ACCEPTED' | 'PAID' | 'REJECTED';

export type RtpInput =
  /** The timer is due (or the request was just accepted); `supported`: the scheme's connector carries request-to-pay, given in RECEIVED. */
  | { readonly type: 'tick'; readonly supported?: boolean }
  | { readonly type: 'sent'; readonly what: RtpCommand; readonly ok: true }
  | { readonly type: 'sent'; readonly what: RtpCommand; readonly ok: false; readonly retryable: boolean; readonly error: string; readonly reasonCode?: string }
  | { readonly type: 'status'; readonly status: ReportedStatus; readonly reasonCode?: string; readonly reasonText?: string; readonly payloadJson: string }
  /** The scheme's answer to the cancellation being sent. */
  | { readonly type: 'cancellation_answer'; readonly accepted: boolean; readonly reasonCode?: string; readonly reasonText?: string }
  /** The integrator asks to cancel. */
  | { readonly type: 'cancel'; readonly cancellation: CancellationAsked }
  /** The integrator asks for the current status: it is pushed again, in order behind the others. */
  | { readonly type: 'status_request' };

/** Scheme calls: send the request (pain.013), send the cancellation asked (camt.056), tell the scheme of the expiry (camt.056). */
export type RtpCommand = 'request' | 'cancel' | 'expire';

export interface RtpDecision {
  readonly steps: readonly Step<RtpState>[];
  readonly data: RtpData;
  readonly dueAt: number | null;
  /** Status pushes to queue, one per status state entered, in order. */
  readonly pushes: readonly StatusPush[];
  /** Cancellation responses to queue. */
  readonly cancellationAnswers: readonly CancellationAnswer[];
  readonly commands: readonly RtpCommand[];
  /** An input that would break the machine (a status after a final one): never reported, logged and counted. */
  readonly refused?: string;
}

export interface RtpEnv {
  readonly now: number;
  readonly resendDelayMs: (sends: number) => number;
}

const NOTHING = (view: RtpView): RtpDecision => ({ steps: [], data: view.data, dueAt: view.dueAt, pushes: [], cancellationAnswers: [], commands: [] });

export function decide(view: RtpView, input: RtpInput, env: RtpEnv): RtpDecision {
  const decision = decideOne(view, input, env);
  const reached = decision.steps.at(-1)?.state;
  if (reached === undefined) return decision;
  // However the request ends, the cancellation in flight gets its answer in the same commit.
  if (isFinal(reached)) return withCancellationOutcome(decision, reached, env);
  // The scheme has just taken the request: the cancellation held back until then goes now.
  if (!schemeHolds(view.state, view.data) && cancelDue(reached, decision.data)) {
    return { ...decision, dueAt: nextTimer(reached, decision.data, env), commands: [...decision.commands, 'cancel'] };
  }
  return decision;
}

/**
 * Whether the scheme holds the request: its transport took the pain.013, or the scheme reported on
 * it. Until then (never sent, or every send failed or unanswered so far) a camt.056 could overtake
 * the pain.013 and be refused as naming nothing the scheme knows (NOOR).
 */
function schemeHolds(state: RtpState, data: RtpData): boolean {
  return data.sent === true || !(state === RTP.RECEIVED || SENDING.includes(state));
}

/** A cancellation whose camt.056 is to be sent (again): asked, not yet taken by the transport, and the scheme holds the request. */
function cancelDue(state: RtpState, data: RtpData): boolean {
  return data.cancelling !== undefined && data.cancelSent !== true && schemeHolds(state, data);
}

function decideOne(view: RtpView, input: RtpInput, env: RtpEnv): RtpDecision {
  switch (input.type) {
    case 'tick':
      return onTick(view, input.supported, env);
    case 'sent':
      return onSent(view, input, env);
    case 'status':
      return onStatus(view, input, env);
    case 'cancellation_answer':
      return onCancellationAnswer(view, input, env);
    case 'cancel':
      return onCancel(view, input.cancellation, env);
    case 'status_request':
      return { ...NOTHING(view), pushes: [view.data.pushed ?? { status: statusOf(view.state) ?? 'PENDING' }] };
  }
}

/** The timer: expiry first (a request not PAID by then expires), then whatever waits to be (re)sent. */
function onTick(view: RtpView, supported: boolean | undefined, env: RtpEnv): RtpDecision {
  const { state, data } = view;
  if (state === RTP.RECEIVED) {
    if (supported === undefined) throw new AssertionError('the connector capability must be given for a RECEIVED request-to-pay');
    if (!supported) {
      const refusal = JSON.stringify({ schema: 'SchemeCapability', error: 'the scheme connector does not carry request-to-pay' });
      return enter(view, [{ state: RTP.REJECTED, payloadJson: refusal }], { status: 'REJECTED', reasonCode: 'AG03', reasonText: 'Transaction type not supported' }, env);
    }
    if (data.cancelling !== undefined) {
      // Cancelled before it was ever sent: withdrawn here, the scheme never hears of it.
      return enter(view, [{ state: RTP.ACCEPTED, payloadJson: null }, { state: RTP.REQUEST_PENDING, payloadJson: null }], { status: 'CANCELLED' }, env);
    }
    const accepted = { ...data, sends: 1 };
    return {
      ...NOTHING(view),
      steps: [
        { state: RTP.ACCEPTED, payloadJson: null },
        { state: RTP.REQUEST_PENDING, payloadJson: null },
      ],
      data: accepted,
      dueAt: nextTimer(RTP.REQUEST_PENDING, accepted, env),
      commands: ['request'],
    };
  }
  if (isFinal(state)) {
    // The scheme is told of the expiry until its transport takes the notice.
    if (state === RTP.EXPIRED && data.expiryNoticeSent !== true) return { ...NOTHING(view), dueAt: env.now + env.resendDelayMs(2), commands: ['expire'] };
    return { ...NOTHING(view), dueAt: null };
  }
  if (!OPEN.includes(state)) throw new AssertionError(`a request-to-pay never rests in ${state}`);
  if (env.now >= data.expiresAt) {
    const expired = enter(view, [], { status: 'EXPIRED' }, env);
    return { ...expired, dueAt: env.now + env.resendDelayMs(2), commands: ['expire'] };
  }
  const commands: RtpCommand[] = [];
  let next = data;
  if (!schemeHolds(state, data)) {
    next = { ...next, sends: (next.sends ?? 1) + 1 };
    commands.push('request');
  }
  if (cancelDue(state, data)) commands.push('cancel');
  return { ...NOTHING(view), data: next, dueAt: nextTimer(state, next, env), commands };
}

function onSent(view: RtpView, input: Extract<RtpInput, { type: 'sent' }>, env: RtpEnv): RtpDecision {
  const { state, data } = view;
  if (input.what === 'expire') {
    // Taken, or refused for good: either way it is not sent again.
    const done = input.ok || !input.retryable;
    return done && data.expiryNoticeSent !== true ? { ...NOTHING(view), data: { ...data, expiryNoticeSent: true }, dueAt: null } : NOTHING(view);
  }
  if (input.what === 'cancel') {
    if (data.cancelling === undefined || isFinal(state)) return NOTHING(view);
    if (input.ok) return { ...NOTHING(view), data: { ...data, cancelSent: true } };
    if (input.retryable) return NOTHING(view); // the timer sends it again
    // The scheme cannot take the cancellation: it fails, the request carries on.
    return answerCancellation(view, { accepted: false, reasonCode: 'AB10', reasonText: reasonTextOf(input.error) }, env);
  }
  if (!SENDING.includes(state)) return NOTHING(view);
  if (input.ok) return sentOk(view, env);
  const failure = JSON.stringify({ schema: 'SchemeTransportFailure', error: input.error });
  if (!input.retryable) {
    const before: Step<RtpState>[] = state === RTP.REQUEST_PENDING ? [{ state: RTP.REQUEST_DELIVERY_FAILURE, payloadJson: failure }] : [];
    return enter(view, before, { status: 'REJECTED', reasonCode: input.reasonCode ?? 'AB10', reasonText: reasonTextOf(input.error) }, env);
  }
  if (state !== RTP.REQUEST_PENDING) return NOTHING(view);
  return { ...NOTHING(view), steps: [{ state: RTP.REQUEST_DELIVERY_FAILURE, payloadJson: failure }], dueAt: nextTimer(RTP.REQUEST_DELIVERY_FAILURE, data, env) };
}

/** The scheme holds the request: it is PENDING until its first report. */
function sentOk(view: RtpView, env: RtpEnv): RtpDecision {
  const data = { ...view.data, sent: true };
  return enter({ ...view, data }, [{ state: RTP.REQUEST_DELIVERED, payloadJson: null }], { status: 'PENDING' }, env);
}

function onStatus(view: RtpView, input: Extract<RtpInput, { type: 'status' }>, env: RtpEnv): RtpDecision {
  const { state } = view;
  const target = STATE_OF_STATUS[input.status];
  if (isFinal(state)) return { ...NOTHING(view), refused: `${input.status} reported after ${statusOf(state) ?? state}` };
  if (state === target) return NOTHING(view); // the same status again
  // A report proves the scheme holds the request, even when it overtook the transport's acknowledgement.
  const before: Step<RtpState>[] = [];
  const pushes: StatusPush[] = [];
  let from: RtpState = state;
  if (SENDING.includes(from)) {
    before.push({ state: RTP.REQUEST_DELIVERED, payloadJson: input.payloadJson }, { state: RTP.PENDING, payloadJson: null });
    pushes.push({ status: 'PENDING' });
    from = RTP.PENDING;
  }
  if (from === target) return { ...NOTHING(view), steps: before, data: { ...view.data, sent: true, pushed: { status: 'PENDING' } }, pushes };
  // A status going back (PRESENTED after ACCEPTED) says nothing new: the later status stands.
  if (!RTP_TRANSITIONS[from].includes(target)) return NOTHING(view);
  const push: StatusPush = { status: input.status, ...(input.reasonCode === undefined ? {} : { reasonCode: input.reasonCode }), ...(input.reasonText === undefined ? {} : { reasonText: input.reasonText }) };
  const decision = enter({ ...view, data: { ...view.data, sent: true } }, before, push, env);
  return { ...decision, pushes: [...pushes, ...decision.pushes] };
}

function onCancel(view: RtpView, cancellation: CancellationAsked, env: RtpEnv): RtpDecision {
  const { state, data } = view;
  if (data.cancellationsAnswered?.includes(cancellation.messageId) === true || data.cancelling?.messageId === cancellation.messageId) return NOTHING(view);
  const status = statusOf(state);
  if (isFinal(state)) {
    // Already at its end: a cancellation succeeds only if that end is CANCELLED.
    const asked = { messageId: cancellation.messageId, messageIdentifiers: cancellation.messageIdentifiers, ...traceOf(cancellation) };
    const answer: CancellationAnswer =
      state === RTP.CANCELLED
        ? { ...asked, accepted: true, status: 'CANCELLED' }
        : { ...asked, accepted: false, ...alreadyFinal(state), status: status ?? 'PENDING' };
    return { ...NOTHING(view), data: answered(data, cancellation.messageId), cancellationAnswers: [answer] };
  }
  if (data.cancelling !== undefined) {
    // One cancellation at a time: another is refused while the first waits for the scheme.
    const answer: CancellationAnswer = {
      messageId: cancellation.messageId,
      messageIdentifiers: cancellation.messageIdentifiers,
      ...traceOf(cancellation),
      accepted: false,
      reasonCode: 'DUPL',
      reasonText: 'Another cancellation is pending',
      status: status ?? 'PENDING',
    };
    return { ...NOTHING(view), data: answered(data, cancellation.messageId), cancellationAnswers: [answer] };
  }
  const next: RtpData = { ...data, cancelling: cancellation, cancelSent: false };
  // Never sent: its first tick withdraws it without the scheme. Being sent: held until the scheme
  // holds the request (decide() then sends it); a failed send may yet have reached the scheme, so
  // it is never withdrawn here.
  if (!schemeHolds(state, data)) return { ...NOTHING(view), data: next };
  return { ...NOTHING(view), data: next, dueAt: nextTimer(state, next, env), commands: ['cancel'] };
}

/** Why a cancellation of a request already at its end is refused (ISO 20022 cancellation status reasons). */
function alreadyFinal(state: RtpState): { reasonCode: string; reasonText: string } {
  const status = statusOf(state) ?? state;
  if (state === RTP.PAID) return { reasonCode: 'ARDT', reasonText: 'Already paid' };
  if (state === RTP.STATUS_REJECTED) return { reasonCode: 'ARJT', reasonText: 'Already rejected' };
  return { reasonCode: 'NARR', reasonText: `Already ${status}` };
}

function traceOf(cancellation: CancellationAsked): { trace?: Readonly<Record<string, string>> } {
  return cancellation.trace === undefined ? {} : { trace: cancellation.trace };
}

function onCancellationAnswer(view: RtpView, input: Extract<RtpInput, { type: 'cancellation_answer' }>, env: RtpEnv): RtpDecision {
  const { state, data } = view;
  if (data.cancelling === undefined) return NOTHING(view); // a repeated or late answer
  if (isFinal(state)) return answerCancellation(view, { accepted: state === RTP.CANCELLED }, env);
  if (!input.accepted) {
    return answerCancellation(view, { accepted: false, ...(input.reasonCode === undefined ? {} : { reasonCode: input.reasonCode }), ...(input.reasonText === undefined ? {} : { reasonText: input.reasonText }) }, env);
  }
  return enter(view, [], { status: 'CANCELLED' }, env);
}

/**
 * The cancellation in flight, if any, gets its answer once the request reaches a final status
 * `reached` (or the scheme refused the cancellation): ACCEPTED only if that status is CANCELLED.
 */
function withCancellationOutcome(decision: RtpDecision, reached: RtpState, env: RtpEnv): RtpDecision {
  const answered = answerCancellation({ state: reached, data: decision.data, dueAt: decision.dueAt }, { accepted: reached === RTP.CANCELLED }, env);
  return { ...decision, data: answered.data, cancellationAnswers: [...decision.cancellationAnswers, ...answered.cancellationAnswers] };
}

function answerCancellation(view: RtpView, outcome: { accepted: boolean; reasonCode?: string; reasonText?: string }, env: RtpEnv): RtpDecision {
  const { data } = view;
  const cancelling = data.cancelling;
  if (cancelling === undefined) return NOTHING(view);
  const status = statusOf(view.state) ?? 'PENDING';
  const reason = outcome.accepted ? {} : outcome.reasonCode === undefined ? alreadyFinal(view.state) : { reasonCode: outcome.reasonCode, ...(outcome.reasonText === undefined ? {} : { reasonText: outcome.reasonText }) };
  const { cancelling: _done, cancelSent: _sent, ...rest } = data;
  const next = answered(rest, cancelling.messageId);
  return {
    ...NOTHING(view),
    data: next,
    dueAt: isFinal(view.state) ? view.dueAt : nextTimer(view.state, next, env),
    cancellationAnswers: [{ messageId: cancelling.messageId, messageIdentifiers: cancelling.messageIdentifiers, ...traceOf(cancelling), accepted: outcome.accepted, ...reason, status }],
  };
}

function answered(data: RtpData, messageId: string): RtpData {
  return { ...data, cancellationsAnswered: [...(data.cancellationsAnswered ?? []), messageId] };
}

/**
 * Enter `steps`, then the status state pushed as `push`. A final status ends every timer but a
 * pending notice's. A status state's payload is its push, the RequestToPayResponse the driver
 * renders (null here).
 */
function enter(view: RtpView, steps: readonly Step<RtpState>[], push: StatusPush, env: RtpEnv): RtpDecision {
  const target = STATE_OF_STATUS[push.status];
  const all: Step<RtpState>[] = [...steps, { state: target, payloadJson: null }];
  const data = { ...view.data, pushed: push };
  return { ...NOTHING(view), steps: all, data, pushes: [push], dueAt: isFinal(target) ? null : nextTimer(target, data, env) };
}

/** The next timer of an open request: the expiry, or sooner to (re)send what the transport has not taken. */
function nextTimer(state: RtpState, data: RtpData, env: RtpEnv): number {
  const resend = !schemeHolds(state, data) || cancelDue(state, data);
  return resend ? Math.min(data.expiresAt, env.now + env.resendDelayMs((data.sends ?? 1) + 1)) : data.expiresAt;
}
