import { formatAmount } from '../lib/money.js';
import { reasonText } from './iso20022/reason-codes.js';
export const OK = { ok: true };
export function reject(reasonCode, detail) {
    return { ok: false, reasonCode, reasonText: detail === undefined ? reasonText(reasonCode) : `${reasonText(reasonCode)}: ${detail}` };
}
/** The bank settlement amount is in one of `currencies` (AM03 otherwise). */
export function settlementCurrency(...currencies) {
    return (transfer) => currencies.includes(transfer.amount.currency) ? OK : reject('AM03', `${transfer.scheme} settles in ${currencies.join(', ')}, not ${transfer.amount.currency}`);
}
/** The instructed amount, when given, is in one of `currencies` (AM03 otherwise). */
export function instructedCurrency(...currencies) {
    return (transfer) => {
        const currency = transfer.message.amounts.instructedAmount?.currency;
        return currency === undefined || currencies.includes(currency) ? OK : reject('AM03', `${transfer.scheme} takes instructed amounts in ${currencies.join(', ')}, not ${currency}`);
    };
}
/**
 * Amount at most the integrator's configured maximum (`limits.amountMaxMinor`), else the scheme's
 * default maximum when the transfer is in that default's currency; AM02 above it.
 */
export function amountMax(schemeDefault) {
    return (transfer, limits) => {
        const { amount } = transfer;
        const maxMinor = limits.amountMaxMinor ?? (schemeDefault?.currency === amount.currency ? schemeDefault.minor : undefined);
        if (maxMinor === undefined || amount.minor <= maxMinor)
            return OK;
        const max = formatAmount({ currency: amount.currency, minor: maxMinor });
        return reject('AM02', `${formatAmount(amount)} ${amount.currency} is above the ${transfer.scheme} maximum of ${max} ${amount.currency}`);
    };
}
/** The agent carries a BIC (e.g. RC06 for the debtor agent, RC07 for the creditor agent). */
export function agentBic(field, reasonCode) {
    return (transfer) => (transfer.message[field].bicfi === undefined ? reject(reasonCode, `${transfer.scheme} needs the BIC of the ${field}`) : OK);
}
/** The creditor agent can be routed to: a BIC or a clearing system member id (RC08 otherwise). */
export function creditorAgentRoutable() {
    return (transfer) => {
        const agent = transfer.message.creditorAgent;
        const memberId = agent.clearingSystemMemberId?.memberId ?? agent.memberId;
        return agent.bicfi === undefined && (memberId === undefined || memberId === '') ? reject('RC08', 'creditorAgent needs a BIC or clearingSystemMemberId.memberId') : OK;
    };
}
/** The creditor agent's BIC is from one of `countries` (ISO 3166 code in BIC positions 5-6). */
export function creditorAgentCountry(countries, reasonCode) {
    return (transfer) => {
        const bic = transfer.message.creditorAgent.bicfi;
        if (bic === undefined)
            return OK;
        const country = bic.slice(4, 6);
        return countries.has(country) ? OK : reject(reasonCode, `${transfer.scheme} reaches no creditor agent in ${country}`);
    };
}
/** The creditor account is an account number, not a proxy alone (AC03 otherwise). */
export function creditorAccountNumber() {
    return (transfer) => transfer.message.creditorAccount.identification?.value === undefined
        ? reject('AC03', `${transfer.scheme} needs the creditor account number; a proxy alone is taken on ZA_RPP only`)
        : OK;
}
/** paymentScheme.schemeData.chargeBearer is given (CH21 otherwise). */
export function chargeBearerGiven() {
    return (transfer) => {
        const data = transfer.message.paymentScheme.schemeData;
        return typeof data?.chargeBearer === 'string' ? OK : reject('CH21', `${transfer.scheme} needs paymentScheme.schemeData.chargeBearer`);
    };
}
//# sourceMappingURL=rules.js.map