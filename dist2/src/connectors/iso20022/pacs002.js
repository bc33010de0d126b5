import { readReason } from './reason-codes.js';
import { child, children, readDocument, text, writeDocument } from './xml.js';
export function pacs002Document(input) {
    const { original } = input;
    return writeDocument(input.messageName, 'FIToFIPmtStsRpt', {
        GrpHdr: { MsgId: input.messageId, CreDtTm: input.createdAt },
        TxInfAndSts: {
            OrgnlGrpInf: { OrgnlMsgId: original.messageId, OrgnlMsgNmId: original.messageName, OrgnlCreDtTm: original.createdAt },
            OrgnlInstrId: original.instructionId,
            OrgnlEndToEndId: original.endToEndId,
            OrgnlTxId: original.transactionId,
            OrgnlUETR: original.uetr,
            TxSts: input.status,
            StsRsnInf: input.reasonCode === undefined && input.additionalInformation === undefined
                ? undefined
                : {
                    Rsn: input.reasonCode === undefined ? undefined : { Cd: input.reasonCode },
                    AddtlInf: input.additionalInformation === undefined ? undefined : [...input.additionalInformation].slice(0, 105).join(''),
                },
            AccptncDtTm: input.acceptedAt,
        },
    });
}
export function pacs002GroupDocument(input) {
    const { original } = input;
    return writeDocument(input.messageName, 'FIToFIPmtStsRpt', {
        GrpHdr: { MsgId: input.messageId, CreDtTm: input.createdAt },
        OrgnlGrpInfAndSts: {
            OrgnlMsgId: original.messageId,
            OrgnlMsgNmId: original.messageName,
            OrgnlCreDtTm: original.createdAt,
            OrgnlNbOfTxs: original.transactionCount !== undefined && /^[0-9]{1,15}$/.test(original.transactionCount) ? original.transactionCount : undefined,
            GrpSts: input.status,
            StsRsnInf: input.reasonCode === undefined && input.additionalInformation === undefined
                ? undefined
                : {
                    Rsn: input.reasonCode === undefined ? undefined : { Cd: input.reasonCode },
                    AddtlInf: input.additionalInformation === undefined ? undefined : [...input.additionalInformation].slice(0, 105).join(''),
                },
        },
    });
}
export function readPacs002(xml) {
    const document = readDocument(xml);
    if (!document.ok)
        return document;
    if (!document.messageName.startsWith('pacs.002.') || document.root !== 'FIToFIPmtStsRpt')
        return { ok: false, error: `not a pacs.002: ${document.messageName}` };
    const body = document.body;
    const group = child(body, 'OrgnlGrpInfAndSts');
    const transactions = children(body, 'TxInfAndSts');
    const statuses = transactions.map((transaction) => ({
        originalMessageId: text(transaction, 'OrgnlGrpInf', 'OrgnlMsgId') ?? text(group, 'OrgnlMsgId'),
        originalMessageName: text(transaction, 'OrgnlGrpInf', 'OrgnlMsgNmId') ?? text(group, 'OrgnlMsgNmId'),
        originalEndToEndId: text(transaction, 'OrgnlEndToEndId'),
        uetr: text(transaction, 'OrgnlUETR'),
        status: text(transaction, 'TxSts'),
        ...reason(transaction),
    }));
    // A report about the whole message (e.g. the operator refused it) carries only the group status.
    if (statuses.length === 0 && group !== undefined) {
        statuses.push({
            originalMessageId: text(group, 'OrgnlMsgId'),
            originalMessageName: text(group, 'OrgnlMsgNmId'),
            originalEndToEndId: undefined,
            uetr: undefined,
            status: text(group, 'GrpSts'),
            ...reason(group),
        });
    }
    return {
        ok: true,
        value: { messageName: document.messageName, messageId: text(body, 'GrpHdr', 'MsgId'), statuses, json: { schema: document.messageName, [document.root]: body } },
    };
}
/** The status reason of a report's transaction, block or group (StsRsnInf). */
function reason(node) {
    return readReason(child(node, 'StsRsnInf'));
}
//# sourceMappingURL=pacs002.js.map