import { agentBic, amountMax, creditorAccountNumber, creditorAgentCountry, settlementCurrency } from '../rules.js';
import { ISO_STATUS_TABLE } from '../iso20022/status.js';
/** Member states of the Southern African Development Community, whose banks TCIB reaches. */
export const SADC_COUNTRIES = new Set(['AO', 'BW', 'CD', 'KM', 'LS', 'MG', 'MU', 'MW', 'MZ', 'NA', 'SC', 'SZ', 'TZ', 'ZA', 'ZM', 'ZW']);
/**
 * TCIB, Transactions Cleared on an Immediate Basis: instant cross-border payments between banks of
 * the SADC region. Settlement is in ZAR (the currency TCIB clears and settles in), so the bank
 * settlement amount must be ZAR (AM03); the instructed amount may be in the sender's currency.
 * Agents are identified by BIC (RC06 / RC07) and the creditor agent must be in a SADC country
 * (RC07). No scheme maximum by default (`limits.amountMax.TCIB` sets one).
 */
export const TCIB = {
    family: 'tcib',
    schemes: ['TCIB'],
    capabilities: { creditTransfer: true, statusEnquiry: true },
    messages: {
        creditTransfer: { version: 'pacs.008.001.08', settlementMethod: 'CLRG', clearingSystem: 'TCIB', chargeBearer: 'SLEV' },
        statusReport: 'pacs.002.001.10',
        statusRequest: 'pacs.028.001.03',
    },
    rules: [
        settlementCurrency('ZAR'),
        agentBic('debtorAgent', 'RC06'),
        agentBic('creditorAgent', 'RC07'),
        creditorAgentCountry(SADC_COUNTRIES, 'RC07'),
        amountMax(),
        creditorAccountNumber(),
    ],
    statuses: ISO_STATUS_TABLE,
};
//# sourceMappingURL=family.js.map