import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  decide,
  ID,
  IDENTIFIER_DETERMINATION_MACHINE,
  type AnswerMode,
  type Determination,
  type IdData,
  type IdEnv,
  type IdInput,
  type IdState,
  type IdView,
} from '../../src/domain/machines/identifier-determination.js';
import { assertLegalTransition } from '../../src/domain/machines/machine.js';
import { MACHINES } from '../../src/domain/machines/registry.js';

const env = (now = 1_000_000): IdEnv => ({ now, timeBudgetMs: 10_000, resendDelayMs: (n) => 1_000 * n, callbackCheckMs: 60_000 });
const view = (state: IdState, data: IdData = { mode: 'sync' }, dueAt: number | null = null): IdView => ({ state, data, dueAt });
const states = (decision: ReturnType<typeof decide>) => decision.steps.map((step) => step.state);
const report = (outcome: 'SUCCESSFUL' | 'FAILED', reasonCode?: string): IdInput => ({
  type: 'scheme',
  determination: { outcome, ...(reasonCode === undefined ? {} : { reasonCode }) },
  payloadJson: '{"schema":"acmt.024.001.03"}',
});
const SEVEN = [ID.RECEIVED, ID.ACCEPTED, ID.REQUEST_PENDING, ID.RESPONSE_RECEIVED, ID.RESPONSE_ACCEPTED, ID.RESPONSE_PENDING, ID.RESPONSE_DELIVERED];

void describe('identifier-determination state machine', () => {
  void it('is registered by its kind beside the credit transfer, every state named after its event', () => {
    assert.equal(MACHINES.get('IDENTIFIER_DETERMINATION'), IDENTIFIER_DETERMINATION_MACHINE);
    assert.ok(MACHINES.has('CREDIT_TRANSFER'));
    for (const state of Object.keys(IDENTIFIER_DETERMINATION_MACHINE.transitions)) assert.match(state, /^IDENTIFIER_DETERMINATION_/);
  });

  void it('enters the seven states of CONTRACT §4 in order on a successful sync lookup, answering once', () => {
    const accepted = decide(view(ID.RECEIVED), { type: 'tick', supported: true }, env());
    assert.deepEqual(accepted.commands, ['resolve']);
    assert.equal(accepted.data.deadlineAt, 1_010_000);
    assert.equal(accepted.answer, undefined);
    const sent = decide(view(ID.REQUEST_PENDING, accepted.data), { type: 'sent', ok: true }, env());
    assert.deepEqual(states(sent), []);
    assert.equal(sent.dueAt, 1_010_000, 'waits for the report until the deadline');
    const answered = decide(view(ID.REQUEST_PENDING, sent.data), report('SUCCESSFUL'), env());
    assert.deepEqual([ID.RECEIVED, ...states(accepted), ...states(sent), ...states(answered)], SEVEN);
    assert.equal(answered.answer?.outcome, 'SUCCESSFUL');
    assert.equal(answered.dueAt, null, 'a sync answer is given by being stored: nothing is left to do');
  });

  void it('waits for the callback acknowledgement in async mode before RESPONSE_DELIVERED', () => {
    const async: IdData = { mode: 'async', sends: 1, deadlineAt: 1_010_000 };
    const answered = decide(view(ID.REQUEST_PENDING, async), report('FAILED', 'PX03'), env());
    assert.deepEqual(states(answered), [ID.RESPONSE_RECEIVED, ID.RESPONSE_ACCEPTED, ID.RESPONSE_PENDING]);
    assert.equal(answered.answer?.reasonCode, 'PX03');
    const failed = decide(view(ID.RESPONSE_PENDING, answered.data), { type: 'callback', delivered: false }, env());
    assert.deepEqual(states(failed), [ID.RESPONSE_DELIVERY_FAILURE]);
    assert.deepEqual(states(decide(view(ID.RESPONSE_DELIVERY_FAILURE, answered.data), { type: 'callback', delivered: true }, env())), [ID.RESPONSE_DELIVERED]);
  });

  void it('answers FAILED AB06 when the budget is spent, and ignores a report that comes after', () => {
    const data: IdData = { mode: 'sync', sends: 1, sent: true, deadlineAt: 1_000_000 };
    const timeout = decide(view(ID.REQUEST_PENDING, data), { type: 'tick' }, env());
    assert.deepEqual(states(timeout), [ID.TIMEOUT, ID.RESPONSE_PENDING, ID.RESPONSE_DELIVERED]);
    assert.deepEqual(timeout.answer, { outcome: 'FAILED', reasonCode: 'AB06', reasonText: 'Timeout at the instructed agent' });
    const late = decide(view(ID.RESPONSE_DELIVERED, timeout.data), report('SUCCESSFUL'), env());
    assert.deepEqual(states(late), []);
    assert.equal(late.answer, undefined);
  });

  void it('counts the budget from the integrator\'s request: one taken up after its deadline is answered AB06 without being sent', () => {
    const late = decide(view(ID.RECEIVED, { mode: 'sync', deadlineAt: 999_000 }), { type: 'tick', supported: true }, env());
    assert.deepEqual(states(late), [ID.ACCEPTED, ID.REQUEST_PENDING, ID.TIMEOUT, ID.RESPONSE_PENDING, ID.RESPONSE_DELIVERED]);
    assert.deepEqual(late.commands, []);
    assert.equal(late.answer?.reasonCode, 'AB06');
    const inTime = decide(view(ID.RECEIVED, { mode: 'sync', deadlineAt: 1_004_000 }), { type: 'tick', supported: true }, env());
    assert.equal(inTime.data.deadlineAt, 1_004_000, 'the deadline set at intake stands');
  });

  void it('sends again, under the same message id, what the transport did not take, never past the deadline', () => {
    const failed = decide(view(ID.REQUEST_PENDING, { mode: 'sync', sends: 1, deadlineAt: 1_005_000 }), { type: 'sent', ok: false, retryable: true, error: 'ECONNRESET' }, env());
    assert.deepEqual(states(failed), [ID.REQUEST_DELIVERY_FAILURE]);
    assert.equal(failed.dueAt, 1_002_000);
    const again = decide(view(ID.REQUEST_DELIVERY_FAILURE, failed.data), { type: 'tick' }, env(1_004_500));
    assert.deepEqual(again.commands, ['resolve']);
    assert.equal(again.dueAt, 1_005_000, 'the next try is capped at the deadline');
  });

  void it('answers FAILED AB10 at once when the scheme cannot take the request at all', () => {
    const decision = decide(view(ID.REQUEST_PENDING, { mode: 'sync', sends: 1, deadlineAt: 1_010_000 }), { type: 'sent', ok: false, retryable: false, error: 'refused' }, env());
    assert.deepEqual(states(decision), [ID.REQUEST_DELIVERY_FAILURE, ID.RESPONSE_RECEIVED, ID.RESPONSE_ACCEPTED, ID.RESPONSE_PENDING, ID.RESPONSE_DELIVERED]);
    assert.equal(decision.answer?.reasonCode, 'AB10');
  });

  void it('answers with the reason the connector gives when the scheme message cannot carry the request', () => {
    const decision = decide(view(ID.REQUEST_PENDING, { mode: 'sync', sends: 1, deadlineAt: 1_010_000 }), { type: 'sent', ok: false, retryable: false, error: 'RC05: BIC invalid', reasonCode: 'RC05' }, env());
    assert.equal(decision.answer?.reasonCode, 'RC05');
  });

  void it('rejects at once, with AG03, a lookup on a connector that cannot resolve identifiers', () => {
    const decision = decide(view(ID.RECEIVED), { type: 'tick', supported: false }, env());
    assert.deepEqual(states(decision), [ID.REJECTED, ID.RESPONSE_PENDING, ID.RESPONSE_DELIVERED]);
    assert.equal(decision.answer?.reasonCode, 'AG03');
    assert.deepEqual(decision.commands, []);
  });

  void it('refuses an illegal transition as a bug', () => {
    assert.throws(() => assertLegalTransition(IDENTIFIER_DETERMINATION_MACHINE, ID.RESPONSE_DELIVERED, ID.RESPONSE_PENDING), /illegal identifier-determination transition/);
  });

  void it('never takes an illegal transition and answers exactly once, SUCCESSFUL only on a successful report, whatever the inputs', () => {
    const input = fc.oneof(
      fc.constant<IdInput>({ type: 'tick' }),
      fc.constant<IdInput>({ type: 'sent', ok: true }),
      fc.boolean().map((retryable): IdInput => ({ type: 'sent', ok: false, retryable, error: 'boom' })),
      fc.constantFrom(report('SUCCESSFUL'), report('FAILED', 'AC04')),
      fc.boolean().map((delivered): IdInput => ({ type: 'callback', delivered })),
    );
    fc.assert(
      fc.property(
        fc.constantFrom<AnswerMode>('sync', 'async'),
        fc.boolean(),
        fc.array(fc.tuple(input, fc.integer({ min: 0, max: 4_000 })), { maxLength: 30 }),
        (mode, supported, inputs) => {
          let now = 1_000_000;
          let current = view(ID.RECEIVED, { mode });
          let answers = 0;
          let successfulReport = false;
          const apply = (decision: ReturnType<typeof decide>): void => {
            let from: string = current.state;
            for (const step of decision.steps) {
              assertLegalTransition(IDENTIFIER_DETERMINATION_MACHINE, from, step.state);
              from = step.state;
            }
            if (decision.answer !== undefined) {
              answers += 1;
              if (decision.answer.outcome === 'SUCCESSFUL') assert.ok(successfulReport, 'SUCCESSFUL only after the scheme said so');
            }
            current = view(decision.steps.at(-1)?.state ?? current.state, decision.data, decision.dueAt);
          };
          apply(decide(current, { type: 'tick', supported }, env(now)));
          for (const [next, advanceMs] of inputs) {
            now += advanceMs;
            if (next.type === 'scheme' && next.determination.outcome === 'SUCCESSFUL') successfulReport = true;
            apply(decide(current, next, env(now)));
          }
          // Past the deadline a tick always settles it.
          apply(decide(current, { type: 'tick' }, env(now + 20_000)));
          assert.equal(answers, 1, 'exactly one answer');
          if (mode === 'sync') assert.equal(current.state, ID.RESPONSE_DELIVERED);
        },
      ),
      { numRuns: 500 },
    );
  });
});

void describe('identifier-determination state machine: whole decisions', () => {
  const NOW = 1_000_000;
  const DEADLINE = 1_005_000;
  const nothing = (data: IdData, dueAt: number | null) => ({ steps: [], data, dueAt, commands: [] });
  const AB06 = { outcome: 'FAILED', reasonCode: 'AB06', reasonText: 'Timeout at the instructed agent' } as const;

  void it('is the table of states and transitions of CONTRACT §4', () => {
    assert.deepEqual(Object.entries(ID).map(([key, state]) => [key, state.replace('IDENTIFIER_DETERMINATION_', '')]), [
      ['RECEIVED', 'REQUEST_RECEIVED'],
      ['ACCEPTED', 'REQUEST_ACCEPTED'],
      ['REJECTED', 'REQUEST_REJECTED'],
      ['REQUEST_PENDING', 'REQUEST_PENDING'],
      ['REQUEST_DELIVERY_FAILURE', 'REQUEST_DELIVERY_FAILURE'],
      ['TIMEOUT', 'TIMEOUT'],
      ['RESPONSE_RECEIVED', 'RESPONSE_RECEIVED'],
      ['RESPONSE_ACCEPTED', 'RESPONSE_ACCEPTED'],
      ['RESPONSE_PENDING', 'RESPONSE_PENDING'],
      ['RESPONSE_DELIVERED', 'RESPONSE_DELIVERED'],
      ['RESPONSE_DELIVERY_FAILURE', 'RESPONSE_DELIVERY_FAILURE'],
    ]);
    assert.deepEqual(IDENTIFIER_DETERMINATION_MACHINE, {
      kind: 'IDENTIFIER_DETERMINATION',
      name: 'identifier-determination',
      initialState: ID.RECEIVED,
      transitions: {
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
      },
    });
  });

  void it('starts only with the connector’s capability, sends once with a timer no later than the deadline, and refuses AG03 with its reason', () => {
    assert.throws(() => decide(view(ID.RECEIVED), { type: 'tick' }, env()), { name: 'AssertionError', message: 'the connector capability must be given for a RECEIVED determination' });
    assert.deepEqual(decide(view(ID.RECEIVED, { mode: 'async' }), { type: 'tick', supported: true }, env()), {
      steps: [{ state: ID.ACCEPTED, payloadJson: null }, { state: ID.REQUEST_PENDING, payloadJson: null }],
      data: { mode: 'async', sends: 1, deadlineAt: NOW + 10_000 },
      dueAt: NOW + 1_000,
      commands: ['resolve'],
    });
    assert.equal(decide(view(ID.RECEIVED, { mode: 'sync', deadlineAt: NOW + 500 }), { type: 'tick', supported: true }, env()).dueAt, NOW + 500);
    const refusal = { outcome: 'FAILED', reasonCode: 'AG03', reasonText: 'Transaction type not supported' } as const;
    assert.deepEqual(decide(view(ID.RECEIVED, { mode: 'async' }), { type: 'tick', supported: false }, env()), {
      steps: [{ state: ID.REJECTED, payloadJson: '{"schema":"SchemeCapability","error":"the scheme connector does not resolve identifiers"}' }, { state: ID.RESPONSE_PENDING, payloadJson: null }],
      data: { mode: 'async', determination: refusal },
      dueAt: NOW + 60_000,
      answer: refusal,
      commands: [],
    });
  });

  void it('answers AB06 without sending a request taken up at its deadline, naming the budget and that nothing was sent', () => {
    assert.deepEqual(decide(view(ID.RECEIVED, { mode: 'sync', deadlineAt: NOW }), { type: 'tick', supported: true }, env()), {
      steps: [
        { state: ID.ACCEPTED, payloadJson: null },
        { state: ID.REQUEST_PENDING, payloadJson: null },
        { state: ID.TIMEOUT, payloadJson: '{"schema":"SchemeTimeout","timeBudgetMs":10000,"sent":false}' },
        { state: ID.RESPONSE_PENDING, payloadJson: null },
        { state: ID.RESPONSE_DELIVERED, payloadJson: null },
      ],
      data: { mode: 'sync', deadlineAt: NOW, determination: AB06 },
      dueAt: null,
      answer: AB06,
      commands: [],
    });
  });

  void it('waits for the report of a sent request until the deadline, sends again one not taken (no later than the deadline), and times out at the deadline or without one', () => {
    for (const state of [ID.REQUEST_PENDING, ID.REQUEST_DELIVERY_FAILURE]) {
      const sent: IdData = { mode: 'sync', sends: 1, sent: true, deadlineAt: DEADLINE };
      assert.deepEqual(decide(view(state, sent, 5), { type: 'tick' }, env(DEADLINE - 1)), nothing(sent, DEADLINE));
      assert.deepEqual(decide(view(state, { mode: 'sync', sends: 2, deadlineAt: DEADLINE }), { type: 'tick' }, env()), {
        steps: [],
        data: { mode: 'sync', sends: 3, deadlineAt: DEADLINE },
        dueAt: NOW + 3_000,
        commands: ['resolve'],
      });
      assert.deepEqual(decide(view(state, { mode: 'sync', deadlineAt: DEADLINE }), { type: 'tick' }, env()).data.sends, 2);
      assert.equal(decide(view(state, { mode: 'sync', sends: 9, deadlineAt: DEADLINE }), { type: 'tick' }, env()).dueAt, DEADLINE);
      for (const data of [{ mode: 'async', sends: 1, sent: true, deadlineAt: NOW } as const, { mode: 'async', sends: 1 } as const]) {
        assert.deepEqual(decide(view(state, data), { type: 'tick' }, env()), {
          steps: [{ state: ID.TIMEOUT, payloadJson: '{"schema":"SchemeTimeout","timeBudgetMs":10000}' }, { state: ID.RESPONSE_PENDING, payloadJson: null }],
          data: { ...data, determination: AB06 },
          dueAt: NOW + 60_000,
          answer: AB06,
          commands: [],
        });
      }
    }
  });

  void it('never rests in a transient state; checks an undelivered callback again later, and rests once delivered', () => {
    for (const state of [ID.ACCEPTED, ID.REJECTED, ID.TIMEOUT, ID.RESPONSE_RECEIVED, ID.RESPONSE_ACCEPTED]) {
      assert.throws(() => decide(view(state), { type: 'tick' }, env()), { name: 'AssertionError', message: `a determination never rests in ${state}` });
    }
    for (const state of [ID.RESPONSE_PENDING, ID.RESPONSE_DELIVERY_FAILURE]) {
      assert.deepEqual(decide(view(state, { mode: 'async' }, 5), { type: 'tick' }, env()), nothing({ mode: 'async' }, NOW + 60_000));
    }
    assert.deepEqual(decide(view(ID.RESPONSE_DELIVERED, { mode: 'async' }, 5), { type: 'tick' }, env()), nothing({ mode: 'async' }, null));
  });

  void it('notes once that the transport took the request and waits for the deadline; ignores a transport outcome once answered', () => {
    const data: IdData = { mode: 'sync', sends: 1, deadlineAt: DEADLINE };
    for (const state of [ID.REQUEST_PENDING, ID.REQUEST_DELIVERY_FAILURE]) {
      assert.deepEqual(decide(view(state, data, 5), { type: 'sent', ok: true }, env()), { steps: [], data: { ...data, sent: true }, dueAt: DEADLINE, commands: [] });
      assert.deepEqual(decide(view(state, { ...data, sent: true }, 5), { type: 'sent', ok: true }, env()), nothing({ ...data, sent: true }, 5));
    }
    assert.equal(decide(view(ID.REQUEST_PENDING, { mode: 'sync' }, 5), { type: 'sent', ok: true }, env()).dueAt, NOW);
    for (const input of [{ type: 'sent', ok: true }, { type: 'sent', ok: false, retryable: false, error: 'x' }, report('SUCCESSFUL')] as const) {
      assert.deepEqual(decide(view(ID.RESPONSE_PENDING, data, 5), input, env()), nothing(data, 5));
    }
  });

  void it('records a transport refusal for now once and sends again after a growing delay, no later than the deadline; the timer resends after the first', () => {
    const retry: IdInput = { type: 'sent', ok: false, retryable: true, error: 'ECONNRESET' };
    const failure = '{"schema":"SchemeTransportFailure","error":"ECONNRESET"}';
    assert.deepEqual(decide(view(ID.REQUEST_PENDING, { mode: 'sync', sends: 2, deadlineAt: DEADLINE }), retry, env()), {
      steps: [{ state: ID.REQUEST_DELIVERY_FAILURE, payloadJson: failure }],
      data: { mode: 'sync', sends: 2, deadlineAt: DEADLINE },
      dueAt: NOW + 3_000,
      commands: [],
    });
    assert.equal(decide(view(ID.REQUEST_PENDING, { mode: 'sync', deadlineAt: DEADLINE }), retry, env()).dueAt, NOW + 2_000);
    assert.equal(decide(view(ID.REQUEST_PENDING, { mode: 'sync', sends: 9, deadlineAt: DEADLINE }), retry, env()).dueAt, DEADLINE);
    assert.equal(decide(view(ID.REQUEST_PENDING, { mode: 'sync', sends: 9 }), retry, env()).dueAt, NOW);
    assert.deepEqual(decide(view(ID.REQUEST_DELIVERY_FAILURE, { mode: 'sync', sends: 2, deadlineAt: DEADLINE }, 5), retry, env()), nothing({ mode: 'sync', sends: 2, deadlineAt: DEADLINE }, 5));
  });

  void it('answers a transport refusal for good FAILED, AB10 unless the connector names the reason, with the error as its text, on both waiting states', () => {
    const refused: IdInput = { type: 'sent', ok: false, retryable: false, error: 'refused' };
    const failure = '{"schema":"SchemeTransportFailure","error":"refused"}';
    const ab10 = { outcome: 'FAILED', reasonCode: 'AB10', reasonText: 'refused' } as const;
    assert.deepEqual(decide(view(ID.REQUEST_DELIVERY_FAILURE, { mode: 'async', sends: 2 }), refused, env()), {
      steps: [
        { state: ID.RESPONSE_RECEIVED, payloadJson: failure },
        { state: ID.RESPONSE_ACCEPTED, payloadJson: failure },
        { state: ID.RESPONSE_PENDING, payloadJson: null },
      ],
      data: { mode: 'async', sends: 2, determination: ab10 },
      dueAt: NOW + 60_000,
      answer: ab10,
      commands: [],
    });
    assert.deepEqual(decide(view(ID.REQUEST_PENDING, { mode: 'async', sends: 1 }), refused, env()).steps[0], { state: ID.REQUEST_DELIVERY_FAILURE, payloadJson: failure });
  });

  void it('passes the scheme’s report on as the answer, with its message as the payload of both states', () => {
    const determination: Determination = { outcome: 'SUCCESSFUL', account: { traditionalIdentifier: '1234', legalName: 'Thandi Nkosi' } };
    const input: IdInput = { type: 'scheme', determination, payloadJson: '{"schema":"acmt.024.001.03"}' };
    for (const state of [ID.REQUEST_PENDING, ID.REQUEST_DELIVERY_FAILURE]) {
      assert.deepEqual(decide(view(state, { mode: 'sync', sends: 1 }), input, env()), {
        steps: [
          { state: ID.RESPONSE_RECEIVED, payloadJson: '{"schema":"acmt.024.001.03"}' },
          { state: ID.RESPONSE_ACCEPTED, payloadJson: '{"schema":"acmt.024.001.03"}' },
          { state: ID.RESPONSE_PENDING, payloadJson: null },
          { state: ID.RESPONSE_DELIVERED, payloadJson: null },
        ],
        data: { mode: 'sync', sends: 1, determination },
        dueAt: null,
        answer: determination,
        commands: [],
      });
    }
  });

  void it('moves an async answer to RESPONSE_DELIVERY_FAILURE once on a failed callback, checking again later, and to RESPONSE_DELIVERED on its acknowledgement', () => {
    const data: IdData = { mode: 'async' };
    assert.deepEqual(decide(view(ID.RESPONSE_PENDING, data, 5), { type: 'callback', delivered: true }, env()), { steps: [{ state: ID.RESPONSE_DELIVERED, payloadJson: null }], data, dueAt: null, commands: [] });
    assert.deepEqual(decide(view(ID.RESPONSE_PENDING, data, 5), { type: 'callback', delivered: false }, env()), { steps: [{ state: ID.RESPONSE_DELIVERY_FAILURE, payloadJson: null }], data, dueAt: NOW + 60_000, commands: [] });
    assert.deepEqual(decide(view(ID.RESPONSE_DELIVERY_FAILURE, data, 5), { type: 'callback', delivered: true }, env()), { steps: [{ state: ID.RESPONSE_DELIVERED, payloadJson: null }], data, dueAt: null, commands: [] });
    assert.deepEqual(decide(view(ID.RESPONSE_DELIVERY_FAILURE, data, 5), { type: 'callback', delivered: false }, env()), nothing(data, 5));
    assert.deepEqual(decide(view(ID.RESPONSE_DELIVERED, data, 5), { type: 'callback', delivered: true }, env()), nothing(data, 5));
  });
});
