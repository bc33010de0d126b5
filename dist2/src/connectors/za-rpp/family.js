import { amountMax, creditorAgentRoutable, instructedCurrency, settlementCurrency } from '../rules.js';
import { CREDIT_STATUS_FOR } from '../iso20022/answers.js';
import { ISO_STATUS_TABLE } from '../iso20022/status.js';
/**
 * ZA_RPP, the Rapid Payments Programme (PayShap): instant ZAR payments to an account number or to
 * a proxy (mobile number or custom identifier resolved by identifier determination). Scheme
 * maximum R50,000.00 per transfer unless the integrator's `limits.amountMax.ZA_RPP` says
 * otherwise. pacs.008.001.10, because its creditor account may be a proxy without an account
 * number (CashAccount40); status messages of the same 2021 generation. Identifier determination
 * (proxy and account resolution) as acmt.023.001.03, answered with acmt.024.001.03; the scheme
 * makes the owner's knownAsName and legalName mandatory in a successful answer (connector.ts).
 * Request-to-pay as pain.013.001.09, reported on with pain.014.001.09, and its cancellation as
 * camt.056.001.10, answered with camt.029.001.11 (docs/connectors.md). It receives too (CONTRACT
 * §11): the scheme's acmt.023, pacs.008 and pain.013 for an integrator's institution, answered with
 * acmt.024.001.03, the pacs.002 of the pacs.008's generation and pain.014.001.09, and camt.056
 * withdrawals of those requests, answered with camt.029.001.11.
 */
export const ZA_RPP = {
    family: 'za-rpp',
    schemes: ['ZA_RPP'],
    capabilities: { creditTransfer: true, statusEnquiry: true, identifierDetermination: true, requestToPay: true, receiving: true },
    messages: {
        creditTransfer: { version: 'pacs.008.001.10', settlementMethod: 'CLRG', clearingSystem: 'RPP', memberIdSystem: 'ZANCC', chargeBearer: 'SLEV' },
        statusReport: 'pacs.002.001.12',
        statusRequest: 'pacs.028.001.05',
        identifierDetermination: { request: 'acmt.023.001.03' },
        requestToPay: { request: 'pain.013.001.09', cancellation: 'camt.056.001.10' },
        receiving: {
            creditStatus: CREDIT_STATUS_FOR,
            identification: 'acmt.024.001.03',
            requestToPayStatus: 'pain.014.001.09',
            withdrawal: 'camt.029.001.11',
        },
    },
    rules: [settlementCurrency('ZAR'), instructedCurrency('ZAR'), amountMax({ currency: 'ZAR', minor: 5000000n }), creditorAgentRoutable()],
    statuses: ISO_STATUS_TABLE,
};
//# sourceMappingURL=family.js.map