import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { assertLegalTransition } from '../../src/domain/machines/machine.js';
import {
  decide,
  isFinal,
  REQUEST_TO_PAY_MACHINE,
  RTP,
  type CancellationAsked,
  type RtpData,
  type RtpEnv,
  type RtpInput,
  type RtpState,
  type RtpView,
} from '../../src/domain/machines/request-to-pay.js';

const EXPIRES_AT = 2_000_000;
const env = (now = 1_000_000): RtpEnv => ({ now, resendDelayMs: (n) => 1_000 * n });
const view = (state: RtpState, data: Partial<RtpData> = {}, dueAt: number | null = null): RtpView => ({ state, data: { expiresAt: EXPIRES_AT, ...data }, dueAt });
const states = (decision: ReturnType<typeof decide>) => decision.steps.map((step) => step.state);
const pushed = (decision: ReturnType<typeof decide>) => decision.pushes.map((push) => push.status);
const status = (value: 'PENDING' | 'PRESENTED' | 'ACCEPTED' | 'PAID' | 'REJECTED', reasonCode?: string): RtpInput => ({
  type: 'status',
  status: value,
  ...(reasonCode === undefined ? {} : { reasonCode }),
  payloadJson: '{"schema":"pain.014.001.09"}',
});
const cancellation = (messageId = 'CXL1'): CancellationAsked => ({ messageId, messageIdentifiers: { messageIdentification: messageId, creationDateTime: '2026-03-02T10:00:00Z' }, reasonCode: 'CUST' });
const cancelAnswer = (accepted: boolean): RtpInput => ({ type: 'cancellation_answer', accepted, ...(accepted ? {} : { reasonCode: 'ARDT' }) });

void describe('request-to-pay state machine', () => {
  void it('sends the request, reports PENDING once the scheme holds it, then every status change until PAID', () => {
    const accepted = decide(view(RTP.RECEIVED), { type: 'tick', supported: true }, env());
    assert.deepEqual(states(accepted), [RTP.ACCEPTED, RTP.REQUEST_PENDING]);
    assert.deepEqual(accepted.commands, ['request']);
    const held = decide(view(RTP.REQUEST_PENDING, accepted.data), { type: 'sent', what: 'request', ok: true }, env());
    assert.deepEqual(states(held), [RTP.REQUEST_DELIVERED, RTP.PENDING]);
    assert.deepEqual(pushed(held), ['PENDING']);
    assert.equal(held.dueAt, EXPIRES_AT, 'the expiry is the timer');
    const presented = decide(view(RTP.PENDING, held.data), status('PRESENTED'), env());
    const acceptedByPayer = decide(view(RTP.PRESENTED, presented.data), status('ACCEPTED'), env());
    const paid = decide(view(RTP.ACCEPTED_BY_PAYER, acceptedByPayer.data), status('PAID'), env());
    assert.deepEqual([...pushed(presented), ...pushed(acceptedByPayer), ...pushed(paid)], ['PRESENTED', 'ACCEPTED', 'PAID']);
    assert.equal(paid.dueAt, null, 'nothing is left to do once PAID');
  });

  void it('reports a rejection with its reason and nothing after it', () => {
    const rejected = decide(view(RTP.PRESENTED, { sent: true }), status('REJECTED', 'AM04'), env());
    assert.deepEqual(rejected.pushes, [{ status: 'REJECTED', reasonCode: 'AM04' }]);
    const later = decide(view(RTP.STATUS_REJECTED, rejected.data), status('PAID'), env());
    assert.deepEqual(states(later), []);
    assert.match(later.refused ?? '', /PAID reported after REJECTED/);
  });

  void it('expires a request not paid by its expiry and tells the scheme; a PAID report after that is refused, never reported', () => {
    const expired = decide(view(RTP.PRESENTED, { sent: true }, EXPIRES_AT), { type: 'tick' }, env(EXPIRES_AT));
    assert.deepEqual(states(expired), [RTP.EXPIRED]);
    assert.deepEqual(pushed(expired), ['EXPIRED']);
    assert.deepEqual(expired.commands, ['expire']);
    const paidLate = decide(view(RTP.EXPIRED, expired.data), status('PAID'), env(EXPIRES_AT + 1));
    assert.deepEqual(pushed(paidLate), []);
    assert.match(paidLate.refused ?? '', /PAID reported after EXPIRED/);
    const noticeTaken = decide(view(RTP.EXPIRED, expired.data), { type: 'sent', what: 'expire', ok: true }, env(EXPIRES_AT + 1));
    assert.equal(noticeTaken.dueAt, null);
  });

  void it('does not expire a request paid before its expiry', () => {
    const paid = decide(view(RTP.PRESENTED, { sent: true }), status('PAID'), env(EXPIRES_AT - 1));
    const tick = decide(view(RTP.PAID, paid.data), { type: 'tick' }, env(EXPIRES_AT + 10));
    assert.deepEqual(states(tick), []);
    assert.deepEqual(tick.commands, []);
  });

  void it('cancels through the scheme: ACCEPTED once the scheme withdraws it, the request CANCELLED', () => {
    const asked = decide(view(RTP.PRESENTED, { sent: true }), { type: 'cancel', cancellation: cancellation() }, env());
    assert.deepEqual(asked.commands, ['cancel']);
    assert.deepEqual(states(asked), []);
    const again = decide(view(RTP.PRESENTED, asked.data), { type: 'cancel', cancellation: cancellation() }, env());
    assert.deepEqual(again.commands, [], 'the same cancellation again changes nothing');
    const withdrawn = decide(view(RTP.PRESENTED, asked.data), cancelAnswer(true), env());
    assert.deepEqual(pushed(withdrawn), ['CANCELLED']);
    assert.equal(withdrawn.cancellationAnswers.length, 1);
    assert.equal(withdrawn.cancellationAnswers[0]?.accepted, true);
    assert.equal(withdrawn.cancellationAnswers[0]?.status, 'CANCELLED');
  });

  void it('decides a cancellation racing a PAID report once: the payment stands and the cancellation fails with status PAID', () => {
    const asked = decide(view(RTP.ACCEPTED_BY_PAYER, { sent: true }), { type: 'cancel', cancellation: cancellation() }, env());
    const paid = decide(view(RTP.ACCEPTED_BY_PAYER, asked.data), status('PAID'), env());
    assert.deepEqual(pushed(paid), ['PAID']);
    assert.deepEqual(
      paid.cancellationAnswers.map((answer) => [answer.accepted, answer.status]),
      [[false, 'PAID']],
    );
    const lateAnswer = decide(view(RTP.PAID, paid.data), cancelAnswer(true), env());
    assert.deepEqual(states(lateAnswer), []);
    assert.deepEqual(lateAnswer.cancellationAnswers, [], 'answered once');
  });

  void it('refuses a cancellation of a request that is already final, with its status', () => {
    for (const [state, expected] of [
      [RTP.PAID, 'PAID'],
      [RTP.STATUS_REJECTED, 'REJECTED'],
      [RTP.EXPIRED, 'EXPIRED'],
    ] as const) {
      const decision = decide(view(state), { type: 'cancel', cancellation: cancellation() }, env());
      assert.deepEqual(decision.commands, []);
      assert.deepEqual(
        decision.cancellationAnswers.map((answer) => [answer.accepted, answer.status]),
        [[false, expected]],
      );
    }
  });

  void it('withdraws a request cancelled before it was sent without the scheme, and answers ACCEPTED', () => {
    const asked = decide(view(RTP.RECEIVED, {}, 1_000_000), { type: 'cancel', cancellation: cancellation() }, env());
    assert.deepEqual(asked.commands, [], 'nothing goes to the scheme yet');
    assert.equal(asked.dueAt, 1_000_000, 'its first tick stays due');
    const withdrawn = decide(view(RTP.RECEIVED, asked.data), { type: 'tick', supported: true }, env());
    assert.deepEqual(states(withdrawn), [RTP.ACCEPTED, RTP.REQUEST_PENDING, RTP.CANCELLED]);
    assert.deepEqual(withdrawn.commands, []);
    assert.deepEqual(
      withdrawn.cancellationAnswers.map((answer) => [answer.accepted, answer.status]),
      [[true, 'CANCELLED']],
    );
  });

  void it('pushes the latest status again, with its reason, on a status request', () => {
    const rejected = decide(view(RTP.PRESENTED, { sent: true }), status('REJECTED', 'AM04'), env());
    const again = decide(view(RTP.STATUS_REJECTED, rejected.data), { type: 'status_request' }, env());
    assert.deepEqual(again.pushes, [{ status: 'REJECTED', reasonCode: 'AM04' }]);
    assert.deepEqual(states(again), []);
    assert.deepEqual(decide(view(RTP.REQUEST_PENDING, { sends: 1 }), { type: 'status_request' }, env()).pushes, [{ status: 'PENDING' }]);
  });

  void it('ignores a status going back without counting it as an illegal transition', () => {
    const back = decide(view(RTP.ACCEPTED_BY_PAYER, { sent: true }), status('PRESENTED'), env());
    assert.deepEqual(states(back), []);
    assert.equal(back.refused, undefined);
  });

  void it('treats a report that overtakes the transport acknowledgement as proof the scheme holds the request', () => {
    const decision = decide(view(RTP.REQUEST_PENDING, { sends: 1 }), status('PRESENTED'), env());
    assert.deepEqual(states(decision), [RTP.REQUEST_DELIVERED, RTP.PENDING, RTP.PRESENTED]);
    assert.deepEqual(pushed(decision), ['PENDING', 'PRESENTED']);
  });

  void it('never takes an illegal transition, pushes one status per status state entered, ends final at most once and answers every cancellation once', () => {
    const input = fc.oneof(
      fc.constant<RtpInput>({ type: 'tick' }),
      fc.constantFrom<RtpInput>({ type: 'sent', what: 'request', ok: true }, { type: 'sent', what: 'cancel', ok: true }, { type: 'sent', what: 'expire', ok: true }),
      fc.record({ retryable: fc.boolean(), what: fc.constantFrom('request' as const, 'cancel' as const) }).map((r): RtpInput => ({ type: 'sent', ok: false, error: 'boom', ...r })),
      fc.constantFrom(status('PENDING'), status('PRESENTED'), status('ACCEPTED'), status('PAID'), status('REJECTED', 'AC04')),
      fc.constantFrom(cancelAnswer(true), cancelAnswer(false)),
      fc.constantFrom('C1', 'C2').map((id): RtpInput => ({ type: 'cancel', cancellation: cancellation(id) })),
      fc.constant<RtpInput>({ type: 'status_request' }),
    );
    fc.assert(
      fc.property(fc.boolean(), fc.array(fc.tuple(input, fc.integer({ min: 0, max: 300_000 })), { maxLength: 40 }), (cancelFirst, inputs) => {
        let now = 1_000_000;
        let current = view(RTP.RECEIVED);
        let finals = 0;
        const asked = new Set<string>();
        const answered: string[] = [];
        let next: string = 'tick';
        const apply = (decision: ReturnType<typeof decide>): void => {
          let from: string = current.state;
          for (const step of decision.steps) {
            assertLegalTransition(REQUEST_TO_PAY_MACHINE, from, step.state);
            from = step.state;
          }
          const statusStates = decision.steps.filter((step) => step.state.startsWith('REQUEST_TO_PAY_STATUS_')).map((step) => step.state.slice('REQUEST_TO_PAY_STATUS_'.length));
          if (next !== 'status_request') assert.deepEqual(pushed(decision), statusStates, 'one push per status state, in order');
          finals += decision.steps.filter((step) => isFinal(step.state)).length;
          answered.push(...decision.cancellationAnswers.map((answer) => answer.messageId));
          current = view(decision.steps.at(-1)?.state ?? current.state, decision.data, decision.dueAt);
        };
        if (cancelFirst) {
          asked.add('C0');
          apply(decide(current, { type: 'cancel', cancellation: cancellation('C0') }, env(now)));
        }
        apply(decide(current, { type: 'tick', supported: true }, env(now)));
        for (const [input, advanceMs] of inputs) {
          now += advanceMs;
          next = input.type;
          if (input.type === 'cancel') asked.add(input.cancellation.messageId);
          apply(decide(current, input, env(now)));
        }
        next = 'tick';
        // Past the expiry a tick always ends it, and every cancellation asked has its answer.
        apply(decide(current, { type: 'tick' }, env(Math.max(now, EXPIRES_AT))));
        assert.ok(isFinal(current.state), `final after expiry, not ${current.state}`);
        assert.equal(finals, 1, 'one final status');
        assert.deepEqual([...new Set(answered)].sort(), [...asked].sort(), 'every cancellation answered');
        assert.equal(answered.length, new Set(answered).size, 'each once');
      }),
      { numRuns: 500 },
    );
  });
});
