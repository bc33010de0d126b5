import { readReason } from './reason-codes.js';
import { child, children, readDocument, text, writeDocument } from './xml.js';
const ADDITIONAL_INFORMATION_CHARS_MAX = 105;
export function pain014Document(input) {
    const { original } = input;
    return writeDocument(input.messageName, 'CdtrPmtActvtnReqStsRpt', {
        GrpHdr: { MsgId: input.messageId, CreDtTm: input.createdAt, InitgPty: input.initiatingParty },
        OrgnlGrpInfAndSts: { OrgnlMsgId: original.messageId, OrgnlMsgNmId: original.messageName, OrgnlCreDtTm: original.createdAt },
        OrgnlPmtInfAndSts: {
            OrgnlPmtInfId: original.paymentInformationId,
            TxInfAndSts: {
                OrgnlInstrId: original.instructionId,
                OrgnlEndToEndId: original.endToEndId,
                OrgnlUETR: original.uetr,
                TxSts: input.status,
                StsRsnInf: input.reasonCode === undefined && input.additionalInformation === undefined
                    ? undefined
                    : {
                        Rsn: input.reasonCode === undefined ? undefined : { Cd: input.reasonCode },
                        AddtlInf: input.additionalInformation === undefined ? undefined : [...input.additionalInformation].slice(0, ADDITIONAL_INFORMATION_CHARS_MAX).join(''),
                    },
                AccptncDtTm: input.acceptedAt,
            },
        },
    });
}
/**
 * Every transaction status of every payment information block; a block without transactions
 * counts by its PmtInfSts, and a report without blocks by its GrpSts (e.g. the operator refusing
 * the whole message).
 */
export function readPain014(xml) {
    const document = readDocument(xml);
    if (!document.ok)
        return document;
    if (!document.messageName.startsWith('pain.014.') || document.root !== 'CdtrPmtActvtnReqStsRpt')
        return { ok: false, error: `not a pain.014: ${document.messageName}` };
    const body = document.body;
    const group = child(body, 'OrgnlGrpInfAndSts');
    if (group === undefined)
        return { ok: false, error: 'pain.014 lacks OrgnlGrpInfAndSts' };
    const statuses = [];
    for (const payment of children(body, 'OrgnlPmtInfAndSts')) {
        const transactions = children(payment, 'TxInfAndSts');
        for (const transaction of transactions) {
            statuses.push({
                originalEndToEndId: text(transaction, 'OrgnlEndToEndId'),
                uetr: text(transaction, 'OrgnlUETR'),
                status: text(transaction, 'TxSts'),
                ...reason(transaction),
            });
        }
        if (transactions.length === 0)
            statuses.push({ originalEndToEndId: undefined, uetr: undefined, status: text(payment, 'PmtInfSts'), ...reason(payment) });
    }
    if (statuses.length === 0)
        statuses.push({ originalEndToEndId: undefined, uetr: undefined, status: text(group, 'GrpSts'), ...reason(group) });
    return {
        ok: true,
        value: {
            messageName: document.messageName,
            messageId: text(body, 'GrpHdr', 'MsgId'),
            originalMessageId: text(group, 'OrgnlMsgId'),
            originalMessageName: text(group, 'OrgnlMsgNmId'),
            statuses,
            json: { schema: document.messageName, [document.root]: body },
        },
    };
}
/** The status reason of a report's transaction, block or group (StsRsnInf). */
function reason(node) {
    return readReason(child(node, 'StsRsnInf'));
}
//# sourceMappingURL=pain014.js.map