import { INBOUND_PATHS } from '../../domain/callback-paths.js';
import { COMPLETION, decideInbound, INBOUND_CREDIT_TRANSFER, INBOUND_CREDIT_TRANSFER_MACHINE, INBOUND_IDENTIFIER_DETERMINATION, INBOUND_IDENTIFIER_DETERMINATION_MACHINE, } from '../../domain/machines/inbound.js';
import { judgeAnswer } from '../../domain/messages/inbound-answers.js';
import { paymentStatusReportJson } from '../../domain/messages/payment-status-report.js';
import { parseJson } from '../../lib/json.js';
import { callbackMessage, callbackRowInput, traceHeaders } from './kind.js';
function inboundDriver(side) {
    const { profile } = side;
    return {
        machine: side.machine,
        answers(_transaction, report) {
            // A credit's final word comes as a pacs.002; a lookup is answered by nobody but the integrator.
            return profile.completion && report.kind === 'status';
        },
        async decide(context, input, env) {
            const { transaction } = context;
            const data = transaction.data;
            const machineInput = await inputOf(side, context, data, input, env);
            if (machineInput === undefined)
                return undefined;
            const decision = decideInbound(profile, { state: transaction.state, data, dueAt: transaction.dueAt }, machineInput, {
                now: env.now,
                resendDelayMs: env.delays.resendDelayMs,
                callbackCheckMs: env.delays.callbackCheckMs,
            });
            if (decision === undefined)
                return undefined;
            const outbox = [];
            let next = { ...decision.data, origin: data.origin };
            if (decision.complete !== undefined) {
                const id = env.ids.uuid();
                outbox.push(callbackMessage(context, id, INBOUND_PATHS.creditTransferCompletion, completionJson(context, decision.complete, id, env.now), env.now));
                next = { ...next, callbackId: id };
            }
            const outcome = outcomeOf(side, decision.decided, decision.complete);
            return {
                steps: decision.steps,
                data: next,
                dueAt: decision.dueAt,
                commands: decision.commands,
                outbox,
                ...(decision.refused === undefined ? {} : { refused: decision.refused }),
                ...(outcome === undefined ? {} : { outcome }),
            };
        },
        async execute(context, command, now) {
            const data = context.transaction.data;
            if (command === 'ask')
                return ask(side, context, data, now);
            if (data.verdict === undefined)
                return { kind: 'failed', retryable: false, error: 'no answer decided to send' };
            return side.answerScheme(context, data, data.verdict);
        },
    };
}
async function inputOf(side, context, data, input, env) {
    const { transaction } = context;
    switch (input.type) {
        case 'tick': {
            if ((transaction.state === COMPLETION.PENDING || transaction.state === COMPLETION.DELIVERY_FAILURE) && data.callbackId !== undefined) {
                const callback = await callbackRowInput(env, transaction.id, data.callbackId, transaction.state === COMPLETION.PENDING);
                if (callback?.type === 'callback')
                    return { type: 'callback', delivered: callback.delivered };
            }
            return { type: 'tick' };
        }
        case 'sent': {
            const { outcome } = input;
            if (input.command === 'answer') {
                return outcome.kind === 'delivered' ? { type: 'answered', ok: true } : { type: 'answered', ok: false, retryable: outcome.retryable, error: outcome.error };
            }
            if (outcome.kind === 'failed')
                return { type: 'asked', ok: false, error: outcome.error };
            if (data.mode !== 'sync')
                return { type: 'asked', ok: true };
            const body = outcome.reply?.body ?? '';
            return { type: 'asked', ok: true, answer: judged(side, body) };
        }
        case 'scheme': {
            const { report } = input;
            if (report.kind !== 'status' || report.status === 'PENDING')
                return undefined;
            const word = {
                settled: report.status === 'ACCEPTED',
                ...(report.reasonCode === undefined ? {} : { reasonCode: report.reasonCode }),
                ...(report.reasonText === undefined ? {} : { reasonText: report.reasonText }),
            };
            return { type: 'final', word, payloadJson: JSON.stringify(report.message) };
        }
        case 'request': {
            const { request } = input;
            if (request.type === 'report')
                return { type: 'report', answer: judgeAnswer(side.answerKind, request.answer, request.answerJson) };
            if (request.type === 'resend')
                return { type: 'resend' };
            return undefined;
        }
        case 'callback':
            return input.outboxId === data.callbackId ? { type: 'callback', delivered: input.delivered } : undefined;
    }
}
/** The 200 of a sync call as the machine takes it: JSON that passes the answer's rules, or why not. */
function judged(side, body) {
    const parsed = parseJson(body);
    if (!parsed.ok)
        return { valid: false, problem: `the answer is not JSON: ${parsed.message}`, payloadJson: JSON.stringify({ unparsed: body.slice(0, 1_000) }) };
    return judgeAnswer(side.answerKind, parsed.value, body);
}
/** The call to the integrator: its webhook-id is the transaction's id on every call, its deadline whatever is left of the budget. */
async function ask(side, context, data, now) {
    const { transaction, integrator, partner } = context;
    if (partner === undefined)
        return { kind: 'failed', retryable: false, error: 'this instance makes no calls to integrators' };
    const result = await partner.call({
        id: transaction.id,
        url: `${integrator.partnerApiUrl}${data.mode === 'sync' ? side.paths.sync : side.paths.async}`,
        body: context.rawBody,
        headers: traceHeaders(transaction),
        timeoutMs: Math.max(1, data.deadlineAt - now),
    }, integrator);
    if (result.delivered && result.httpStatus !== null)
        return { kind: 'delivered', reply: { httpStatus: result.httpStatus, body: result.body ?? '' } };
    return { kind: 'failed', retryable: true, error: result.error ?? `HTTP ${String(result.httpStatus)}` };
}
/** The transaction's outcome, when a decision gives it: the verdict, then for a credit the scheme's final word. */
function outcomeOf(side, decided, complete) {
    if (complete !== undefined)
        return { outcome: complete.settled ? 'APPROVED' : 'REJECTED', reasonCode: complete.reasonCode ?? null };
    if (decided === undefined)
        return undefined;
    const [yes, no] = side.answerKind === 'credit' ? ['APPROVED', 'REJECTED'] : ['SUCCESSFUL', 'FAILED'];
    return { outcome: decided.approved ? yes : no, reasonCode: decided.reasonCode ?? null };
}
/** The completion callback: a PaymentStatusReport about the CreditTransfer the integrator was asked about. */
function completionJson(context, word, id, now) {
    return paymentStatusReportJson({
        original: context.message,
        verdict: {
            outcome: word.settled ? 'APPROVED' : 'REJECTED',
            ...(word.reasonCode === undefined ? {} : { reasonCode: word.reasonCode }),
            ...(word.reasonText === undefined ? {} : { reasonText: word.reasonText }),
        },
        messageIdentification: id.replaceAll('-', ''),
        createdAt: now,
    });
}
function answerBase(context, data) {
    return { transactionId: context.transaction.id, answerKey: context.transaction.id, original: data.origin, traceparent: context.transaction.traceparent };
}
function reason(verdict) {
    return {
        ...(verdict.reasonCode === undefined ? {} : { reasonCode: verdict.reasonCode }),
        ...(verdict.reasonText === undefined ? {} : { reasonText: verdict.reasonText }),
    };
}
/** The account and names of a SUCCESSFUL lookup answer, as the acmt.024 carries them. */
function accountOf(answerJson) {
    if (answerJson === undefined)
        return undefined;
    const parsed = parseJson(answerJson);
    if (!parsed.ok)
        return undefined;
    const information = parsed.value.report.reportInformation;
    const { accountInformation: account, accountOwner: owner } = information;
    return {
        ...(account.traditionalIdentifier === undefined ? {} : { traditionalIdentifier: account.traditionalIdentifier }),
        ...(account.proxy === undefined ? {} : { proxy: account.proxy }),
        ...(account.creationDate === undefined ? {} : { creationDate: account.creationDate }),
        ...(owner.knownAsName === undefined ? {} : { knownAsName: owner.knownAsName }),
        ...(owner.legalName === undefined ? {} : { legalName: owner.legalName }),
        ...(information.accountAgent?.bicfi === undefined ? {} : { accountAgentBicfi: information.accountAgent.bicfi }),
    };
}
export const INBOUND_CREDIT_TRANSFER_DRIVER = inboundDriver({
    profile: INBOUND_CREDIT_TRANSFER,
    machine: INBOUND_CREDIT_TRANSFER_MACHINE,
    answerKind: 'credit',
    paths: { sync: INBOUND_PATHS.creditTransferAuthorisationSync, async: INBOUND_PATHS.creditTransferAuthorisation },
    answerScheme(context, data, verdict) {
        return context.connector.answerCredit({ ...answerBase(context, data), status: verdict.approved ? 'ACSP' : 'RJCT', ...reason(verdict) });
    },
});
export const INBOUND_IDENTIFIER_DETERMINATION_DRIVER = inboundDriver({
    profile: INBOUND_IDENTIFIER_DETERMINATION,
    machine: INBOUND_IDENTIFIER_DETERMINATION_MACHINE,
    answerKind: 'lookup',
    paths: { sync: INBOUND_PATHS.identifierDeterminationSync, async: INBOUND_PATHS.identifierDetermination },
    answerScheme(context, data, verdict) {
        const account = verdict.approved ? accountOf(verdict.answerJson) : undefined;
        return context.connector.answerLookup({
            ...answerBase(context, data),
            outcome: verdict.approved ? 'SUCCESSFUL' : 'FAILED',
            ...(account === undefined ? {} : { account }),
            ...reason(verdict),
            request: context.message,
        });
    },
});
//# sourceMappingURL=inbound.js.map