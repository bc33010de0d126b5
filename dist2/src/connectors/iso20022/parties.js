import { MAX35 } from './ids.js';
/**
 * The parts every ISO 20022 message of ours writes alike, whatever the message: parties
 * (PartyIdentification135), accounts (CashAccount38/40), agents
 * (BranchAndFinancialInstitutionIdentification6) and remittance information, mapped from the
 * interface's shapes (docs/connectors.md, "How our CreditTransfer becomes a pacs.008"). The
 * pacs.008 of a credit transfer and the pain.013 of a request-to-pay share them.
 */
export const COUNTRY_CODE = /^[A-Z]{2}$/;
export const BIC = /^[A-Z0-9]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/;
const PHONE_NUMBER = /^\+[0-9]{1,3}-[0-9()+-]{1,30}$/;
const IBAN = /^[A-Z]{2}[0-9]{2}[a-zA-Z0-9]{1,30}$/;
const ADDRESS_TYPES = new Set(['ADDR', 'PBOX', 'HOME', 'BIZZ', 'MLTO', 'DLVY']);
const REMITTANCE_LINE_CHARS_MAX = 140;
const ADDRESS_LINES_MAX = 7;
/** Collects the first reason a message cannot be written; later mapping steps still run but change nothing. */
export class Problems {
    first;
    add(reasonCode, reasonText) {
        this.first ??= { reasonCode, reasonText };
        return undefined;
    }
}
/** Maps parties, accounts, agents and remittance; the first thing the message cannot carry is kept in `problems`. */
export class PartyMapper {
    settings;
    problems;
    constructor(settings, problems) {
        this.settings = settings;
        this.problems = problems;
    }
    requiredParty(party, field) {
        // Originator and beneficiary names travel with every payment (FATF Recommendation 16).
        if (party.legalName === undefined && party.knownAsName === undefined)
            return this.problems.add('CH21', `${field} has no name (legalName or knownAsName)`);
        return this.party(party);
    }
    party(party) {
        return {
            Nm: party.legalName ?? party.knownAsName,
            PstlAdr: address(party.address),
            Id: this.#partyIdentification(party.identification),
            CtryOfRes: party.countryOfResidence,
            CtctDtls: contact(party.contactDetails),
        };
    }
    #partyIdentification(identification) {
        if (identification === undefined)
            return undefined;
        const person = String(identification.schema ?? '').toUpperCase() === 'PERSON';
        const others = [];
        for (const identifier of identification.identifiers ?? []) {
            if (identifier.identification === undefined)
                continue;
            const id = String(identifier.identification);
            if (id.length > MAX35)
                return this.problems.add('RR12', `party identification ${id.slice(0, 12)}... is longer than 35 characters`);
            const scheme = identifier.scheme;
            const schemeValue = scheme?.value === undefined ? undefined : String(scheme.value);
            const schemeName = schemeValue === undefined
                ? undefined
                : String(scheme?.schema ?? '').toUpperCase() === 'CODE' && schemeValue.length <= 4
                    ? { Cd: schemeValue }
                    : { Prtry: clip(schemeValue, MAX35) };
            others.push({ Id: id, SchmeNm: schemeName, Issr: identifier.issuer === undefined ? undefined : clip(String(identifier.issuer), MAX35) });
        }
        if (others.length === 0)
            return undefined;
        return person ? { PrvtId: { Othr: others } } : { OrgId: { Othr: others } };
    }
    account(account, field) {
        if (account === undefined)
            return undefined;
        const identification = account.identification?.value === undefined ? undefined : this.#accountIdentification(account.identification, field);
        // CashAccount38 (.08) requires the account number; a proxy-only account then travels without
        // the element (a scheme rule refuses it where the creditor account is needed).
        if (identification === undefined && !this.settings.accountWithoutNumber)
            return undefined;
        const proxy = account.proxy?.value === undefined ? undefined : this.#proxy(account.proxy);
        const type = account.type?.value === undefined ? undefined : String(account.type.schema ?? '').toUpperCase() === 'CODE' && account.type.value.length <= 4 ? { Cd: account.type.value } : { Prtry: clip(account.type.value, MAX35) };
        return { Id: identification, Tp: type, Ccy: account.currency, Nm: account.name, Prxy: proxy };
    }
    #accountIdentification(identification, field) {
        const value = identification.value ?? '';
        if (String(identification.schema ?? '').toUpperCase() === 'IBAN') {
            if (!IBAN.test(value))
                return this.problems.add('AC01', `${field}: ${value} is not an IBAN`);
            return { IBAN: value };
        }
        if (value.length > 34)
            return this.problems.add('AC01', `${field}: account number longer than 34 characters`);
        const scheme = identification.scheme;
        const schemeName = scheme?.value === undefined ? undefined : String(scheme.schema ?? '').toUpperCase() === 'CODE' && scheme.value.length <= 4 ? { Cd: scheme.value } : { Prtry: clip(scheme.value, MAX35) };
        return { Othr: { Id: value, SchmeNm: schemeName, Issr: identification.issuer === undefined ? undefined : clip(identification.issuer, MAX35) } };
    }
    /** Prxy/Tp is proprietary: the proxy kind, with its namespace when one is given (e.g. MOBILE:ZA_MOBILE). */
    #proxy(proxy) {
        const kind = [proxy.schema, proxy.namespace].filter((part) => part !== undefined && part !== '').join(':');
        if (kind.length > MAX35)
            return this.problems.add('FF02', 'proxy kind and namespace together are longer than 35 characters');
        return { Tp: kind === '' ? undefined : { Prtry: kind }, Id: proxy.value };
    }
    requiredAgent(agent, field) {
        const mapped = this.agent(agent);
        if (mapped === undefined)
            return this.problems.add('CH21', `${field} carries no identification (BIC, clearing member id, LEI or name)`);
        return mapped;
    }
    agent(agent) {
        if (agent === undefined)
            return undefined;
        const memberId = agent.clearingSystemMemberId?.memberId ?? agent.memberId;
        const system = this.settings.memberIdSystem;
        // Intake checks every agent, a charge's too; a transfer stored before it did is judged here.
        if (agent.bicfi !== undefined && !BIC.test(String(agent.bicfi)))
            return this.problems.add('RC05', `${String(agent.bicfi)} is not a BIC`);
        const institution = {
            BICFI: agent.bicfi,
            ClrSysMmbId: memberId === undefined || memberId === '' ? undefined : { ClrSysId: system === undefined ? undefined : { Cd: system }, MmbId: memberId },
            LEI: agent.lei,
            Nm: agent.name === undefined || agent.name === '' ? undefined : agent.name,
            PstlAdr: address(agent.address),
        };
        if (Object.values(institution).every((value) => value === undefined))
            return undefined;
        const branch = agent.branch;
        return {
            FinInstnId: institution,
            BrnchId: branch === undefined
                ? undefined
                : {
                    Id: branch.identification === undefined ? undefined : clip(String(branch.identification), MAX35),
                    Nm: branch.name === undefined ? undefined : clip(String(branch.name), 140),
                    PstlAdr: address(branch.address),
                },
        };
    }
    remittance(remittance) {
        if (remittance === undefined)
            return undefined;
        // Ustrd is Max140Text, repeatable: a longer line is carried whole, in 140-character pieces.
        const lines = (remittance.unstructured ?? []).flatMap((line) => chunks(line, REMITTANCE_LINE_CHARS_MAX));
        const structured = (remittance.structured ?? []).map((item) => {
            const additional = Array.isArray(item.additionalRemittanceInformation) ? item.additionalRemittanceInformation : [item.additionalRemittanceInformation];
            return {
                CdtrRefInf: typeof item.creditorReference === 'string' ? { Ref: clip(item.creditorReference, MAX35) } : undefined,
                AddtlRmtInf: additional.slice(0, 3).map((line) => scalar(line, 140)),
            };
        });
        return { Ustrd: lines, Strd: structured };
    }
}
function address(value) {
    if (value === undefined)
        return undefined;
    const country = value.country === undefined ? undefined : String(value.country);
    const countryCode = country !== undefined && COUNTRY_CODE.test(country) ? country : undefined;
    const lines = [...(value.addressLine ?? []).map(String), ...(country !== undefined && countryCode === undefined ? [country] : [])];
    const type = value.addressType === undefined ? undefined : String(value.addressType);
    // Address parts beyond ISO's lengths are cut (as MT-to-MX translation does); a country that is not an ISO code travels as an address line.
    return {
        AdrTp: type !== undefined && ADDRESS_TYPES.has(type) ? { Cd: type } : undefined,
        Dept: scalar(value.department, 70),
        StrtNm: scalar(value.streetName, 70),
        BldgNb: scalar(value.buildingNumber, 16),
        BldgNm: scalar(value.buildingName, 35),
        Flr: scalar(value.floor, 70),
        PstBx: scalar(value.postBox, 16),
        PstCd: scalar(value.postCode, 16),
        TwnNm: scalar(value.townName, 35),
        TwnLctnNm: scalar(value.townLocationName, 35),
        DstrctNm: scalar(value.districtName, 35),
        CtrySubDvsn: scalar(value.countrySubDivision, 35),
        Ctry: countryCode,
        AdrLine: lines.slice(0, ADDRESS_LINES_MAX).map((line) => clip(line, 70)),
    };
}
function contact(value) {
    if (value === undefined)
        return undefined;
    const phone = value.phoneNumber === undefined ? undefined : String(value.phoneNumber);
    const mobile = value.mobileNumber === undefined ? undefined : String(value.mobileNumber);
    // PhoneNumber is +CC-NUMBER; other spellings (0831234567, +27831234567) go under Othr so nothing is lost.
    const others = [
        phone !== undefined && !PHONE_NUMBER.test(phone) ? { ChanlTp: 'PHON', Id: clip(phone, 128) } : undefined,
        mobile !== undefined && !PHONE_NUMBER.test(mobile) ? { ChanlTp: 'MOBL', Id: clip(mobile, 128) } : undefined,
    ];
    return {
        PhneNb: phone !== undefined && PHONE_NUMBER.test(phone) ? phone : undefined,
        MobNb: mobile !== undefined && PHONE_NUMBER.test(mobile) ? mobile : undefined,
        EmailAdr: scalar(value.emailAddress, 2048),
        Othr: others,
    };
}
export function codeOrProprietary(value, codeLengthMax) {
    if (value?.value === undefined || value.value === '')
        return undefined;
    const code = String(value.schema ?? '').toUpperCase() === 'CODE' && value.value.length <= codeLengthMax;
    return code ? { Cd: value.value } : { Prtry: clip(value.value, MAX35) };
}
export function scalar(value, max) {
    if (typeof value !== 'string' && typeof value !== 'number')
        return undefined;
    const textValue = String(value).trim();
    return textValue === '' ? undefined : clip(textValue, max);
}
export function clip(value, max) {
    return [...value].slice(0, max).join('');
}
export function chunks(value, size) {
    const characters = [...value];
    const out = [];
    for (let start = 0; start < characters.length; start += size)
        out.push(characters.slice(start, start + size).join(''));
    return out;
}
export function record(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : undefined;
}
//# sourceMappingURL=parties.js.map