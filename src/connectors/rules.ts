import { formatAmount, type Money } from '../lib/money.js';
import type { OutboundTransfer, SchemeLimits, SchemeRuleOutcome } from '../ports/scheme.js';
import { reasonText } from './iso20022/reason-codes.js';

/**
 * Scheme rules as small pure functions that families list as data. Each answers ok or a REJECTED
 * outcome with an ISO 20022 reason code (a declined payment, never an HTTP error). The first
 * failing rule decides, so a family lists its rules in the order an operator would check them.
 */
export type SchemeRule = (transfer: OutboundTransfer, limits: SchemeLimits) => SchemeRuleOutcome;

export const OK: SchemeRuleOutcome = { ok: true };

/** A refusal with its reason code, and the JSON pointer of the field of the integrator's message at fault (intake names it). */
export function reject(reasonCode: string, detail?: string, field?: string): SchemeRuleOutcome {
  return {
    ok: false,
    reasonCode,
    reasonText: detail === undefined ? reasonText(reasonCode) : `${reasonText(reasonCode)}: ${detail}`,
    ...(field === undefined ? {} : { field }),
  };
}

/** The bank settlement amount is in one of `currencies` (AM03 otherwise). */
export function settlementCurrency(...currencies: readonly string[]): SchemeRule {
  return (transfer) =>
    currencies.includes(transfer.amount.currency) ? OK : reject('AM03', `${transfer.scheme} settles in ${currencies.join(', ')}, not ${transfer.amount.currency}`, '/amounts/bankSettlementAmount/currency');
}

/** The instructed amount, when given, is in one of `currencies` (AM03 otherwise). */
export function instructedCurrency(...currencies: readonly string[]): SchemeRule {
  return (transfer) => {
    const currency = transfer.message.amounts.instructedAmount?.currency;
    return currency === undefined || currencies.includes(currency) ? OK : reject('AM03', `${transfer.scheme} takes instructed amounts in ${currencies.join(', ')}, not ${currency}`, '/amounts/instructedAmount/currency');
  };
}

/**
 * Amount at most the integrator's configured maximum (`limits.amountMaxMinor`), else the scheme's
 * default maximum when the transfer is in that default's currency; AM02 above it.
 */
export function amountMax(schemeDefault?: Money): SchemeRule {
  return (transfer, limits) => {
    const { amount } = transfer;
    const maxMinor = limits.amountMaxMinor ?? (schemeDefault?.currency === amount.currency ? schemeDefault.minor : undefined);
    if (maxMinor === undefined || amount.minor <= maxMinor) return OK;
    const max = formatAmount({ currency: amount.currency, minor: maxMinor });
    return reject('AM02', `${formatAmount(amount)} ${amount.currency} is above the ${transfer.scheme} maximum of ${max} ${amount.currency}`, '/amounts/bankSettlementAmount/value');
  };
}

type AgentField = 'debtorAgent' | 'creditorAgent';

/** The agent carries a BIC (e.g. RC06 for the debtor agent, RC07 for the creditor agent). */
export function agentBic(field: AgentField, reasonCode: string): SchemeRule {
  return (transfer) => (transfer.message[field].bicfi === undefined ? reject(reasonCode, `${transfer.scheme} needs the BIC of the ${field}`, `/${field}/bicfi`) : OK);
}

/** The creditor agent can be routed to: a BIC or a clearing system member id (RC08 otherwise). */
export function creditorAgentRoutable(): SchemeRule {
  return (transfer) => {
    const agent = transfer.message.creditorAgent;
    const memberId = agent.clearingSystemMemberId?.memberId ?? agent.memberId;
    return agent.bicfi === undefined && (memberId === undefined || memberId === '') ? reject('RC08', 'creditorAgent needs a BIC or clearingSystemMemberId.memberId', '/creditorAgent') : OK;
  };
}

/** The creditor agent's BIC is from one of `countries` (ISO 3166 code in BIC positions 5-6). */
export function creditorAgentCountry(countries: ReadonlySet<string>, reasonCode: string): SchemeRule {
  return (transfer) => {
    const bic = transfer.message.creditorAgent.bicfi;
    if (bic === undefined) return OK;
    const country = bic.slice(4, 6);
    return countries.has(country) ? OK : reject(reasonCode, `${transfer.scheme} reaches no creditor agent in ${country}`, '/creditorAgent/bicfi');
  };
}

/** The creditor account is an account number, not a proxy alone (AC03 otherwise). */
export function creditorAccountNumber(): SchemeRule {
  return (transfer) =>
    transfer.message.creditorAccount.identification?.value === undefined
      ? reject('AC03', `${transfer.scheme} needs the creditor account number; a proxy alone is taken on ZA_RPP only`, '/creditorAccount/identification/value')
      : OK;
}

/** paymentScheme.schemeData.chargeBearer is given (CH21 otherwise). */
export function chargeBearerGiven(): SchemeRule {
  return (transfer) => {
    const data = transfer.message.paymentScheme.schemeData;
    return typeof data?.chargeBearer === 'string' ? OK : reject('CH21', `${transfer.scheme} needs paymentScheme.schemeData.chargeBearer`, '/paymentScheme/schemeData/chargeBearer');
  };
}
