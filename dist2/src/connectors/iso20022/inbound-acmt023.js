import { validateIdentifierDeterminationRequest } from '../../domain/messages/identifier-determination.js';
import { supplementOf, VERIFICATION_SUPPLEMENT } from './acmt023.js';
import { lowerUetr, originalOf, validatedJson } from './inbound.js';
import { agentJson, institutionOf } from './inbound-parties.js';
import { compact } from './json-text.js';
import { child, readDocument, text } from './xml.js';
export function readInboundAcmt023(xml, scheme) {
    const document = readDocument(xml);
    if (!document.ok)
        return { kind: 'unreadable', error: document.error };
    if (!document.messageName.startsWith('acmt.023.') || document.root !== 'IdVrfctnReq')
        return { kind: 'unreadable', error: `not an acmt.023: ${document.messageName}` };
    const body = document.body;
    const messageId = text(body, 'Assgnmt', 'MsgId');
    if (messageId === undefined)
        return { kind: 'unreadable', error: 'acmt.023 lacks Assgnmt/MsgId' };
    const verification = child(body, 'Vrfctn');
    const partyAndAccount = child(verification, 'PtyAndAcctId');
    const uetr = lowerUetr(text(supplementOf(body, VERIFICATION_SUPPLEMENT), 'UETR'));
    const original = originalOf({ messageId, messageName: document.messageName, createdAt: text(body, 'Assgnmt', 'CreDtTm'), uetr });
    const context = {
        // Vrfctn/Id is mandatory in acmt.023 and acmt.024 alike; a request without it is answered naming its MsgId.
        verificationId: text(verification, 'Id') ?? messageId,
        assigner: child(body, 'Assgnmt', 'Assgnr'),
        assignee: child(body, 'Assgnmt', 'Assgne'),
        partyAndAccount,
    };
    const mapped = validatedJson(lookupJson(body, scheme, uetr), validateIdentifierDeterminationRequest);
    if (!mapped.ok)
        return { kind: 'refused', original, reasonCode: mapped.reasonCode, reasonText: mapped.reasonText, context };
    const accountAgent = institutionOf(child(partyAndAccount, 'Agt'));
    const institution = accountAgent.bicfi !== undefined || accountAgent.memberId !== undefined ? accountAgent : institutionOf(child(context.assignee, 'Agt'));
    return { kind: 'mapped', original, institution, bodyJson: mapped.json, context };
}
function lookupJson(body, scheme, uetr) {
    const verification = child(body, 'Vrfctn');
    const partyAndAccount = child(verification, 'PtyAndAcctId');
    const requesting = child(body, 'Assgnmt', 'Assgnr', 'Agt');
    const requestor = institutionOf(requesting);
    const instructed = institutionOf(child(body, 'Assgnmt', 'Assgne', 'Agt'));
    const bicfi = text(partyAndAccount, 'Agt', 'FinInstnId', 'BICFI');
    return {
        schema: 'IdentifierDeterminationRequest',
        messageIdentifiers: { messageIdentification: text(body, 'Assgnmt', 'MsgId'), creationDateTime: text(body, 'Assgnmt', 'CreDtTm') },
        request: {
            schema: scheme,
            instructingAgent: agentJson(requesting),
            instructedAgent: instructed.bicfi === undefined && instructed.memberId === undefined ? undefined : agentJson(child(body, 'Assgnmt', 'Assgne', 'Agt')),
            requestor: compact({ schema: 'INSTITUTION_IDENTIFICATION', bicfi: requestor.bicfi, memberId: requestor.memberId, name: text(requesting, 'FinInstnId', 'Nm') }),
            identifier: identifierJson(partyAndAccount),
            accountAgent: bicfi === undefined ? undefined : { bicfi },
            uetr,
            verificationIdentification: text(verification, 'Id'),
        },
    };
}
/** Acct/Prxy (its type `<schema>[:<namespace>]`) or the account number (GENERIC). */
function identifierJson(partyAndAccount) {
    const proxy = text(partyAndAccount, 'Acct', 'Prxy', 'Id');
    if (proxy !== undefined) {
        const type = text(partyAndAccount, 'Acct', 'Prxy', 'Tp', 'Prtry') ?? text(partyAndAccount, 'Acct', 'Prxy', 'Tp', 'Cd');
        const colon = type === undefined ? -1 : type.indexOf(':');
        return compact({ schema: colon < 0 ? type : type?.slice(0, colon), namespace: colon < 0 ? undefined : type?.slice(colon + 1), value: proxy });
    }
    const account = text(partyAndAccount, 'Acct', 'Id', 'Othr', 'Id') ?? text(partyAndAccount, 'Acct', 'Id', 'IBAN');
    return account === undefined ? undefined : { schema: 'GENERIC', value: account };
}
//# sourceMappingURL=inbound-acmt023.js.map