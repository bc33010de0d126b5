import type { TransactionKind } from '../kinds.js';
import type { MachineDefinition, Step } from './machine.js';

/**
 * The state machine of a message the scheme originates for an integrator and the integrator
 * answers (CONTRACT §11; docs/state-machine.md): a lookup of its customer (acmt.023 → acmt.024)
 * and a credit to its customer (pacs.008 → pacs.002, then the scheme's final word). One machine
 * for both, as their halves mirror each other: the service asks the integrator (a sync call whose
 * 200 carries the answer, or an async call answered later by the integrator's report), or
 * answers by arrangement itself (auto-authorisation, credits only); whatever comes first of a
 * valid answer and the end of the answer budget decides the verdict, once; the verdict goes to
 * the scheme, sent again until its transport takes it and whenever the scheme resends its
 * message. A credit then waits for the scheme's final word and tells the integrator with exactly
 * one completion callback; a credit the service rejected is completed at once.
 *
 * The service never gives the scheme an approval the integrator did not give (auto-authorisation
 * aside): silence, a failed call, an answer that breaks the rules and a late answer all become a
 * rejection with AB06.
 */
export type InboundPrefix = 'PAYMENT_AUTH' | 'IDENTIFIER_DETERMINATION';

export function inboundStates(prefix: InboundPrefix) {
  return {
    RECEIVED: `${prefix}_REQUEST_RECEIVED`,
    ACCEPTED: `${prefix}_REQUEST_ACCEPTED`,
    REQUEST_PENDING: `${prefix}_REQUEST_PENDING`,
    REQUEST_DELIVERED: `${prefix}_REQUEST_DELIVERED`,
    REQUEST_DELIVERY_FAILURE: `${prefix}_REQUEST_DELIVERY_FAILURE`,
    TIMEOUT: `${prefix}_TIMEOUT`,
    RESPONSE_RECEIVED: `${prefix}_RESPONSE_RECEIVED`,
    RESPONSE_REJECTED: `${prefix}_RESPONSE_REJECTED`,
    RESPONSE_ACCEPTED: `${prefix}_RESPONSE_ACCEPTED`,
    RESPONSE_PENDING: `${prefix}_RESPONSE_PENDING`,
    RESPONSE_DELIVERED: `${prefix}_RESPONSE_DELIVERED`,
    RESPONSE_DELIVERY_FAILURE: `${prefix}_RESPONSE_DELIVERY_FAILURE`,
  } as const;
}

/** The completion half of an inbound credit: the scheme's final word, told to the integrator once. */
export const COMPLETION = {
  RECEIVED: 'PAYMENT_COMPLETION_RECEIVED',
  PENDING: 'PAYMENT_COMPLETION_PENDING',
  DELIVERED: 'PAYMENT_COMPLETION_DELIVERED',
  DELIVERY_FAILURE: 'PAYMENT_COMPLETION_DELIVERY_FAILURE',
} as const;

/** What one inbound kind is: its states' prefix and whether a completion follows the answer. */
export interface InboundProfile {
  readonly kind: TransactionKind;
  readonly name: string;
  readonly prefix: InboundPrefix;
  readonly completion: boolean;
}

export function inboundMachine(profile: InboundProfile): MachineDefinition {
  const S = inboundStates(profile.prefix);
  const afterAnswer = profile.completion ? [COMPLETION.RECEIVED] : [];
  const transitions: Record<string, readonly string[]> = {
    [S.RECEIVED]: [S.ACCEPTED],
    [S.ACCEPTED]: [S.REQUEST_PENDING, S.RESPONSE_ACCEPTED],
    [S.REQUEST_PENDING]: [S.REQUEST_DELIVERED, S.REQUEST_DELIVERY_FAILURE, S.RESPONSE_RECEIVED, S.TIMEOUT],
    [S.REQUEST_DELIVERED]: [S.RESPONSE_RECEIVED, S.TIMEOUT],
    [S.REQUEST_DELIVERY_FAILURE]: [S.REQUEST_DELIVERED, S.RESPONSE_RECEIVED, S.TIMEOUT],
    [S.TIMEOUT]: [S.RESPONSE_PENDING],
    [S.RESPONSE_RECEIVED]: [S.RESPONSE_ACCEPTED, S.RESPONSE_REJECTED],
    [S.RESPONSE_REJECTED]: [S.RESPONSE_PENDING],
    [S.RESPONSE_ACCEPTED]: [S.RESPONSE_PENDING],
    [S.RESPONSE_PENDING]: [S.RESPONSE_DELIVERED, S.RESPONSE_DELIVERY_FAILURE, ...afterAnswer],
    [S.RESPONSE_DELIVERY_FAILURE]: [S.RESPONSE_DELIVERED, ...afterAnswer],
    [S.RESPONSE_DELIVERED]: profile.completion ? [COMPLETION.RECEIVED, COMPLETION.PENDING] : [],
  };
  if (profile.completion) {
    transitions[COMPLETION.RECEIVED] = [COMPLETION.PENDING];
    transitions[COMPLETION.PENDING] = [COMPLETION.DELIVERED, COMPLETION.DELIVERY_FAILURE];
    transitions[COMPLETION.DELIVERY_FAILURE] = [COMPLETION.DELIVERED];
    transitions[COMPLETION.DELIVERED] = [];
  }
  return { kind: profile.kind, name: profile.name, initialState: S.RECEIVED, transitions };
}

/** The answer given to the scheme: approved (SUCCESSFUL, ACSP), or not with an ISO 20022 reason. */
export interface Verdict {
  readonly approved: boolean;
  readonly reasonCode?: string;
  readonly reasonText?: string;
  /**
   * The answer as a message of the integrator API (JSON text): the integrator's as it came, which
   * the scheme answer carries (a lookup's account and names); when the service decided (a
   * timeout, an answer that breaks the rules, auto-authorisation), absent from the machine's
   * verdict and rendered by the engine's driver. The payload of the events of the answer's states.
   */
  readonly answerJson?: string;
}

/** The scheme's final word on an approved credit: settled, or cancelled after authorisation. */
export interface FinalWord {
  readonly settled: boolean;
  readonly reasonCode?: string;
  readonly reasonText?: string;
}

/** How the integrator is asked: a sync call answered in its 200, an async call answered by its report, or not at all (auto). */
export type InboundMode = 'sync' | 'async' | 'auto';

export interface InboundData {
  readonly mode: InboundMode;
  /** When the integrator's answer is due at the latest (ms since epoch), counted from the scheme's message. */
  readonly deadlineAt: number;
  /** Calls made to the integrator (the first included; each carries the same webhook-id). */
  readonly calls?: number;
  /** The answer, once decided. */
  readonly verdict?: Verdict;
  /** Times the answer was handed to the scheme's transport. */
  readonly answers?: number;
  readonly final?: FinalWord;
  /** Outbox id of the completion callback. */
  readonly callbackId?: string;
}

export interface InboundView {
  readonly state: string;
  readonly data: InboundData;
  readonly dueAt: number | null;
}

export type InboundInput =
  | { readonly type: 'tick' }
  /** The call to the integrator: taken (async: 2xx) or answered (sync: the judged answer), or failed. */
  | { readonly type: 'asked'; readonly ok: true; readonly answer?: JudgedAnswer }
  | { readonly type: 'asked'; readonly ok: false; readonly error: string }
  /** The integrator's report (async), judged valid by the driver. */
  | { readonly type: 'report'; readonly answer: JudgedAnswer }
  /** The scheme's transport took the answer, or did not. */
  | { readonly type: 'answered'; readonly ok: true }
  | { readonly type: 'answered'; readonly ok: false; readonly retryable: boolean; readonly error: string }
  /** The scheme's final word on the credit; `payloadJson` is its message. */
  | { readonly type: 'final'; readonly word: FinalWord; readonly payloadJson: string }
  /** The scheme sent its message again: answer again what was answered. */
  | { readonly type: 'resend' }
  | { readonly type: 'callback'; readonly delivered: boolean };

/** The integrator's answer as the driver judged it: a verdict, or why it breaks the rules (answered to the scheme with `reasonCode`, AB06 unless said). */
export type JudgedAnswer =
  | { readonly valid: true; readonly verdict: Verdict; readonly payloadJson: string }
  | { readonly valid: false; readonly problem: string; readonly reasonCode?: string; readonly payloadJson: string };

export interface InboundDecision {
  /**
   * States entered. The driver fills in the payload of the states that give the answer
   * (RESPONSE_ACCEPTED, RESPONSE_PENDING, RESPONSE_DELIVERED: the verdict's answer) and of the
   * completion's (COMPLETION_PENDING, _DELIVERED, _DELIVERY_FAILURE: the completion callback).
   */
  readonly steps: readonly Step[];
  readonly data: InboundData;
  readonly dueAt: number | null;
  readonly commands: readonly ('ask' | 'answer')[];
  /** The verdict decided by this decision (the transaction's outcome). */
  readonly decided?: Verdict;
  /** Queue the completion callback: the credit's final result for the integrator. */
  readonly complete?: FinalWord;
  /** An input the machine refused (a late answer, a final word on a rejected credit): logged, never committed. */
  readonly refused?: string;
}

export interface InboundEnv {
  readonly now: number;
  /** Delay before the next attempt (sends counts the attempts made so far). */
  readonly resendDelayMs: (sends: number) => number;
  readonly callbackCheckMs: number;
}

export const TIMEOUT_REASON = 'AB06';

/** The pure decision of an inbound transaction's machine on one input. */
export function decideInbound(profile: InboundProfile, view: InboundView, input: InboundInput, env: InboundEnv): InboundDecision | undefined {
  const S = inboundStates(profile.prefix);
  const { state, data } = view;
  const asking = state === S.REQUEST_PENDING || state === S.REQUEST_DELIVERED || state === S.REQUEST_DELIVERY_FAILURE;
  const answering = state === S.RESPONSE_PENDING || state === S.RESPONSE_DELIVERY_FAILURE;
  // A refused input changes nothing, the timer included.
  const none = (refused?: string): InboundDecision | undefined => (refused === undefined ? undefined : { steps: [], data, dueAt: view.dueAt, commands: [], refused });

  /** The verdict decided: the states that lead to answering the scheme, and the first send. */
  const answer = (steps: Step[], verdict: Verdict): InboundDecision => ({
    steps: [...steps, { state: S.RESPONSE_PENDING, payloadJson: null }],
    data: { ...data, verdict, answers: (data.answers ?? 0) + 1 },
    dueAt: env.now + env.resendDelayMs((data.answers ?? 0) + 1),
    commands: ['answer'],
    decided: verdict,
  });
  const judged = (from: Step[], judgedAnswer: JudgedAnswer): InboundDecision => {
    const received: Step = { state: S.RESPONSE_RECEIVED, payloadJson: judgedAnswer.payloadJson };
    if (judgedAnswer.valid) return answer([...from, received, { state: S.RESPONSE_ACCEPTED, payloadJson: null }], judgedAnswer.verdict);
    const reasonCode = judgedAnswer.reasonCode ?? TIMEOUT_REASON;
    return answer([...from, received, { state: S.RESPONSE_REJECTED, payloadJson: JSON.stringify({ schema: 'IntegratorAnswerProblem', problem: judgedAnswer.problem }) }], { approved: false, reasonCode });
  };
  const timeout = JSON.stringify({ schema: 'IntegratorTimeout', deadline: new Date(data.deadlineAt).toISOString() });
  const timedOut = (): InboundDecision => answer([{ state: S.TIMEOUT, payloadJson: timeout }], { approved: false, reasonCode: TIMEOUT_REASON, reasonText: 'Account holder bank did not answer' });

  switch (input.type) {
    case 'tick': {
      if (state === S.RECEIVED) {
        const accepted: Step = { state: S.ACCEPTED, payloadJson: null };
        if (data.mode === 'auto') return answer([accepted, { state: S.RESPONSE_ACCEPTED, payloadJson: null }], { approved: true });
        return { steps: [accepted, { state: S.REQUEST_PENDING, payloadJson: null }], data: { ...data, calls: 1 }, dueAt: data.deadlineAt, commands: ['ask'] };
      }
      if (asking) {
        if (env.now >= data.deadlineAt) return timedOut();
        if (state === S.REQUEST_DELIVERY_FAILURE) {
          const calls = (data.calls ?? 1) + 1;
          return { steps: [], data: { ...data, calls }, dueAt: Math.min(data.deadlineAt, env.now + env.resendDelayMs(calls)), commands: ['ask'] };
        }
        return { steps: [], data, dueAt: data.deadlineAt, commands: [] };
      }
      if (answering) {
        const answers = (data.answers ?? 0) + 1;
        return { steps: [], data: { ...data, answers }, dueAt: env.now + env.resendDelayMs(answers), commands: ['answer'] };
      }
      if (state === COMPLETION.PENDING || state === COMPLETION.DELIVERY_FAILURE) return { steps: [], data, dueAt: env.now + env.callbackCheckMs, commands: [] };
      return { steps: [], data, dueAt: null, commands: [] };
    }
    case 'asked': {
      if (!asking) return none(`the integrator's answer came after the ${state} state`);
      if (!input.ok) {
        // A failed call after one the integrator took (a late outcome of an earlier call) changes nothing: it has the question.
        if (state === S.REQUEST_DELIVERED) return undefined;
        // A call cut off by the deadline (its timeout is what was left of the budget): the scheme is answered now, not at the next claim.
        if (env.now >= data.deadlineAt) return timedOut();
        if (state === S.REQUEST_DELIVERY_FAILURE) return { steps: [], data, dueAt: Math.min(data.deadlineAt, env.now + env.resendDelayMs(data.calls ?? 1)), commands: [] };
        return {
          steps: [{ state: S.REQUEST_DELIVERY_FAILURE, payloadJson: JSON.stringify({ schema: 'IntegratorCallFailure', error: input.error }) }],
          data,
          dueAt: Math.min(data.deadlineAt, env.now + env.resendDelayMs(data.calls ?? 1)),
          commands: [],
        };
      }
      const delivered: Step[] = state === S.REQUEST_DELIVERED ? [] : [{ state: S.REQUEST_DELIVERED, payloadJson: null }];
      if (input.answer === undefined) return delivered.length === 0 ? undefined : { steps: delivered, data, dueAt: data.deadlineAt, commands: [] };
      if (env.now >= data.deadlineAt) return timedOut();
      return judged(delivered, input.answer);
    }
    case 'report': {
      if (!asking) return none(data.verdict === undefined ? `no answer is awaited in ${state}` : 'the answer was already given to the scheme');
      // Refused, not taken as the timeout: the integrator learns its report came too late; the timer answers AB06.
      if (env.now >= data.deadlineAt) return none('the answer budget ran out before the report came');
      return judged([], input.answer);
    }
    case 'answered': {
      if (!answering) return undefined;
      if (!input.ok) {
        const dueAt = input.retryable ? env.now + env.resendDelayMs(data.answers ?? 1) : null;
        if (state === S.RESPONSE_DELIVERY_FAILURE) return { steps: [], data, dueAt, commands: [] };
        return { steps: [{ state: S.RESPONSE_DELIVERY_FAILURE, payloadJson: JSON.stringify({ schema: 'SchemeTransportFailure', error: input.error }) }], data, dueAt, commands: [] };
      }
      const delivered: Step = { state: S.RESPONSE_DELIVERED, payloadJson: null };
      if (profile.completion && data.verdict?.approved === false) {
        const word: FinalWord = { settled: false, ...reasonOf(data.verdict) };
        return { steps: [delivered, { state: COMPLETION.PENDING, payloadJson: null }], data: { ...data, final: word }, dueAt: env.now + env.callbackCheckMs, commands: [], complete: word };
      }
      return { steps: [delivered], data, dueAt: null, commands: [] };
    }
    case 'final': {
      if (!profile.completion) return none('a final word on a lookup');
      if (data.verdict === undefined) return none(`a final word before the credit was answered (${state})`);
      if (!data.verdict.approved) return none('a final word on a credit the service rejected');
      if (!(answering || state === S.RESPONSE_DELIVERED)) return none(`a second final word (${state})`);
      return {
        steps: [
          { state: COMPLETION.RECEIVED, payloadJson: input.payloadJson },
          { state: COMPLETION.PENDING, payloadJson: null },
        ],
        data: { ...data, final: input.word },
        dueAt: env.now + env.callbackCheckMs,
        commands: [],
        complete: input.word,
      };
    }
    case 'resend': {
      if (data.verdict === undefined) return undefined;
      return { steps: [], data, dueAt: view.dueAt, commands: ['answer'] };
    }
    case 'callback': {
      if (state !== COMPLETION.PENDING && state !== COMPLETION.DELIVERY_FAILURE) return undefined;
      if (input.delivered) return { steps: [{ state: COMPLETION.DELIVERED, payloadJson: null }], data, dueAt: null, commands: [] };
      if (state === COMPLETION.DELIVERY_FAILURE) return undefined;
      return { steps: [{ state: COMPLETION.DELIVERY_FAILURE, payloadJson: null }], data, dueAt: env.now + env.callbackCheckMs, commands: [] };
    }
  }
}

function reasonOf(verdict: Verdict): { reasonCode?: string; reasonText?: string } {
  return {
    ...(verdict.reasonCode === undefined ? {} : { reasonCode: verdict.reasonCode }),
    ...(verdict.reasonText === undefined ? {} : { reasonText: verdict.reasonText }),
  };
}

export const INBOUND_CREDIT_TRANSFER: InboundProfile = { kind: 'INBOUND_CREDIT_TRANSFER', name: 'inbound-credit-transfer', prefix: 'PAYMENT_AUTH', completion: true };
export const INBOUND_IDENTIFIER_DETERMINATION: InboundProfile = {
  kind: 'INBOUND_IDENTIFIER_DETERMINATION',
  name: 'inbound-identifier-determination',
  prefix: 'IDENTIFIER_DETERMINATION',
  completion: false,
};

export const INBOUND_CREDIT_TRANSFER_MACHINE = inboundMachine(INBOUND_CREDIT_TRANSFER);
export const INBOUND_IDENTIFIER_DETERMINATION_MACHINE = inboundMachine(INBOUND_IDENTIFIER_DETERMINATION);
