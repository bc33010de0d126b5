import { REQUEST_TO_PAY_LINK } from '../../domain/machines/inbound-request-to-pay.js';
import { CALLBACK_PATHS } from '../../domain/callback-paths.js';
import { CREDIT_TRANSFER_MACHINE, CT, decide } from '../../domain/machines/credit-transfer.js';
import { paymentStatusReportJson } from '../../domain/messages/payment-status-report.js';
import { currencyDecimals, parseAmount } from '../../lib/money.js';
import { amountOf, callbackMessage, callbackRowInput, outboundOf, sentInput, stateIn } from './kind.js';
/** The engine's side of an outbound credit transfer: the machine of domain/machines/credit-transfer.ts. */
export const CREDIT_TRANSFER_DRIVER = {
    machine: CREDIT_TRANSFER_MACHINE,
    answers(transaction, report) {
        return (report.kind === 'status' || report.kind === 'not_found') && transaction.uetr === report.uetr;
    },
    async decide(context, input, env) {
        const { transaction } = context;
        const state = stateIn(CREDIT_TRANSFER_MACHINE, transaction);
        const data = transaction.data;
        const linked = transaction.data[REQUEST_TO_PAY_LINK];
        const ctInput = await machineInput(context, state, data, input, env);
        if (ctInput === undefined)
            return undefined;
        const decision = decide({ state, data, dueAt: transaction.dueAt }, ctInput, {
            now: env.now,
            timeBudgetMs: env.timeBudgetMs,
            resubmitDelayMs: env.delays.resendDelayMs,
            enquiryDelayMs: env.delays.enquiryDelayMs,
            callbackCheckMs: env.delays.callbackCheckMs,
        });
        const outbox = [];
        let next = decision.data;
        if (decision.callback !== undefined) {
            const id = env.ids.uuid();
            const body = paymentStatusReportJson({ original: messageOf(context), verdict: decision.callback, messageIdentification: id.replaceAll('-', ''), createdAt: env.now });
            outbox.push(callbackMessage(context, id, CALLBACK_PATHS.creditTransferResponse, body, env.now));
            next = { ...next, callbackId: id };
        }
        return {
            steps: decision.steps,
            data: next,
            dueAt: decision.dueAt,
            commands: decision.commands,
            outbox,
            ...(decision.callback === undefined ? {} : { outcome: { outcome: decision.callback.outcome, reasonCode: decision.callback.reasonCode ?? null } }),
            // The request-to-pay this transfer pays looks at it whenever it moves (its outcome above all).
            ...(typeof linked === 'string' && decision.steps.length > 0 ? { wake: [linked] } : {}),
        };
    },
    execute(context, command) {
        const transfer = outboundTransfer(context);
        return command === 'submit' ? context.connector.submit(transfer) : context.connector.enquire(transfer);
    },
};
/**
 * The engine's input as the credit-transfer machine's, completed with what the machine cannot look
 * up itself: the scheme's rules for a new transfer, and the state of the outcome callback's outbox
 * row. Only the verdict's own callback moves the transfer (a status request's re-sent status is a
 * callback too).
 */
async function machineInput(context, state, data, input, env) {
    switch (input.type) {
        case 'tick': {
            if (state === CT.RECEIVED) {
                return { type: 'tick', rules: context.connector.check(outboundTransfer(context), limitsOf(context.integrator, context.transaction)) };
            }
            if ((state === CT.RESPONSE_PENDING || state === CT.RESPONSE_DELIVERY_FAILURE) && data.callbackId !== undefined) {
                const callback = await callbackRowInput(env, context.transaction.id, data.callbackId, state === CT.RESPONSE_PENDING);
                if (callback?.type === 'callback')
                    return { type: 'callback', delivered: callback.delivered };
            }
            return { type: 'tick' };
        }
        case 'sent':
            return { type: 'sent', what: input.command, ...sentInput(input.outcome) };
        case 'scheme': {
            const { report } = input;
            if (report.kind !== 'status' && report.kind !== 'not_found')
                return undefined;
            return {
                type: 'scheme',
                answer: {
                    kind: report.kind,
                    status: report.status,
                    ...(report.reasonCode === undefined ? {} : { reasonCode: report.reasonCode }),
                    ...(report.reasonText === undefined ? {} : { reasonText: report.reasonText }),
                    payloadJson: JSON.stringify(report.message),
                },
            };
        }
        case 'callback':
            return input.outboxId === data.callbackId ? { type: 'callback', delivered: input.delivered } : undefined;
    }
}
function messageOf(context) {
    return context.message;
}
function outboundTransfer(context) {
    const { transaction } = context;
    const data = transaction.data;
    return {
        ...outboundOf(transaction),
        message: messageOf(context),
        amount: amountOf(transaction),
        ...(data.determination === undefined ? {} : { resolvedAccount: data.determination.account }),
    };
}
/** The integrator's configured maximum for the scheme, in minor units of the transfer's currency. */
function limitsOf(integrator, transaction) {
    const max = integrator.limits.amountMax[transaction.scheme];
    if (max === undefined || transaction.currency === null || currencyDecimals(transaction.currency) === undefined)
        return {};
    const parsed = parseAmount(max, transaction.currency);
    return parsed.ok ? { amountMaxMinor: parsed.money.minor } : {};
}
//# sourceMappingURL=credit-transfer.js.map