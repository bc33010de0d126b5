import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { assertTransition, CT, decide } from '../../src/domain/machines/credit-transfer.js';
const env = (now = 1_000_000) => ({
    now,
    timeBudgetMs: 10_000,
    resubmitDelayMs: (n) => 1_000 * n,
    enquiryDelayMs: (n) => 5_000 * n,
    callbackCheckMs: 60_000,
});
const view = (state, data = {}, dueAt = null) => ({ state, data, dueAt });
const states = (decision) => decision.steps.map((step) => step.state);
const answer = (status, reasonCode) => ({
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
        assert.deepEqual([CT.RECEIVED, ...states(received), ...states(delivered), ...states(verdict), ...states(acknowledged)], [CT.RECEIVED, CT.ACCEPTED, CT.REQUEST_PENDING, CT.REQUEST_DELIVERED, CT.RESPONSE_RECEIVED, CT.RESPONSE_ACCEPTED, CT.RESPONSE_PENDING, CT.RESPONSE_DELIVERED]);
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
        assert.ok(again.dueAt - 1_005_000 > timeout.dueAt - 1_000_000, 'the enquiry delay grows');
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
        for (const state of [CT.RESPONSE_PENDING, CT.RESPONSE_DELIVERY_FAILURE, CT.RESPONSE_DELIVERED]) {
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
        const input = fc.oneof(fc.constant({ type: 'tick' }), fc.constantFrom({ type: 'sent', what: 'submit', ok: true }, { type: 'sent', what: 'enquire', ok: true }), fc.record({ retryable: fc.boolean(), what: fc.constantFrom('submit', 'enquire') }).map((r) => ({ type: 'sent', ok: false, error: 'boom', ...r })), fc.constantFrom(answer('ACCEPTED'), answer('REJECTED', 'AC06'), answer('PENDING'), { type: 'scheme', answer: { kind: 'not_found', status: 'PENDING', payloadJson: '{}' } }), fc.boolean().map((delivered) => ({ type: 'callback', delivered })));
        fc.assert(fc.property(fc.boolean(), fc.array(fc.tuple(input, fc.integer({ min: 0, max: 20_000 })), { maxLength: 30 }), (rulesOk, inputs) => {
            let now = 1_000_000;
            let current = view(CT.RECEIVED);
            const first = decide(current, { type: 'tick', rules: rulesOk ? { ok: true } : { ok: false, reasonCode: 'AM02', reasonText: 'limit' } }, env(now));
            let verdicts = first.callback === undefined ? 0 : 1;
            let acceptedByScheme = false;
            const apply = (decision) => {
                let from = current.state;
                for (const step of decision.steps) {
                    assertTransition(from, step.state);
                    from = step.state;
                }
                current = view(decision.steps.at(-1)?.state ?? current.state, decision.data, decision.dueAt);
            };
            apply(first);
            for (const [next, advanceMs] of inputs) {
                now += advanceMs;
                if (next.type === 'tick' && [CT.ACCEPTED, CT.REJECTED, CT.RESPONSE_RECEIVED, CT.RESPONSE_ACCEPTED].includes(current.state))
                    continue;
                if (next.type === 'scheme' && next.answer.status === 'ACCEPTED' && next.answer.kind === 'status')
                    acceptedByScheme = true;
                const decision = decide(current, next, env(now));
                if (decision.callback !== undefined) {
                    verdicts += 1;
                    if (decision.callback.outcome === 'APPROVED')
                        assert.ok(acceptedByScheme, 'approved only after the scheme accepted');
                }
                apply(decision);
            }
            assert.ok(verdicts <= 1, 'at most one verdict');
        }), { numRuns: 500 });
    });
});
//# sourceMappingURL=credit-transfer-machine.test.js.map