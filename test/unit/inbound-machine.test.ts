import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { assertLegalTransition } from '../../src/domain/machines/machine.js';
import {
  COMPLETION,
  decideInbound,
  INBOUND_CREDIT_TRANSFER,
  INBOUND_CREDIT_TRANSFER_MACHINE,
  INBOUND_IDENTIFIER_DETERMINATION,
  INBOUND_IDENTIFIER_DETERMINATION_MACHINE,
  inboundStates,
  type InboundData,
  type InboundEnv,
  type InboundInput,
  type InboundMode,
  type InboundProfile,
} from '../../src/domain/machines/inbound.js';

const START = 1_000_000;
const BUDGET_MS = 5_000;
const S = inboundStates('PAYMENT_AUTH');
const env = (now: number): InboundEnv => ({ now, resendDelayMs: (n) => 1_000 * n, callbackCheckMs: 60_000 });
const approve: InboundInput = { type: 'asked', ok: true, answer: { valid: true, verdict: { approved: true }, payloadJson: '{"schema":"PaymentStatusReport"}' } };

/** Runs inputs through the machine from its first state, checking every transition against the table; returns every state entered and every verdict decided. */
function run(profile: InboundProfile, mode: InboundMode, inputs: readonly { input: InboundInput; at: number }[]) {
  const machine = profile === INBOUND_CREDIT_TRANSFER ? INBOUND_CREDIT_TRANSFER_MACHINE : INBOUND_IDENTIFIER_DETERMINATION_MACHINE;
  let state = machine.initialState;
  let data: InboundData = { mode, deadlineAt: START + BUDGET_MS };
  let dueAt: number | null = START;
  const entered: string[] = [state];
  const verdicts: boolean[] = [];
  const completions: boolean[] = [];
  for (const { input, at } of inputs) {
    const decision = decideInbound(profile, { state, data, dueAt }, input, env(at));
    if (decision === undefined) continue;
    if (decision.refused !== undefined) {
      // A refused input changes nothing: no state, no command, and the timer it found.
      assert.deepEqual({ steps: decision.steps, commands: decision.commands, dueAt: decision.dueAt }, { steps: [], commands: [], dueAt }, `refused (${decision.refused}) yet changing`);
      continue;
    }
    for (const step of decision.steps) {
      assertLegalTransition(machine, state, step.state);
      state = step.state;
      entered.push(state);
    }
    if (decision.decided !== undefined) verdicts.push(decision.decided.approved);
    if (decision.complete !== undefined) completions.push(decision.complete.settled);
    data = decision.data;
    dueAt = decision.dueAt;
  }
  return { state, data, entered, verdicts, completions };
}

const inputArbitrary: fc.Arbitrary<InboundInput> = fc.oneof(
  fc.constant<InboundInput>({ type: 'tick' }),
  fc.constant<InboundInput>(approve),
  fc.constant<InboundInput>({ type: 'asked', ok: true, answer: { valid: true, verdict: { approved: false, reasonCode: 'AC04' }, payloadJson: '{}' } }),
  fc.constant<InboundInput>({ type: 'asked', ok: true, answer: { valid: false, problem: 'no outcome', payloadJson: '{}' } }),
  fc.constant<InboundInput>({ type: 'asked', ok: true }),
  fc.constant<InboundInput>({ type: 'asked', ok: false, error: 'ECONNREFUSED' }),
  fc.constant<InboundInput>({ type: 'report', answer: { valid: true, verdict: { approved: true }, payloadJson: '{}' } }),
  fc.constant<InboundInput>({ type: 'answered', ok: true }),
  fc.constant<InboundInput>({ type: 'answered', ok: false, retryable: true, error: 'gateway down' }),
  fc.constant<InboundInput>({ type: 'final', word: { settled: true }, payloadJson: '{}' }),
  fc.constant<InboundInput>({ type: 'final', word: { settled: false, reasonCode: 'AB05' }, payloadJson: '{}' }),
  fc.constant<InboundInput>({ type: 'resend' }),
  fc.constant<InboundInput>({ type: 'callback', delivered: true }),
  fc.constant<InboundInput>({ type: 'callback', delivered: false }),
);

/** Whether the input is the integrator's valid approval. */
function approving(input: InboundInput): boolean {
  if (input.type === 'report') return input.answer.valid && input.answer.verdict.approved;
  if (input.type !== 'asked' || !input.ok) return false;
  return input.answer?.valid === true && input.answer.verdict.approved;
}

describe('inbound state machine (scheme-originated credits and lookups)', () => {
  it('walks a sync credit from the pacs.008 through the integrator’s approval and the settlement to one delivered completion', () => {
    const result = run(INBOUND_CREDIT_TRANSFER, 'sync', [
      { input: { type: 'tick' }, at: START },
      { input: approve, at: START + 10 },
      { input: { type: 'answered', ok: true }, at: START + 20 },
      { input: { type: 'final', word: { settled: true }, payloadJson: '{"schema":"pacs.002"}' }, at: START + 30 },
      { input: { type: 'callback', delivered: true }, at: START + 40 },
    ]);
    assert.deepEqual(result.entered, [
      S.RECEIVED,
      S.ACCEPTED,
      S.REQUEST_PENDING,
      S.REQUEST_DELIVERED,
      S.RESPONSE_RECEIVED,
      S.RESPONSE_ACCEPTED,
      S.RESPONSE_PENDING,
      S.RESPONSE_DELIVERED,
      COMPLETION.RECEIVED,
      COMPLETION.PENDING,
      COMPLETION.DELIVERED,
    ]);
    assert.deepEqual(result.verdicts, [true]);
    assert.deepEqual(result.completions, [true]);
  });

  it('answers AB06 when the integrator is silent past its budget, and completes the credit REJECTED at once', () => {
    const result = run(INBOUND_CREDIT_TRANSFER, 'sync', [
      { input: { type: 'tick' }, at: START },
      { input: { type: 'tick' }, at: START + BUDGET_MS },
      { input: approve, at: START + BUDGET_MS + 1 },
      { input: { type: 'answered', ok: true }, at: START + BUDGET_MS + 2 },
    ]);
    assert.ok(result.entered.includes(S.TIMEOUT));
    assert.equal(result.data.verdict?.reasonCode, 'AB06');
    assert.deepEqual(result.verdicts, [false], 'the late approval changes nothing');
    assert.deepEqual(result.completions, [false]);
  });

  it('answers AB06 in the same decision when the call is cut off by the deadline, without waiting for the timer', () => {
    const cut = decideInbound(INBOUND_CREDIT_TRANSFER, { state: S.REQUEST_PENDING, data: { mode: 'sync', deadlineAt: START + BUDGET_MS, calls: 1 }, dueAt: START + BUDGET_MS }, { type: 'asked', ok: false, error: 'timed out' }, env(START + BUDGET_MS));
    assert.deepEqual(cut?.steps.map((step) => step.state), [S.TIMEOUT, S.RESPONSE_PENDING]);
    assert.deepEqual(cut?.commands, ['answer']);
    assert.equal(cut?.decided?.reasonCode, 'AB06');
  });

  it('approves by arrangement without calling the integrator (auto-authorisation)', () => {
    const tick = decideInbound(INBOUND_CREDIT_TRANSFER, { state: S.RECEIVED, data: { mode: 'auto', deadlineAt: START + BUDGET_MS }, dueAt: START }, { type: 'tick' }, env(START));
    assert.deepEqual(tick?.commands, ['answer']);
    assert.equal(tick?.decided?.approved, true);
  });

  it('refuses an async report that comes after the budget, and one that comes after the answer', () => {
    const late = decideInbound(INBOUND_CREDIT_TRANSFER, { state: S.REQUEST_DELIVERED, data: { mode: 'async', deadlineAt: START }, dueAt: START }, { type: 'report', answer: { valid: true, verdict: { approved: true }, payloadJson: '{}' } }, env(START + 1));
    assert.equal(typeof late?.refused, 'string');
    const answered = decideInbound(INBOUND_CREDIT_TRANSFER, { state: S.RESPONSE_DELIVERED, data: { mode: 'async', deadlineAt: START + BUDGET_MS, verdict: { approved: false, reasonCode: 'AB06' } }, dueAt: null }, { type: 'report', answer: { valid: true, verdict: { approved: true }, payloadJson: '{}' } }, env(START + 1));
    assert.equal(typeof answered?.refused, 'string');
  });

  it('answers a lookup without both names CH21, never SUCCESSFUL', () => {
    const result = run(INBOUND_IDENTIFIER_DETERMINATION, 'sync', [
      { input: { type: 'tick' }, at: START },
      { input: { type: 'asked', ok: true, answer: { valid: false, problem: 'legalName missing', reasonCode: 'CH21', payloadJson: '{}' } }, at: START + 5 },
    ]);
    assert.equal(result.data.verdict?.approved, false);
    assert.equal(result.data.verdict?.reasonCode, 'CH21');
  });

  it('never approves without an approving answer in time, decides once, and completes a credit at most once (any inputs, any times)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(INBOUND_CREDIT_TRANSFER, INBOUND_IDENTIFIER_DETERMINATION),
        fc.constantFrom<InboundMode>('sync', 'async'),
        fc.array(fc.record({ input: inputArbitrary, after: fc.integer({ min: 0, max: 3_000 }) }), { maxLength: 25 }),
        (profile, mode, steps) => {
          let at = START;
          const timed = [{ input: { type: 'tick' } as InboundInput, at }, ...steps.map((step) => ({ input: step.input, at: (at += step.after) }))];
          const result = run(profile, mode, timed);
          assert.ok(result.verdicts.length <= 1, 'the verdict is decided once');
          if (result.verdicts[0] === true) {
            const approvedInTime = timed.some(
              ({ input, at: when }) => when < START + BUDGET_MS && approving(input),
            );
            assert.ok(approvedInTime, 'an approval needs the integrator’s approving answer within its budget');
          }
          assert.ok(result.completions.length <= (profile.completion ? 1 : 0), 'at most one completion, and none for a lookup');
          if (result.completions[0] === true) assert.equal(result.verdicts[0], true, 'a settled completion only for an approved credit');
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('inbound state machine: whole decisions', () => {
  const DEADLINE = START + BUDGET_MS;
  const L = inboundStates('IDENTIFIER_DETERMINATION');
  const decide = (state: string, data: Partial<InboundData>, input: InboundInput, now: number, profile: InboundProfile = INBOUND_CREDIT_TRANSFER, dueAt: number | null = 7) =>
    decideInbound(profile, { state, data: { mode: 'sync', deadlineAt: DEADLINE, ...data }, dueAt }, input, env(now));
  const timeoutStep = { state: S.TIMEOUT, payloadJson: JSON.stringify({ schema: 'IntegratorTimeout', deadline: new Date(DEADLINE).toISOString() }) };
  const AB06 = { approved: false, reasonCode: 'AB06', reasonText: 'Account holder bank did not answer' };

  it('is the table of states and transitions of each profile: the lookup has no completion, the credit’s completion is told once', () => {
    assert.deepEqual(inboundStates('PAYMENT_AUTH'), {
      RECEIVED: 'PAYMENT_AUTH_REQUEST_RECEIVED',
      ACCEPTED: 'PAYMENT_AUTH_REQUEST_ACCEPTED',
      REQUEST_PENDING: 'PAYMENT_AUTH_REQUEST_PENDING',
      REQUEST_DELIVERED: 'PAYMENT_AUTH_REQUEST_DELIVERED',
      REQUEST_DELIVERY_FAILURE: 'PAYMENT_AUTH_REQUEST_DELIVERY_FAILURE',
      TIMEOUT: 'PAYMENT_AUTH_TIMEOUT',
      RESPONSE_RECEIVED: 'PAYMENT_AUTH_RESPONSE_RECEIVED',
      RESPONSE_REJECTED: 'PAYMENT_AUTH_RESPONSE_REJECTED',
      RESPONSE_ACCEPTED: 'PAYMENT_AUTH_RESPONSE_ACCEPTED',
      RESPONSE_PENDING: 'PAYMENT_AUTH_RESPONSE_PENDING',
      RESPONSE_DELIVERED: 'PAYMENT_AUTH_RESPONSE_DELIVERED',
      RESPONSE_DELIVERY_FAILURE: 'PAYMENT_AUTH_RESPONSE_DELIVERY_FAILURE',
    });
    const common = (T: ReturnType<typeof inboundStates>, afterAnswer: readonly string[]) => ({
      [T.RECEIVED]: [T.ACCEPTED],
      [T.ACCEPTED]: [T.REQUEST_PENDING, T.RESPONSE_ACCEPTED],
      [T.REQUEST_PENDING]: [T.REQUEST_DELIVERED, T.REQUEST_DELIVERY_FAILURE, T.RESPONSE_RECEIVED, T.TIMEOUT],
      [T.REQUEST_DELIVERED]: [T.RESPONSE_RECEIVED, T.TIMEOUT],
      [T.REQUEST_DELIVERY_FAILURE]: [T.REQUEST_DELIVERED, T.RESPONSE_RECEIVED, T.TIMEOUT],
      [T.TIMEOUT]: [T.RESPONSE_PENDING],
      [T.RESPONSE_RECEIVED]: [T.RESPONSE_ACCEPTED, T.RESPONSE_REJECTED],
      [T.RESPONSE_REJECTED]: [T.RESPONSE_PENDING],
      [T.RESPONSE_ACCEPTED]: [T.RESPONSE_PENDING],
      [T.RESPONSE_PENDING]: [T.RESPONSE_DELIVERED, T.RESPONSE_DELIVERY_FAILURE, ...afterAnswer],
      [T.RESPONSE_DELIVERY_FAILURE]: [T.RESPONSE_DELIVERED, ...afterAnswer],
    });
    assert.deepEqual(INBOUND_CREDIT_TRANSFER_MACHINE, {
      kind: 'INBOUND_CREDIT_TRANSFER',
      name: 'inbound-credit-transfer',
      initialState: S.RECEIVED,
      transitions: {
        ...common(S, [COMPLETION.RECEIVED]),
        [S.RESPONSE_DELIVERED]: [COMPLETION.RECEIVED, COMPLETION.PENDING],
        PAYMENT_COMPLETION_RECEIVED: ['PAYMENT_COMPLETION_PENDING'],
        PAYMENT_COMPLETION_PENDING: ['PAYMENT_COMPLETION_DELIVERED', 'PAYMENT_COMPLETION_DELIVERY_FAILURE'],
        PAYMENT_COMPLETION_DELIVERY_FAILURE: ['PAYMENT_COMPLETION_DELIVERED'],
        PAYMENT_COMPLETION_DELIVERED: [],
      },
    });
    assert.deepEqual(INBOUND_IDENTIFIER_DETERMINATION_MACHINE, {
      kind: 'INBOUND_IDENTIFIER_DETERMINATION',
      name: 'inbound-identifier-determination',
      initialState: 'IDENTIFIER_DETERMINATION_REQUEST_RECEIVED',
      transitions: { ...common(L, []), [L.RESPONSE_DELIVERED]: [] },
    });
  });

  it('asks the integrator once on the first tick, with the budget as the timer; auto-authorisation approves and answers at once', () => {
    assert.deepEqual(decide(S.RECEIVED, {}, { type: 'tick' }, START), {
      steps: [{ state: S.ACCEPTED, payloadJson: null }, { state: S.REQUEST_PENDING, payloadJson: null }],
      data: { mode: 'sync', deadlineAt: DEADLINE, calls: 1 },
      dueAt: DEADLINE,
      commands: ['ask'],
    });
    assert.deepEqual(decide(S.RECEIVED, { mode: 'auto' }, { type: 'tick' }, START), {
      steps: [{ state: S.ACCEPTED, payloadJson: null }, { state: S.RESPONSE_ACCEPTED, payloadJson: null }, { state: S.RESPONSE_PENDING, payloadJson: null }],
      data: { mode: 'auto', deadlineAt: DEADLINE, verdict: { approved: true }, answers: 1 },
      dueAt: START + 1_000,
      commands: ['answer'],
      decided: { approved: true },
    });
  });

  it('waits for the answer until the deadline, answers AB06 at it, and calls again after a failed call, no later than the deadline', () => {
    for (const state of [S.REQUEST_PENDING, S.REQUEST_DELIVERED]) {
      assert.deepEqual(decide(state, { calls: 1 }, { type: 'tick' }, DEADLINE - 1), { steps: [], data: { mode: 'sync', deadlineAt: DEADLINE, calls: 1 }, dueAt: DEADLINE, commands: [] });
    }
    for (const state of [S.REQUEST_PENDING, S.REQUEST_DELIVERED, S.REQUEST_DELIVERY_FAILURE]) {
      assert.deepEqual(decide(state, { calls: 1 }, { type: 'tick' }, DEADLINE), {
        steps: [timeoutStep, { state: S.RESPONSE_PENDING, payloadJson: null }],
        data: { mode: 'sync', deadlineAt: DEADLINE, calls: 1, verdict: AB06, answers: 1 },
        dueAt: DEADLINE + 1_000,
        commands: ['answer'],
        decided: AB06,
      });
    }
    assert.deepEqual(decide(S.REQUEST_DELIVERY_FAILURE, { calls: 2 }, { type: 'tick' }, START + 100), { steps: [], data: { mode: 'sync', deadlineAt: DEADLINE, calls: 3 }, dueAt: START + 3_100, commands: ['ask'] });
    assert.deepEqual(decide(S.REQUEST_DELIVERY_FAILURE, {}, { type: 'tick' }, START + 100), { steps: [], data: { mode: 'sync', deadlineAt: DEADLINE, calls: 2 }, dueAt: START + 2_100, commands: ['ask'] });
    assert.deepEqual(decide(S.REQUEST_DELIVERY_FAILURE, { calls: 4 }, { type: 'tick' }, START + 100), { steps: [], data: { mode: 'sync', deadlineAt: DEADLINE, calls: 5 }, dueAt: DEADLINE, commands: ['ask'] });
  });

  it('sends the answer again with growing delays until the transport takes it, checks an undelivered completion, and rests otherwise', () => {
    for (const state of [S.RESPONSE_PENDING, S.RESPONSE_DELIVERY_FAILURE]) {
      assert.deepEqual(decide(state, { answers: 2 }, { type: 'tick' }, START), { steps: [], data: { mode: 'sync', deadlineAt: DEADLINE, answers: 3 }, dueAt: START + 3_000, commands: ['answer'] });
    }
    assert.deepEqual(decide(S.RESPONSE_PENDING, {}, { type: 'tick' }, START), { steps: [], data: { mode: 'sync', deadlineAt: DEADLINE, answers: 1 }, dueAt: START + 1_000, commands: ['answer'] });
    for (const state of [COMPLETION.PENDING, COMPLETION.DELIVERY_FAILURE]) {
      assert.deepEqual(decide(state, {}, { type: 'tick' }, START), { steps: [], data: { mode: 'sync', deadlineAt: DEADLINE }, dueAt: START + 60_000, commands: [] });
    }
    for (const state of [S.RESPONSE_DELIVERED, COMPLETION.DELIVERED, S.TIMEOUT]) {
      assert.deepEqual(decide(state, {}, { type: 'tick' }, START), { steps: [], data: { mode: 'sync', deadlineAt: DEADLINE }, dueAt: null, commands: [] });
    }
  });

  it('records a failed call once and calls again after its delay (no later than the deadline), ignores one after a taken call, and answers AB06 for one cut off by the deadline', () => {
    const failed: InboundInput = { type: 'asked', ok: false, error: 'ECONNREFUSED' };
    assert.deepEqual(decide(S.REQUEST_PENDING, { calls: 2 }, failed, START), {
      steps: [{ state: S.REQUEST_DELIVERY_FAILURE, payloadJson: '{"schema":"IntegratorCallFailure","error":"ECONNREFUSED"}' }],
      data: { mode: 'sync', deadlineAt: DEADLINE, calls: 2 },
      dueAt: START + 2_000,
      commands: [],
    });
    assert.equal(decide(S.REQUEST_PENDING, {}, failed, START)?.dueAt, START + 1_000);
    assert.equal(decide(S.REQUEST_PENDING, { calls: 9 }, failed, START)?.dueAt, DEADLINE);
    assert.deepEqual(decide(S.REQUEST_DELIVERY_FAILURE, { calls: 2 }, failed, START), { steps: [], data: { mode: 'sync', deadlineAt: DEADLINE, calls: 2 }, dueAt: START + 2_000, commands: [] });
    assert.equal(decide(S.REQUEST_DELIVERY_FAILURE, {}, failed, START)?.dueAt, START + 1_000);
    assert.equal(decide(S.REQUEST_DELIVERY_FAILURE, { calls: 9 }, failed, START)?.dueAt, DEADLINE);
    assert.equal(decide(S.REQUEST_DELIVERED, { calls: 1 }, failed, START), undefined);
    assert.equal(decide(S.REQUEST_DELIVERED, { calls: 1 }, failed, DEADLINE), undefined);
    for (const state of [S.REQUEST_PENDING, S.REQUEST_DELIVERY_FAILURE]) {
      assert.deepEqual(decide(state, { calls: 1 }, failed, DEADLINE)?.decided, AB06);
    }
    assert.equal(decide(S.REQUEST_PENDING, { calls: 1 }, failed, DEADLINE - 1)?.decided, undefined);
  });

  it('takes a call the integrator took (async) as delivered, once, and judges a sync answer in time; one at the deadline is the timeout', () => {
    const taken: InboundInput = { type: 'asked', ok: true };
    for (const state of [S.REQUEST_PENDING, S.REQUEST_DELIVERY_FAILURE]) {
      assert.deepEqual(decide(state, { calls: 1 }, taken, START), { steps: [{ state: S.REQUEST_DELIVERED, payloadJson: null }], data: { mode: 'sync', deadlineAt: DEADLINE, calls: 1 }, dueAt: DEADLINE, commands: [] });
    }
    assert.equal(decide(S.REQUEST_DELIVERED, { calls: 1 }, taken, START), undefined);
    assert.deepEqual(decide(S.REQUEST_PENDING, { calls: 1 }, approve, START + 10), {
      steps: [
        { state: S.REQUEST_DELIVERED, payloadJson: null },
        { state: S.RESPONSE_RECEIVED, payloadJson: '{"schema":"PaymentStatusReport"}' },
        { state: S.RESPONSE_ACCEPTED, payloadJson: null },
        { state: S.RESPONSE_PENDING, payloadJson: null },
      ],
      data: { mode: 'sync', deadlineAt: DEADLINE, calls: 1, verdict: { approved: true }, answers: 1 },
      dueAt: START + 1_010,
      commands: ['answer'],
      decided: { approved: true },
    });
    assert.deepEqual(decide(S.REQUEST_DELIVERED, { calls: 1 }, approve, DEADLINE - 1)?.steps.map((step) => step.state), [S.RESPONSE_RECEIVED, S.RESPONSE_ACCEPTED, S.RESPONSE_PENDING]);
    assert.deepEqual(decide(S.REQUEST_PENDING, { calls: 1 }, approve, DEADLINE)?.decided, AB06);
    const broken: InboundInput = { type: 'asked', ok: true, answer: { valid: false, problem: 'outcome missing', payloadJson: '{"x":1}' } };
    assert.deepEqual(decide(S.REQUEST_DELIVERED, { calls: 1 }, broken, START), {
      steps: [
        { state: S.RESPONSE_RECEIVED, payloadJson: '{"x":1}' },
        { state: S.RESPONSE_REJECTED, payloadJson: '{"schema":"IntegratorAnswerProblem","problem":"outcome missing"}' },
        { state: S.RESPONSE_PENDING, payloadJson: null },
      ],
      data: { mode: 'sync', deadlineAt: DEADLINE, calls: 1, verdict: { approved: false, reasonCode: 'AB06' }, answers: 1 },
      dueAt: START + 1_000,
      commands: ['answer'],
      decided: { approved: false, reasonCode: 'AB06' },
    });
  });

  it('refuses an answer in any other state, naming why, and changes nothing', () => {
    assert.deepEqual(decide(S.RESPONSE_PENDING, {}, approve, START), { steps: [], data: { mode: 'sync', deadlineAt: DEADLINE }, dueAt: 7, commands: [], refused: `the integrator's answer came after the ${S.RESPONSE_PENDING} state` });
    const report: InboundInput = { type: 'report', answer: { valid: true, verdict: { approved: true }, payloadJson: '{}' } };
    assert.equal(decide(S.ACCEPTED, {}, report, START)?.refused, `no answer is awaited in ${S.ACCEPTED}`);
    assert.equal(decide(S.RESPONSE_PENDING, { verdict: { approved: false } }, report, START)?.refused, 'the answer was already given to the scheme');
    assert.deepEqual(decide(S.REQUEST_DELIVERED, {}, report, DEADLINE), { steps: [], data: { mode: 'sync', deadlineAt: DEADLINE }, dueAt: 7, commands: [], refused: 'the answer budget ran out before the report came' });
    assert.deepEqual(decide(S.REQUEST_DELIVERED, {}, report, DEADLINE - 1)?.steps.map((step) => step.state), [S.RESPONSE_RECEIVED, S.RESPONSE_ACCEPTED, S.RESPONSE_PENDING]);
  });

  it('records a refused answer once, resends it after its delay when the refusal is for now, not when it is for good', () => {
    const forNow: InboundInput = { type: 'answered', ok: false, retryable: true, error: 'gateway down' };
    const forGood: InboundInput = { type: 'answered', ok: false, retryable: false, error: 'refused' };
    assert.deepEqual(decide(S.RESPONSE_PENDING, { answers: 2 }, forNow, START), {
      steps: [{ state: S.RESPONSE_DELIVERY_FAILURE, payloadJson: '{"schema":"SchemeTransportFailure","error":"gateway down"}' }],
      data: { mode: 'sync', deadlineAt: DEADLINE, answers: 2 },
      dueAt: START + 2_000,
      commands: [],
    });
    assert.equal(decide(S.RESPONSE_PENDING, {}, forNow, START)?.dueAt, START + 1_000);
    assert.equal(decide(S.RESPONSE_PENDING, { answers: 2 }, forGood, START)?.dueAt, null);
    assert.deepEqual(decide(S.RESPONSE_DELIVERY_FAILURE, { answers: 2 }, forNow, START), { steps: [], data: { mode: 'sync', deadlineAt: DEADLINE, answers: 2 }, dueAt: START + 2_000, commands: [] });
    assert.equal(decide(S.RESPONSE_DELIVERY_FAILURE, { answers: 2 }, forGood, START)?.dueAt, null);
    assert.equal(decide(S.REQUEST_PENDING, {}, forNow, START), undefined);
    assert.equal(decide(S.RESPONSE_DELIVERED, {}, { type: 'answered', ok: true }, START), undefined);
  });

  it('completes a rejected credit REJECTED with its reasons once the answer is delivered; an approved credit and a lookup rest', () => {
    const delivered: InboundInput = { type: 'answered', ok: true };
    const rejected = { approved: false, reasonCode: 'AC04', reasonText: 'closed' };
    const word = { settled: false, reasonCode: 'AC04', reasonText: 'closed' };
    assert.deepEqual(decide(S.RESPONSE_DELIVERY_FAILURE, { verdict: rejected }, delivered, START), {
      steps: [{ state: S.RESPONSE_DELIVERED, payloadJson: null }, { state: COMPLETION.PENDING, payloadJson: null }],
      data: { mode: 'sync', deadlineAt: DEADLINE, verdict: rejected, final: word },
      dueAt: START + 60_000,
      commands: [],
      complete: word,
    });
    assert.deepEqual(decide(S.RESPONSE_PENDING, { verdict: { approved: false } }, delivered, START)?.complete, { settled: false });
    assert.deepEqual(decide(S.RESPONSE_PENDING, { verdict: { approved: false, reasonText: 'only text' } }, delivered, START)?.complete, { settled: false, reasonText: 'only text' });
    for (const [profile, verdict] of [[INBOUND_CREDIT_TRANSFER, { approved: true }], [INBOUND_IDENTIFIER_DETERMINATION, rejected]] as const) {
      const T = inboundStates(profile.prefix);
      assert.deepEqual(decide(T.RESPONSE_PENDING, { verdict }, delivered, START, profile), { steps: [{ state: T.RESPONSE_DELIVERED, payloadJson: null }], data: { mode: 'sync', deadlineAt: DEADLINE, verdict }, dueAt: null, commands: [] });
    }
  });

  it('takes the scheme’s final word on an approved credit once, while or after answering; refuses it otherwise, naming why', () => {
    const final: InboundInput = { type: 'final', word: { settled: false, reasonCode: 'AB05' }, payloadJson: '{"schema":"pacs.002"}' };
    for (const state of [S.RESPONSE_PENDING, S.RESPONSE_DELIVERY_FAILURE, S.RESPONSE_DELIVERED]) {
      assert.deepEqual(decide(state, { verdict: { approved: true } }, final, START), {
        steps: [{ state: COMPLETION.RECEIVED, payloadJson: '{"schema":"pacs.002"}' }, { state: COMPLETION.PENDING, payloadJson: null }],
        data: { mode: 'sync', deadlineAt: DEADLINE, verdict: { approved: true }, final: { settled: false, reasonCode: 'AB05' } },
        dueAt: START + 60_000,
        commands: [],
        complete: { settled: false, reasonCode: 'AB05' },
      });
    }
    const refused = (state: string, data: Partial<InboundData>, profile: InboundProfile = INBOUND_CREDIT_TRANSFER) => decide(state, data, final, START, profile)?.refused;
    assert.equal(refused(L.RESPONSE_DELIVERED, { verdict: { approved: true } }, INBOUND_IDENTIFIER_DETERMINATION), 'a final word on a lookup');
    assert.equal(refused(S.REQUEST_DELIVERED, {}), `a final word before the credit was answered (${S.REQUEST_DELIVERED})`);
    assert.equal(refused(S.RESPONSE_DELIVERED, { verdict: { approved: false } }), 'a final word on a credit the service rejected');
    assert.equal(refused(COMPLETION.PENDING, { verdict: { approved: true } }), `a second final word (${COMPLETION.PENDING})`);
  });

  it('sends the decided answer again when the scheme resends its message, keeping the timer; before a verdict it waits', () => {
    assert.deepEqual(decide(S.RESPONSE_DELIVERED, { verdict: { approved: true } }, { type: 'resend' }, START, INBOUND_CREDIT_TRANSFER, 42), {
      steps: [],
      data: { mode: 'sync', deadlineAt: DEADLINE, verdict: { approved: true } },
      dueAt: 42,
      commands: ['answer'],
    });
    assert.equal(decide(S.REQUEST_PENDING, {}, { type: 'resend' }, START), undefined);
  });

  it('marks the completion callback delivered once, records its first failure and checks it again later', () => {
    for (const state of [COMPLETION.PENDING, COMPLETION.DELIVERY_FAILURE]) {
      assert.deepEqual(decide(state, {}, { type: 'callback', delivered: true }, START), { steps: [{ state: COMPLETION.DELIVERED, payloadJson: null }], data: { mode: 'sync', deadlineAt: DEADLINE }, dueAt: null, commands: [] });
    }
    assert.deepEqual(decide(COMPLETION.PENDING, {}, { type: 'callback', delivered: false }, START), { steps: [{ state: COMPLETION.DELIVERY_FAILURE, payloadJson: null }], data: { mode: 'sync', deadlineAt: DEADLINE }, dueAt: START + 60_000, commands: [] });
    assert.equal(decide(COMPLETION.DELIVERY_FAILURE, {}, { type: 'callback', delivered: false }, START), undefined);
    assert.equal(decide(S.RESPONSE_DELIVERED, {}, { type: 'callback', delivered: true }, START), undefined);
  });
});
