import { validateCreditTransfer } from '../../domain/messages/validate.js';
import { inboundTransactionId } from '../../lib/inbound-id.js';
import { lowerUetr, originalOf, validatedJson } from './inbound.js';
import { accountJson, agentJson, amountJson, codeJson, institutionOf, partyJson, remittanceJson, texts } from './inbound-parties.js';
import { compact, JsonDecimal } from './json-text.js';
import { child, children, readDocument, text } from './xml.js';
export const MULTIPLE_TRANSACTIONS_REASON = 'AM18';
export function readInboundPacs008(xml, scheme) {
    const document = readDocument(xml);
    if (!document.ok)
        return { kind: 'unreadable', error: document.error };
    if (!document.messageName.startsWith('pacs.008.') || document.root !== 'FIToFICstmrCdtTrf')
        return { kind: 'unreadable', error: `not a pacs.008: ${document.messageName}` };
    const body = document.body;
    const messageId = text(body, 'GrpHdr', 'MsgId');
    if (messageId === undefined)
        return { kind: 'unreadable', error: 'pacs.008 lacks GrpHdr/MsgId' };
    const createdAt = text(body, 'GrpHdr', 'CreDtTm');
    const transactionCount = text(body, 'GrpHdr', 'NbOfTxs');
    const transactions = children(body, 'CdtTrfTxInf');
    const transaction = transactions[0];
    const original = originalOf({
        messageId,
        messageName: document.messageName,
        createdAt,
        instructionId: text(transaction, 'PmtId', 'InstrId'),
        endToEndId: text(transaction, 'PmtId', 'EndToEndId'),
        transactionId: text(transaction, 'PmtId', 'TxId'),
        uetr: lowerUetr(text(transaction, 'PmtId', 'UETR')),
    });
    if (transactions.length > 1 || (transactionCount !== undefined && transactionCount !== '1')) {
        return {
            kind: 'refused',
            original,
            reasonCode: MULTIPLE_TRANSACTIONS_REASON,
            reasonText: `${transactionCount ?? transactions.length} transactions in one message; one per message is taken`,
            context: { transactionCount, wholeMessage: true },
        };
    }
    const context = { transactionCount, wholeMessage: false };
    if (transaction === undefined)
        return { kind: 'refused', original, reasonCode: 'CH21', reasonText: 'CdtTrfTxInf is missing', context };
    const uetr = original.uetr ?? inboundTransactionId(scheme, document.messageName, messageId);
    const mapped = validatedJson(creditTransferJson(body, transaction, scheme, uetr), validateCreditTransfer);
    if (!mapped.ok)
        return { kind: 'refused', original, reasonCode: mapped.reasonCode, reasonText: mapped.reasonText, context };
    return { kind: 'mapped', original, institution: institutionOf(child(transaction, 'CdtrAgt')), bodyJson: mapped.json, context };
}
function creditTransferJson(body, transaction, scheme, uetr) {
    const agents = (...tags) => {
        const list = tags.map((tag) => agentJson(child(transaction, tag))).filter((agent) => agent !== undefined);
        return list.length === 0 ? undefined : list;
    };
    const instructions = children(transaction, 'InstrForCdtrAgt').map((item) => compact({ code: text(item, 'Cd'), information: text(item, 'InstrInf') })).filter((item) => item !== undefined);
    const reporting = children(transaction, 'RgltryRptg').map(regulatoryReportingJson).filter((item) => item !== undefined);
    const localInstrument = codeJson(child(transaction, 'PmtTpInf', 'LclInstrm'));
    return {
        schema: 'CreditTransfer',
        messageIdentifiers: { messageIdentification: text(body, 'GrpHdr', 'MsgId'), creationDateTime: text(body, 'GrpHdr', 'CreDtTm') },
        transactionIdentifiers: compact({
            endToEndIdentification: text(transaction, 'PmtId', 'EndToEndId'),
            instructionIdentification: text(transaction, 'PmtId', 'InstrId'),
            transactionIdentification: text(transaction, 'PmtId', 'TxId'),
            uetr,
        }),
        amounts: compact({ bankSettlementAmount: amountJson(transaction, 'IntrBkSttlmAmt'), instructedAmount: amountJson(transaction, 'InstdAmt') }),
        creditor: partyJson(child(transaction, 'Cdtr')),
        creditorAccount: accountJson(child(transaction, 'CdtrAcct')),
        creditorAgent: agentJson(child(transaction, 'CdtrAgt')),
        creditorAgentAccount: accountJson(child(transaction, 'CdtrAgtAcct')),
        debtor: partyJson(child(transaction, 'Dbtr')),
        debtorAccount: accountJson(child(transaction, 'DbtrAcct')),
        debtorAgent: agentJson(child(transaction, 'DbtrAgt')),
        debtorAgentAccount: accountJson(child(transaction, 'DbtrAgtAcct')),
        initiatingParty: partyJson(child(transaction, 'InitgPty')),
        instructedAgent: agentJson(child(transaction, 'InstdAgt')),
        instructingAgent: agentJson(child(transaction, 'InstgAgt')),
        instructionForCreditorAgent: instructions.length === 0 ? undefined : instructions,
        intermediaryAgents: agents('IntrmyAgt1', 'IntrmyAgt2', 'IntrmyAgt3'),
        previousInstructingAgents: agents('PrvsInstgAgt1', 'PrvsInstgAgt2', 'PrvsInstgAgt3'),
        paymentScheme: compact({ schema: scheme, schemeData: schemeDataJson(transaction) }),
        paymentTypeInformation: localInstrument === undefined ? undefined : { localInstrument },
        purpose: codeJson(child(transaction, 'Purp')),
        regulatoryReporting: reporting.length === 0 ? undefined : reporting,
        remittanceInformation: remittanceJson(child(transaction, 'RmtInf')),
        settlementDate: text(transaction, 'IntrBkSttlmDt'),
    };
}
/** ChrgBr, XchgRate and ChrgsInf, where pacs008.ts takes them from (paymentScheme.schemeData). */
function schemeDataJson(transaction) {
    const rate = text(transaction, 'XchgRate');
    const charges = children(transaction, 'ChrgsInf').map((charge) => compact({ amount: amountJson(charge, 'Amt'), agent: agentJson(child(charge, 'Agt')) })).filter((item) => item !== undefined);
    return compact({
        chargeBearer: text(transaction, 'ChrgBr'),
        charges: charges.length === 0 ? undefined : charges,
        exchangeRate: rate === undefined ? undefined : JsonDecimal.of(rate),
    });
}
function regulatoryReportingJson(entry) {
    const details = children(entry, 'Dtls').map((detail) => {
        const information = texts(detail, 'Inf');
        return compact({
            type: text(detail, 'Tp'),
            date: text(detail, 'Dt'),
            country: text(detail, 'Ctry'),
            code: text(detail, 'Cd'),
            amount: amountJson(detail, 'Amt'),
            information: information.length === 0 ? undefined : information,
        });
    }).filter((item) => item !== undefined);
    return compact({
        debitCreditReportingIndicator: text(entry, 'DbtCdtRptgInd'),
        authority: compact({ name: text(entry, 'Authrty', 'Nm'), country: text(entry, 'Authrty', 'Ctry') }),
        details: details.length === 0 ? undefined : details,
    });
}
//# sourceMappingURL=inbound-pacs008.js.map