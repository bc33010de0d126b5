import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { assertLegalTransition } from '../../src/domain/machines/machine.js';
import { decideIrtp, INBOUND_REQUEST_TO_PAY_MACHINE, IRTP, } from '../../src/domain/machines/inbound-request-to-pay.js';
const START = 1_000_000;
const EXPIRY_MS = 600_000;
const env = (now) => ({ now, resendDelayMs: (n) => 1_000 * n, checkMs: 60_000 });
/** Runs inputs through the machine from its first state, every transition checked against the table; returns what a user would observe. */
function run(inputs) {
    let state = INBOUND_REQUEST_TO_PAY_MACHINE.initialState;
    let data = { expiresAt: START + EXPIRY_MS, endToEndId: 'E2E-1' };
    let dueAt = START;
    const entered = [state];
    const notices = [];
    const commands = [];
    const refused = [];
    /** The payment each PAID was entered on. */
    const paidOn = [];
    let delivered = 0;
    for (const { input, at, payment } of inputs) {
        const decision = decideIrtp({ state, data, dueAt }, { ...input, ...(payment === undefined ? {} : { payment }) }, env(at));
        if (decision === undefined)
            continue;
        if (decision.refused !== undefined)
            refused.push(decision.refused);
        for (const step of decision.steps) {
            assertLegalTransition(INBOUND_REQUEST_TO_PAY_MACHINE, state, step.state);
            state = step.state;
            entered.push(state);
            if (state === IRTP.PAID)
                paidOn.push(payment);
        }
        if (decision.deliver === true)
            delivered += 1;
        if (decision.notice !== undefined)
            notices.push(decision.notice.reasonCode);
        commands.push(...decision.commands);
        data = decision.data;
        dueAt = decision.dueAt;
    }
    return { state, data, dueAt, entered, notices, commands, refused, paidOn, delivered };
}
const tick = { type: 'tick' };
const decision = (status) => ({
    type: 'decision',
    status,
    ...(status === 'REJECTED' ? { reasonCode: 'CUST', reasonText: 'Declined by the payer' } : {}),
    payloadJson: `{"status":"${status}"}`,
});
const withdrawal = (caseId, reasonCode = 'CUST') => ({ type: 'withdrawal', caseId, original: { messageId: caseId }, reasonCode, payloadJson: '{"schema":"camt.056"}' });
const pending = { id: 'T1', outcome: 'PENDING' };
const approved = { id: 'T1', outcome: 'APPROVED' };
const rejected = { id: 'T1', outcome: 'REJECTED' };
describe('inbound request-to-pay state machine', () => {
    it('hands the request over, forwards PRESENTED and ACCEPTED, and reports PAID (ACSC) once the linked transfer is approved', () => {
        const result = run([
            { input: tick, at: START },
            { input: { type: 'callback', delivered: true }, at: START + 10 },
            { input: decision('PRESENTED'), at: START + 20 },
            { input: decision('ACCEPTED'), at: START + 30 },
            { input: tick, at: START + 40, payment: pending },
            { input: tick, at: START + 50, payment: approved },
        ]);
        assert.deepEqual(result.entered, [IRTP.RECEIVED, IRTP.ACCEPTED, IRTP.REQUEST_PENDING, IRTP.REQUEST_DELIVERED, IRTP.PRESENTED, IRTP.ACCEPTED_BY_PAYER, IRTP.PAID]);
        assert.equal(result.delivered, 1, 'one inboundRequestToPay callback');
        assert.deepEqual(result.commands, ['report:PRES', 'report:ACCP', 'report:ACSC']);
        assert.equal(result.data.paidBy, 'T1');
        assert.deepEqual(result.notices, []);
    });
    it('sends a pain.014 again until the transport takes it, under the same status', () => {
        const result = run([
            { input: tick, at: START },
            { input: decision('PRESENTED'), at: START + 10 },
            { input: { type: 'sent', command: 'report:PRES', ok: false, retryable: true }, at: START + 20 },
            { input: tick, at: START + 2_000 },
            { input: { type: 'sent', command: 'report:PRES', ok: true, retryable: false }, at: START + 2_010 },
            { input: tick, at: START + 5_000 },
        ]);
        assert.deepEqual(result.commands, ['report:PRES', 'report:PRES']);
        assert.equal(result.data.reports?.[0]?.done, true);
    });
    it('cancels an open request on a withdrawal: one notice, camt.029 CNCL, and the same answer to a resent camt.056 without a second notice', () => {
        const result = run([
            { input: tick, at: START },
            { input: decision('PRESENTED'), at: START + 10 },
            { input: withdrawal('CASE1'), at: START + 20 },
            { input: withdrawal('CASE1'), at: START + 30 },
        ]);
        assert.equal(result.state, IRTP.CANCELLED);
        assert.deepEqual(result.notices, ['CUST']);
        assert.deepEqual(result.commands, ['report:PRES', 'withdrawal', 'withdrawal']);
        assert.deepEqual(result.data.withdrawal?.answer, { accepted: true });
    });
    it('answers a withdrawal of a paid request RJCR ARDT, without a notice', () => {
        const result = run([
            { input: tick, at: START },
            { input: tick, at: START + 10, payment: approved },
            { input: withdrawal('CASE2'), at: START + 20, payment: approved },
        ]);
        assert.equal(result.state, IRTP.PAID);
        assert.deepEqual(result.data.withdrawal?.answer, { accepted: false, reasonCode: 'ARDT' });
        assert.deepEqual(result.notices, []);
    });
    it('holds a withdrawal while a linked transfer is under way: approved, RJCR ARDT and PAID; rejected, CNCL and CANCELLED', () => {
        const paid = run([
            { input: tick, at: START },
            { input: tick, at: START + 10, payment: pending },
            { input: withdrawal('CASE3'), at: START + 20, payment: pending },
            { input: tick, at: START + 30, payment: approved },
        ]);
        assert.equal(paid.state, IRTP.PAID);
        assert.deepEqual(paid.data.withdrawal?.answer, { accepted: false, reasonCode: 'ARDT' });
        assert.deepEqual(paid.notices, []);
        const open = run([
            { input: tick, at: START },
            { input: tick, at: START + 10, payment: pending },
            { input: withdrawal('CASE4'), at: START + 20, payment: pending },
            { input: tick, at: START + 30, payment: rejected },
        ]);
        assert.equal(open.state, IRTP.CANCELLED);
        assert.deepEqual(open.data.withdrawal?.answer, { accepted: true });
        assert.deepEqual(open.notices, ['CUST']);
    });
    it('leaves the request open when its transfer is rejected, so it can be paid again', () => {
        const result = run([
            { input: tick, at: START },
            { input: tick, at: START + 10, payment: pending },
            { input: tick, at: START + 20, payment: rejected },
        ]);
        assert.equal(result.state, IRTP.REQUEST_PENDING);
        assert.equal(result.data.paymentId, undefined);
        assert.equal(result.dueAt, START + 20 + 60_000, 'the callback check, before the expiry');
    });
    it('expires by its own timer with one notice and no scheme message, but not while a transfer is under way', () => {
        const expired = run([
            { input: tick, at: START },
            { input: tick, at: START + EXPIRY_MS },
        ]);
        assert.equal(expired.state, IRTP.EXPIRED);
        assert.deepEqual(expired.notices, ['EXPIRED']);
        assert.deepEqual(expired.commands, []);
        const held = run([
            { input: tick, at: START },
            { input: tick, at: START + 10, payment: pending },
            { input: tick, at: START + EXPIRY_MS, payment: pending },
        ]);
        assert.equal(held.state, IRTP.REQUEST_PENDING);
        assert.equal(held.dueAt, START + EXPIRY_MS + 60_000, 'the transfer is polled');
    });
    it('refuses the integrator’s decision after an end or going back, and takes the same decision again as nothing new', () => {
        const result = run([
            { input: tick, at: START },
            { input: decision('ACCEPTED'), at: START + 10 },
            { input: decision('ACCEPTED'), at: START + 15 },
            { input: decision('PRESENTED'), at: START + 20 },
            { input: decision('REJECTED'), at: START + 30 },
            { input: decision('ACCEPTED'), at: START + 40 },
        ]);
        assert.equal(result.state, IRTP.REJECTED);
        assert.deepEqual(result.commands, ['report:ACCP', 'report:RJCT']);
        assert.equal(result.refused.length, 2);
        assert.equal(result.data.reports?.find((report) => report.code === 'RJCT')?.reasonCode, 'CUST');
    });
    it('never pays without an approved linked transfer, never ends twice, and notifies at most once (any inputs, any times)', () => {
        const inputArbitrary = fc.oneof(fc.constant(tick), fc.constant({ type: 'callback', delivered: true }), fc.constant({ type: 'callback', delivered: false }), fc.constantFrom(decision('PRESENTED'), decision('ACCEPTED'), decision('REJECTED')), fc.constantFrom(withdrawal('C1'), withdrawal('C2'), withdrawal('C1', 'EXPIRED')), fc.constantFrom({ type: 'sent', command: 'report:PRES', ok: true, retryable: false }, { type: 'sent', command: 'report:ACSC', ok: false, retryable: true }, { type: 'sent', command: 'withdrawal', ok: true, retryable: false }));
        fc.assert(fc.property(fc.array(fc.record({ input: inputArbitrary, after: fc.integer({ min: 0, max: 200_000 }) }), { maxLength: 30 }), 
        // The world's transfer: it appears at one input, is decided at a later one (or never), approved or not.
        fc.record({ appears: fc.integer({ min: 0, max: 35 }), decidedAfter: fc.integer({ min: 0, max: 35 }), approved: fc.boolean() }), (steps, transfer) => {
            let at = START;
            const timed = [{ input: tick, at }, ...steps.map((step) => ({ input: step.input, at: (at += step.after) }))].map((step, index) => {
                if (index < transfer.appears)
                    return step;
                const decided = index >= transfer.appears + transfer.decidedAfter;
                return { ...step, payment: !decided ? pending : transfer.approved ? approved : rejected };
            });
            const result = run(timed);
            for (const payment of result.paidOn)
                assert.equal(payment?.outcome, 'APPROVED', 'PAID only on an approved linked transfer');
            const ends = result.entered.filter((state) => state === IRTP.PAID || state === IRTP.CANCELLED || state === IRTP.EXPIRED || state === IRTP.REJECTED);
            assert.ok(ends.length <= 1, `one end at most: ${ends.join(', ')}`);
            assert.ok(result.notices.length <= 1, 'at most one cancellation notice');
            if (result.notices.length === 1)
                assert.ok(result.state === IRTP.CANCELLED || result.state === IRTP.EXPIRED, 'a notice only with its end');
            if (result.data.withdrawal?.answer?.reasonCode === 'ARDT')
                assert.equal(result.state, IRTP.PAID, 'ARDT only for a paid request');
            if (result.data.withdrawal?.answer?.accepted === true)
                assert.ok(result.state !== IRTP.PAID, 'a paid request is never withdrawn');
        }), { numRuns: 500 });
    });
});
//# sourceMappingURL=inbound-request-to-pay-machine.test.js.map