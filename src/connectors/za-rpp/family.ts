import { amountMax, creditorAgentRoutable, instructedCurrency, settlementCurrency } from '../rules.js';
import type { SchemeFamily } from '../iso20022/connector.js';
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
 * camt.056.001.10, answered with camt.029.001.11 (docs/connectors.md).
 */
export const ZA_RPP: SchemeFamily = {
  family: 'za-rpp',
  schemes: ['ZA_RPP'],
  capabilities: { creditTransfer: true, statusEnquiry: true, identifierDetermination: true, requestToPay: true },
  messages: {
    creditTransfer: { version: 'pacs.008.001.10', settlementMethod: 'CLRG', clearingSystem: 'RPP', memberIdSystem: 'ZANCC', chargeBearer: 'SLEV' },
    statusReport: 'pacs.002.001.12',
    statusRequest: 'pacs.028.001.05',
    identifierDetermination: { request: 'acmt.023.001.03' },
    requestToPay: { request: 'pain.013.001.09', cancellation: 'camt.056.001.10' },
  },
  rules: [settlementCurrency('ZAR'), instructedCurrency('ZAR'), amountMax({ currency: 'ZAR', minor: 5_000_000n }), creditorAgentRoutable()],
  statuses: ISO_STATUS_TABLE,
};
