import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { decide, ID, IDENTIFIER_DETERMINATION_MACHINE, } from '../../src/domain/machines/identifier-determination.js';
import { assertLegalTransition } from '../../src/domain/machines/machine.js';
import { MACHINES } from '../../src/domain/machines/registry.js';
const env = (now = 1_000_000) => ({ now, timeBudgetMs: 10_000, resendDelayMs: (n) => 1_000 * n, callbackCheckMs: 60_000 });
const view = (state, data = { mode: 'sync' }, dueAt = null) => ({ state, data, dueAt });
const states = (decision) => decision.steps.map((step) => step.state);
const report = (outcome, reasonCode) => ({
    type: 'scheme',
    determination: { outcome, ...(reasonCode === undefined ? {} : { reasonCode }) },
    payloadJson: '{"schema":"acmt.024.001.03"}',
});
const SEVEN = [ID.RECEIVED, ID.ACCEPTED, ID.REQUEST_PENDING, ID.RESPONSE_RECEIVED, ID.RESPONSE_ACCEPTED, ID.RESPONSE_PENDING, ID.RESPONSE_DELIVERED];
void describe('identifier-determination state machine', () => {
    void it('is registered by its kind beside the credit transfer, every state named after its event', () => {
        assert.equal(MACHINES.get('IDENTIFIER_DETERMINATION'), IDENTIFIER_DETERMINATION_MACHINE);
        assert.ok(MACHINES.has('CREDIT_TRANSFER'));
        for (const state of Object.keys(IDENTIFIER_DETERMINATION_MACHINE.transitions))
            assert.match(state, /^IDENTIFIER_DETERMINATION_/);
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
        const async = { mode: 'async', sends: 1, deadlineAt: 1_010_000 };
        const answered = decide(view(ID.REQUEST_PENDING, async), report('FAILED', 'PX03'), env());
        assert.deepEqual(states(answered), [ID.RESPONSE_RECEIVED, ID.RESPONSE_ACCEPTED, ID.RESPONSE_PENDING]);
        assert.equal(answered.answer?.reasonCode, 'PX03');
        const failed = decide(view(ID.RESPONSE_PENDING, answered.data), { type: 'callback', delivered: false }, env());
        assert.deepEqual(states(failed), [ID.RESPONSE_DELIVERY_FAILURE]);
        assert.deepEqual(states(decide(view(ID.RESPONSE_DELIVERY_FAILURE, answered.data), { type: 'callback', delivered: true }, env())), [ID.RESPONSE_DELIVERED]);
    });
    void it('answers FAILED AB06 when the budget is spent, and ignores a report that comes after', () => {
        const data = { mode: 'sync', sends: 1, sent: true, deadlineAt: 1_000_000 };
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
        const input = fc.oneof(fc.constant({ type: 'tick' }), fc.constant({ type: 'sent', ok: true }), fc.boolean().map((retryable) => ({ type: 'sent', ok: false, retryable, error: 'boom' })), fc.constantFrom(report('SUCCESSFUL'), report('FAILED', 'AC04')), fc.boolean().map((delivered) => ({ type: 'callback', delivered })));
        fc.assert(fc.property(fc.constantFrom('sync', 'async'), fc.boolean(), fc.array(fc.tuple(input, fc.integer({ min: 0, max: 4_000 })), { maxLength: 30 }), (mode, supported, inputs) => {
            let now = 1_000_000;
            let current = view(ID.RECEIVED, { mode });
            let answers = 0;
            let successfulReport = false;
            const apply = (decision) => {
                let from = current.state;
                for (const step of decision.steps) {
                    assertLegalTransition(IDENTIFIER_DETERMINATION_MACHINE, from, step.state);
                    from = step.state;
                }
                if (decision.answer !== undefined) {
                    answers += 1;
                    if (decision.answer.outcome === 'SUCCESSFUL')
                        assert.ok(successfulReport, 'SUCCESSFUL only after the scheme said so');
                }
                current = view(decision.steps.at(-1)?.state ?? current.state, decision.data, decision.dueAt);
            };
            apply(decide(current, { type: 'tick', supported }, env(now)));
            for (const [next, advanceMs] of inputs) {
                now += advanceMs;
                if (next.type === 'scheme' && next.determination.outcome === 'SUCCESSFUL')
                    successfulReport = true;
                apply(decide(current, next, env(now)));
            }
            // Past the deadline a tick always settles it.
            apply(decide(current, { type: 'tick' }, env(now + 20_000)));
            assert.equal(answers, 1, 'exactly one answer');
            if (mode === 'sync')
                assert.equal(current.state, ID.RESPONSE_DELIVERED);
        }), { numRuns: 500 });
    });
});
//# sourceMappingURL=identifier-determination-machine.test.js.map