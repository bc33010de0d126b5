import { amountMax, creditorAccountNumber, creditorAgentRoutable, instructedCurrency, settlementCurrency } from '../rules.js';
import { ISO_STATUS_TABLE } from '../iso20022/status.js';
/**
 * ZA_EFT, Electronic Funds Transfer credits: batch clearing in ZAR, settled in SAMOS, answered
 * after the clearing cycle (its time budget is a day). Default maximum R5,000,000.00 per transfer,
 * the retail payment stream ceiling; `limits.amountMax.ZA_EFT` replaces it. The operator's EFT
 * gateway is addressed in ISO 20022 (pacs.008.001.08), like RTC.
 */
export const ZA_EFT = {
    family: 'za-eft',
    schemes: ['ZA_EFT'],
    capabilities: { creditTransfer: true, statusEnquiry: true },
    messages: {
        creditTransfer: { version: 'pacs.008.001.08', settlementMethod: 'CLRG', clearingSystem: 'EFT', memberIdSystem: 'ZANCC', chargeBearer: 'SLEV' },
        statusReport: 'pacs.002.001.10',
        statusRequest: 'pacs.028.001.03',
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