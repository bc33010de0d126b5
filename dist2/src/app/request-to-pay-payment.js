import { ApiError } from '../domain/errors.js';
import { IRTP, isFinalIrtp } from '../domain/machines/inbound-request-to-pay.js';
import { isStateOf } from '../domain/machines/machine.js';
import { INBOUND_REQUEST_TO_PAY_MACHINE } from '../domain/machines/inbound-request-to-pay.js';
import { formatAmount } from '../lib/money.js';
const STATUS_OF_END = {
    [IRTP.PAID]: 'PAID',
    [IRTP.REJECTED]: 'REJECTED',
    [IRTP.CANCELLED]: 'CANCELLED',
    [IRTP.EXPIRED]: 'EXPIRED',
};
/**
 * Paying a request-to-pay the scheme brought to the integrator's customer (CONTRACT §11) is an
 * ordinary outbound credit transfer carrying the request's uetr and end-to-end id. When the
 * integrator holds such a request, the transfer must be able to pay it, or it is refused
 * 422 REQUEST_TO_PAY_NOT_PAYABLE naming every field at fault: the request is open (not PAID,
 * REJECTED, CANCELLED or EXPIRED) and not past its expiryDateTime, the amount lies within its
 * requestToPayConditions (without conditions: exactly the amount requested, in its currency),
 * and the end-to-end id is the request's. Returns the request's transaction id, which the
 * transfer keeps as its link (REQUEST_TO_PAY_LINK); undefined when no request carries the uetr.
 *
 * Not judged for a retry of a stored message (answered as the first was), nor when a transfer
 * with the uetr exists already: a second payment is the store's 409 UETR_CONFLICT.
 */
export async function requestToPayPaid(deps, integrator, transfer) {
    const request = await deps.store.findTransaction(integrator.id, transfer.uetr, 'INBOUND_REQUEST_TO_PAY');
    if (request === undefined)
        return undefined;
    if ((await deps.store.findMessage(integrator.id, transfer.messageId)) !== undefined)
        return undefined;
    if ((await deps.store.findTransaction(integrator.id, transfer.uetr, 'CREDIT_TRANSFER')) !== undefined)
        return undefined;
    const data = request.data;
    const state = isStateOf(INBOUND_REQUEST_TO_PAY_MACHINE, request.state) ? request.state : undefined;
    if (state !== undefined && isFinalIrtp(state)) {
        throw notPayable(`the request-to-pay with uetr ${transfer.uetr} is ${STATUS_OF_END[state] ?? state}`, [
            { field: '/transactionIdentifiers/uetr', message: `names a request-to-pay that is ${STATUS_OF_END[state] ?? state}: it can no longer be paid` },
        ]);
    }
    const errors = [];
    const now = deps.clock.now();
    if (now >= data.expiresAt) {
        errors.push({ field: '/transactionIdentifiers/uetr', message: `names a request-to-pay that expired at ${new Date(data.expiresAt).toISOString()}` });
    }
    const amountProblem = amountOutside(transfer.settlementAmount, request.amountMinor, request.currency, data);
    if (amountProblem !== undefined)
        errors.push({ field: '/amounts/bankSettlementAmount/value', message: amountProblem });
    const endToEnd = transfer.message.transactionIdentifiers.endToEndIdentification;
    if (data.endToEndId !== undefined && endToEnd !== data.endToEndId) {
        errors.push({ field: '/transactionIdentifiers/endToEndIdentification', message: `must be ${data.endToEndId}, the end-to-end id of the request-to-pay this transfer pays` });
    }
    if (errors.length > 0)
        throw notPayable(`this transfer cannot pay the request-to-pay with uetr ${transfer.uetr}`, errors);
    return request.id;
}
/** Why the amount cannot pay the request, or undefined: within min and max when given, else the amount requested; compared in minor units. */
function amountOutside(amount, requestedMinor, currency, data) {
    if (currency !== null && amount.currency !== currency)
        return `must be in ${currency}, the currency of the request-to-pay`;
    const min = data.minMinor === undefined ? undefined : BigInt(data.minMinor);
    const max = data.maxMinor === undefined ? undefined : BigInt(data.maxMinor);
    const text = (minor) => `${formatAmount({ currency: amount.currency, minor })} ${amount.currency}`;
    if (min === undefined && max === undefined) {
        if (requestedMinor !== null && amount.minor !== requestedMinor)
            return `must be ${text(requestedMinor)}, the amount requested (the request sets no conditions)`;
        return undefined;
    }
    if (min !== undefined && amount.minor < min)
        return `must be at least ${text(min)}, the request's minAmount`;
    if (max !== undefined && amount.minor > max)
        return `must be at most ${text(max)}, the request's maxAmount`;
    return undefined;
}
function notPayable(detail, errors) {
    return new ApiError('REQUEST_TO_PAY_NOT_PAYABLE', detail, errors);
}
//# sourceMappingURL=request-to-pay-payment.js.map