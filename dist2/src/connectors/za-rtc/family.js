import { amountMax, creditorAccountNumber, creditorAgentRoutable, instructedCurrency, settlementCurrency } from '../rules.js';
import { CREDIT_STATUS_FOR } from '../iso20022/answers.js';
import { ISO_STATUS_TABLE } from '../iso20022/status.js';
/**
 * ZA_RTC, South African Real-Time Clearing: account-to-account, ZAR only, cleared through the
 * national clearing house and settled in SAMOS. Default maximum R5,000,000.00 per transfer, the
 * ceiling for retail payment streams (larger payments go through SAMOS directly); an integrator's
 * `limits.amountMax.ZA_RTC` replaces it. It receives credits too (CONTRACT §11): the scheme's
 * pacs.008 for an integrator's institution, answered with the pacs.002 of its generation.
 */
export const ZA_RTC = {
    family: 'za-rtc',
    schemes: ['ZA_RTC'],
    capabilities: { creditTransfer: true, statusEnquiry: true, receiving: true },
    messages: {
        creditTransfer: { version: 'pacs.008.001.08', settlementMethod: 'CLRG', clearingSystem: 'RTC', memberIdSystem: 'ZANCC', chargeBearer: 'SLEV' },
        statusReport: 'pacs.002.001.10',
        statusRequest: 'pacs.028.001.03',
        receiving: { creditStatus: CREDIT_STATUS_FOR },
    },
    rules: [
        settlementCurrency('ZAR'),
        instructedCurrency('ZAR'),
        amountMax({ currency: 'ZAR', minor: 500000000n }),
        creditorAgentRoutable(),
        creditorAccountNumber(),
    ],
    statuses: ISO_STATUS_TABLE,
};
//# sourceMappingURL=family.js.map