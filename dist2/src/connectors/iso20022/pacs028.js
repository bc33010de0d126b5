import { child, readDocument, text, writeDocument } from './xml.js';
export function pacs028Document(input) {
    const { original } = input;
    return writeDocument(input.messageName, 'FIToFIPmtStsReq', {
        GrpHdr: { MsgId: input.messageId, CreDtTm: input.createdAt },
        TxInf: {
            StsReqId: input.messageId,
            OrgnlGrpInf: { OrgnlMsgId: original.messageId, OrgnlMsgNmId: original.messageName, OrgnlCreDtTm: original.createdAt },
            OrgnlInstrId: original.instructionId,
            OrgnlEndToEndId: original.endToEndId,
            OrgnlTxId: original.transactionId,
            OrgnlUETR: original.uetr,
        },
    });
}
export function readPacs028(xml) {
    const document = readDocument(xml);
    return document.ok ? pacs028From(document) : document;
}
/** readPacs028 of a document already parsed (a reader that parsed it to learn which message it is). */
export function pacs028From(document) {
    if (!document.messageName.startsWith('pacs.028.') || document.root !== 'FIToFIPmtStsReq')
        return { ok: false, error: `not a pacs.028: ${document.messageName}` };
    const body = document.body;
    const transaction = child(body, 'TxInf');
    const messageId = text(body, 'GrpHdr', 'MsgId');
    if (messageId === undefined || transaction === undefined)
        return { ok: false, error: 'pacs.028 lacks MsgId or TxInf' };
    const group = child(transaction, 'OrgnlGrpInf') ?? child(body, 'OrgnlGrpInf');
    return {
        ok: true,
        value: {
            messageName: document.messageName,
            messageId,
            original: {
                messageId: text(group, 'OrgnlMsgId'),
                messageName: text(group, 'OrgnlMsgNmId'),
                createdAt: text(group, 'OrgnlCreDtTm'),
                instructionId: text(transaction, 'OrgnlInstrId'),
                endToEndId: text(transaction, 'OrgnlEndToEndId'),
                transactionId: text(transaction, 'OrgnlTxId'),
                uetr: text(transaction, 'OrgnlUETR'),
            },
        },
    };
}
//# sourceMappingURL=pacs028.js.map