import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { assertLegalTransition } from '../../src/domain/machines/machine.js';
import { machineOf } from '../../src/domain/machines/registry.js';
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

  void it('holds a cancellation asked while the request is being resent until the scheme takes the request, then sends its camt.056', () => {
    const failing = decide(view(RTP.REQUEST_PENDING, { sends: 1 }), { type: 'sent', what: 'request', ok: false, retryable: true, error: 'connection refused' }, env());
    assert.deepEqual(states(failing), [RTP.REQUEST_DELIVERY_FAILURE]);
    const asked = decide(view(RTP.REQUEST_DELIVERY_FAILURE, failing.data, failing.dueAt), { type: 'cancel', cancellation: cancellation() }, env());
    assert.deepEqual(asked.commands, [], 'no camt.056 for a pain.013 the scheme may not know');
    assert.deepEqual([states(asked), asked.cancellationAnswers], [[], []], 'not withdrawn here: the failed send may have reached the scheme');
    assert.equal(asked.dueAt, failing.dueAt, 'the resend timer stands');
    const resent = decide(view(RTP.REQUEST_DELIVERY_FAILURE, asked.data, asked.dueAt), { type: 'tick' }, env(1_003_000));
    assert.deepEqual(resent.commands, ['request'], 'the pain.013 again, the camt.056 still held');
    const taken = decide(view(RTP.REQUEST_DELIVERY_FAILURE, resent.data, resent.dueAt), { type: 'sent', what: 'request', ok: true }, env(1_003_100));
    assert.deepEqual(states(taken), [RTP.REQUEST_DELIVERED, RTP.PENDING]);
    assert.deepEqual(taken.commands, ['cancel'], 'the camt.056 goes once the scheme holds the request');
    assert.ok(taken.dueAt !== null && taken.dueAt < EXPIRES_AT, 'its resend timer is set');
    const withdrawn = decide(view(RTP.PENDING, taken.data, taken.dueAt), cancelAnswer(true), env(1_003_200));
    assert.deepEqual(pushed(withdrawn), ['CANCELLED']);
    assert.deepEqual(
      withdrawn.cancellationAnswers.map((answer) => [answer.accepted, answer.status]),
      [[true, 'CANCELLED']],
    );
  });

  void it('sends a held cancellation once a report shows the scheme holds the request, before the transport answered', () => {
    const asked = decide(view(RTP.REQUEST_PENDING, { sends: 1 }), { type: 'cancel', cancellation: cancellation() }, env());
    assert.deepEqual(asked.commands, [], 'the first send still in flight');
    const reported = decide(view(RTP.REQUEST_PENDING, asked.data), status('PRESENTED'), env());
    assert.deepEqual(states(reported), [RTP.REQUEST_DELIVERED, RTP.PENDING, RTP.PRESENTED]);
    assert.deepEqual(reported.commands, ['cancel']);
    const pendingReport = decide(view(RTP.REQUEST_DELIVERY_FAILURE, asked.data), status('PENDING'), env());
    assert.deepEqual(pendingReport.commands, ['cancel'], 'a PENDING report too');
  });

  void it('answers a held cancellation when the request ends before the scheme takes it', () => {
    const held = decide(view(RTP.REQUEST_DELIVERY_FAILURE, { sends: 2 }), { type: 'cancel', cancellation: cancellation() }, env()).data;
    const refused = decide(view(RTP.REQUEST_DELIVERY_FAILURE, held), { type: 'sent', what: 'request', ok: false, retryable: false, error: 'refused' }, env());
    assert.deepEqual(pushed(refused), ['REJECTED']);
    assert.deepEqual(refused.commands, []);
    assert.deepEqual(
      refused.cancellationAnswers.map((answer) => [answer.accepted, answer.reasonCode, answer.status]),
      [[false, 'ARJT', 'REJECTED']],
    );
    const expired = decide(view(RTP.REQUEST_DELIVERY_FAILURE, held), { type: 'tick' }, env(EXPIRES_AT));
    assert.deepEqual(pushed(expired), ['EXPIRED']);
    assert.deepEqual(expired.commands, ['expire'], 'the expiry notice, no camt.056 of the cancellation');
    assert.deepEqual(
      expired.cancellationAnswers.map((answer) => [answer.accepted, answer.reasonCode, answer.status]),
      [[false, 'NARR', 'EXPIRED']],
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

  void it('never takes an illegal transition, pushes one status per status state entered, ends final at most once, answers every cancellation once and sends no camt.056 before the scheme holds the request', () => {
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
        /** The transport took the pain.013, or the scheme reported on it. */
        let taken = false;
        const apply = (decision: ReturnType<typeof decide>): void => {
          if (decision.commands.includes('cancel')) assert.ok(taken, 'no camt.056 before the scheme holds the request');
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
          if (input.type === 'status' || (input.type === 'sent' && input.what === 'request' && input.ok)) taken = true;
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

/** Whole decisions, so that every field of what the machine decides is shown (mutation testing found each one unasserted). */
void describe('request-to-pay state machine, each decision in full', () => {
  const NOW = 1_000_000;
  const DUE = 1_234;
  const nothing = (data: Partial<RtpData> = {}, dueAt: number | null = DUE) => ({ steps: [], data: { expiresAt: EXPIRES_AT, ...data }, dueAt, pushes: [], cancellationAnswers: [], commands: [] });
  const traced = { ...cancellation('CXL9'), trace: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' } };

  void it('is the request-to-pay machine, and its final states lead nowhere', () => {
    assert.equal(REQUEST_TO_PAY_MACHINE.kind, 'REQUEST_TO_PAY');
    assert.equal(machineOf('REQUEST_TO_PAY'), REQUEST_TO_PAY_MACHINE);
    for (const unknown of ['REQUEST_TO_PAY_STATUS_UNKNOWN', 'constructor']) {
      assert.throws(() => assertLegalTransition(REQUEST_TO_PAY_MACHINE, unknown, RTP.PAID), new RegExp(`^AssertionError: illegal request-to-pay transition ${unknown} -> `), `from ${unknown}`);
      assert.throws(() => assertLegalTransition(REQUEST_TO_PAY_MACHINE, RTP.PENDING, unknown), /^AssertionError: illegal request-to-pay transition/, `to ${unknown}`);
    }
    assert.throws(() => assertLegalTransition(REQUEST_TO_PAY_MACHINE, RTP.PAID, RTP.PENDING), /^AssertionError: illegal request-to-pay transition/);
    for (const state of [RTP.PAID, RTP.STATUS_REJECTED, RTP.EXPIRED, RTP.CANCELLED]) assert.deepEqual(REQUEST_TO_PAY_MACHINE.transitions[state], [], state);
  });

  void it('refuses a request the scheme connector cannot carry, as REJECTED AG03, and must be told whether it can', () => {
    const push = { status: 'REJECTED' as const, reasonCode: 'AG03', reasonText: 'Transaction type not supported' };
    const refused = decide(view(RTP.RECEIVED, {}, DUE), { type: 'tick', supported: false }, env(NOW));
    assert.deepEqual(refused, {
      steps: [
        { state: RTP.REJECTED, payloadJson: '{"schema":"SchemeCapability","error":"the scheme connector does not carry request-to-pay"}' },
        { state: RTP.STATUS_REJECTED, payloadJson: null },
      ],
      data: { expiresAt: EXPIRES_AT, pushed: push },
      dueAt: null,
      pushes: [push],
      cancellationAnswers: [],
      commands: [],
    });
    assertLegalTransition(REQUEST_TO_PAY_MACHINE, RTP.RECEIVED, RTP.REJECTED);
    assertLegalTransition(REQUEST_TO_PAY_MACHINE, RTP.REJECTED, RTP.STATUS_REJECTED);
    assert.throws(() => decide(view(RTP.RECEIVED), { type: 'tick' }, env(NOW)), /the connector capability must be given for a RECEIVED request-to-pay/);
    assert.deepEqual(decide(view(RTP.RECEIVED, {}, DUE), { type: 'tick', supported: true }, env(NOW)), {
      ...nothing({ sends: 1 }, NOW + 2_000),
      steps: [
        { state: RTP.ACCEPTED, payloadJson: null },
        { state: RTP.REQUEST_PENDING, payloadJson: null },
      ],
      commands: ['request'],
    });
  });

  void it('sends the request again at each tick until the transport takes it, sooner than the expiry, counting the sends', () => {
    for (const state of [RTP.REQUEST_PENDING, RTP.REQUEST_DELIVERY_FAILURE]) {
      assert.deepEqual(decide(view(state, { sends: 3 }, DUE), { type: 'tick' }, env(NOW)), { ...nothing({ sends: 4 }, NOW + 5_000), commands: ['request'] }, state);
      assert.deepEqual(decide(view(state, {}, DUE), { type: 'tick' }, env(NOW)), { ...nothing({ sends: 2 }, NOW + 3_000), commands: ['request'] }, `${state}, no count yet`);
      assert.deepEqual(decide(view(state, { sends: 3 }, DUE), { type: 'tick' }, env(EXPIRES_AT - 500)), { ...nothing({ sends: 4 }, EXPIRES_AT), commands: ['request'] }, 'the expiry comes first');
      assert.deepEqual(decide(view(state, { sends: 3, sent: true }, DUE), { type: 'tick' }, env(NOW)), nothing({ sends: 3, sent: true }, EXPIRES_AT), 'taken: not sent again');
    }
    assert.deepEqual(decide(view(RTP.PRESENTED, { sends: 3 }, DUE), { type: 'tick' }, env(NOW)), nothing({ sends: 3 }, EXPIRES_AT), 'once the scheme reports, the request is held');
    assert.throws(() => decide(view(RTP.REJECTED), { type: 'tick' }, env(NOW)), /a request-to-pay never rests in REQUEST_TO_PAY_REQUEST_REJECTED/);
  });

  void it('sends the cancellation again at each tick until the transport takes it', () => {
    assert.deepEqual(decide(view(RTP.PRESENTED, { sends: 1, sent: true, cancelling: traced, cancelSent: false }, DUE), { type: 'tick' }, env(NOW)), {
      ...nothing({ sends: 1, sent: true, cancelling: traced, cancelSent: false }, NOW + 2_000),
      commands: ['cancel'],
    });
    assert.deepEqual(decide(view(RTP.PRESENTED, { sent: true, cancelling: traced, cancelSent: true }, DUE), { type: 'tick' }, env(NOW)), nothing({ sent: true, cancelling: traced, cancelSent: true }, EXPIRES_AT));
    const asked = decide(view(RTP.PRESENTED, { sends: 2, sent: true }, DUE), { type: 'cancel', cancellation: traced }, env(NOW));
    assert.deepEqual(asked, { ...nothing({ sends: 2, sent: true, cancelling: traced, cancelSent: false }, NOW + 3_000), commands: ['cancel'] });
  });

  void it('holds the cancellation while the request is not yet taken, resending only the request, and sends it with the PENDING the take brings', () => {
    const held = { sends: 2, cancelling: traced, cancelSent: false };
    for (const state of [RTP.REQUEST_PENDING, RTP.REQUEST_DELIVERY_FAILURE]) {
      assert.deepEqual(decide(view(state, { sends: 2 }, DUE), { type: 'cancel', cancellation: traced }, env(NOW)), nothing(held, DUE), `${state}: kept, nothing sent`);
      assert.deepEqual(decide(view(state, held, DUE), { type: 'tick' }, env(NOW)), { ...nothing({ ...held, sends: 3 }, NOW + 4_000), commands: ['request'] }, `${state}: the request again`);
      assert.deepEqual(decide(view(state, held, DUE), { type: 'sent', what: 'request', ok: true }, env(NOW)), {
        ...nothing({ ...held, sent: true, pushed: { status: 'PENDING' } }, NOW + 3_000),
        steps: [
          { state: RTP.REQUEST_DELIVERED, payloadJson: null },
          { state: RTP.PENDING, payloadJson: null },
        ],
        pushes: [{ status: 'PENDING' }],
        commands: ['cancel'],
      }, `${state}: taken`);
    }
  });

  void it('expires at the expiry, and tells the scheme until its transport takes the notice or refuses it for good', () => {
    assert.deepEqual(decide(view(RTP.PRESENTED, { sent: true }, DUE), { type: 'tick' }, env(EXPIRES_AT - 1)), nothing({ sent: true }, EXPIRES_AT), 'not before');
    assert.deepEqual(decide(view(RTP.PRESENTED, { sent: true }, DUE), { type: 'tick' }, env(EXPIRES_AT)), {
      ...nothing({ sent: true, pushed: { status: 'EXPIRED' } }, EXPIRES_AT + 2_000),
      steps: [{ state: RTP.EXPIRED, payloadJson: null }],
      pushes: [{ status: 'EXPIRED' }],
      commands: ['expire'],
    });
    const later = EXPIRES_AT + 10_000;
    assert.deepEqual(decide(view(RTP.EXPIRED, {}, DUE), { type: 'tick' }, env(later)), { ...nothing({}, later + 2_000), commands: ['expire'] }, 'the notice again');
    assert.deepEqual(decide(view(RTP.EXPIRED, { expiryNoticeSent: true }, DUE), { type: 'tick' }, env(later)), nothing({ expiryNoticeSent: true }, null));
    assert.deepEqual(decide(view(RTP.PAID, {}, DUE), { type: 'tick' }, env(later)), nothing({}, null), 'no notice of a paid request');
    const expire = (ok: boolean, retryable = false): RtpInput => (ok ? { type: 'sent', what: 'expire', ok } : { type: 'sent', what: 'expire', ok, retryable, error: 'refused' });
    assert.deepEqual(decide(view(RTP.EXPIRED, {}, DUE), expire(true), env(later)), nothing({ expiryNoticeSent: true }, null), 'taken');
    assert.deepEqual(decide(view(RTP.EXPIRED, {}, DUE), expire(false, false), env(later)), nothing({ expiryNoticeSent: true }, null), 'refused for good');
    assert.deepEqual(decide(view(RTP.EXPIRED, {}, DUE), expire(false, true), env(later)), nothing({}, DUE), 'refused for now: the timer sends it again');
    assert.deepEqual(decide(view(RTP.EXPIRED, { expiryNoticeSent: true }, DUE), expire(true), env(later)), nothing({ expiryNoticeSent: true }, DUE), 'already taken');
  });

  void it('records what the transport did with the cancellation, and fails it with AB10 when the scheme cannot take it', () => {
    const data = { sends: 1, sent: true, cancelling: traced, cancelSent: false };
    const cancelSent = (ok: boolean, retryable = false): RtpInput => (ok ? { type: 'sent', what: 'cancel', ok } : { type: 'sent', what: 'cancel', ok, retryable, error: 'the scheme refused the camt.056' });
    assert.deepEqual(decide(view(RTP.PRESENTED, data, DUE), cancelSent(true), env(NOW)), nothing({ ...data, cancelSent: true }, DUE));
    assert.deepEqual(decide(view(RTP.PRESENTED, data, DUE), cancelSent(false, true), env(NOW)), nothing(data, DUE));
    assert.deepEqual(decide(view(RTP.PRESENTED, { sent: true }, DUE), cancelSent(true), env(NOW)), nothing({ sent: true }, DUE), 'none in flight');
    assert.deepEqual(decide(view(RTP.PAID, data, DUE), cancelSent(true), env(NOW)), nothing(data, DUE), 'already final');
    const sending = decide(view(RTP.REQUEST_PENDING, { sends: 1, cancelling: traced, cancelSent: false }, DUE), cancelSent(false), env(NOW));
    assert.deepEqual(
      sending.cancellationAnswers.map((answer) => [answer.accepted, answer.status]),
      [[false, 'PENDING']],
      'a request not yet held by the scheme is PENDING',
    );
    assert.deepEqual(decide(view(RTP.PRESENTED, data, DUE), cancelSent(false), env(NOW)), {
      ...nothing({ sends: 1, sent: true, cancellationsAnswered: ['CXL9'] }, EXPIRES_AT),
      cancellationAnswers: [{ messageId: 'CXL9', messageIdentifiers: traced.messageIdentifiers, trace: traced.trace, accepted: false, reasonCode: 'AB10', reasonText: 'the scheme refused the camt.056', status: 'PRESENTED' }],
    });
  });

  void it('rejects a request the transport refuses for good, with the reason given or AB10, and retries one it refuses for now', () => {
    const failed = (retryable: boolean, reasonCode?: string): RtpInput => ({ type: 'sent', what: 'request', ok: false, retryable, error: 'connection reset', ...(reasonCode === undefined ? {} : { reasonCode }) });
    const failure = { state: RTP.REQUEST_DELIVERY_FAILURE, payloadJson: '{"schema":"SchemeTransportFailure","error":"connection reset"}' };
    const rejected = (reasonCode: string) => ({ status: 'REJECTED' as const, reasonCode, reasonText: 'connection reset' });
    assert.deepEqual(decide(view(RTP.REQUEST_PENDING, { sends: 1 }, DUE), failed(false), env(NOW)), {
      ...nothing({ sends: 1, pushed: rejected('AB10') }, null),
      steps: [failure, { state: RTP.STATUS_REJECTED, payloadJson: null }],
      pushes: [rejected('AB10')],
    });
    assert.deepEqual(decide(view(RTP.REQUEST_DELIVERY_FAILURE, { sends: 2 }, DUE), failed(false, 'AC01'), env(NOW)), {
      ...nothing({ sends: 2, pushed: rejected('AC01') }, null),
      steps: [{ state: RTP.STATUS_REJECTED, payloadJson: null }],
      pushes: [rejected('AC01')],
    });
    assert.deepEqual(decide(view(RTP.REQUEST_PENDING, { sends: 1 }, DUE), failed(true), env(NOW)), { ...nothing({ sends: 1 }, NOW + 2_000), steps: [failure] });
    assert.deepEqual(decide(view(RTP.REQUEST_DELIVERY_FAILURE, { sends: 2 }, DUE), failed(true), env(NOW)), nothing({ sends: 2 }, DUE), 'already failing: the timer retries');
    assert.deepEqual(decide(view(RTP.PRESENTED, { sent: true }, DUE), failed(false), env(NOW)), nothing({ sent: true }, DUE), 'a late failure of a request the scheme holds');
    assert.deepEqual(decide(view(RTP.PRESENTED, { sent: true }, DUE), { type: 'sent', what: 'request', ok: true }, env(NOW)), nothing({ sent: true }, DUE));
  });

  void it('takes the transport taking the request as the scheme holding it: PENDING', () => {
    assert.deepEqual(decide(view(RTP.REQUEST_PENDING, { sends: 1 }, DUE), { type: 'sent', what: 'request', ok: true }, env(NOW)), {
      ...nothing({ sends: 1, sent: true, pushed: { status: 'PENDING' } }, EXPIRES_AT),
      steps: [
        { state: RTP.REQUEST_DELIVERED, payloadJson: null },
        { state: RTP.PENDING, payloadJson: null },
      ],
      pushes: [{ status: 'PENDING' }],
    });
    const presented = decide(view(RTP.PENDING, { sent: true }, DUE), status('PRESENTED'), env(NOW));
    assert.deepEqual(presented.pushes, [{ status: 'PRESENTED' }], 'no reason when none was given');
    assert.deepEqual(presented.data, { expiresAt: EXPIRES_AT, sent: true, pushed: { status: 'PRESENTED' } });
  });

  void it('takes a report of the same status as nothing new, and a PENDING report as the scheme holding the request', () => {
    assert.deepEqual(decide(view(RTP.PRESENTED, { sent: true }, DUE), status('PRESENTED'), env(NOW)), nothing({ sent: true }, DUE));
    assert.deepEqual(decide(view(RTP.REQUEST_PENDING, { sends: 1 }, DUE), status('PENDING'), env(NOW)), {
      ...nothing({ sends: 1, sent: true, pushed: { status: 'PENDING' } }, DUE),
      steps: [
        { state: RTP.REQUEST_DELIVERED, payloadJson: '{"schema":"pain.014.001.09"}' },
        { state: RTP.PENDING, payloadJson: null },
      ],
      pushes: [{ status: 'PENDING' }],
    });
    const withText: RtpInput = { type: 'status', status: 'REJECTED', reasonCode: 'AM04', reasonText: 'Insufficient funds', payloadJson: '{}' };
    assert.deepEqual(decide(view(RTP.PRESENTED, { sent: true }, DUE), withText, env(NOW)).pushes, [{ status: 'REJECTED', reasonCode: 'AM04', reasonText: 'Insufficient funds' }]);
  });

  void it('answers a cancellation of a final request with the ISO reason of its end, and its trace', () => {
    const answer = (state: RtpState) => decide(view(state, {}, DUE), { type: 'cancel', cancellation: traced }, env(NOW));
    const asked = { messageId: 'CXL9', messageIdentifiers: traced.messageIdentifiers, trace: traced.trace };
    for (const [state, reason, status] of [
      [RTP.PAID, { reasonCode: 'ARDT', reasonText: 'Already paid' }, 'PAID'],
      [RTP.STATUS_REJECTED, { reasonCode: 'ARJT', reasonText: 'Already rejected' }, 'REJECTED'],
      [RTP.EXPIRED, { reasonCode: 'NARR', reasonText: 'Already EXPIRED' }, 'EXPIRED'],
    ] as const) {
      assert.deepEqual(answer(state), { ...nothing({ cancellationsAnswered: ['CXL9'] }, DUE), cancellationAnswers: [{ ...asked, accepted: false, ...reason, status }] }, state);
    }
    assert.deepEqual(answer(RTP.CANCELLED), { ...nothing({ cancellationsAnswered: ['CXL9'] }, DUE), cancellationAnswers: [{ ...asked, accepted: true, status: 'CANCELLED' }] });
    const untraced = decide(view(RTP.PAID, {}, DUE), { type: 'cancel', cancellation: cancellation('CXL8') }, env(NOW));
    assert.equal('trace' in (untraced.cancellationAnswers[0] ?? {}), false, 'no trace when the cancellation had none');
  });

  void it('refuses a second cancellation while the first waits, DUPL, with the status so far', () => {
    const data = { sends: 1, cancelling: cancellation('CXL1'), cancelSent: true };
    assert.deepEqual(decide(view(RTP.REQUEST_PENDING, data, DUE), { type: 'cancel', cancellation: traced }, env(NOW)), {
      ...nothing({ ...data, cancellationsAnswered: ['CXL9'] }, DUE),
      cancellationAnswers: [{ messageId: 'CXL9', messageIdentifiers: traced.messageIdentifiers, trace: traced.trace, accepted: false, reasonCode: 'DUPL', reasonText: 'Another cancellation is pending', status: 'PENDING' }],
    });
  });

  void it("passes on the scheme's refusal of a cancellation with its reason, and answers a late one by the request's end", () => {
    const data = { sent: true, cancelling: traced, cancelSent: true };
    const asked = { messageId: 'CXL9', messageIdentifiers: traced.messageIdentifiers, trace: traced.trace };
    const refusal = (reason: { reasonCode?: string; reasonText?: string }): RtpInput => ({ type: 'cancellation_answer', accepted: false, ...reason });
    const after = nothing({ sent: true, cancellationsAnswered: ['CXL9'] }, EXPIRES_AT);
    assert.deepEqual(decide(view(RTP.PRESENTED, data, DUE), refusal({ reasonCode: 'ARDT', reasonText: 'Paid already' }), env(NOW)), {
      ...after,
      cancellationAnswers: [{ ...asked, accepted: false, reasonCode: 'ARDT', reasonText: 'Paid already', status: 'PRESENTED' }],
    });
    assert.deepEqual(decide(view(RTP.PRESENTED, data, DUE), refusal({ reasonCode: 'LEGL' }), env(NOW)), { ...after, cancellationAnswers: [{ ...asked, accepted: false, reasonCode: 'LEGL', status: 'PRESENTED' }] });
    assert.deepEqual(decide(view(RTP.PRESENTED, data, DUE), refusal({}), env(NOW)), { ...after, cancellationAnswers: [{ ...asked, accepted: false, reasonCode: 'NARR', reasonText: 'Already PRESENTED', status: 'PRESENTED' }] });
    assert.deepEqual(decide(view(RTP.PRESENTED, { sent: true }, DUE), cancelAnswer(true), env(NOW)), nothing({ sent: true }, DUE), 'none in flight: a repeated answer');
    const final = nothing({ sent: true, cancellationsAnswered: ['CXL9'] }, DUE);
    assert.deepEqual(decide(view(RTP.CANCELLED, data, DUE), cancelAnswer(false), env(NOW)), { ...final, cancellationAnswers: [{ ...asked, accepted: true, status: 'CANCELLED' }] });
    assert.deepEqual(decide(view(RTP.EXPIRED, data, DUE), cancelAnswer(true), env(NOW)), { ...final, cancellationAnswers: [{ ...asked, accepted: false, reasonCode: 'NARR', reasonText: 'Already EXPIRED', status: 'EXPIRED' }] });
  });

  void it('answers the cancellation in flight when the request ends otherwise, in the same decision', () => {
    const data = { sent: true, cancelling: traced, cancelSent: true };
    const rejected = decide(view(RTP.PRESENTED, data, DUE), status('REJECTED', 'AM04'), env(NOW));
    assert.deepEqual(rejected, {
      ...nothing({ sent: true, pushed: { status: 'REJECTED', reasonCode: 'AM04' }, cancellationsAnswered: ['CXL9'] }, null),
      steps: [{ state: RTP.STATUS_REJECTED, payloadJson: null }],
      pushes: [{ status: 'REJECTED', reasonCode: 'AM04' }],
      cancellationAnswers: [{ messageId: 'CXL9', messageIdentifiers: traced.messageIdentifiers, trace: traced.trace, accepted: false, reasonCode: 'ARJT', reasonText: 'Already rejected', status: 'REJECTED' }],
    });
    const presented = decide(view(RTP.PENDING, data, DUE), status('PRESENTED'), env(NOW));
    assert.deepEqual(presented.cancellationAnswers, [], 'not while it is open');
  });
});
