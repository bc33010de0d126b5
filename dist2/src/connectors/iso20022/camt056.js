import { schemeMessageId } from './ids.js';
import { instructionId, PAIN013_VERSION } from './pain013.js';
import { PartyMapper, Problems } from './parties.js';
import { child, readDocument, text, writeDocument } from './xml.js';
/**
 * FIToFIPaymentCancellationRequest (camt.056.001.10): asks the scheme to withdraw a
 * request-to-pay (the integrator's cancellation, or the service telling the scheme the request
 * expired unpaid). Its references are chosen so that the answer (camt.029) leads back to both keys
 * without any memory, even after a restart:
 *
 * - `Assgnmt/Id`, `Case/Id` and `Undrlyg/TxInf/CxlId` = schemeMessageId(cancellationKey): the same
 *   on every resend of one cancellation (the operator de-duplicates it). The camt.029 repeats the
 *   case as `RslvdCase/Id`, which reverses to the cancellation key;
 * - `Undrlyg/TxInf/OrgnlGrpInf/OrgnlMsgId` = the pain.013's MsgId (schemeMessageId of the
 *   request's idempotency key), `OrgnlMsgNmId` pain.013.001.09; the camt.029 repeats it in
 *   `CxlDtls/TxInfAndSts/OrgnlGrpInf/OrgnlMsgId`, which reverses to the request's key;
 * - `OrgnlInstrId`, `OrgnlEndToEndId`, `OrgnlUETR` as the pain.013 wrote them;
 * - `Assgnr/Agt` and `Case/Cretr/Agt` the creditor's bank (the requesting bank), `Assgne/Agt` the
 *   scheme's clearing system (`FinInstnId/Othr/Id`, e.g. RPP);
 * - `CxlRsnInf/Rsn`: `Cd` for an ISO 20022 cancellation reason (CUST, DUPL, AM09...), `Prtry`
 *   for the service's own EXPIRED (the request expired unpaid) and any other non-ISO reason.
 */
export const CAMT056_VERSION = 'camt.056.001.10';
/** The service's own cancellation reason: the request expired unpaid (written as CxlRsnInf/Rsn/Prtry). */
export const EXPIRED_REASON = 'EXPIRED';
/** ExternalCancellationReason1Code: four capitals or digits. */
const ISO_REASON_CODE = /^[A-Z0-9]{4}$/;
const PROPRIETARY_REASON_CHARS_MAX = 35;
/** The camt.056 for a cancellation, or why it cannot be written (a reason code). */
export function camt056Document(createdAt, cancellation, settings) {
    const { request } = cancellation;
    const message = request.message;
    const problems = new Problems();
    const parts = new PartyMapper({ ...(settings.memberIdSystem === undefined ? {} : { memberIdSystem: settings.memberIdSystem }), accountWithoutNumber: true }, problems);
    const requestingBank = parts.requiredAgent(message.creditorAgent, 'creditorAgent');
    if (problems.first !== undefined || requestingBank === undefined)
        return { ok: false, ...(problems.first ?? { reasonCode: 'CH21', reasonText: 'creditorAgent carries no identification' }) };
    const id = schemeMessageId(cancellation.cancellationKey);
    const originalMessageId = schemeMessageId(request.idempotencyKey);
    const document = writeDocument(settings.messageName, 'FIToFIPmtCxlReq', {
        Assgnmt: { Id: id, Assgnr: { Agt: requestingBank }, Assgne: { Agt: { FinInstnId: { Othr: { Id: settings.clearingSystem } } } }, CreDtTm: createdAt },
        Case: { Id: id, Cretr: { Agt: requestingBank } },
        Undrlyg: {
            TxInf: {
                CxlId: id,
                OrgnlGrpInf: { OrgnlMsgId: originalMessageId, OrgnlMsgNmId: PAIN013_VERSION },
                OrgnlInstrId: instructionId(message.transactionIdentifiers.transactionIdentification, originalMessageId),
                OrgnlEndToEndId: message.transactionIdentifiers.endToEndIdentification,
                OrgnlUETR: request.uetr.toLowerCase(),
                CxlRsnInf: { Rsn: cancellationReason(cancellation.reasonCode) },
            },
        },
    });
    return { ok: true, document };
}
/** CxlRsnInf/Rsn: an ISO code as `Cd`; EXPIRED, and anything that is no ISO code, as `Prtry`. */
export function cancellationReason(reasonCode) {
    if (reasonCode !== EXPIRED_REASON && ISO_REASON_CODE.test(reasonCode))
        return { Cd: reasonCode };
    return { Prtry: [...reasonCode].slice(0, PROPRIETARY_REASON_CHARS_MAX).join('') };
}
export function readCamt056(xml) {
    const document = readDocument(xml);
    return document.ok ? camt056From(document) : document;
}
/** The first underlying transaction is read: regpay cancels one request per message. */
export function camt056From(document) {
    if (!document.messageName.startsWith('camt.056.') || document.root !== 'FIToFIPmtCxlReq')
        return { ok: false, error: `not a camt.056: ${document.messageName}` };
    const body = document.body;
    const assignmentId = text(body, 'Assgnmt', 'Id');
    const assigner = child(body, 'Assgnmt', 'Assgnr');
    const assignee = child(body, 'Assgnmt', 'Assgne');
    const transaction = child(body, 'Undrlyg', 'TxInf');
    if (assignmentId === undefined || assigner === undefined || assignee === undefined || transaction === undefined) {
        return { ok: false, error: 'camt.056 lacks Assgnmt/Id, Assgnr, Assgne or Undrlyg/TxInf' };
    }
    const group = child(transaction, 'OrgnlGrpInf') ?? child(body, 'Undrlyg', 'OrgnlGrpInfAndCxl');
    const reason = child(transaction, 'CxlRsnInf', 'Rsn');
    return {
        ok: true,
        value: {
            messageName: document.messageName,
            assignmentId,
            createdAt: text(body, 'Assgnmt', 'CreDtTm'),
            caseId: text(body, 'Case', 'Id') ?? assignmentId,
            caseCreator: child(body, 'Case', 'Cretr'),
            assigner,
            assignee,
            cancellationId: text(transaction, 'CxlId'),
            original: {
                messageId: text(group, 'OrgnlMsgId'),
                messageName: text(group, 'OrgnlMsgNmId'),
                instructionId: text(transaction, 'OrgnlInstrId'),
                endToEndId: text(transaction, 'OrgnlEndToEndId'),
                uetr: text(transaction, 'OrgnlUETR'),
            },
            reason: text(reason, 'Cd') ?? text(reason, 'Prtry'),
        },
    };
}
//# sourceMappingURL=camt056.js.map