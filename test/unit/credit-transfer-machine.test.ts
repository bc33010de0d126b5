import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { assertTransition, CREDIT_TRANSFER_MACHINE, CT, decide, isCtState, type CtData, type CtEnv, type CtInput, type CtState, type CtView } from '../../src/domain/machines/credit-transfer.js';

const env = (now = 1_000_000): CtEnv => ({
  now,
  timeBudgetMs: 10_000,
  resubmitDelayMs: (n) => 1_000 * n,
  enquiryDelayMs: (n) => 5_000 * n,
  callbackCheckMs: 60_000,
});
const view = (state: CtState, data: CtData = {}, dueAt: number | null = null): CtView => ({ state, data, dueAt });
const states = (decision: ReturnType<typeof decide>) => decision.steps.map((step) => step.state);
const answer = (status: 'ACCEPTED' | 'REJECTED' | 'PENDING', reasonCode?: string): CtInput => ({
  type: 'scheme',
  answer: { kind: 'status', status, ...(reasonCode === undefined ? {} : { reasonCode }), payloadJson: '{"schema":"pacs.002"}' },
});

describe('credit-transfer state machine', () => {
  it('accepts a transfer that passes the scheme rules, enters REQUEST_PENDING and submits it with a deadline', () => {
    const decision = decide(view(CT.RECEIVED), { type: 'tick', rules: { ok: true } }, env());
    assert.deepEqual(states(decision), [CT.ACCEPTED, CT.REQUEST_PENDING]);
    assert.deepEqual(decision.commands, ['submit']);
    assert.equal(decision.data.deadlineAt, 1_000_000 + 10_000);
    assert.equal(decision.callback, undefined);
  });

  it('rejects a transfer that breaks a scheme rule with its reason code, without contacting the scheme', () => {
    const decision = decide(view(CT.RECEIVED), { type: 'tick', rules: { ok: false, reasonCode: 'AM02', reasonText: 'above R50000.00' } }, env());
    assert.deepEqual(states(decision), [CT.REJECTED, CT.RESPONSE_PENDING]);
    assert.deepEqual(decision.commands, []);
    assert.deepEqual(decision.callback, { outcome: 'REJECTED', reasonCode: 'AM02', reasonText: 'above R50000.00' });
  });

  it('walks the whole success path through the eight states of CONTRACT §4', () => {
    const received = decide(view(CT.RECEIVED), { type: 'tick', rules: { ok: true } }, env());
    const delivered = decide(view(CT.REQUEST_PENDING, received.data), { type: 'sent', what: 'submit', ok: true }, env());
    const verdict = decide(view(CT.REQUEST_DELIVERED, delivered.data), answer('ACCEPTED'), env());
    const acknowledged = decide(view(CT.RESPONSE_PENDING, verdict.data), { type: 'callback', delivered: true }, env());
    assert.deepEqual(
      [CT.RECEIVED, ...states(received), ...states(delivered), ...states(verdict), ...states(acknowledged)],
      [CT.RECEIVED, CT.ACCEPTED, CT.REQUEST_PENDING, CT.REQUEST_DELIVERED, CT.RESPONSE_RECEIVED, CT.RESPONSE_ACCEPTED, CT.RESPONSE_PENDING, CT.RESPONSE_DELIVERED],
    );
    assert.deepEqual(verdict.callback, { outcome: 'APPROVED' });
  });

  it('enters REQUEST_DELIVERED first when the verdict overtakes the transport acknowledgement', () => {
    const decision = decide(view(CT.REQUEST_PENDING, { deadlineAt: 2_000_000 }), answer('REJECTED', 'AC01'), env());
    assert.deepEqual(states(decision), [CT.REQUEST_DELIVERED, CT.RESPONSE_RECEIVED, CT.RESPONSE_ACCEPTED, CT.RESPONSE_PENDING]);
    assert.deepEqual(decision.callback, { outcome: 'REJECTED', reasonCode: 'AC01' });
    assert.deepEqual(states(decide(view(CT.RESPONSE_PENDING, decision.data), { type: 'sent', what: 'submit', ok: true }, env())), []);
  });

  it('times out when the budget is spent without a verdict, then enquires with growing delays and never guesses', () => {
    const data = { submissions: 1, deadlineAt: 1_000_000 };
    const timeout = decide(view(CT.REQUEST_DELIVERED, data), { type: 'tick' }, env());
    assert.deepEqual(states(timeout), [CT.TIMEOUT]);
    assert.deepEqual(timeout.commands, ['enquire']);
    assert.equal(timeout.callback, undefined);
    const again = decide(view(CT.TIMEOUT, timeout.data), { type: 'tick' }, env(1_005_000));
    assert.deepEqual(states(again), []);
    assert.deepEqual(again.commands, ['enquire']);
    assert.ok(again.dueAt! - 1_005_000 > timeout.dueAt! - 1_000_000, 'the enquiry delay grows');
    const pending = decide(view(CT.TIMEOUT, again.data), answer('PENDING'), env());
    assert.deepEqual(states(pending), []);
    assert.equal(pending.callback, undefined);
  });

  it('reports the verdict of a late answer after the timeout', () => {
    const decision = decide(view(CT.TIMEOUT, { deadlineAt: 1 }), answer('ACCEPTED'), env());
    assert.deepEqual(states(decision), [CT.RESPONSE_RECEIVED, CT.RESPONSE_ACCEPTED, CT.RESPONSE_PENDING]);
    assert.deepEqual(decision.callback, { outcome: 'APPROVED' });
  });

  it('ignores a second verdict once the first one was taken', () => {
    for (const state of [CT.RESPONSE_PENDING, CT.RESPONSE_DELIVERY_FAILURE, CT.RESPONSE_DELIVERED] as const) {
      const decision = decide(view(state, { verdict: { outcome: 'APPROVED' } }), answer('REJECTED', 'AC04'), env());
      assert.deepEqual(states(decision), []);
      assert.equal(decision.callback, undefined);
    }
  });

  it('resubmits with the same key when the scheme says it never received the transfer', () => {
    const decision = decide(view(CT.TIMEOUT, { submissions: 1, enquiries: 1 }), { type: 'scheme', answer: { kind: 'not_found', status: 'PENDING', payloadJson: '{}' } }, env());
    assert.deepEqual(states(decision), []);
    assert.deepEqual(decision.commands, ['submit']);
    assert.equal(decision.data.submissions, 2);
  });

  it('retries a submission that failed technically until the deadline', () => {
    const failed = decide(view(CT.REQUEST_PENDING, { submissions: 1, deadlineAt: 1_010_000 }), { type: 'sent', what: 'submit', ok: false, retryable: true, error: 'ECONNRESET' }, env());
    assert.deepEqual(states(failed), [CT.REQUEST_DELIVERY_FAILURE]);
    const retry = decide(view(CT.REQUEST_DELIVERY_FAILURE, failed.data), { type: 'tick' }, env(1_002_000));
    assert.deepEqual(retry.commands, ['submit']);
    const delivered = decide(view(CT.REQUEST_DELIVERY_FAILURE, retry.data), { type: 'sent', what: 'submit', ok: true }, env());
    assert.deepEqual(states(delivered), [CT.REQUEST_DELIVERED]);
  });

  it('moves to RESPONSE_DELIVERY_FAILURE once on a failed callback and to RESPONSE_DELIVERED on its acknowledgement', () => {
    const failed = decide(view(CT.RESPONSE_PENDING), { type: 'callback', delivered: false }, env());
    assert.deepEqual(states(failed), [CT.RESPONSE_DELIVERY_FAILURE]);
    assert.deepEqual(states(decide(view(CT.RESPONSE_DELIVERY_FAILURE), { type: 'callback', delivered: false }, env())), []);
    assert.deepEqual(states(decide(view(CT.RESPONSE_DELIVERY_FAILURE), { type: 'callback', delivered: true }, env())), [CT.RESPONSE_DELIVERED]);
  });

  it('keeps the timer of a waiting transfer when an input changes nothing', () => {
    const waiting = view(CT.REQUEST_DELIVERED, { deadlineAt: 1_010_000 }, 1_010_000);
    const decision = decide(waiting, { type: 'sent', what: 'enquire', ok: true }, env());
    assert.deepEqual(states(decision), []);
    assert.equal(decision.dueAt, 1_010_000);
  });

  it('keeps checking an undelivered outcome callback until it is acknowledged', () => {
    const pending = decide(view(CT.RESPONSE_PENDING), { type: 'tick' }, env());
    assert.equal(pending.dueAt, 1_000_000 + 60_000);
    const delivered = decide(view(CT.RESPONSE_PENDING), { type: 'callback', delivered: true }, env());
    assert.equal(delivered.dueAt, null);
  });

  it('refuses an illegal transition as a bug', () => {
    assert.throws(() => assertTransition(CT.RECEIVED, CT.RESPONSE_DELIVERED), /illegal credit-transfer transition/);
  });

  it('never takes an illegal transition, gives at most one verdict, and approves only on a scheme acceptance, whatever the inputs', () => {
    const input = fc.oneof(
      fc.constant<CtInput>({ type: 'tick' }),
      fc.constantFrom<CtInput>({ type: 'sent', what: 'submit', ok: true }, { type: 'sent', what: 'enquire', ok: true }),
      fc.record({ retryable: fc.boolean(), what: fc.constantFrom('submit' as const, 'enquire' as const) }).map((r): CtInput => ({ type: 'sent', ok: false, error: 'boom', ...r })),
      fc.constantFrom<CtInput>(answer('ACCEPTED'), answer('REJECTED', 'AC06'), answer('PENDING'), { type: 'scheme', answer: { kind: 'not_found', status: 'PENDING', payloadJson: '{}' } }),
      fc.boolean().map((delivered): CtInput => ({ type: 'callback', delivered })),
    );
    fc.assert(
      fc.property(fc.boolean(), fc.array(fc.tuple(input, fc.integer({ min: 0, max: 20_000 })), { maxLength: 30 }), (rulesOk, inputs) => {
        let now = 1_000_000;
        let current: CtView = view(CT.RECEIVED);
        const first = decide(current, { type: 'tick', rules: rulesOk ? { ok: true } : { ok: false, reasonCode: 'AM02', reasonText: 'limit' } }, env(now));
        let verdicts = first.callback === undefined ? 0 : 1;
        let acceptedByScheme = false;
        const apply = (decision: ReturnType<typeof decide>): void => {
          let from: string = current.state;
          for (const step of decision.steps) {
            assertTransition(from, step.state);
            from = step.state;
          }
          current = view(decision.steps.at(-1)?.state ?? current.state, decision.data, decision.dueAt);
        };
        apply(first);
        for (const [next, advanceMs] of inputs) {
          now += advanceMs;
          if (next.type === 'tick' && [CT.ACCEPTED, CT.REJECTED, CT.RESPONSE_RECEIVED, CT.RESPONSE_ACCEPTED].includes(current.state as never)) continue;
          if (next.type === 'scheme' && next.answer.status === 'ACCEPTED' && next.answer.kind === 'status') acceptedByScheme = true;
          const decision = decide(current, next, env(now));
          if (decision.callback !== undefined) {
            verdicts += 1;
            if (decision.callback.outcome === 'APPROVED') assert.ok(acceptedByScheme, 'approved only after the scheme accepted');
          }
          apply(decision);
        }
        assert.ok(verdicts <= 1, 'at most one verdict');
      }),
      { numRuns: 500 },
    );
  });
});

/** Whole decisions, so that every field of what the machine decides is shown (mutation testing found each one unasserted). */
describe('credit-transfer state machine, each decision in full', () => {
  const NOW = 1_000_000;
  const DUE = 1_234;
  const DEADLINE = NOW + 4_000;
  const same = (data: CtData, dueAt: number | null = DUE, commands: string[] = []) => ({ steps: [], data, dueAt, commands });
  const failed = (what: 'submit' | 'enquire', retryable: boolean): CtInput => ({ type: 'sent', what, ok: false, retryable, error: 'connection reset' });

  it('is the credit-transfer machine of its states, and RESPONSE_DELIVERED leads nowhere', () => {
    assert.equal(CREDIT_TRANSFER_MACHINE.kind, 'CREDIT_TRANSFER');
    assert.deepEqual(CREDIT_TRANSFER_MACHINE.transitions[CT.RESPONSE_DELIVERED], []);
    assert.equal(isCtState(CT.RECEIVED), true);
    assert.equal(isCtState('REQUEST_TO_PAY_STATUS_PAID'), false);
  });

  it('starts only once the scheme rules were checked, and records a rule refusal as the verdict', () => {
    assert.throws(() => decide(view(CT.RECEIVED), { type: 'tick' }, env(NOW)), /scheme rules must be checked for a RECEIVED transfer/);
    const verdict = { outcome: 'REJECTED' as const, reasonCode: 'AM02', reasonText: 'above R50000.00' };
    assert.deepEqual(decide(view(CT.RECEIVED, { callbackId: 'c' }), { type: 'tick', rules: { ok: false, reasonCode: 'AM02', reasonText: 'above R50000.00' } }, env(NOW)), {
      steps: [
        { state: CT.REJECTED, payloadJson: '{"schema":"SchemeRuleViolation","reasonCode":"AM02","reasonText":"above R50000.00"}' },
        { state: CT.RESPONSE_PENDING, payloadJson: null },
      ],
      data: { callbackId: 'c', verdict },
      dueAt: NOW + 60_000,
      callback: verdict,
      commands: [],
    });
    assert.deepEqual(decide(view(CT.RECEIVED, { callbackId: 'c' }), { type: 'tick', rules: { ok: true } }, env(NOW)), {
      steps: [
        { state: CT.ACCEPTED, payloadJson: null },
        { state: CT.REQUEST_PENDING, payloadJson: null },
      ],
      data: { callbackId: 'c', submissions: 1, deadlineAt: NOW + 10_000 },
      dueAt: NOW + 1_000,
      commands: ['submit'],
    });
  });

  it('resubmits before the deadline with growing delays, no later than the deadline, and waits for a delivered one', () => {
    assert.deepEqual(decide(view(CT.REQUEST_PENDING, { submissions: 2, deadlineAt: DEADLINE }, DUE), { type: 'tick' }, env(NOW)), same({ submissions: 3, deadlineAt: DEADLINE }, NOW + 3_000, ['submit']));
    assert.deepEqual(decide(view(CT.REQUEST_DELIVERY_FAILURE, { deadlineAt: DEADLINE }, DUE), { type: 'tick' }, env(NOW)), same({ submissions: 2, deadlineAt: DEADLINE }, NOW + 2_000, ['submit']), 'no count yet');
    assert.deepEqual(decide(view(CT.REQUEST_PENDING, { submissions: 5, deadlineAt: DEADLINE }, DUE), { type: 'tick' }, env(NOW)), same({ submissions: 6, deadlineAt: DEADLINE }, DEADLINE, ['submit']), 'the deadline first');
    assert.deepEqual(decide(view(CT.REQUEST_DELIVERED, { submissions: 1, deadlineAt: DEADLINE }, DUE), { type: 'tick' }, env(NOW)), same({ submissions: 1, deadlineAt: DEADLINE }, DEADLINE));
  });

  it('times out at the deadline (at once without one), then enquires with growing delays', () => {
    const timedOut = (data: CtData, enquiries: number) => ({
      steps: [{ state: CT.TIMEOUT, payloadJson: '{"schema":"SchemeTimeout","timeBudgetMs":10000}' }],
      data: { ...data, enquiries },
      dueAt: NOW + 5_000 * enquiries,
      commands: ['enquire'],
    });
    assert.deepEqual(decide(view(CT.REQUEST_DELIVERED, { deadlineAt: NOW, enquiries: 2 }, DUE), { type: 'tick' }, env(NOW)), timedOut({ deadlineAt: NOW }, 3));
    assert.deepEqual(decide(view(CT.REQUEST_PENDING, {}, DUE), { type: 'tick' }, env(NOW)), timedOut({}, 1));
    assert.deepEqual(decide(view(CT.TIMEOUT, { enquiries: 2 }, DUE), { type: 'tick' }, env(NOW)), same({ enquiries: 3 }, NOW + 15_000, ['enquire']));
    assert.deepEqual(decide(view(CT.TIMEOUT, {}, DUE), { type: 'tick' }, env(NOW)), same({ enquiries: 1 }, NOW + 5_000, ['enquire']));
  });

  it('never rests in a transient state, and checks an undelivered callback again later', () => {
    for (const state of [CT.ACCEPTED, CT.REJECTED, CT.RESPONSE_RECEIVED, CT.RESPONSE_ACCEPTED]) assert.throws(() => decide(view(state), { type: 'tick' }, env(NOW)), new RegExp(`a transfer never rests in ${state}`));
    for (const state of [CT.RESPONSE_PENDING, CT.RESPONSE_DELIVERY_FAILURE]) assert.deepEqual(decide(view(state, { submissions: 1 }, DUE), { type: 'tick' }, env(NOW)), same({ submissions: 1 }, NOW + 60_000), state);
    assert.deepEqual(decide(view(CT.RESPONSE_PENDING, { submissions: 1 }, DUE), { type: 'callback', delivered: false }, env(NOW)), {
      ...same({ submissions: 1 }, NOW + 60_000),
      steps: [{ state: CT.RESPONSE_DELIVERY_FAILURE, payloadJson: null }],
    });
    assert.deepEqual(decide(view(CT.RESPONSE_PENDING, { submissions: 1 }, DUE), { type: 'callback', delivered: true }, env(NOW)), { ...same({ submissions: 1 }, null), steps: [{ state: CT.RESPONSE_DELIVERED, payloadJson: null }] });
    assert.deepEqual(decide(view(CT.RESPONSE_DELIVERY_FAILURE, { submissions: 1 }, DUE), { type: 'callback', delivered: true }, env(NOW)), { ...same({ submissions: 1 }, null), steps: [{ state: CT.RESPONSE_DELIVERED, payloadJson: null }] });
  });

  it('declines a transfer the transport refuses for good, AB10, retries one it refuses for now, and leaves a failed enquiry to its timer', () => {
    const data = { submissions: 2, deadlineAt: DEADLINE };
    const failure = '{"schema":"SchemeTransportFailure","error":"connection reset"}';
    const verdict = { outcome: 'REJECTED' as const, reasonCode: 'AB10', reasonText: 'connection reset' };
    assert.deepEqual(decide(view(CT.REQUEST_PENDING, data, DUE), failed('submit', false), env(NOW)), {
      steps: [
        { state: CT.REQUEST_DELIVERY_FAILURE, payloadJson: failure },
        { state: CT.RESPONSE_RECEIVED, payloadJson: failure },
        { state: CT.RESPONSE_ACCEPTED, payloadJson: failure },
        { state: CT.RESPONSE_PENDING, payloadJson: null },
      ],
      data: { ...data, verdict },
      dueAt: NOW + 60_000,
      callback: verdict,
      commands: [],
    });
    assert.deepEqual(decide(view(CT.REQUEST_PENDING, data, DUE), failed('submit', true), env(NOW)), { ...same(data, NOW + 3_000), steps: [{ state: CT.REQUEST_DELIVERY_FAILURE, payloadJson: failure }] });
    assert.deepEqual(decide(view(CT.REQUEST_PENDING, { deadlineAt: DEADLINE }, DUE), failed('submit', true), env(NOW)), { ...same({ deadlineAt: DEADLINE }, NOW + 2_000), steps: [{ state: CT.REQUEST_DELIVERY_FAILURE, payloadJson: failure }] });
    assert.deepEqual(decide(view(CT.REQUEST_PENDING, { submissions: 9, deadlineAt: DEADLINE }, DUE), failed('submit', true), env(NOW)).dueAt, DEADLINE);
    assert.deepEqual(decide(view(CT.TIMEOUT, data, DUE), failed('enquire', false), env(NOW)), same(data));
    assert.deepEqual(decide(view(CT.TIMEOUT, data, DUE), { type: 'sent', what: 'enquire', ok: true }, env(NOW)), same(data));
    assert.deepEqual(decide(view(CT.REQUEST_PENDING, data, DUE), { type: 'sent', what: 'enquire', ok: true }, env(NOW)), same(data), 'an enquiry taken says nothing of the transfer');
    assert.deepEqual(decide(view(CT.REQUEST_PENDING, data, DUE), { type: 'sent', what: 'submit', ok: true }, env(NOW)), { ...same(data, DEADLINE), steps: [{ state: CT.REQUEST_DELIVERED, payloadJson: null }] });
  });

  it('resubmits when the scheme never got the transfer, waits on PENDING, and passes on the reasons of a rejection', () => {
    const notFound: CtInput = { type: 'scheme', answer: { kind: 'not_found', status: 'PENDING', payloadJson: '{}' } };
    assert.deepEqual(decide(view(CT.TIMEOUT, { submissions: 2, enquiries: 1 }, DUE), notFound, env(NOW)), same({ submissions: 3, enquiries: 1 }, NOW + 10_000, ['submit']));
    assert.deepEqual(decide(view(CT.TIMEOUT, {}, DUE), notFound, env(NOW)), same({ submissions: 2 }, NOW + 5_000, ['submit']));
    assert.deepEqual(decide(view(CT.TIMEOUT, { deadlineAt: NOW }, DUE), answer('PENDING'), env(NOW + 1)), same({ deadlineAt: NOW }), 'enquiring: its timer stays');
    assert.deepEqual(decide(view(CT.REQUEST_DELIVERED, { deadlineAt: DEADLINE }, DUE), answer('PENDING'), env(NOW)), same({ deadlineAt: DEADLINE }, DEADLINE));
    assert.deepEqual(decide(view(CT.REQUEST_DELIVERED, {}, DUE), answer('PENDING'), env(NOW)), same({}, NOW));
    const withText: CtInput = { type: 'scheme', answer: { kind: 'status', status: 'REJECTED', reasonText: 'Closed account', payloadJson: '{}' } };
    assert.deepEqual(decide(view(CT.REQUEST_DELIVERED, {}, DUE), withText, env(NOW)).callback, { outcome: 'REJECTED', reasonText: 'Closed account' });
  });
});
