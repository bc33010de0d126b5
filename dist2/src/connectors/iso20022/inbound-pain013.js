import { validateRequestToPay } from '../../domain/messages/request-to-pay.js';
import { inboundTransactionId } from '../../lib/inbound-id.js';
import { lowerUetr, originalOf, validatedJson } from './inbound.js';
import { accountJson, agentJson, amountJson, institutionOf, partyJson, remittanceJson } from './inbound-parties.js';
import { compact } from './json-text.js';
import { RTP_SUPPLEMENT } from './pain013.js';
import { child, readDocument, text } from './xml.js';
export function readInboundPain013(xml, scheme) {
    const document = readDocument(xml);
    if (!document.ok)
        return { kind: 'unreadable', error: document.error };
    if (!document.messageName.startsWith('pain.013.') || document.root !== 'CdtrPmtActvtnReq')
        return { kind: 'unreadable', error: `not a pain.013: ${document.messageName}` };
    const body = document.body;
    const messageId = text(body, 'GrpHdr', 'MsgId');
    if (messageId === undefined)
        return { kind: 'unreadable', error: 'pain.013 lacks GrpHdr/MsgId' };
    const payment = child(body, 'PmtInf');
    const transaction = child(payment, 'CdtTrfTx');
    const original = originalOf({
        messageId,
        messageName: document.messageName,
        createdAt: text(body, 'GrpHdr', 'CreDtTm'),
        instructionId: text(transaction, 'PmtId', 'InstrId'),
        endToEndId: text(transaction, 'PmtId', 'EndToEndId'),
        uetr: lowerUetr(text(transaction, 'PmtId', 'UETR')),
    });
    const context = { paymentInformationId: text(payment, 'PmtInfId') ?? messageId, debtorAgent: child(payment, 'DbtrAgt') };
    const uetr = original.uetr ?? inboundTransactionId(scheme, document.messageName, messageId);
    const mapped = validatedJson(requestToPayJson(body, payment, transaction, scheme, uetr), validateRequestToPay);
    if (!mapped.ok)
        return { kind: 'refused', original, reasonCode: mapped.reasonCode, reasonText: mapped.reasonText, context };
    return { kind: 'mapped', original, institution: institutionOf(context.debtorAgent), bodyJson: mapped.json, context };
}
function requestToPayJson(body, payment, transaction, scheme, uetr) {
    const instrument = text(payment, 'PmtTpInf', 'LclInstrm', 'Prtry') ?? text(payment, 'PmtTpInf', 'LclInstrm', 'Cd');
    const supplement = child(transaction, 'SplmtryData', 'Envlp', RTP_SUPPLEMENT);
    return {
        schema: 'RequestToPay',
        messageIdentifiers: { messageIdentification: text(body, 'GrpHdr', 'MsgId'), creationDateTime: text(body, 'GrpHdr', 'CreDtTm') },
        transactionIdentifiers: compact({
            endToEndIdentification: text(transaction, 'PmtId', 'EndToEndId'),
            transactionIdentification: text(transaction, 'PmtId', 'InstrId'),
            uetr,
        }),
        paymentScheme: { schema: scheme },
        amounts: compact({ bankSettlementAmount: amountJson(child(transaction, 'Amt'), 'InstdAmt') }),
        paymentTypeInformation: instrument === undefined ? undefined : { localInstrument: { schema: 'PROPRIETARY', value: instrument } },
        expiryDateTime: text(payment, 'XpryDt', 'DtTm'),
        requestToPayConditions: compact({ minAmount: amountJson(supplement, 'MinAmt'), maxAmount: amountJson(supplement, 'MaxAmt') }),
        creditor: partyJson(child(transaction, 'Cdtr')),
        creditorAccount: accountJson(child(transaction, 'CdtrAcct')),
        creditorAgent: agentJson(child(transaction, 'CdtrAgt')),
        debtor: partyJson(child(payment, 'Dbtr')),
        debtorAccount: accountJson(child(payment, 'DbtrAcct')),
        debtorAgent: agentJson(child(payment, 'DbtrAgt')),
        remittanceInformation: remittanceJson(child(transaction, 'RmtInf')),
    };
}
//# sourceMappingURL=inbound-pain013.js.map