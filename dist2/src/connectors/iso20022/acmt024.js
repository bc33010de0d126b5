import { assert } from '../../lib/assert.js';
import { supplementOf, VERIFICATION_SUPPLEMENT, VERIFICATION_SUPPLEMENT_NAMESPACE } from './acmt023.js';
import { child, readDocument, text, writeDocument } from './xml.js';
/** Lengths the XSD sets for the elements a ResolvedAccount is written into. */
const LEGAL_NAME_CHARS_MAX = 140;
export const KNOWN_AS_NAME_CHARS_MAX = 70;
const ACCOUNT_NUMBER_CHARS_MAX = 34;
const ADDITIONAL_INFORMATION_CHARS_MAX = 105;
export function acmt024Document(input) {
    const { outcome } = input;
    if (!outcome.verified)
        assert(/^[A-Za-z0-9]{1,4}$/.test(outcome.reasonCode), `reason code ${outcome.reasonCode} is not an ExternalVerificationReason1Code`);
    return writeDocument(input.messageName, 'IdVrfctnRpt', {
        Assgnmt: { MsgId: input.messageId, CreDtTm: input.createdAt, Assgnr: input.assigner, Assgne: input.assignee },
        OrgnlAssgnmt: { MsgId: input.original.messageId, CreDtTm: input.original.createdAt },
        Rpt: {
            OrgnlId: input.originalId,
            Vrfctn: outcome.verified ? 'true' : 'false',
            Rsn: outcome.verified ? undefined : { Cd: outcome.reasonCode },
            OrgnlPtyAndAcctId: input.originalPartyAndAccount,
            UpdtdPtyAndAcctId: outcome.verified ? updatedPartyAndAccount(outcome.account) : undefined,
        },
        SplmtryData: supplementaryData(outcome),
    });
}
function updatedPartyAndAccount(account) {
    assertLength(account.legalName, LEGAL_NAME_CHARS_MAX, 'legalName');
    assertLength(account.knownAsName, KNOWN_AS_NAME_CHARS_MAX, 'knownAsName');
    assertLength(account.traditionalIdentifier, ACCOUNT_NUMBER_CHARS_MAX, 'traditionalIdentifier');
    const { proxy } = account;
    return {
        Pty: { Nm: account.legalName },
        Acct: {
            Id: account.traditionalIdentifier === undefined ? undefined : { Othr: { Id: account.traditionalIdentifier } },
            Nm: account.knownAsName,
            Prxy: proxy === undefined ? undefined : { Tp: proxy.schema === undefined ? undefined : { Prtry: proxy.schema }, Id: proxy.value },
        },
        Agt: account.accountAgentBicfi === undefined ? undefined : { FinInstnId: { BICFI: account.accountAgentBicfi } },
    };
}
/** The SplmtryData element, or undefined when the outcome has nothing without an ISO element (an empty envelope is invalid). */
function supplementaryData(outcome) {
    const fields = outcome.verified
        ? {
            AcctCreDt: outcome.account.creationDate,
            TxLmt: outcome.account.transactionLimit === undefined ? undefined : { '@_Ccy': outcome.account.transactionLimit.currency, '#text': outcome.account.transactionLimit.value },
        }
        : { AddtlInf: outcome.reasonText === undefined ? undefined : [...outcome.reasonText].slice(0, ADDITIONAL_INFORMATION_CHARS_MAX).join('') };
    if (Object.values(fields).every((value) => value === undefined || value === ''))
        return undefined;
    return { PlcAndNm: 'IdVrfctnRpt/Rpt', Envlp: { [VERIFICATION_SUPPLEMENT]: { '@_xmlns': VERIFICATION_SUPPLEMENT_NAMESPACE, ...fields } } };
}
function assertLength(value, max, field) {
    assert(value === undefined || [...value].length <= max, `${field} longer than the ${max} characters acmt.024 carries`);
}
export function readAcmt024(xml) {
    const document = readDocument(xml);
    return document.ok ? acmt024From(document) : document;
}
/** The first report is read: regpay asks one verification per message. */
function acmt024From(document) {
    if (!document.messageName.startsWith('acmt.024.') || document.root !== 'IdVrfctnRpt')
        return { ok: false, error: `not an acmt.024: ${document.messageName}` };
    const body = document.body;
    const report = child(body, 'Rpt');
    const verified = verificationOf(text(report, 'Vrfctn'));
    if (report === undefined || verified === undefined)
        return { ok: false, error: 'acmt.024 lacks Rpt or a boolean Rpt/Vrfctn' };
    const supplement = supplementOf(body, VERIFICATION_SUPPLEMENT);
    return {
        ok: true,
        value: definedOnly({
            messageName: document.messageName,
            messageId: text(body, 'Assgnmt', 'MsgId'),
            originalMessageId: text(body, 'OrgnlAssgnmt', 'MsgId'),
            verified,
            reasonCode: text(report, 'Rsn', 'Cd') ?? text(report, 'Rsn', 'Prtry'),
            reasonText: text(supplement, 'AddtlInf'),
            account: accountOf(report, supplement),
            json: { schema: document.messageName, [document.root]: body },
        }),
    };
}
/** xs:boolean: true, false, 1 or 0. */
function verificationOf(value) {
    if (value === 'true' || value === '1')
        return true;
    if (value === 'false' || value === '0')
        return false;
    return undefined;
}
function accountOf(report, supplement) {
    const updated = child(report, 'UpdtdPtyAndAcctId');
    const limit = child(supplement, 'TxLmt');
    const limitValue = text(supplement, 'TxLmt');
    const limitCurrency = limit?.['@_Ccy'];
    return definedOnly({
        traditionalIdentifier: text(updated, 'Acct', 'Id', 'Othr', 'Id') ?? text(updated, 'Acct', 'Id', 'IBAN'),
        proxy: proxyOf(updated) ?? proxyOf(child(report, 'OrgnlPtyAndAcctId')),
        creationDate: text(supplement, 'AcctCreDt'),
        knownAsName: text(updated, 'Acct', 'Nm'),
        legalName: text(updated, 'Pty', 'Nm'),
        accountAgentBicfi: text(updated, 'Agt', 'FinInstnId', 'BICFI'),
        transactionLimit: limitValue === undefined || typeof limitCurrency !== 'string' ? undefined : { value: limitValue, currency: limitCurrency },
    });
}
/** Acct/Prxy: its Id, and its schema (Tp/Prtry up to a `:` namespace separator, or Tp/Cd). */
function proxyOf(partyAndAccount) {
    const value = text(partyAndAccount, 'Acct', 'Prxy', 'Id');
    if (value === undefined)
        return undefined;
    const type = text(partyAndAccount, 'Acct', 'Prxy', 'Tp', 'Prtry') ?? text(partyAndAccount, 'Acct', 'Prxy', 'Tp', 'Cd');
    return type === undefined ? { value } : { value, schema: type.split(':')[0] ?? type };
}
/** The object without its undefined properties, so what is absent from the document is absent here. */
function definedOnly(value) {
    return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined));
}
//# sourceMappingURL=acmt024.js.map