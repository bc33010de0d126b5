/**
 * The state machine of a request-to-pay the scheme brings to an integrator's customer, the debtor
 * (CONTRACT §11; docs/state-machine.md). The service hands the RequestToPay to the integrator
 * (the must-deliver `inboundRequestToPay` callback), forwards each of the integrator's decisions
 * (PRESENTED, ACCEPTED, REJECTED) to the scheme as a pain.014, and reports PAID (ACSC) once an
 * outbound credit transfer of the integrator that carries the request's uetr is approved. The
 * scheme may withdraw the request (camt.056): the service answers it itself, CNCL, or RJCR ARDT
 * when the request is paid, and tells the integrator with one cancellation notice. The request's
 * own durable timer expires it at its expiryDateTime.
 *
 * Invariants (test/unit/inbound-request-to-pay-machine.test.ts):
 * - PAID is entered only on an approved linked transfer, and only from an open state;
 * - PAID, REJECTED, CANCELLED and EXPIRED are final: nothing leaves them, so a request is never
 *   both paid and cancelled or expired;
 * - while a linked transfer is undecided the request neither expires nor is withdrawn: the
 *   withdrawal waits for the transfer's outcome (approved: RJCR ARDT; rejected: CNCL);
 * - at most one cancellation notice, queued with the CANCELLED or EXPIRED state that causes it;
 * - each pain.014 status and the camt.029 are sent until the transport takes them (or refuses
 *   them for good), under an answer key stable across resends.
 */
export const IRTP = {
    RECEIVED: 'REQUEST_TO_PAY_REQUEST_RECEIVED',
    ACCEPTED: 'REQUEST_TO_PAY_REQUEST_ACCEPTED',
    REQUEST_PENDING: 'REQUEST_TO_PAY_REQUEST_PENDING',
    REQUEST_DELIVERED: 'REQUEST_TO_PAY_REQUEST_DELIVERED',
    REQUEST_DELIVERY_FAILURE: 'REQUEST_TO_PAY_REQUEST_DELIVERY_FAILURE',
    PRESENTED: 'REQUEST_TO_PAY_STATUS_PRESENTED',
    ACCEPTED_BY_PAYER: 'REQUEST_TO_PAY_STATUS_ACCEPTED',
    REJECTED: 'REQUEST_TO_PAY_STATUS_REJECTED',
    PAID: 'REQUEST_TO_PAY_STATUS_PAID',
    CANCELLED: 'REQUEST_TO_PAY_STATUS_CANCELLED',
    EXPIRED: 'REQUEST_TO_PAY_STATUS_EXPIRED',
};
const ENDS = [IRTP.REJECTED, IRTP.PAID, IRTP.CANCELLED, IRTP.EXPIRED];
const FINAL = ENDS;
/** States in which the integrator may still decide and the request may still be paid, withdrawn or expire. */
const OPEN = [IRTP.REQUEST_PENDING, IRTP.REQUEST_DELIVERY_FAILURE, IRTP.REQUEST_DELIVERED, IRTP.PRESENTED, IRTP.ACCEPTED_BY_PAYER];
/** States in which the inboundRequestToPay callback's acknowledgement is awaited. */
const DELIVERING = [IRTP.REQUEST_PENDING, IRTP.REQUEST_DELIVERY_FAILURE];
export const IRTP_TRANSITIONS = {
    [IRTP.RECEIVED]: [IRTP.ACCEPTED],
    // A request withdrawn or expired before it was handed over ends without the integrator hearing of it.
    [IRTP.ACCEPTED]: [IRTP.REQUEST_PENDING, IRTP.CANCELLED, IRTP.EXPIRED],
    // The integrator's decision or its payment may overtake the acknowledgement of the callback.
    [IRTP.REQUEST_PENDING]: [IRTP.REQUEST_DELIVERED, IRTP.REQUEST_DELIVERY_FAILURE, IRTP.PRESENTED, IRTP.ACCEPTED_BY_PAYER, ...ENDS],
    [IRTP.REQUEST_DELIVERY_FAILURE]: [IRTP.REQUEST_DELIVERED, IRTP.PRESENTED, IRTP.ACCEPTED_BY_PAYER, ...ENDS],
    [IRTP.REQUEST_DELIVERED]: [IRTP.PRESENTED, IRTP.ACCEPTED_BY_PAYER, ...ENDS],
    [IRTP.PRESENTED]: [IRTP.ACCEPTED_BY_PAYER, ...ENDS],
    [IRTP.ACCEPTED_BY_PAYER]: [...ENDS],
    [IRTP.REJECTED]: [],
    [IRTP.PAID]: [],
    [IRTP.CANCELLED]: [],
    [IRTP.EXPIRED]: [],
};
export const INBOUND_REQUEST_TO_PAY_MACHINE = {
    kind: 'INBOUND_REQUEST_TO_PAY',
    name: 'inbound-request-to-pay',
    initialState: IRTP.RECEIVED,
    transitions: IRTP_TRANSITIONS,
};
export function isFinalIrtp(state) {
    return FINAL.includes(state);
}
/** The integrator's decisions it may send (RequestToPayResponse status.status); the others are the service's to give. */
export const INTEGRATOR_RTP_STATUSES = ['PRESENTED', 'ACCEPTED', 'REJECTED'];
const CODE_OF = { PRESENTED: 'PRES', ACCEPTED: 'ACCP', REJECTED: 'RJCT' };
const STATE_OF = { PRESENTED: IRTP.PRESENTED, ACCEPTED: IRTP.ACCEPTED_BY_PAYER, REJECTED: IRTP.REJECTED };
/** How far a status has come: the integrator never goes back (PRESENTED after ACCEPTED). */
const RANK = { [IRTP.PRESENTED]: 1, [IRTP.ACCEPTED_BY_PAYER]: 2 };
/** The key, in an outbound credit transfer's working data, of the inbound request-to-pay it pays (written at its intake). */
export const REQUEST_TO_PAY_LINK = 'requestToPayId';
/** The reason a camt.056 gives for an expiry (camt056.ts writes it as Rsn/Prtry). */
export const EXPIRY_REASON = 'EXPIRED';
/** camt.029 RJCR reasons: the request is already paid, already rejected. */
export const ALREADY_PAID = 'ARDT';
export const ALREADY_REJECTED = 'ARJT';
export function reportCommand(code) {
    return `report:${code}`;
}
export function decideIrtp(view, input, env) {
    const decision = decideOne(view, input, env);
    if (decision === undefined)
        return undefined;
    const reached = decision.steps.at(-1)?.state ?? view.state;
    // A refusal that changes nothing keeps the timer as it was, so nothing is committed for it.
    const unchanged = decision.refused !== undefined && decision.steps.length === 0 && decision.commands.length === 0 && decision.data === view.data;
    return { ...decision, dueAt: unchanged ? view.dueAt : nextTimer(reached, decision.data, env) };
}
function decideOne(view, input, env) {
    const { state } = view;
    if (state === IRTP.RECEIVED)
        return fromReceived(view, input, env);
    // The linked transfer's outcome comes first: whatever else the input says is decided on the request as the payment leaves it.
    const paid = onPayment(view, input.payment);
    const after = paid === undefined ? view : { ...view, state: paid.steps.at(-1)?.state ?? view.state, data: paid.data };
    // A payment decided by this input already queued its pain.014: a tick does not queue it twice.
    const rest = input.type === 'tick' ? onTick(after, input.callback, env, paid === undefined) : onInput(after, input, env);
    if (paid === undefined)
        return rest;
    if (rest === undefined)
        return paid;
    return {
        steps: [...paid.steps, ...rest.steps],
        data: rest.data,
        commands: [...paid.commands, ...rest.commands],
        ...((rest.notice ?? paid.notice) === undefined ? {} : { notice: rest.notice ?? paid.notice }),
        ...(rest.refused === undefined ? (paid.refused === undefined ? {} : { refused: paid.refused }) : { refused: rest.refused }),
    };
}
/** Before the take-up: the tick takes the request up; a withdrawal takes it up and ends it at once, untold. */
function fromReceived(view, input, env) {
    if (input.type === 'tick')
        return takeUp(view, env);
    if (input.type === 'withdrawal') {
        const ended = withdraw({ ...view, state: IRTP.ACCEPTED }, { caseId: input.caseId, original: input.original, reasonCode: input.reasonCode, sends: 0 }, input.payloadJson);
        return { ...ended, steps: [{ state: IRTP.ACCEPTED, payloadJson: null }, ...ended.steps] };
    }
    if (input.type === 'decision')
        return { steps: [], data: view.data, commands: [], refused: `${input.status} before the request was handed over` };
    return undefined;
}
function takeUp(view, env) {
    const accepted = { state: IRTP.ACCEPTED, payloadJson: null };
    if (env.now >= view.data.expiresAt)
        return { steps: [accepted, { state: IRTP.EXPIRED, payloadJson: expiryJson(view.data) }], data: view.data, commands: [] };
    return { steps: [accepted, { state: IRTP.REQUEST_PENDING, payloadJson: null }], data: view.data, commands: [], deliver: true };
}
/** The linked transfer's outcome as it bears on the request; undefined when it changes nothing. */
function onPayment(view, payment) {
    const { state, data } = view;
    if (payment === undefined)
        return undefined;
    if (payment.outcome === 'PENDING') {
        if (!OPEN.includes(state) || data.paymentId === payment.id)
            return undefined;
        return { steps: [], data: { ...data, paymentId: payment.id }, commands: [] };
    }
    if (payment.outcome === 'REJECTED') {
        // A rejected transfer leaves the request open; a withdrawal that waited for it is now decided.
        if (data.paymentId !== payment.id)
            return undefined;
        const { paymentId: _rejected, ...rest } = data;
        const open = { ...view, data: rest };
        const waiting = rest.withdrawal !== undefined && rest.withdrawal.answer === undefined ? rest.withdrawal : undefined;
        return waiting === undefined ? { steps: [], data: rest, commands: [] } : withdraw(open, waiting);
    }
    if (state === IRTP.PAID)
        return undefined;
    if (!OPEN.includes(state)) {
        if (data.lateApprovalId === payment.id)
            return undefined;
        return { steps: [], data: { ...data, lateApprovalId: payment.id }, commands: [], refused: `a transfer paying the request was approved after ${state}` };
    }
    const { paymentId: _approved, ...rest } = data;
    let next = { ...rest, paidBy: payment.id, reports: [...(rest.reports ?? []), { code: 'ACSC', sends: 1 }] };
    const commands = [reportCommand('ACSC')];
    if (next.withdrawal !== undefined && next.withdrawal.answer === undefined) {
        next = { ...next, withdrawal: { ...next.withdrawal, answer: { accepted: false, reasonCode: ALREADY_PAID }, sends: 1 } };
        commands.push('withdrawal');
    }
    return { steps: [{ state: IRTP.PAID, payloadJson: JSON.stringify({ schema: 'RequestToPayPayment', transactionId: payment.id }) }], data: next, commands };
}
function onInput(view, input, env) {
    switch (input.type) {
        case 'tick':
            return onTick(view, input.callback, env, true);
        case 'callback':
            return onCallback(view, input.delivered);
        case 'decision':
            return onDecision(view, input, env);
        case 'withdrawal':
            return onWithdrawal(view, input);
        case 'sent':
            return onSent(view, input);
    }
}
function onTick(view, callback, env, resend) {
    const { state, data } = view;
    const acknowledged = callback === undefined ? undefined : onCallback(view, callback.delivered);
    const base = acknowledged === undefined ? view : { ...view, state: acknowledged.steps.at(-1)?.state ?? state };
    const steps = [...(acknowledged?.steps ?? [])];
    if (OPEN.includes(base.state) && data.paymentId === undefined && env.now >= data.expiresAt) {
        // Expired by the service's own timer: the integrator is told, the scheme is not (it expires its requests itself).
        return { steps: [...steps, { state: IRTP.EXPIRED, payloadJson: expiryJson(data) }], data, commands: [], notice: { reasonCode: EXPIRY_REASON } };
    }
    if (!resend)
        return { steps, data, commands: [] };
    // Whatever the transport has not taken is sent again.
    const reports = (data.reports ?? []).map((report) => (report.done === true ? report : { ...report, sends: report.sends + 1 }));
    const commands = reports.filter((report) => report.done !== true).map((report) => reportCommand(report.code));
    let withdrawal = data.withdrawal;
    if (withdrawal?.answer !== undefined && withdrawal.done !== true) {
        withdrawal = { ...withdrawal, sends: withdrawal.sends + 1 };
        commands.push('withdrawal');
    }
    return { steps, data: { ...data, ...(data.reports === undefined ? {} : { reports }), ...(withdrawal === undefined ? {} : { withdrawal }) }, commands };
}
function onCallback(view, delivered) {
    const { state, data } = view;
    if (!DELIVERING.includes(state))
        return undefined;
    if (delivered)
        return { steps: [{ state: IRTP.REQUEST_DELIVERED, payloadJson: null }], data, commands: [] };
    if (state === IRTP.REQUEST_DELIVERY_FAILURE)
        return undefined;
    return { steps: [{ state: IRTP.REQUEST_DELIVERY_FAILURE, payloadJson: null }], data, commands: [] };
}
function onDecision(view, input, env) {
    const { state, data } = view;
    const target = STATE_OF[input.status];
    if (state === target)
        return undefined; // the same decision again: already forwarded
    const refuse = (why) => ({ steps: [], data, commands: [], refused: why });
    if (!OPEN.includes(state))
        return refuse(`${input.status} after ${state}`);
    if (env.now >= data.expiresAt)
        return refuse(`${input.status} after the request's expiry`);
    if (input.status === 'REJECTED' && data.paymentId !== undefined)
        return refuse('REJECTED while a transfer paying the request is under way');
    const rank = RANK[target];
    if (rank !== undefined && (RANK[state] ?? 0) > rank)
        return refuse(`${input.status} after ${state}`);
    const code = CODE_OF[input.status];
    if ((data.reports ?? []).some((report) => report.code === code))
        return undefined;
    const report = {
        code,
        sends: 1,
        ...(input.reasonCode === undefined ? {} : { reasonCode: input.reasonCode }),
        ...(input.reasonText === undefined ? {} : { reasonText: input.reasonText }),
    };
    return { steps: [{ state: target, payloadJson: input.payloadJson }], data: { ...data, reports: [...(data.reports ?? []), report] }, commands: [reportCommand(code)] };
}
function onWithdrawal(view, input) {
    const { state, data } = view;
    const known = data.withdrawal;
    if (known?.caseId === input.caseId) {
        // The scheme sent its camt.056 again: the same answer again, once decided.
        if (known.answer === undefined)
            return undefined;
        return { steps: [], data: { ...data, withdrawal: { ...known, sends: known.sends + 1, done: false } }, commands: ['withdrawal'] };
    }
    const withdrawal = { caseId: input.caseId, original: input.original, reasonCode: input.reasonCode, sends: 0 };
    if (OPEN.includes(state) && data.paymentId !== undefined)
        return { steps: [], data: { ...data, withdrawal }, commands: [] };
    return withdraw(view, withdrawal, input.payloadJson);
}
/** Decide a withdrawal no transfer holds up: an open request ends (one notice), an ended one is answered by its end. */
function withdraw(view, withdrawal, payloadJson = null) {
    const { state, data } = view;
    const answered = (answer) => ({ ...data, withdrawal: { ...withdrawal, answer, sends: withdrawal.sends + 1, done: false } });
    if (state === IRTP.PAID)
        return { steps: [], data: answered({ accepted: false, reasonCode: ALREADY_PAID }), commands: ['withdrawal'] };
    if (state === IRTP.REJECTED)
        return { steps: [], data: answered({ accepted: false, reasonCode: ALREADY_REJECTED }), commands: ['withdrawal'] };
    if (!OPEN.includes(state) && state !== IRTP.ACCEPTED)
        return { steps: [], data: answered({ accepted: true }), commands: ['withdrawal'] };
    const end = withdrawal.reasonCode === EXPIRY_REASON ? IRTP.EXPIRED : IRTP.CANCELLED;
    // Not yet handed to the integrator (taken up and withdrawn at once): nothing to tell it.
    const notice = state === IRTP.ACCEPTED ? {} : { notice: { reasonCode: withdrawal.reasonCode } };
    return { steps: [{ state: end, payloadJson }], data: answered({ accepted: true }), commands: ['withdrawal'], ...notice };
}
function onSent(view, input) {
    const { data } = view;
    // A retryable failure waits for the timer; success, or a refusal for good, ends the sending.
    if (!input.ok && input.retryable)
        return undefined;
    if (input.command === 'withdrawal') {
        if (data.withdrawal === undefined || data.withdrawal.done === true)
            return undefined;
        return { steps: [], data: { ...data, withdrawal: { ...data.withdrawal, done: true } }, commands: [] };
    }
    const code = input.command.slice('report:'.length);
    const reports = data.reports ?? [];
    if (!reports.some((report) => report.code === code && report.done !== true))
        return undefined;
    return { steps: [], data: { ...data, reports: reports.map((report) => (report.code === code ? { ...report, done: true } : report)) }, commands: [] };
}
/**
 * The next timer: the expiry of an open request (sooner while a transfer is awaited, polled in
 * case its wake was lost), the request callback's check, and the resend of whatever the
 * transport has not taken.
 */
function nextTimer(state, data, env) {
    const times = [];
    if (OPEN.includes(state))
        times.push(data.paymentId === undefined ? data.expiresAt : env.now + env.checkMs);
    if (DELIVERING.includes(state))
        times.push(env.now + env.checkMs);
    const unsent = [...(data.reports ?? []).filter((report) => report.done !== true).map((report) => report.sends), ...(data.withdrawal?.answer !== undefined && data.withdrawal.done !== true ? [data.withdrawal.sends] : [])];
    if (unsent.length > 0)
        times.push(env.now + env.resendDelayMs(Math.max(...unsent)));
    return times.length === 0 ? null : Math.min(...times);
}
function expiryJson(data) {
    return JSON.stringify({ schema: 'RequestToPayExpiry', expiryDateTime: new Date(data.expiresAt).toISOString() });
}
//# sourceMappingURL=inbound-request-to-pay.js.map