import { inboundTransactionId } from '../../lib/inbound-id.js';
import { lowerUetr, originalOf } from './inbound.js';
import { PAIN013_VERSION } from './pain013.js';
import { child, readDocument, text } from './xml.js';
/**
 * A camt.056 the scheme originates about a pain.013 it brought to an integrator's customer: the
 * creditor withdrew the request, or it expired (`CxlRsnInf/Rsn/Prtry` EXPIRED, as camt056.ts writes
 * it). Read into a WithdrawalReport:
 *
 * - idempotencyKey: inboundTransactionId of the pain.013 it names (`Undrlyg/TxInf/OrgnlGrpInf/OrgnlMsgId`),
 *   the transaction the service made of that pain.013; without it the camt.056 names nothing and is discarded;
 * - caseId: `Case/Id` (else `Assgnmt/Id`), which the camt.029 repeats as `RslvdCase/Id`;
 * - original: the camt.056 itself (`Assgnmt/Id`, `CreDtTm`) with the references of the request it
 *   is about (`OrgnlInstrId`, `OrgnlEndToEndId`, `OrgnlUETR` lowercased);
 * - reasonCode: `CxlRsnInf/Rsn/Cd`, else `Prtry`; MS03 (reason not specified) when it gives none.
 */
/** The reason of a withdrawal that gives none. */
export const UNSPECIFIED_WITHDRAWAL_REASON = 'MS03';
export function readInboundCamt056(xml, scheme) {
    const document = readDocument(xml);
    if (!document.ok)
        return { kind: 'unreadable', error: document.error };
    if (!document.messageName.startsWith('camt.056.') || document.root !== 'FIToFIPmtCxlReq')
        return { kind: 'unreadable', error: `not a camt.056: ${document.messageName}` };
    const body = document.body;
    const assignmentId = text(body, 'Assgnmt', 'Id');
    const assigner = child(body, 'Assgnmt', 'Assgnr');
    const assignee = child(body, 'Assgnmt', 'Assgne');
    const transaction = child(body, 'Undrlyg', 'TxInf');
    const group = child(transaction, 'OrgnlGrpInf') ?? child(body, 'Undrlyg', 'OrgnlGrpInfAndCxl');
    const requestId = text(group, 'OrgnlMsgId');
    if (assignmentId === undefined || assigner === undefined || assignee === undefined || requestId === undefined) {
        return { kind: 'unreadable', error: 'camt.056 lacks Assgnmt/Id, Assgnr, Assgne or the OrgnlMsgId of the request it withdraws' };
    }
    const requestName = text(group, 'OrgnlMsgNmId') ?? PAIN013_VERSION;
    const original = originalOf({
        messageId: assignmentId,
        messageName: document.messageName,
        createdAt: text(body, 'Assgnmt', 'CreDtTm'),
        instructionId: text(transaction, 'OrgnlInstrId'),
        endToEndId: text(transaction, 'OrgnlEndToEndId'),
        transactionId: text(transaction, 'OrgnlTxId'),
        uetr: lowerUetr(text(transaction, 'OrgnlUETR')),
    });
    const reason = child(transaction, 'CxlRsnInf', 'Rsn');
    return {
        kind: 'read',
        report: {
            kind: 'withdrawal',
            scheme,
            idempotencyKey: inboundTransactionId(scheme, requestName.startsWith('pain.013.') ? requestName : PAIN013_VERSION, requestId),
            caseId: text(body, 'Case', 'Id') ?? assignmentId,
            original,
            reasonCode: text(reason, 'Cd') ?? text(reason, 'Prtry') ?? UNSPECIFIED_WITHDRAWAL_REASON,
            message: { schema: document.messageName, [document.root]: body },
        },
        context: { assigner, assignee, caseCreator: child(body, 'Case', 'Cretr'), request: { messageId: requestId, messageName: requestName } },
    };
}
//# sourceMappingURL=inbound-camt056.js.map