import { INBOUND_CREDIT_TRANSFER_MACHINE, INBOUND_IDENTIFIER_DETERMINATION_MACHINE } from '../domain/machines/inbound.js';
import { INBOUND_REQUEST_TO_PAY_MACHINE } from '../domain/machines/inbound-request-to-pay.js';
import { validateRequestToPay } from '../domain/messages/request-to-pay.js';
import { validateIdentifierDeterminationRequest } from '../domain/messages/identifier-determination.js';
import { validateCreditTransfer } from '../domain/messages/validate.js';
import { inboundTransactionId } from '../lib/inbound-id.js';
import { parseJson } from '../lib/json.js';
import { traceparentFromUuid } from '../lib/trace.js';
import { INBOUND_ANSWER_TIMEOUT_MS_MAX_DEFAULT } from '../config/schema.js';
import { admit } from './admit.js';
/** The working data of a message the integrator is asked to answer within a budget (lookups, credits). */
function answered(mode) {
    return (deps, integrator, request) => ({
        mode: mode(integrator),
        deadlineAt: request.receivedAt + answerTimeoutMs(deps, integrator, request.scheme),
    });
}
const RECEIVABLE = {
    credit: {
        kind: 'INBOUND_CREDIT_TRANSFER',
        machine: INBOUND_CREDIT_TRANSFER_MACHINE,
        data: answered((integrator) => integrator.inbound.authorisation),
        check: (message) => {
            const checked = validateCreditTransfer(message);
            return checked.ok ? { ok: true, uetr: checked.value.uetr, amount: checked.value.settlementAmount } : checked;
        },
    },
    lookup: {
        kind: 'INBOUND_IDENTIFIER_DETERMINATION',
        machine: INBOUND_IDENTIFIER_DETERMINATION_MACHINE,
        data: answered((integrator) => integrator.inbound.identifierDetermination),
        check: (message) => {
            const checked = validateIdentifierDeterminationRequest(message);
            return checked.ok ? { ok: true, uetr: checked.value.message.request.uetr } : checked;
        },
    },
    // The integrator's own expiry rules (in the future, within requestToPay.expiryHorizonMs) are not
    // asked: the scheme and the creditor's bank set the expiry. A request that arrives already
    // expired is taken, and its machine ends it EXPIRED at once without handing it over.
    request_to_pay: {
        kind: 'INBOUND_REQUEST_TO_PAY',
        machine: INBOUND_REQUEST_TO_PAY_MACHINE,
        data: (_deps, _integrator, _request, checked) => ({ ...checked.keep }),
        check: (message) => {
            const checked = validateRequestToPay(message);
            if (!checked.ok)
                return checked;
            const { value } = checked;
            const keep = {
                expiresAt: value.expiresAt,
                endToEndId: value.message.transactionIdentifiers.endToEndIdentification,
                ...(value.minAmount === undefined ? {} : { minMinor: value.minAmount.minor.toString() }),
                ...(value.maxAmount === undefined ? {} : { maxMinor: value.maxAmount.minor.toString() }),
            };
            return { ok: true, uetr: value.uetr, amount: value.amount, keep };
        },
    },
};
export async function receiveFromScheme(deps, request) {
    const receivable = RECEIVABLE[request.kind];
    const integrator = integratorOf(deps.integrators, request.scheme, request.institution);
    if (integrator === undefined) {
        deps.log.warn({ scheme: request.scheme, institution: request.institution, messageId: request.original.messageId }, 'scheme message for an institution no integrator holds refused (AGNT)');
        return refused('AGNT', 'no participant here for that agent');
    }
    const parsed = parseJson(request.bodyJson);
    const checked = parsed.ok ? receivable.check(parsed.value) : { ok: false, errors: [{ field: '', message: parsed.message }] };
    if (!parsed.ok || !checked.ok) {
        const errors = checked.ok ? [] : checked.errors;
        deps.log.warn({ scheme: request.scheme, messageId: request.original.messageId, errors }, 'scheme message that breaks the message rules refused (FF02)');
        return refused('FF02', errors.map((error) => error.field).join(' ') || 'syntax');
    }
    const id = inboundTransactionId(request.scheme, request.original.messageName, request.original.messageId);
    const uetr = (checked.uetr ?? request.original.uetr ?? id).toLowerCase();
    const lookup = receivable.kind === 'INBOUND_CREDIT_TRANSFER' ? await deps.store.findTransaction(integrator.id, uetr, 'INBOUND_IDENTIFIER_DETERMINATION') : undefined;
    const data = {
        ...receivable.data(deps, integrator, request, checked),
        origin: request.original,
        ...(lookup === undefined ? {} : { lookupId: lookup.id }),
    };
    const outcome = await admit(deps, {
        id,
        integrator,
        kind: receivable.kind,
        state: receivable.machine.initialState,
        scheme: request.scheme,
        uetr,
        messageId: id,
        rawBody: request.bodyJson,
        received: request.received,
        message: parsed.value,
        ...(checked.amount === undefined ? {} : { amount: checked.amount }),
        // A scheme message starts a trace of its own (the link carries none to continue).
        trace: { traceparent: traceparentFromUuid(deps.ids.uuid()), tracestate: null },
        data,
    });
    if (outcome.kind === 'accepted')
        return { kind: 'accepted' };
    // The scheme sent the message again (same MsgId, or the same UETR under a new MsgId): answered again, never asked twice.
    const existing = outcome.kind === 'uetr_conflict' ? (await deps.store.findTransaction(integrator.id, uetr, receivable.kind))?.id : outcome.transactionId;
    if (existing !== undefined)
        await deps.processing?.request(existing, { type: 'resend', trace: { traceparent: traceparentFromUuid(deps.ids.uuid()), tracestate: null } });
    return { kind: 'accepted' };
}
/** The integrator whose institution the message addresses, among those that have the scheme. */
export function integratorOf(integrators, scheme, institution) {
    const bic = institution.bicfi?.slice(0, 8);
    for (const integrator of integrators.values()) {
        if (!integrator.schemes.includes(scheme))
            continue;
        const own = integrator.institution;
        if (bic !== undefined && own.bicfi !== undefined && own.bicfi.slice(0, 8) === bic)
            return integrator;
        if (institution.memberId !== undefined && own.memberId === institution.memberId)
            return integrator;
    }
    return undefined;
}
function answerTimeoutMs(deps, integrator, scheme) {
    return integrator.inbound.answerTimeoutMs ?? deps.schemes[scheme]?.inbound.answerTimeoutMs ?? INBOUND_ANSWER_TIMEOUT_MS_MAX_DEFAULT;
}
function refused(reasonCode, reasonText) {
    return { kind: 'refused', reasonCode, reasonText };
}
//# sourceMappingURL=receive-from-scheme.js.map