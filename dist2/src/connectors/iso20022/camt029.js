import { readReason } from './reason-codes.js';
import { child, readDocument, text, writeDocument } from './xml.js';
/** TxCxlSts for each confirmation (CancellationIndividualStatus1Code). */
const TRANSACTION_STATUS = { CNCL: 'ACCR', RJCR: 'RJCR' };
const ADDITIONAL_INFORMATION_CHARS_MAX = 105;
export function camt029Document(input) {
    const { original } = input;
    return writeDocument(input.messageName, 'RsltnOfInvstgtn', {
        Assgnmt: { Id: input.messageId, Assgnr: input.assigner, Assgne: input.assignee, CreDtTm: input.createdAt },
        RslvdCase: { Id: input.resolvedCase.id, Cretr: input.resolvedCase.creator },
        Sts: { Conf: input.confirmation },
        CxlDtls: {
            TxInfAndSts: {
                OrgnlGrpInf: original.messageId === undefined || original.messageName === undefined ? undefined : { OrgnlMsgId: original.messageId, OrgnlMsgNmId: original.messageName },
                OrgnlInstrId: original.instructionId,
                OrgnlEndToEndId: original.endToEndId,
                OrgnlUETR: original.uetr,
                TxCxlSts: TRANSACTION_STATUS[input.confirmation],
                CxlStsRsnInf: input.reasonCode === undefined && input.additionalInformation === undefined
                    ? undefined
                    : {
                        Rsn: input.reasonCode === undefined ? undefined : { Cd: input.reasonCode },
                        AddtlInf: input.additionalInformation === undefined ? undefined : [...input.additionalInformation].slice(0, ADDITIONAL_INFORMATION_CHARS_MAX).join(''),
                    },
            },
        },
    });
}
/** The first cancellation detail is read: regpay cancels one request per message. */
export function readCamt029(xml) {
    const document = readDocument(xml);
    if (!document.ok)
        return document;
    if (!document.messageName.startsWith('camt.029.') || document.root !== 'RsltnOfInvstgtn')
        return { ok: false, error: `not a camt.029: ${document.messageName}` };
    const body = document.body;
    const details = child(body, 'CxlDtls');
    const transaction = child(details, 'TxInfAndSts');
    const group = child(details, 'OrgnlGrpInfAndSts');
    const confirmation = text(body, 'Sts', 'Conf');
    const transactionStatus = text(transaction, 'TxCxlSts') ?? text(group, 'GrpCxlSts');
    const reason = readReason(child(transaction, 'CxlStsRsnInf') ?? child(group, 'CxlStsRsnInf'));
    return {
        ok: true,
        value: {
            messageName: document.messageName,
            messageId: text(body, 'Assgnmt', 'Id'),
            caseId: text(body, 'RslvdCase', 'Id') ?? text(transaction, 'RslvdCase', 'Id') ?? text(group, 'RslvdCase', 'Id'),
            originalMessageId: text(transaction, 'OrgnlGrpInf', 'OrgnlMsgId') ?? text(group, 'OrgnlMsgId'),
            uetr: text(transaction, 'OrgnlUETR'),
            confirmation,
            transactionStatus,
            outcome: outcomeOf(transactionStatus, confirmation),
            ...reason,
            json: { schema: document.messageName, [document.root]: body },
        },
    };
}
/** The transaction's (or group's) cancellation status decides when given; else Sts/Conf. Exhaustive: anything else is undecided. */
export function outcomeOf(transactionStatus, confirmation) {
    if (transactionStatus !== undefined) {
        if (transactionStatus === 'ACCR')
            return 'accepted';
        if (transactionStatus === 'RJCR')
            return 'rejected';
        return 'undecided';
    }
    if (confirmation === 'CNCL')
        return 'accepted';
    if (confirmation === 'RJCR')
        return 'rejected';
    return 'undecided';
}
//# sourceMappingURL=camt029.js.map