import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { assertLegalTransition } from '../../src/domain/machines/machine.js';
import {
  decideIrtp,
  INBOUND_REQUEST_TO_PAY_MACHINE,
  isFinalIrtp,
  REQUEST_TO_PAY_LINK,
  IRTP,
  type IrtpBaseInput,
  type IrtpData,
  type IrtpEnv,
  type IrtpState,
  type PaymentSeen,
} from '../../src/domain/machines/inbound-request-to-pay.js';

const START = 1_000_000;
const EXPIRY_MS = 600_000;
const env = (now: number): IrtpEnv => ({ now, resendDelayMs: (n) => 1_000 * n, checkMs: 60_000 });

interface Timed {
  readonly input: IrtpBaseInput;
  readonly at: number;
  readonly payment?: PaymentSeen;
}

/** Runs inputs through the machine from its first state, every transition checked against the table; returns what a user would observe. */
function run(inputs: readonly Timed[]) {
  let state: IrtpState = INBOUND_REQUEST_TO_PAY_MACHINE.initialState;
  let data: IrtpData = { expiresAt: START + EXPIRY_MS, endToEndId: 'E2E-1' };
  let dueAt: number | null = START;
  const entered: IrtpState[] = [state];
  const notices: string[] = [];
  const commands: string[] = [];
  const refused: string[] = [];
  /** The payment each PAID was entered on. */
  const paidOn: (PaymentSeen | undefined)[] = [];
  let delivered = 0;
  for (const { input, at, payment } of inputs) {
    const decision = decideIrtp({ state, data, dueAt }, { ...input, ...(payment === undefined ? {} : { payment }) }, env(at));
    if (decision === undefined) continue;
    if (decision.refused !== undefined) refused.push(decision.refused);
    for (const step of decision.steps) {
      assertLegalTransition(INBOUND_REQUEST_TO_PAY_MACHINE, state, step.state);
      state = step.state;
      entered.push(state);
      if (state === IRTP.PAID) paidOn.push(payment);
    }
    if (decision.deliver === true) delivered += 1;
    if (decision.notice !== undefined) notices.push(decision.notice.reasonCode);
    commands.push(...decision.commands);
    data = decision.data;
    dueAt = decision.dueAt;
  }
  return { state, data, dueAt, entered, notices, commands, refused, paidOn, delivered };
}

const tick: IrtpBaseInput = { type: 'tick' };
const decision = (status: 'PRESENTED' | 'ACCEPTED' | 'REJECTED'): IrtpBaseInput => ({
  type: 'decision',
  status,
  ...(status === 'REJECTED' ? { reasonCode: 'CUST', reasonText: 'Declined by the payer' } : {}),
  payloadJson: `{"status":"${status}"}`,
});
const withdrawal = (caseId: string, reasonCode = 'CUST'): IrtpBaseInput => ({ type: 'withdrawal', caseId, original: { messageId: caseId }, reasonCode, payloadJson: '{"schema":"camt.056"}' });
const pending: PaymentSeen = { id: 'T1', outcome: 'PENDING' };
const approved: PaymentSeen = { id: 'T1', outcome: 'APPROVED' };
const rejected: PaymentSeen = { id: 'T1', outcome: 'REJECTED' };

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
    const inputArbitrary = fc.oneof(
      fc.constant(tick),
      fc.constant<IrtpBaseInput>({ type: 'callback', delivered: true }),
      fc.constant<IrtpBaseInput>({ type: 'callback', delivered: false }),
      fc.constantFrom(decision('PRESENTED'), decision('ACCEPTED'), decision('REJECTED')),
      fc.constantFrom(withdrawal('C1'), withdrawal('C2'), withdrawal('C1', 'EXPIRED')),
      fc.constantFrom<IrtpBaseInput>(
        { type: 'sent', command: 'report:PRES', ok: true, retryable: false },
        { type: 'sent', command: 'report:ACSC', ok: false, retryable: true },
        { type: 'sent', command: 'withdrawal', ok: true, retryable: false },
      ),
    );
    fc.assert(
      fc.property(
        fc.array(fc.record({ input: inputArbitrary, after: fc.integer({ min: 0, max: 200_000 }) }), { maxLength: 30 }),
        // The world's transfer: it appears at one input, is decided at a later one (or never), approved or not.
        fc.record({ appears: fc.integer({ min: 0, max: 35 }), decidedAfter: fc.integer({ min: 0, max: 35 }), approved: fc.boolean() }),
        (steps, transfer) => {
          let at = START;
          const timed: Timed[] = [{ input: tick, at }, ...steps.map((step) => ({ input: step.input, at: (at += step.after) }))].map((step, index) => {
            if (index < transfer.appears) return step;
            const decided = index >= transfer.appears + transfer.decidedAfter;
            return { ...step, payment: !decided ? pending : transfer.approved ? approved : rejected };
          });
          const result = run(timed);
          for (const payment of result.paidOn) assert.equal(payment?.outcome, 'APPROVED', 'PAID only on an approved linked transfer');
          const ends = result.entered.filter((state) => state === IRTP.PAID || state === IRTP.CANCELLED || state === IRTP.EXPIRED || state === IRTP.REJECTED);
          assert.ok(ends.length <= 1, `one end at most: ${ends.join(', ')}`);
          assert.ok(result.notices.length <= 1, 'at most one cancellation notice');
          if (result.notices.length === 1) assert.ok(result.state === IRTP.CANCELLED || result.state === IRTP.EXPIRED, 'a notice only with its end');
          if (result.data.withdrawal?.answer?.reasonCode === 'ARDT') assert.equal(result.state, IRTP.PAID, 'ARDT only for a paid request');
          if (result.data.withdrawal?.answer?.accepted === true) assert.ok(result.state !== IRTP.PAID, 'a paid request is never withdrawn');
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('inbound request-to-pay state machine: whole decisions', () => {
  const NOW = START + 100;
  const EXPIRES = START + EXPIRY_MS;
  const base: IrtpData = { expiresAt: EXPIRES, endToEndId: 'E2E-1' };
  const decide = (state: IrtpState, data: IrtpData, input: IrtpBaseInput, payment?: PaymentSeen, now = NOW, dueAt: number | null = 7) =>
    decideIrtp({ state, data, dueAt }, { ...input, ...(payment === undefined ? {} : { payment }) }, env(now));
  const expiryJson = JSON.stringify({ schema: 'RequestToPayExpiry', expiryDateTime: new Date(EXPIRES).toISOString() });
  const answered = (caseId: string, answer: { accepted: boolean; reasonCode?: string }, sends = 1) => ({ caseId, original: { messageId: caseId }, reasonCode: 'CUST', answer, sends, done: false });

  it('is the table of states and transitions: the four ends lead nowhere, an open request may end any way', () => {
    const ENDS = [IRTP.REJECTED, IRTP.PAID, IRTP.CANCELLED, IRTP.EXPIRED];
    assert.deepEqual(INBOUND_REQUEST_TO_PAY_MACHINE, {
      kind: 'INBOUND_REQUEST_TO_PAY',
      name: 'inbound-request-to-pay',
      initialState: 'REQUEST_TO_PAY_REQUEST_RECEIVED',
      transitions: {
        REQUEST_TO_PAY_REQUEST_RECEIVED: ['REQUEST_TO_PAY_REQUEST_ACCEPTED'],
        REQUEST_TO_PAY_REQUEST_ACCEPTED: ['REQUEST_TO_PAY_REQUEST_PENDING', 'REQUEST_TO_PAY_STATUS_CANCELLED', 'REQUEST_TO_PAY_STATUS_EXPIRED'],
        REQUEST_TO_PAY_REQUEST_PENDING: ['REQUEST_TO_PAY_REQUEST_DELIVERED', 'REQUEST_TO_PAY_REQUEST_DELIVERY_FAILURE', 'REQUEST_TO_PAY_STATUS_PRESENTED', 'REQUEST_TO_PAY_STATUS_ACCEPTED', ...ENDS],
        REQUEST_TO_PAY_REQUEST_DELIVERY_FAILURE: ['REQUEST_TO_PAY_REQUEST_DELIVERED', 'REQUEST_TO_PAY_STATUS_PRESENTED', 'REQUEST_TO_PAY_STATUS_ACCEPTED', ...ENDS],
        REQUEST_TO_PAY_REQUEST_DELIVERED: ['REQUEST_TO_PAY_STATUS_PRESENTED', 'REQUEST_TO_PAY_STATUS_ACCEPTED', ...ENDS],
        REQUEST_TO_PAY_STATUS_PRESENTED: ['REQUEST_TO_PAY_STATUS_ACCEPTED', ...ENDS],
        REQUEST_TO_PAY_STATUS_ACCEPTED: ENDS,
        REQUEST_TO_PAY_STATUS_REJECTED: [],
        REQUEST_TO_PAY_STATUS_PAID: [],
        REQUEST_TO_PAY_STATUS_CANCELLED: [],
        REQUEST_TO_PAY_STATUS_EXPIRED: [],
      },
    });
    assert.deepEqual(ENDS.map(isFinalIrtp), [true, true, true, true]);
    assert.deepEqual([IRTP.RECEIVED, IRTP.ACCEPTED, IRTP.REQUEST_PENDING, IRTP.REQUEST_DELIVERED, IRTP.PRESENTED, IRTP.ACCEPTED_BY_PAYER].map(isFinalIrtp), [false, false, false, false, false, false]);
  });

  it('takes the request up with one callback and checks it, expires one taken up at its expiry untold, and refuses a decision before the hand-over', () => {
    assert.deepEqual(decide(IRTP.RECEIVED, base, tick), {
      steps: [{ state: IRTP.ACCEPTED, payloadJson: null }, { state: IRTP.REQUEST_PENDING, payloadJson: null }],
      data: base,
      commands: [],
      deliver: true,
      dueAt: NOW + 60_000,
    });
    assert.deepEqual(decide(IRTP.RECEIVED, base, tick, undefined, EXPIRES), {
      steps: [{ state: IRTP.ACCEPTED, payloadJson: null }, { state: IRTP.EXPIRED, payloadJson: expiryJson }],
      data: base,
      commands: [],
      dueAt: null,
    });
    assert.deepEqual(decide(IRTP.RECEIVED, base, decision('PRESENTED')), { steps: [], data: base, commands: [], refused: 'PRESENTED before the request was handed over', dueAt: 7 });
    assert.equal(decide(IRTP.RECEIVED, base, { type: 'callback', delivered: true }), undefined);
  });

  it('ends a request withdrawn before the hand-over at once, CANCELLED (EXPIRED for an expiry), answering the camt.056 without a notice', () => {
    assert.deepEqual(decide(IRTP.RECEIVED, base, withdrawal('C1')), {
      steps: [{ state: IRTP.ACCEPTED, payloadJson: null }, { state: IRTP.CANCELLED, payloadJson: '{"schema":"camt.056"}' }],
      data: { ...base, withdrawal: answered('C1', { accepted: true }) },
      commands: ['withdrawal'],
      dueAt: NOW + 1_000,
    });
    assert.deepEqual(decide(IRTP.RECEIVED, base, withdrawal('C1', 'EXPIRED'))?.steps.map((step) => step.state), [IRTP.ACCEPTED, IRTP.EXPIRED]);
  });

  it('notes the callback’s delivery once, its first failure once, and checks an undelivered one again', () => {
    assert.deepEqual(decide(IRTP.REQUEST_PENDING, base, { type: 'callback', delivered: true }), { steps: [{ state: IRTP.REQUEST_DELIVERED, payloadJson: null }], data: base, commands: [], dueAt: EXPIRES });
    assert.deepEqual(decide(IRTP.REQUEST_PENDING, base, { type: 'callback', delivered: false }), { steps: [{ state: IRTP.REQUEST_DELIVERY_FAILURE, payloadJson: null }], data: base, commands: [], dueAt: NOW + 60_000 });
    assert.equal(decide(IRTP.REQUEST_DELIVERY_FAILURE, base, { type: 'callback', delivered: false }), undefined);
    assert.deepEqual(decide(IRTP.REQUEST_DELIVERY_FAILURE, base, { type: 'callback', delivered: true })?.steps, [{ state: IRTP.REQUEST_DELIVERED, payloadJson: null }]);
    assert.equal(decide(IRTP.PRESENTED, base, { type: 'callback', delivered: true }), undefined);
    assert.deepEqual(decide(IRTP.REQUEST_PENDING, base, { type: 'tick', callback: { delivered: true } }), { steps: [{ state: IRTP.REQUEST_DELIVERED, payloadJson: null }], data: base, commands: [], dueAt: EXPIRES });
    assert.deepEqual(decide(IRTP.REQUEST_PENDING, base, { type: 'tick', callback: { delivered: false } })?.steps, [{ state: IRTP.REQUEST_DELIVERY_FAILURE, payloadJson: null }]);
  });

  it('forwards each decision of the integrator once as a pain.014 with its reason, sent again with growing delays until taken', () => {
    assert.deepEqual(decide(IRTP.REQUEST_DELIVERED, base, decision('PRESENTED')), {
      steps: [{ state: IRTP.PRESENTED, payloadJson: '{"status":"PRESENTED"}' }],
      data: { ...base, reports: [{ code: 'PRES', sends: 1 }] },
      commands: ['report:PRES'],
      dueAt: NOW + 1_000,
    });
    assert.deepEqual(decide(IRTP.PRESENTED, { ...base, reports: [{ code: 'PRES', sends: 1, done: true }] }, decision('REJECTED')), {
      steps: [{ state: IRTP.REJECTED, payloadJson: '{"status":"REJECTED"}' }],
      data: { ...base, reports: [{ code: 'PRES', sends: 1, done: true }, { code: 'RJCT', sends: 1, reasonCode: 'CUST', reasonText: 'Declined by the payer' }] },
      commands: ['report:RJCT'],
      dueAt: NOW + 1_000,
    });
    assert.deepEqual(decide(IRTP.PRESENTED, base, decision('ACCEPTED'))?.commands, ['report:ACCP']);
    assert.equal(decide(IRTP.REQUEST_DELIVERED, { ...base, reports: [{ code: 'PRES', sends: 1 }] }, decision('PRESENTED')), undefined, 'a status already reported is nothing new');
    const data: IrtpData = { ...base, reports: [{ code: 'PRES', sends: 1, done: true }, { code: 'ACCP', sends: 2 }], withdrawal: { ...answered('C1', { accepted: false, reasonCode: 'ARDT' }), sends: 1 } };
    assert.deepEqual(decide(IRTP.PAID, data, tick), {
      steps: [],
      data: { ...base, reports: [{ code: 'PRES', sends: 1, done: true }, { code: 'ACCP', sends: 3 }], withdrawal: { ...answered('C1', { accepted: false, reasonCode: 'ARDT' }), sends: 2 } },
      commands: ['report:ACCP', 'withdrawal'],
      dueAt: NOW + 3_000,
    });
    assert.deepEqual(decide(IRTP.PRESENTED, { ...base, reports: [{ code: 'PRES', sends: 1, done: true }] }, tick), { steps: [], data: { ...base, reports: [{ code: 'PRES', sends: 1, done: true }] }, commands: [], dueAt: EXPIRES });
    assert.deepEqual(decide(IRTP.PRESENTED, base, tick), { steps: [], data: base, commands: [], dueAt: EXPIRES });
  });

  it('refuses a decision after an end, at or after the expiry, a rejection while a transfer is under way, and going back, naming why', () => {
    assert.equal(decide(IRTP.REJECTED, base, decision('ACCEPTED'))?.refused, `ACCEPTED after ${IRTP.REJECTED}`);
    assert.equal(decide(IRTP.PRESENTED, base, decision('ACCEPTED'), undefined, EXPIRES)?.refused, "ACCEPTED after the request's expiry");
    assert.equal(decide(IRTP.PRESENTED, base, decision('ACCEPTED'), undefined, EXPIRES - 1)?.refused, undefined);
    assert.equal(decide(IRTP.PRESENTED, { ...base, paymentId: 'T1' }, decision('REJECTED'))?.refused, 'REJECTED while a transfer paying the request is under way');
    assert.equal(decide(IRTP.PRESENTED, { ...base, paymentId: 'T1' }, decision('ACCEPTED'))?.refused, undefined);
    assert.deepEqual(decide(IRTP.ACCEPTED_BY_PAYER, base, decision('PRESENTED')), { steps: [], data: base, commands: [], refused: `PRESENTED after ${IRTP.ACCEPTED_BY_PAYER}`, dueAt: 7 });
    assert.equal(decide(IRTP.ACCEPTED_BY_PAYER, base, decision('REJECTED'))?.refused, undefined);
  });

  it('expires an open request at its expiry with one notice, not while a transfer is under way (polled instead)', () => {
    assert.deepEqual(decide(IRTP.PRESENTED, base, tick, undefined, EXPIRES), { steps: [{ state: IRTP.EXPIRED, payloadJson: expiryJson }], data: base, commands: [], notice: { reasonCode: 'EXPIRED' }, dueAt: null });
    assert.deepEqual(decide(IRTP.PRESENTED, { ...base, paymentId: 'T1' }, tick, undefined, EXPIRES), { steps: [], data: { ...base, paymentId: 'T1' }, commands: [], dueAt: EXPIRES + 60_000 });
    assert.deepEqual(decide(IRTP.PRESENTED, base, tick, undefined, EXPIRES - 1)?.steps, []);
    assert.deepEqual(decide(IRTP.REQUEST_PENDING, base, { type: 'tick', callback: { delivered: true } }, undefined, EXPIRES)?.steps.map((step) => step.state), [IRTP.REQUEST_DELIVERED, IRTP.EXPIRED]);
    assert.deepEqual(decide(IRTP.CANCELLED, base, tick, undefined, EXPIRES), { steps: [], data: base, commands: [], dueAt: null });
  });

  it('follows a linked transfer: under way, it holds the request; approved, PAID with ACSC (and RJCR ARDT to a waiting withdrawal); rejected, the request stays open', () => {
    assert.deepEqual(decide(IRTP.PRESENTED, base, tick, pending), { steps: [], data: { ...base, paymentId: 'T1' }, commands: [], dueAt: NOW + 60_000 });
    assert.deepEqual(decide(IRTP.PRESENTED, { ...base, paymentId: 'T1' }, tick, pending), { steps: [], data: { ...base, paymentId: 'T1' }, commands: [], dueAt: NOW + 60_000 });
    assert.deepEqual(decide(IRTP.CANCELLED, base, tick, pending), { steps: [], data: base, commands: [], dueAt: null });
    const paid = { state: IRTP.PAID, payloadJson: '{"schema":"RequestToPayPayment","transactionId":"T1"}' };
    assert.deepEqual(decide(IRTP.PRESENTED, { ...base, paymentId: 'T1', reports: [{ code: 'PRES', sends: 1, done: true }] }, tick, approved), {
      steps: [paid],
      data: { ...base, paidBy: 'T1', reports: [{ code: 'PRES', sends: 1, done: true }, { code: 'ACSC', sends: 1 }] },
      commands: ['report:ACSC'],
      dueAt: NOW + 1_000,
    });
    const waiting = { caseId: 'C1', original: { messageId: 'C1' }, reasonCode: 'CUST', sends: 0 };
    assert.deepEqual(decide(IRTP.REQUEST_DELIVERED, { ...base, paymentId: 'T1', withdrawal: waiting }, tick, approved), {
      steps: [paid],
      data: { ...base, paidBy: 'T1', reports: [{ code: 'ACSC', sends: 1 }], withdrawal: { ...waiting, answer: { accepted: false, reasonCode: 'ARDT' }, sends: 1 } },
      commands: ['report:ACSC', 'withdrawal'],
      dueAt: NOW + 1_000,
    });
    assert.deepEqual(decide(IRTP.PRESENTED, { ...base, paymentId: 'T1' }, tick, rejected), { steps: [], data: base, commands: [], dueAt: EXPIRES });
    assert.equal(decide(IRTP.PRESENTED, { ...base, paymentId: 'T2' }, tick, rejected)?.data.paymentId, 'T2', 'another transfer’s rejection changes nothing');
    assert.deepEqual(decide(IRTP.PRESENTED, { ...base, paymentId: 'T1', withdrawal: waiting }, tick, rejected), {
      steps: [{ state: IRTP.CANCELLED, payloadJson: null }],
      data: { ...base, withdrawal: { ...waiting, answer: { accepted: true }, sends: 1, done: false } },
      commands: ['withdrawal'],
      notice: { reasonCode: 'CUST' },
      dueAt: NOW + 1_000,
    });
  });

  it('refuses once a transfer approved after the request ended, and pays nothing twice', () => {
    assert.deepEqual(decide(IRTP.CANCELLED, base, tick, approved), { steps: [], data: { ...base, lateApprovalId: 'T1' }, commands: [], refused: `a transfer paying the request was approved after ${IRTP.CANCELLED}`, dueAt: null });
    assert.deepEqual(decide(IRTP.CANCELLED, { ...base, lateApprovalId: 'T1' }, tick, approved), { steps: [], data: { ...base, lateApprovalId: 'T1' }, commands: [], dueAt: null });
    assert.deepEqual(decide(IRTP.PAID, { ...base, paidBy: 'T1' }, tick, approved), { steps: [], data: { ...base, paidBy: 'T1' }, commands: [], dueAt: null });
    const both = decide(IRTP.PRESENTED, base, decision('ACCEPTED'), approved);
    assert.deepEqual(both?.steps.map((step) => step.state), [IRTP.PAID]);
    assert.deepEqual(both?.commands, ['report:ACSC']);
    assert.equal(both?.refused, `ACCEPTED after ${IRTP.PAID}`);
    assert.equal(decide(IRTP.CANCELLED, base, decision('ACCEPTED'), approved)?.refused, `ACCEPTED after ${IRTP.CANCELLED}`);
  });

  it('answers a withdrawal by the request’s end: ARDT when paid, ARJT when rejected, CNCL when already ended otherwise; holds it while a transfer is under way; answers a resent camt.056 again', () => {
    for (const [state, answer] of [
      [IRTP.PAID, { accepted: false, reasonCode: 'ARDT' }],
      [IRTP.REJECTED, { accepted: false, reasonCode: 'ARJT' }],
      [IRTP.EXPIRED, { accepted: true }],
    ] as const) {
      assert.deepEqual(decide(state, base, withdrawal('C1')), { steps: [], data: { ...base, withdrawal: answered('C1', answer) }, commands: ['withdrawal'], dueAt: NOW + 1_000 });
    }
    assert.deepEqual(decide(IRTP.PRESENTED, base, withdrawal('C1')), {
      steps: [{ state: IRTP.CANCELLED, payloadJson: '{"schema":"camt.056"}' }],
      data: { ...base, withdrawal: answered('C1', { accepted: true }) },
      commands: ['withdrawal'],
      notice: { reasonCode: 'CUST' },
      dueAt: NOW + 1_000,
    });
    const held = { caseId: 'C1', original: { messageId: 'C1' }, reasonCode: 'CUST', sends: 0 };
    assert.deepEqual(decide(IRTP.PRESENTED, { ...base, paymentId: 'T1' }, withdrawal('C1')), { steps: [], data: { ...base, paymentId: 'T1', withdrawal: held }, commands: [], dueAt: NOW + 60_000 });
    assert.equal(decide(IRTP.PRESENTED, { ...base, paymentId: 'T1', withdrawal: held }, withdrawal('C1')), undefined);
    assert.deepEqual(decide(IRTP.CANCELLED, { ...base, withdrawal: { ...answered('C1', { accepted: true }), sends: 2, done: true } }, withdrawal('C1')), {
      steps: [],
      data: { ...base, withdrawal: { ...answered('C1', { accepted: true }), sends: 3, done: false } },
      commands: ['withdrawal'],
      dueAt: NOW + 3_000,
    });
  });

  it('stops sending what the transport took or refused for good, and leaves a failure for now to the timer', () => {
    const data: IrtpData = { ...base, reports: [{ code: 'PRES', sends: 1, done: true }, { code: 'ACCP', sends: 2 }], withdrawal: answered('C1', { accepted: true }) };
    assert.deepEqual(decide(IRTP.CANCELLED, data, { type: 'sent', command: 'report:ACCP', ok: true, retryable: false }), {
      steps: [],
      data: { ...data, reports: [{ code: 'PRES', sends: 1, done: true }, { code: 'ACCP', sends: 2, done: true }] },
      commands: [],
      dueAt: NOW + 1_000,
    });
    assert.deepEqual(decide(IRTP.CANCELLED, data, { type: 'sent', command: 'withdrawal', ok: false, retryable: false }), {
      steps: [],
      data: { ...data, withdrawal: { ...answered('C1', { accepted: true }), done: true } },
      commands: [],
      dueAt: NOW + 2_000,
    });
    assert.equal(decide(IRTP.CANCELLED, data, { type: 'sent', command: 'report:ACCP', ok: false, retryable: true }), undefined);
    assert.equal(decide(IRTP.CANCELLED, data, { type: 'sent', command: 'report:PRES', ok: true, retryable: false }), undefined);
    assert.equal(decide(IRTP.CANCELLED, data, { type: 'sent', command: 'report:RJCT', ok: true, retryable: false }), undefined);
    assert.equal(decide(IRTP.CANCELLED, base, { type: 'sent', command: 'withdrawal', ok: true, retryable: false }), undefined);
    assert.equal(decide(IRTP.CANCELLED, { ...base, withdrawal: { ...answered('C1', { accepted: true }), done: true } }, { type: 'sent', command: 'withdrawal', ok: true, retryable: false }), undefined);
  });

  it('takes a decision repeated, a transfer already noted, and a done withdrawal as nothing new; marks only the status the transport took', () => {
    assert.equal(REQUEST_TO_PAY_LINK, 'requestToPayId', 'the key stored in a paying transfer’s data');
    assert.equal(decide(IRTP.REJECTED, { ...base, reports: [{ code: 'RJCT', sends: 1 }] }, decision('REJECTED')), undefined);
    assert.equal(decide(IRTP.PRESENTED, { ...base, paymentId: 'T1' }, { type: 'callback', delivered: true }, pending), undefined);
    const done: IrtpData = { ...base, withdrawal: { ...answered('C1', { accepted: true }), done: true } };
    assert.deepEqual(decide(IRTP.CANCELLED, done, tick), { steps: [], data: done, commands: [], dueAt: null });
    const two: IrtpData = { ...base, reports: [{ code: 'PRES', sends: 1 }, { code: 'ACCP', sends: 1 }] };
    assert.deepEqual(decide(IRTP.ACCEPTED_BY_PAYER, two, { type: 'sent', command: 'report:ACCP', ok: true, retryable: false })?.data.reports, [{ code: 'PRES', sends: 1 }, { code: 'ACCP', sends: 1, done: true }]);
  });
});
