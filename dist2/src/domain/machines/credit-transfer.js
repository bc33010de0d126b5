import { AssertionError } from '../../lib/assert.js';
import { assertLegalTransition, isStateOf, truncateReason } from './machine.js';
/**
 * The state machine of an outbound credit transfer (docs/state-machine.md). Each state is named
 * after the event type emitted when it is entered (CONTRACT §4), so "one event per state
 * entered" holds by construction. `decide()` is pure: the engine feeds it the transaction's
 * current view and one input, and commits what it returns (states entered, next timer, working
 * data, callbacks) atomically, then carries out the scheme commands after the commit.
 */
export const CT = {
    RECEIVED: 'PAYMENT_AUTH_REQUEST_RECEIVED',
    ACCEPTED: 'PAYMENT_AUTH_REQUEST_ACCEPTED',
    REJECTED: 'PAYMENT_AUTH_REQUEST_REJECTED',
    REQUEST_PENDING: 'PAYMENT_AUTH_REQUEST_PENDING',
    REQUEST_DELIVERED: 'PAYMENT_AUTH_REQUEST_DELIVERED',
    REQUEST_DELIVERY_FAILURE: 'PAYMENT_AUTH_REQUEST_DELIVERY_FAILURE',
    TIMEOUT: 'PAYMENT_AUTH_TIMEOUT',
    RESPONSE_RECEIVED: 'PAYMENT_AUTH_RESPONSE_RECEIVED',
    RESPONSE_ACCEPTED: 'PAYMENT_AUTH_RESPONSE_ACCEPTED',
    RESPONSE_PENDING: 'PAYMENT_AUTH_RESPONSE_PENDING',
    RESPONSE_DELIVERED: 'PAYMENT_AUTH_RESPONSE_DELIVERED',
    RESPONSE_DELIVERY_FAILURE: 'PAYMENT_AUTH_RESPONSE_DELIVERY_FAILURE',
};
export const CREDIT_TRANSFER_INITIAL_STATE = CT.RECEIVED;
/** Every legal transition; the engine asserts each one it commits (an illegal transition is a bug). */
export const CT_TRANSITIONS = {
    [CT.RECEIVED]: [CT.ACCEPTED, CT.REJECTED],
    [CT.ACCEPTED]: [CT.REQUEST_PENDING],
    [CT.REJECTED]: [CT.RESPONSE_PENDING],
    [CT.REQUEST_PENDING]: [CT.REQUEST_DELIVERED, CT.REQUEST_DELIVERY_FAILURE, CT.TIMEOUT, CT.RESPONSE_RECEIVED],
    [CT.REQUEST_DELIVERY_FAILURE]: [CT.REQUEST_DELIVERED, CT.TIMEOUT, CT.RESPONSE_RECEIVED],
    [CT.REQUEST_DELIVERED]: [CT.TIMEOUT, CT.RESPONSE_RECEIVED],
    [CT.TIMEOUT]: [CT.RESPONSE_RECEIVED],
    [CT.RESPONSE_RECEIVED]: [CT.RESPONSE_ACCEPTED],
    [CT.RESPONSE_ACCEPTED]: [CT.RESPONSE_PENDING],
    [CT.RESPONSE_PENDING]: [CT.RESPONSE_DELIVERED, CT.RESPONSE_DELIVERY_FAILURE],
    [CT.RESPONSE_DELIVERY_FAILURE]: [CT.RESPONSE_DELIVERED],
    [CT.RESPONSE_DELIVERED]: [],
};
export const CREDIT_TRANSFER_MACHINE = {
    kind: 'CREDIT_TRANSFER',
    name: 'credit-transfer',
    initialState: CREDIT_TRANSFER_INITIAL_STATE,
    transitions: CT_TRANSITIONS,
};
export function isCtState(value) {
    return isStateOf(CREDIT_TRANSFER_MACHINE, value);
}
export function assertTransition(from, to) {
    assertLegalTransition(CREDIT_TRANSFER_MACHINE, from, to);
}
/** Nothing changes: same state, data and timer. */
const NOTHING = (view) => ({ steps: [], data: view.data, dueAt: view.dueAt, commands: [] });
/** A decision that keeps the state but may change timer, data or send commands. */
const stay = (view, dueAt, data, commands = []) => ({ steps: [], data, dueAt, commands });
/** States in which the transfer is with the scheme and a verdict is awaited. */
const AWAITING_VERDICT = [CT.REQUEST_PENDING, CT.REQUEST_DELIVERED, CT.REQUEST_DELIVERY_FAILURE, CT.TIMEOUT];
export function decide(view, input, env) {
    switch (input.type) {
        case 'tick':
            return onTick(view, input, env);
        case 'sent':
            return onSent(view, input, env);
        case 'scheme':
            return onScheme(view, input.answer, env);
        case 'callback':
            return onCallback(view, input.delivered, env);
    }
}
function onTick(view, input, env) {
    const { data } = view;
    switch (view.state) {
        case CT.RECEIVED: {
            if (input.rules === undefined)
                throw new AssertionError('scheme rules must be checked for a RECEIVED transfer');
            if (!input.rules.ok) {
                const verdict = { outcome: 'REJECTED', reasonCode: input.rules.reasonCode, reasonText: input.rules.reasonText };
                return {
                    steps: [
                        { state: CT.REJECTED, payloadJson: null },
                        { state: CT.RESPONSE_PENDING, payloadJson: null },
                    ],
                    data: { ...data, verdict },
                    dueAt: env.now + env.callbackCheckMs,
                    callback: verdict,
                    commands: [],
                };
            }
            return {
                steps: [
                    { state: CT.ACCEPTED, payloadJson: null },
                    { state: CT.REQUEST_PENDING, payloadJson: null },
                ],
                data: { ...data, submissions: 1, deadlineAt: env.now + env.timeBudgetMs },
                // If the process dies before the submission is recorded, the timer resubmits (same idempotency key).
                dueAt: env.now + env.resubmitDelayMs(1),
                commands: ['submit'],
            };
        }
        case CT.REQUEST_PENDING:
        case CT.REQUEST_DELIVERY_FAILURE:
        case CT.REQUEST_DELIVERED: {
            const deadlineAt = data.deadlineAt ?? env.now;
            if (env.now >= deadlineAt) {
                const enquiries = (data.enquiries ?? 0) + 1;
                return {
                    steps: [{ state: CT.TIMEOUT, payloadJson: null }],
                    data: { ...data, enquiries },
                    dueAt: env.now + env.enquiryDelayMs(enquiries),
                    commands: ['enquire'],
                };
            }
            if (view.state === CT.REQUEST_DELIVERED)
                return stay(view, deadlineAt, data);
            // Not yet known to be with the scheme: submit again (idempotent), no later than the deadline.
            const submissions = (data.submissions ?? 1) + 1;
            return stay(view, Math.min(env.now + env.resubmitDelayMs(submissions), deadlineAt), { ...data, submissions }, ['submit']);
        }
        case CT.TIMEOUT: {
            const enquiries = (data.enquiries ?? 0) + 1;
            return stay(view, env.now + env.enquiryDelayMs(enquiries), { ...data, enquiries }, ['enquire']);
        }
        case CT.ACCEPTED:
        case CT.REJECTED:
        case CT.RESPONSE_RECEIVED:
        case CT.RESPONSE_ACCEPTED:
            // Transient states: entered and left within one commit, never waited in.
            throw new AssertionError(`a transfer never rests in ${view.state}`);
        case CT.RESPONSE_PENDING:
        case CT.RESPONSE_DELIVERY_FAILURE:
            // The engine turns a tick here into a callback input when the outbox row says so; otherwise look again later.
            return stay(view, env.now + env.callbackCheckMs, data);
        case CT.RESPONSE_DELIVERED:
            return { ...NOTHING(view), dueAt: null };
    }
}
function onSent(view, input, env) {
    const { data } = view;
    if (!AWAITING_VERDICT.includes(view.state))
        return NOTHING(view);
    const deadlineAt = data.deadlineAt ?? env.now;
    if (input.ok) {
        if (input.what === 'enquire' || view.state === CT.REQUEST_DELIVERED || view.state === CT.TIMEOUT)
            return NOTHING(view);
        return { steps: [{ state: CT.REQUEST_DELIVERED, payloadJson: null }], data, dueAt: deadlineAt, commands: [] };
    }
    if (input.what === 'enquire')
        return NOTHING(view); // the enquiry timer asks again
    if (!input.retryable) {
        // The scheme cannot take this message at all: it will never be paid, so it is declined.
        const verdict = { outcome: 'REJECTED', reasonCode: 'AB10', reasonText: truncateReason(input.error) };
        return verdictSteps(view, verdict, JSON.stringify({ schema: 'SchemeTransportFailure', error: input.error }), [CT.REQUEST_DELIVERY_FAILURE], env);
    }
    if (view.state === CT.REQUEST_PENDING) {
        const submissions = data.submissions ?? 1;
        return {
            steps: [{ state: CT.REQUEST_DELIVERY_FAILURE, payloadJson: JSON.stringify({ schema: 'SchemeTransportFailure', error: input.error }) }],
            data,
            dueAt: Math.min(env.now + env.resubmitDelayMs(submissions + 1), deadlineAt),
            commands: [],
        };
    }
    return NOTHING(view);
}
function onScheme(view, answer, env) {
    const { data } = view;
    if (!AWAITING_VERDICT.includes(view.state))
        return NOTHING(view); // e.g. a second answer after the verdict
    if (answer.kind === 'not_found') {
        // The scheme never got the transfer: resubmitting with the same idempotency key is safe.
        const submissions = (data.submissions ?? 1) + 1;
        return stay(view, env.now + env.enquiryDelayMs((data.enquiries ?? 0) + 1), { ...data, submissions }, ['submit']);
    }
    if (answer.status === 'PENDING') {
        // Still unknown: never guessed. Wait for the verdict until the deadline, then enquire.
        if (view.state === CT.TIMEOUT)
            return NOTHING(view);
        return stay(view, data.deadlineAt ?? env.now, data);
    }
    const verdict = answer.status === 'ACCEPTED'
        ? { outcome: 'APPROVED' }
        : {
            outcome: 'REJECTED',
            ...(answer.reasonCode === undefined ? {} : { reasonCode: answer.reasonCode }),
            ...(answer.reasonText === undefined ? {} : { reasonText: answer.reasonText }),
        };
    // A verdict proves the scheme has the request, even when it overtook the transport's acknowledgement.
    return verdictSteps(view, verdict, answer.payloadJson, [CT.REQUEST_DELIVERED], env);
}
/** The scheme (or its transport) gave a verdict: record it and queue the outcome callback. `before`: states entered first where legal. */
function verdictSteps(view, verdict, payloadJson, before, env) {
    const steps = before.filter((state) => CT_TRANSITIONS[view.state].includes(state)).map((state) => ({ state, payloadJson }));
    steps.push({ state: CT.RESPONSE_RECEIVED, payloadJson }, { state: CT.RESPONSE_ACCEPTED, payloadJson }, { state: CT.RESPONSE_PENDING, payloadJson: null });
    return { steps, data: { ...view.data, verdict }, dueAt: env.now + env.callbackCheckMs, callback: verdict, commands: [] };
}
function onCallback(view, delivered, env) {
    if (view.state === CT.RESPONSE_PENDING) {
        return {
            steps: [{ state: delivered ? CT.RESPONSE_DELIVERED : CT.RESPONSE_DELIVERY_FAILURE, payloadJson: null }],
            data: view.data,
            dueAt: delivered ? null : env.now + env.callbackCheckMs,
            commands: [],
        };
    }
    if (view.state === CT.RESPONSE_DELIVERY_FAILURE && delivered) {
        return { steps: [{ state: CT.RESPONSE_DELIVERED, payloadJson: null }], data: view.data, dueAt: null, commands: [] };
    }
    return NOTHING(view);
}
//# sourceMappingURL=credit-transfer.js.map