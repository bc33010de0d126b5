import { AssertionError } from '../../lib/assert.js';
import { truncateReason } from './machine.js';
/**
 * The state machine of an outbound identifier determination (PayShap proxy or account
 * resolution; docs/state-machine.md). The service sends the scheme one request (acmt.023) and
 * waits for its report (acmt.024) within the scheme's time budget; the integrator gets exactly one
 * answer, the IdentifierDeterminationResponse: in sync mode as the 200 of its held HTTP request
 * (and of any retry of it), in async mode as a must-deliver callback. A successful run enters the
 * seven states of CONTRACT §4 in order.
 *
 * The answer is decided once: whatever comes first of the scheme's report and the end of the time
 * budget decides it, and a report arriving after that is ignored, so the answer given and the
 * state stored never disagree.
 */
export const ID = {
    RECEIVED: 'IDENTIFIER_DETERMINATION_REQUEST_RECEIVED',
    ACCEPTED: 'IDENTIFIER_DETERMINATION_REQUEST_ACCEPTED',
    REJECTED: 'IDENTIFIER_DETERMINATION_REQUEST_REJECTED',
    REQUEST_PENDING: 'IDENTIFIER_DETERMINATION_REQUEST_PENDING',
    REQUEST_DELIVERY_FAILURE: 'IDENTIFIER_DETERMINATION_REQUEST_DELIVERY_FAILURE',
    TIMEOUT: 'IDENTIFIER_DETERMINATION_TIMEOUT',
    RESPONSE_RECEIVED: 'IDENTIFIER_DETERMINATION_RESPONSE_RECEIVED',
    RESPONSE_ACCEPTED: 'IDENTIFIER_DETERMINATION_RESPONSE_ACCEPTED',
    RESPONSE_PENDING: 'IDENTIFIER_DETERMINATION_RESPONSE_PENDING',
    RESPONSE_DELIVERED: 'IDENTIFIER_DETERMINATION_RESPONSE_DELIVERED',
    RESPONSE_DELIVERY_FAILURE: 'IDENTIFIER_DETERMINATION_RESPONSE_DELIVERY_FAILURE',
};
export const ID_TRANSITIONS = {
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
};
export const IDENTIFIER_DETERMINATION_MACHINE = {
    kind: 'IDENTIFIER_DETERMINATION',
    name: 'identifier-determination',
    initialState: ID.RECEIVED,
    transitions: ID_TRANSITIONS,
};
const NOTHING = (view) => ({ steps: [], data: view.data, dueAt: view.dueAt, commands: [] });
/** States in which the request is with the scheme (or on its way) and its report is awaited. */
const AWAITING_REPORT = [ID.REQUEST_PENDING, ID.REQUEST_DELIVERY_FAILURE];
export function decide(view, input, env) {
    switch (input.type) {
        case 'tick':
            return onTick(view, input.supported, env);
        case 'sent':
            return onSent(view, input, env);
        case 'scheme':
            if (!AWAITING_REPORT.includes(view.state))
                return NOTHING(view); // late (after the timeout) or repeated
            return answer(view, input.determination, [ID.RESPONSE_RECEIVED, ID.RESPONSE_ACCEPTED].map((state) => ({ state, payloadJson: input.payloadJson })), env);
        case 'callback':
            return onCallback(view, input.delivered, env);
    }
}
function onTick(view, supported, env) {
    const { data } = view;
    switch (view.state) {
        case ID.RECEIVED: {
            if (supported === undefined)
                throw new AssertionError('the connector capability must be given for a RECEIVED determination');
            if (!supported) {
                const refusal = { schema: 'SchemeCapability', error: 'the scheme connector does not resolve identifiers' };
                return answer(view, { outcome: 'FAILED', reasonCode: 'AG03', reasonText: 'Transaction type not supported' }, [{ state: ID.REJECTED, payloadJson: JSON.stringify(refusal) }], env);
            }
            const deadlineAt = data.deadlineAt ?? env.now + env.timeBudgetMs;
            if (env.now >= deadlineAt) {
                // The budget ran out before any engine took the request up: it is not sent at all.
                const timeout = JSON.stringify({ schema: 'SchemeTimeout', timeBudgetMs: env.timeBudgetMs, sent: false });
                const steps = [ID.ACCEPTED, ID.REQUEST_PENDING].map((state) => ({ state, payloadJson: null }));
                return answer(view, { outcome: 'FAILED', reasonCode: 'AB06', reasonText: 'Timeout at the instructed agent' }, [...steps, { state: ID.TIMEOUT, payloadJson: timeout }], env);
            }
            return {
                steps: [
                    { state: ID.ACCEPTED, payloadJson: null },
                    { state: ID.REQUEST_PENDING, payloadJson: null },
                ],
                data: { ...data, sends: 1, deadlineAt },
                // Should the process die before the send is recorded, the timer sends again (same message id).
                dueAt: Math.min(env.now + env.resendDelayMs(1), deadlineAt),
                commands: ['resolve'],
            };
        }
        case ID.REQUEST_PENDING:
        case ID.REQUEST_DELIVERY_FAILURE: {
            const deadlineAt = data.deadlineAt ?? env.now;
            if (env.now >= deadlineAt) {
                const timeout = JSON.stringify({ schema: 'SchemeTimeout', timeBudgetMs: env.timeBudgetMs });
                return answer(view, { outcome: 'FAILED', reasonCode: 'AB06', reasonText: 'Timeout at the instructed agent' }, [{ state: ID.TIMEOUT, payloadJson: timeout }], env);
            }
            if (data.sent === true)
                return { ...NOTHING(view), dueAt: deadlineAt };
            const sends = (data.sends ?? 1) + 1;
            return { steps: [], data: { ...data, sends }, dueAt: Math.min(env.now + env.resendDelayMs(sends), deadlineAt), commands: ['resolve'] };
        }
        case ID.ACCEPTED:
        case ID.REJECTED:
        case ID.TIMEOUT:
        case ID.RESPONSE_RECEIVED:
        case ID.RESPONSE_ACCEPTED:
            throw new AssertionError(`a determination never rests in ${view.state}`);
        case ID.RESPONSE_PENDING:
        case ID.RESPONSE_DELIVERY_FAILURE:
            // The engine turns a tick here into a callback input when the outbox row says so; otherwise look again later.
            return { ...NOTHING(view), dueAt: env.now + env.callbackCheckMs };
        case ID.RESPONSE_DELIVERED:
            return { ...NOTHING(view), dueAt: null };
    }
}
function onSent(view, input, env) {
    const { data } = view;
    if (!AWAITING_REPORT.includes(view.state))
        return NOTHING(view);
    const deadlineAt = data.deadlineAt ?? env.now;
    if (input.ok)
        return data.sent === true ? NOTHING(view) : { steps: [], data: { ...data, sent: true }, dueAt: deadlineAt, commands: [] };
    const failure = JSON.stringify({ schema: 'SchemeTransportFailure', error: input.error });
    if (!input.retryable) {
        // The scheme cannot take this request at all: no report will come.
        const before = view.state === ID.REQUEST_PENDING ? [{ state: ID.REQUEST_DELIVERY_FAILURE, payloadJson: failure }] : [];
        const steps = [...before, ...[ID.RESPONSE_RECEIVED, ID.RESPONSE_ACCEPTED].map((state) => ({ state, payloadJson: failure }))];
        return answer(view, { outcome: 'FAILED', reasonCode: input.reasonCode ?? 'AB10', reasonText: truncateReason(input.error) }, steps, env);
    }
    if (view.state !== ID.REQUEST_PENDING)
        return NOTHING(view); // the timer sends again
    return {
        steps: [{ state: ID.REQUEST_DELIVERY_FAILURE, payloadJson: failure }],
        data,
        dueAt: Math.min(env.now + env.resendDelayMs((data.sends ?? 1) + 1), deadlineAt),
        commands: [],
    };
}
/**
 * The answer is decided: `before` (the states leading to it), then RESPONSE_PENDING; in sync mode
 * RESPONSE_DELIVERED in the same commit, because the answer is given by being stored (the held
 * request and every retry of it are answered with it, and with nothing else).
 */
function answer(view, determination, before, env) {
    const sync = view.data.mode === 'sync';
    const steps = [...before, { state: ID.RESPONSE_PENDING, payloadJson: null }];
    if (sync)
        steps.push({ state: ID.RESPONSE_DELIVERED, payloadJson: null });
    return {
        steps,
        data: { ...view.data, determination },
        dueAt: sync ? null : env.now + env.callbackCheckMs,
        answer: determination,
        commands: [],
    };
}
function onCallback(view, delivered, env) {
    if (view.state === ID.RESPONSE_PENDING) {
        return {
            steps: [{ state: delivered ? ID.RESPONSE_DELIVERED : ID.RESPONSE_DELIVERY_FAILURE, payloadJson: null }],
            data: view.data,
            dueAt: delivered ? null : env.now + env.callbackCheckMs,
            commands: [],
        };
    }
    if (view.state === ID.RESPONSE_DELIVERY_FAILURE && delivered) {
        return { steps: [{ state: ID.RESPONSE_DELIVERED, payloadJson: null }], data: view.data, dueAt: null, commands: [] };
    }
    return NOTHING(view);
}
//# sourceMappingURL=identifier-determination.js.map