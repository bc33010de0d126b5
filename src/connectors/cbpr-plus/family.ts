import { agentBic, amountMax, chargeBearerGiven, creditorAccountNumber } from '../rules.js';
import type { SchemeFamily } from '../iso20022/connector.js';
import { ISO_STATUS_TABLE } from '../iso20022/status.js';

/**
 * CBPR_PLUS, SWIFT Cross-Border Payments and Reporting Plus: any active ISO 4217 currency, agents
 * identified by BIC (RC06 debtor agent, RC07 creditor agent), the charge bearer from
 * paymentScheme.schemeData (CH21 when missing), settlement over correspondent accounts (INDA), no
 * scheme maximum (an integrator may set `limits.amountMax.CBPR_PLUS`). Texts must stay within the
 * CBPR+ Latin character set (RR10): names with other letters must be transliterated first.
 * pacs.008.001.08 / pacs.002.001.10, the versions of the CBPR+ usage guidelines, which leave out
 * SplmtryData: what regpay carries there on other schemes is refused at intake (CH17).
 */
export const CBPR_PLUS: SchemeFamily = {
  family: 'cbpr-plus',
  schemes: ['CBPR_PLUS'],
  capabilities: { creditTransfer: true, statusEnquiry: true },
  messages: {
    creditTransfer: { version: 'pacs.008.001.08', settlementMethod: 'INDA', chargeBearer: 'schemeData', supplement: false },
    statusReport: 'pacs.002.001.10',
    statusRequest: 'pacs.028.001.03',
  },
  rules: [agentBic('debtorAgent', 'RC06'), agentBic('creditorAgent', 'RC07'), chargeBearerGiven(), amountMax(), creditorAccountNumber()],
  statuses: ISO_STATUS_TABLE,
  // The CBPR+ extended character set (SWIFT's restricted Latin set plus the listed symbols).
  characterSet: /^[0-9a-zA-Z/\-?:().,'+ !#$%&*=^_`{|}~";<>@[\\\]]*$/,
};
