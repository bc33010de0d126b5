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
