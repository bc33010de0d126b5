import { text } from './xml.js';
/**
 * ISO 20022 ExternalStatusReason1Code values this service produces or the simulator answers
 * with, and their meaning in a few words (a scheme's AddtlInf is Max105Text; schemes may cut
 * texts to 35 characters). Holds every code of the interface's identifier-determination list
 * (IDENTIFIER_REASON_CODES in src/domain/messages/identifier-determination.ts), the codes the
 * scheme rules reject transfers with, the codes a payer's bank rejects a request-to-pay with
 * (simulator/request-to-pay-values.ts), and the ExternalPaymentCancellationRejection1Code values a
 * refused request-to-pay cancellation carries (ARDT, ARJT, LEGL, NOAS, NOOR).
 */
export const REASON_TEXTS = new Map([
    ['AB06', 'Timeout at the instructed agent'],
    ['AB07', 'Agent of message not online'],
    ['AB10', 'Error at the instructed agent'],
    ['AC01', 'Format of the account number incorrect'],
    ['AC03', 'Creditor account number invalid or missing'],
    ['AC04', 'Account closed'],
    ['AC06', 'Account blocked for posting'],
    ['AC16', 'Account in sequestration'],
    ['AC17', 'Account in liquidation'],
    ['AG01', 'Transaction forbidden on this account type'],
    ['AG03', 'Transaction type not supported on this account'],
    ['AG10', 'Agent suspended from the payment system'],
    ['AGNT', 'Incorrect agent in payment workflow'],
    ['AM01', 'Amount is zero'],
    ['AM02', 'Amount above allowed maximum'],
    ['AM03', 'Currency not processable by the scheme'],
    ['AM04', 'Insufficient funds'],
    ['ARDT', 'Already paid or returned'],
    ['ARJT', 'Already rejected'],
    ['BE01', 'End customer inconsistent with account number'],
    ['BE23', 'Account proxy unknown or invalid'],
    ['CH21', 'Mandatory element missing'],
    ['DT02', 'Invalid creation date and time'],
    ['DU03', 'Transaction not unique'],
    ['DUPL', 'Duplicate request'],
    ['FF02', 'Syntax error'],
    ['FF08', 'End-to-end id missing or invalid'],
    ['FRAD', 'Fraudulent origin'],
    ['LEGL', 'Legal decision'],
    ['MD07', 'Account holder deceased'],
    ['MS02', 'Refused by the payer'],
    ['MS03', 'Reason not specified by the agent'],
    ['NARR', 'Reason given in the narrative'],
    ['NAUT', 'Permission to process not granted'],
    ['NOAS', 'No answer from the customer'],
    ['NOCM', 'Account not compliant with regulations'],
    ['NOOR', 'Original transaction never received'],
    ['PD01', 'Domain not found or invalid'],
    ['PD02', 'Domain suspended'],
    ['PX03', 'Proxy not found in repository'],
    ['PX04', 'Proxy format invalid'],
    ['RC05', 'BIC invalid or missing'],
    ['RC06', 'Debtor agent BIC invalid or missing'],
    ['RC07', 'Creditor agent BIC invalid or missing'],
    ['RC08', 'Clearing system member id invalid or missing'],
    ['RF01', 'Transaction reference not unique'],
    ['RR04', 'Regulatory reason'],
    ['RR10', 'Character set not valid for the payment'],
    ['RR12', 'Identification required for the country missing'],
]);
export function reasonText(code) {
    return REASON_TEXTS.get(code) ?? code;
}
/** A reason element (StsRsnInf, CxlStsRsnInf): its code (Cd, else Prtry) and its AddtlInf lines joined. */
export function readReason(info) {
    const additional = info?.AddtlInf;
    const lines = (Array.isArray(additional) ? additional : [additional]).filter((line) => typeof line === 'string');
    return {
        reasonCode: text(info, 'Rsn', 'Cd') ?? text(info, 'Rsn', 'Prtry'),
        reasonText: lines.length === 0 ? undefined : lines.join(' '),
    };
}
//# sourceMappingURL=reason-codes.js.map