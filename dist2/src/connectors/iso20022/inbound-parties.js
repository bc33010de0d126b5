import { compact, JsonDecimal } from './json-text.js';
import { child, children, text } from './xml.js';
/** Every text of the repeated element `tag` under `node`, in order. */
export function texts(node, tag) {
    const element = Array.isArray(node) ? node[0] : node;
    if (typeof element !== 'object' || element === null || Array.isArray(element))
        return [];
    const value = element[tag];
    const list = Array.isArray(value) ? value : [value];
    return list.map((item) => (typeof item === 'string' ? item : typeof item === 'object' && item !== null && !Array.isArray(item) ? item['#text'] : undefined)).filter((item) => typeof item === 'string' && item !== '');
}
/** An ActiveCurrencyAndAmount as an Amount, its value the decimal literal of the document; undefined when absent or not a decimal with a currency. */
export function amountJson(node, tag) {
    const value = text(node, tag);
    const currency = child(node, tag)?.['@_Ccy'];
    const decimal = value === undefined ? undefined : JsonDecimal.of(value);
    if (decimal === undefined || typeof currency !== 'string')
        return undefined;
    return { currency, value: decimal };
}
/** A code or proprietary choice (`Cd` or `Prtry`) as `{schema: CODE | PROPRIETARY, value}`. */
export function codeJson(node) {
    const code = text(node, 'Cd');
    if (code !== undefined)
        return { schema: 'CODE', value: code };
    const proprietary = text(node, 'Prtry');
    return proprietary === undefined ? undefined : { schema: 'PROPRIETARY', value: proprietary };
}
export function partyJson(node) {
    if (node === undefined)
        return undefined;
    return compact({
        legalName: text(node, 'Nm'),
        address: addressJson(child(node, 'PstlAdr')),
        identification: partyIdentificationJson(child(node, 'Id')),
        countryOfResidence: text(node, 'CtryOfRes'),
        contactDetails: contactJson(child(node, 'CtctDtls')),
    });
}
function partyIdentificationJson(node) {
    if (node === undefined)
        return undefined;
    const person = child(node, 'PrvtId');
    const holder = person ?? child(node, 'OrgId');
    const identifiers = children(holder, 'Othr')
        .map((other) => compact({ identification: text(other, 'Id'), scheme: codeJson(child(other, 'SchmeNm')), issuer: text(other, 'Issr') }))
        .filter((identifier) => identifier !== undefined);
    if (identifiers.length === 0)
        return undefined;
    return { schema: person === undefined ? 'ORGANISATION' : 'PERSON', identifiers };
}
function contactJson(node) {
    if (node === undefined)
        return undefined;
    const other = (channel) => text(children(node, 'Othr').find((item) => text(item, 'ChanlTp') === channel), 'Id');
    return compact({
        phoneNumber: text(node, 'PhneNb') ?? other('PHON'),
        mobileNumber: text(node, 'MobNb') ?? other('MOBL'),
        emailAddress: text(node, 'EmailAdr'),
    });
}
export function addressJson(node) {
    if (node === undefined)
        return undefined;
    const lines = texts(node, 'AdrLine');
    return compact({
        addressType: text(node, 'AdrTp', 'Cd') ?? text(node, 'AdrTp', 'Prtry', 'Id'),
        department: text(node, 'Dept'),
        streetName: text(node, 'StrtNm'),
        buildingNumber: text(node, 'BldgNb'),
        buildingName: text(node, 'BldgNm'),
        floor: text(node, 'Flr'),
        postBox: text(node, 'PstBx'),
        postCode: text(node, 'PstCd'),
        townName: text(node, 'TwnNm'),
        townLocationName: text(node, 'TwnLctnNm'),
        districtName: text(node, 'DstrctNm'),
        countrySubDivision: text(node, 'CtrySubDvsn'),
        country: text(node, 'Ctry'),
        addressLine: lines.length === 0 ? undefined : lines,
    });
}
/** A CashAccount: the number (IBAN or Othr/Id) as identification, the proxy (Prxy, its type `<schema>[:<namespace>]`) as proxy. */
export function accountJson(node) {
    if (node === undefined)
        return undefined;
    return compact({
        identification: accountIdentificationJson(child(node, 'Id')),
        type: codeJson(child(node, 'Tp')),
        currency: text(node, 'Ccy'),
        name: text(node, 'Nm'),
        proxy: proxyJson(child(node, 'Prxy')),
    });
}
function accountIdentificationJson(node) {
    const iban = text(node, 'IBAN');
    if (iban !== undefined)
        return { schema: 'IBAN', value: iban };
    const other = child(node, 'Othr');
    const value = text(other, 'Id');
    if (value === undefined)
        return undefined;
    return compact({ schema: 'GENERIC', value, scheme: codeJson(child(other, 'SchmeNm')), issuer: text(other, 'Issr') });
}
function proxyJson(node) {
    const value = text(node, 'Id');
    if (value === undefined)
        return undefined;
    const type = text(node, 'Tp', 'Prtry') ?? text(node, 'Tp', 'Cd');
    if (type === undefined)
        return { value };
    const colon = type.indexOf(':');
    return colon < 0 ? { schema: type, value } : { schema: type.slice(0, colon), namespace: type.slice(colon + 1), value };
}
/** What FinInstnId/Othr/Id says when the sender does not know the agent (pain013.ts writes it for a debtor named by proxy only). */
const NOT_PROVIDED = 'NOTPROVIDED';
/** An agent as an InstitutionIdentification; undefined when it names nothing (absent, or only NOTPROVIDED). */
export function agentJson(node) {
    if (node === undefined)
        return undefined;
    const institution = child(node, 'FinInstnId');
    const memberId = text(institution, 'ClrSysMmbId', 'MmbId');
    const other = text(institution, 'Othr', 'Id');
    const branch = child(node, 'BrnchId');
    return compact({
        bicfi: text(institution, 'BICFI'),
        clearingSystemMemberId: memberId === undefined ? undefined : { memberId },
        lei: text(institution, 'LEI'),
        name: text(institution, 'Nm'),
        address: addressJson(child(institution, 'PstlAdr')),
        additionalIdentifications: other === undefined || other === NOT_PROVIDED ? undefined : [{ identification: other }],
        branch: branch === undefined ? undefined : compact({ identification: text(branch, 'Id'), name: text(branch, 'Nm'), address: addressJson(child(branch, 'PstlAdr')) }),
    });
}
/** The institution an agent names, as the message gives it (BIC and clearing member id). */
export function institutionOf(node) {
    const institution = child(node, 'FinInstnId');
    const bicfi = text(institution, 'BICFI');
    const memberId = text(institution, 'ClrSysMmbId', 'MmbId');
    return { ...(bicfi === undefined ? {} : { bicfi }), ...(memberId === undefined ? {} : { memberId }) };
}
export function remittanceJson(node) {
    if (node === undefined)
        return undefined;
    const lines = texts(node, 'Ustrd');
    const structured = children(node, 'Strd')
        .map((item) => {
        const additional = texts(item, 'AddtlRmtInf');
        return compact({ creditorReference: text(item, 'CdtrRefInf', 'Ref'), additionalRemittanceInformation: additional.length === 0 ? undefined : additional });
    })
        .filter((item) => item !== undefined);
    return compact({ unstructured: lines.length === 0 ? undefined : lines, structured: structured.length === 0 ? undefined : structured });
}
//# sourceMappingURL=inbound-parties.js.map