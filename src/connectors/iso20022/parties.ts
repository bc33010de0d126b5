import type { CreditTransfer } from '../../domain/messages/credit-transfer.js';
import type { InstitutionIdentification, Party, PaymentAccount, PostalAddress } from '../../domain/messages/common.js';
import { isDate } from '../../domain/messages/formats.js';
import { numberText } from '../../lib/json.js';
import { formatAmount, parseAmount, type Money } from '../../lib/money.js';
import { MAX35 } from './ids.js';
import type { Carried } from './supplement.js';
import type { XmlElement } from './xml.js';

/**
 * The parts every ISO 20022 message of ours writes alike, whatever the message: parties
 * (PartyIdentification135), accounts (CashAccount38/40), agents
 * (BranchAndFinancialInstitutionIdentification6) and remittance information, mapped from the
 * interface's shapes (docs/connectors.md, "How our CreditTransfer becomes a pacs.008"). The
 * pacs.008 of a credit transfer and the pain.013 of a request-to-pay share them; the acmt.023
 * carries the agents its assignment does not write as these elements hold them (agentAsWritten).
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
  first: { reasonCode: string; reasonText: string; field?: string } | undefined;
  /** `field`: the JSON pointer of the integrator's field at fault, which intake names in its refusal. */
  add(reasonCode: string, reasonText: string, field?: string): undefined {
    this.first ??= { reasonCode, reasonText, ...(field === undefined ? {} : { field }) };
    return undefined;
  }
}

export interface PartySettings {
  /** ClrSysMmbId/ClrSysId/Cd written beside member ids, e.g. ZANCC. */
  readonly memberIdSystem?: string;
  /** Whether the message's CashAccount may omit the account number (CashAccount40 may, CashAccount38 may not). */
  readonly accountWithoutNumber: boolean;
}

/**
 * Maps parties, accounts, agents and remittance; the first thing the message cannot carry is kept
 * in `problems`. A value the element has no place for (a second name, a deprecated member id beside
 * the clearing member id, further identifications of an institution) goes into `carried`, the
 * message's supplement; a mapper without one writes parts already sent (camt.056 repeating the
 * pain.013's agent).
 */
export class PartyMapper {
  constructor(
    readonly settings: PartySettings,
    readonly problems: Problems,
    readonly carried?: Carried,
  ) {}

  requiredParty(party: Party, field: string): XmlElement | undefined {
    // Originator and beneficiary names travel with every payment (FATF Recommendation 16).
    if (party.legalName === undefined && party.knownAsName === undefined) return this.problems.add('CH21', `${field} has no name (legalName or knownAsName)`, `/${field}/legalName`);
    return this.party(party, field);
  }

  party(party: Party, field: string): XmlElement {
    // A party has one Nm, which carries the legal name; an everyday name other than it travels in the supplement.
    if (party.legalName !== undefined && party.knownAsName !== undefined && party.knownAsName !== party.legalName) this.carried?.add(`/${field}/knownAsName`, party.knownAsName);
    return {
      Nm: party.legalName ?? party.knownAsName,
      PstlAdr: address(party.address),
      Id: this.#partyIdentification(party.identification, field),
      CtryOfRes: party.countryOfResidence,
      CtctDtls: contact(party.contactDetails),
    };
  }

  #partyIdentification(identification: Party['identification'], field: string): XmlElement | undefined {
    if (identification === undefined) return undefined;
    const person = String(identification.schema ?? '').toUpperCase() === 'PERSON';
    const others: XmlElement[] = [];
    for (const [index, identifier] of (identification.identifiers ?? []).entries()) {
      if (identifier.identification === undefined) continue;
      const id = String(identifier.identification);
      if (id.length > MAX35) {
        return this.problems.add('RR12', `party identification ${id.slice(0, 12)}... is longer than 35 characters`, `/${field}/identification/identifiers/${index}/identification`);
      }
      const scheme = identifier.scheme;
      const schemeValue = scheme?.value === undefined ? undefined : String(scheme.value);
      const schemeName =
        schemeValue === undefined
          ? undefined
          : String(scheme?.schema ?? '').toUpperCase() === 'CODE' && schemeValue.length <= 4
            ? { Cd: schemeValue }
            : { Prtry: clip(schemeValue, MAX35) };
      others.push({ Id: id, SchmeNm: schemeName, Issr: identifier.issuer === undefined ? undefined : clip(String(identifier.issuer), MAX35) });
    }
    if (others.length === 0) return undefined;
    return person ? { PrvtId: { Othr: others } } : { OrgId: { Othr: others } };
  }

  account(account: PaymentAccount | undefined, field: string): XmlElement | undefined {
    if (account === undefined) return undefined;
    const identification = account.identification?.value === undefined ? undefined : this.#accountIdentification(account.identification, field);
    // CashAccount38 (.08) requires the account number; a proxy-only account then travels without
    // the element (a scheme rule refuses it where the creditor account is needed).
    if (identification === undefined && !this.settings.accountWithoutNumber) return undefined;
    const proxy = account.proxy?.value === undefined ? undefined : this.#proxy(account.proxy, field);
    const type = account.type?.value === undefined ? undefined : String(account.type.schema ?? '').toUpperCase() === 'CODE' && account.type.value.length <= 4 ? { Cd: account.type.value } : { Prtry: clip(account.type.value, MAX35) };
    return { Id: identification, Tp: type, Ccy: account.currency, Nm: account.name, Prxy: proxy };
  }

  #accountIdentification(identification: NonNullable<PaymentAccount['identification']>, field: string): XmlElement | undefined {
    const value = identification.value ?? '';
    if (String(identification.schema ?? '').toUpperCase() === 'IBAN') {
      if (!IBAN.test(value)) return this.problems.add('AC01', `${field}: ${value} is not an IBAN`, `/${field}/identification/value`);
      return { IBAN: value };
    }
    if (value.length > 34) return this.problems.add('AC01', `${field}: account number longer than 34 characters`, `/${field}/identification/value`);
    const scheme = identification.scheme;
    const schemeName =
      scheme?.value === undefined ? undefined : String(scheme.schema ?? '').toUpperCase() === 'CODE' && scheme.value.length <= 4 ? { Cd: scheme.value } : { Prtry: clip(scheme.value, MAX35) };
    return { Othr: { Id: value, SchmeNm: schemeName, Issr: identification.issuer === undefined ? undefined : clip(identification.issuer, MAX35) } };
  }

  /** Prxy/Tp is proprietary: the proxy kind, with its namespace when one is given (e.g. MOBILE:ZA_MOBILE). */
  #proxy(proxy: NonNullable<PaymentAccount['proxy']>, field: string): XmlElement | undefined {
    const kind = [proxy.schema, proxy.namespace].filter((part) => part !== undefined && part !== '').join(':');
    if (kind.length > MAX35) return this.problems.add('FF02', 'proxy kind and namespace together are longer than 35 characters', `/${field}/proxy/namespace`);
    return { Tp: kind === '' ? undefined : { Prtry: kind }, Id: proxy.value };
  }

  requiredAgent(agent: InstitutionIdentification, field: string): XmlElement | undefined {
    const mapped = this.agent(agent, field);
    if (mapped === undefined) return this.problems.add('CH21', `${field} carries no identification (BIC, clearing member id, LEI or name)`, `/${field}`);
    return mapped;
  }

  /** `field`: where the agent is in the integrator's message (`creditorAgent`, `intermediaryAgents/0`...). */
  agent(agent: InstitutionIdentification | undefined, field: string): XmlElement | undefined {
    if (agent === undefined) return undefined;
    const memberId = agent.clearingSystemMemberId?.memberId ?? agent.memberId;
    const system = this.settings.memberIdSystem;
    // Intake checks every agent, a charge's too; a transfer stored before it did is judged here.
    if (agent.bicfi !== undefined && !BIC.test(String(agent.bicfi))) return this.problems.add('RC05', `${String(agent.bicfi)} is not a BIC`, `/${field}/bicfi`);
    const institution: XmlElement = {
      BICFI: agent.bicfi,
      ClrSysMmbId: memberId === undefined || memberId === '' ? undefined : { ClrSysId: system === undefined ? undefined : { Cd: system }, MmbId: memberId },
      LEI: agent.lei,
      Nm: agent.name === undefined || agent.name === '' ? undefined : agent.name,
      PstlAdr: address(agent.address),
    };
    if (Object.values(institution).every((value) => value === undefined)) return undefined;
    carryAgentRest(this.carried, `/${field}`, agent);
    const branch = agent.branch;
    return {
      FinInstnId: institution,
      BrnchId:
        branch === undefined
          ? undefined
          : {
              Id: branch.identification === undefined ? undefined : clip(String(branch.identification), BRANCH_ID_CHARS),
              Nm: branch.name === undefined ? undefined : clip(String(branch.name), BRANCH_NAME_CHARS),
              PstlAdr: address(branch.address),
            },
    };
  }

  /**
   * RmtInf: unstructured lines as `Ustrd`; each structured item as `Strd` (referred documents,
   * their amount, the creditor's reference, up to three lines of additional information), and
   * what `Strd` has no element for, or cannot hold whole, carried in `carried` at its pointer.
   */
  remittance(remittance: CreditTransfer['remittanceInformation'], carried: Carried): XmlElement | undefined {
    if (remittance === undefined) return undefined;
    // Ustrd is Max140Text, repeatable: a longer line is carried whole, in 140-character pieces.
    const lines = (remittance.unstructured ?? []).flatMap((line) => chunks(line, REMITTANCE_LINE_CHARS_MAX));
    const structured = (remittance.structured ?? []).map((item, index) => structuredRemittance(item, `/remittanceInformation/structured/${index}`, carried));
    return { Ustrd: lines, Strd: structured };
  }
}

/**
 * What FinInstnId has no element for: the deprecated memberId beside a clearingSystemMemberId that
 * names another, the deprecated companyRegistration, and additionalIdentifications (content not
 * shown by the spec), carried at their pointers under `pointer`.
 */
export function carryAgentRest(carried: Carried | undefined, pointer: string, agent: InstitutionIdentification): void {
  if (carried === undefined) return;
  const memberId = agent.clearingSystemMemberId?.memberId;
  if (memberId !== undefined && memberId !== '' && agent.memberId !== undefined && agent.memberId !== memberId) carried.add(`${pointer}/memberId`, agent.memberId);
  carried.add(`${pointer}/companyRegistration`, agent.companyRegistration);
  carried.add(`${pointer}/additionalIdentifications`, agent.additionalIdentifications);
}

type StructuredItem = NonNullable<NonNullable<CreditTransfer['remittanceInformation']>['structured']>[number];

/** ISO 20022 DocumentType6Code: a referred document's type written as `Cd`; any other type as `Prtry`. */
const DOCUMENT_TYPE_CODES = new Set(['MSIN', 'CNFA', 'DNFA', 'CINV', 'CREN', 'DEBN', 'HIRI', 'SBIN', 'CMCN', 'SOAC', 'DISP', 'BOLD', 'VCHR', 'AROI', 'TSUT', 'PUOR']);
const ADDITIONAL_REMITTANCE_LINES_MAX = 3;
/** The members of a structured remittance item the interface names (others are kept as sent, CONTRACT §9, and not sent on). */
const STRUCTURED_MEMBERS = ['referredDocuments', 'referredDocumentAmount', 'creditorReference', 'originatorReference', 'additionalRemittanceInformation'] as const;

/** A text that fits a MaxNText element whole (a number as its literal), else undefined: what does not fit is carried in the supplement, never cut. */
function whole(value: unknown, max: number, holder?: object, key?: string | number): string | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const text = typeof value === 'number' ? ((holder === undefined || key === undefined ? undefined : numberText(holder, key)) ?? String(value)) : value;
  return text.trim() === text && text !== '' && [...text].length <= max ? text : undefined;
}

function structuredRemittance(item: StructuredItem, pointer: string, carried: Carried): XmlElement {
  const written: string[] = [];
  const documents = referredDocuments(item.referredDocuments, `${pointer}/referredDocuments`, carried);
  written.push('referredDocuments');
  const documentAmount = remittedAmount(item.referredDocumentAmount);
  if (documentAmount !== undefined) written.push('referredDocumentAmount');
  const reference = whole(item.creditorReference, MAX35, item, 'creditorReference');
  if (reference !== undefined) written.push('creditorReference');
  const additional = item.additionalRemittanceInformation;
  const additionalLines = Array.isArray(additional) ? (additional as unknown[]) : additional === undefined ? [] : [additional];
  const lines = additionalLines.map((line, index) => whole(line, 140, Array.isArray(additional) ? additional : item, Array.isArray(additional) ? index : 'additionalRemittanceInformation'));
  if (lines.length <= ADDITIONAL_REMITTANCE_LINES_MAX && lines.every((line) => line !== undefined)) written.push('additionalRemittanceInformation');
  // originatorReference has no element in Strd; it and whatever did not fit travel in the supplement.
  for (const member of STRUCTURED_MEMBERS) if (!written.includes(member)) carried.add(`${pointer}/${member}`, item[member], item, member);
  return {
    RfrdDocInf: documents,
    RfrdDocAmt: documentAmount,
    CdtrRefInf: reference === undefined ? undefined : { Ref: reference },
    AddtlRmtInf: written.includes('additionalRemittanceInformation') ? lines : [],
  };
}

/** RfrdDocInf: a document given as its number, or as {type, number, relatedDate}; other members and shapes are carried. */
function referredDocuments(value: unknown, pointer: string, carried: Carried): XmlElement[] {
  if (value === undefined) return [];
  const list = Array.isArray(value) ? (value as unknown[]) : [value];
  const base = Array.isArray(value) ? pointer : undefined;
  return list.flatMap((document, index): XmlElement[] => {
    const at = base === undefined ? pointer : `${base}/${index}`;
    const holder = Array.isArray(value) ? value : undefined;
    const number = whole(document, MAX35, holder, index);
    if (number !== undefined) return [{ Nb: number }];
    const item = record(document);
    if (item === undefined) {
      carried.add(at, document, holder, index);
      return [];
    }
    const written: string[] = [];
    const documentNumber = whole(item.number, MAX35, item, 'number');
    if (documentNumber !== undefined) written.push('number');
    const type = whole(item.type, MAX35, item, 'type');
    if (type !== undefined) written.push('type');
    const date = typeof item.relatedDate === 'string' && isDate(item.relatedDate) ? item.relatedDate : undefined;
    if (date !== undefined) written.push('relatedDate');
    carried.addOthers(at, item, written);
    if (written.length === 0) return [];
    return [{ Tp: type === undefined ? undefined : { CdOrPrtry: DOCUMENT_TYPE_CODES.has(type) ? { Cd: type } : { Prtry: type } }, Nb: documentNumber, RltdDt: date }];
  });
}

/** RfrdDocAmt/RmtdAmt: the amount the payment remits of the referred documents, when given as an Amount; undefined otherwise (then carried). */
function remittedAmount(value: unknown): XmlElement | undefined {
  const money = moneyOfAmount(value);
  return money === undefined ? undefined : { RmtdAmt: { '#text': formatAmount(money), '@_Ccy': money.currency } };
}

/** An Amount object of the interface as Money (judged from the number's literal text when known) when it is one ISO 20022 can carry; undefined otherwise. */
export function moneyOfAmount(amount: unknown): Money | undefined {
  const item = record(amount);
  if (item === undefined || typeof item.currency !== 'string' || typeof item.value !== 'number' || Object.keys(item).length !== 2) return undefined;
  const parsed = parseAmount(numberText(item, 'value') ?? String(item.value), item.currency);
  if (!parsed.ok) return undefined;
  return formatAmount(parsed.money).replace('.', '').replace(/^0+(?=\d)/, '').length <= 18 ? parsed.money : undefined;
}

/**
 * PostalAddress24's parts the interface names, in the element's order: the member, its element and
 * the ISO length (Max16Text, Max35Text, Max70Text) it is cut to.
 */
const ADDRESS_PARTS = [
  ['department', 'Dept', 70],
  ['streetName', 'StrtNm', 70],
  ['buildingNumber', 'BldgNb', 16],
  ['buildingName', 'BldgNm', 35],
  ['floor', 'Flr', 70],
  ['postBox', 'PstBx', 16],
  ['postCode', 'PstCd', 16],
  ['townName', 'TwnNm', 35],
  ['townLocationName', 'TwnLctnNm', 35],
  ['districtName', 'DstrctNm', 35],
  ['countrySubDivision', 'CtrySubDvsn', 35],
] as const;
/** AdrLine: Max70Text. */
const ADDRESS_LINE_CHARS = 70;
/** BrnchId/Id (Max35Text) and BrnchId/Nm (Max140Text). */
const BRANCH_ID_CHARS = MAX35;
const BRANCH_NAME_CHARS = 140;

function address(value: PostalAddress | undefined): XmlElement | undefined {
  if (value === undefined) return undefined;
  const country = value.country === undefined ? undefined : String(value.country);
  const countryCode = country !== undefined && COUNTRY_CODE.test(country) ? country : undefined;
  const lines = [...(value.addressLine ?? []).map(String), ...(country !== undefined && countryCode === undefined ? [country] : [])];
  const type = value.addressType === undefined ? undefined : String(value.addressType);
  // Address parts beyond ISO's lengths are cut (as MT-to-MX translation does); a country that is not an ISO code travels as an address line.
  return {
    AdrTp: type !== undefined && ADDRESS_TYPES.has(type) ? { Cd: type } : undefined,
    ...Object.fromEntries(ADDRESS_PARTS.map(([member, element, max]) => [element, scalar(value[member], max)])),
    Ctry: countryCode,
    AdrLine: lines.slice(0, ADDRESS_LINES_MAX).map((line) => clip(line, ADDRESS_LINE_CHARS)),
  };
}

/**
 * An agent as an agent element (`PartyMapper.agent`) holds it, in the interface's shape, for a
 * message that carries an agent in its supplement rather than in an element (the acmt.023's
 * agents beyond its assignment): the members the interface names, its address parts and lines and
 * its branch's identification, name and address cut to the ISO lengths the element has (an
 * address type other than an AddressType2Code left out, a country that is no code cut as the
 * address line it becomes), and what FinInstnId has no element for (the deprecated memberId and
 * companyRegistration, additionalIdentifications) as carryAgentRest carries it. Each text keeps a
 * number's literal; members the interface does not name are not sent on, as by the element.
 */
export function agentAsWritten(agent: InstitutionIdentification): Record<string, unknown> {
  const branch = agent.branch;
  return {
    bicfi: agent.bicfi,
    clearingSystemMemberId: agent.clearingSystemMemberId === undefined ? undefined : { memberId: agent.clearingSystemMemberId.memberId },
    memberId: agent.memberId,
    lei: agent.lei,
    name: agent.name,
    address: addressAsWritten(agent.address),
    branch:
      branch === undefined
        ? undefined
        : {
            identification: cutText(branch, 'identification', BRANCH_ID_CHARS),
            name: cutText(branch, 'name', BRANCH_NAME_CHARS),
            address: addressAsWritten(branch.address),
          },
    companyRegistration: agent.companyRegistration,
    additionalIdentifications: agent.additionalIdentifications,
  };
}

/** A postal address with the parts PstlAdr writes, each cut as it writes it (address()). */
function addressAsWritten(value: PostalAddress | undefined): Record<string, unknown> | undefined {
  if (value === undefined) return undefined;
  const type = value.addressType === undefined ? undefined : String(value.addressType);
  const lines = value.addressLine;
  return {
    addressType: type !== undefined && ADDRESS_TYPES.has(type) ? type : undefined,
    ...Object.fromEntries(ADDRESS_PARTS.map(([member, , max]) => [member, cutText(value, member, max)])),
    country: cutText(value, 'country', ADDRESS_LINE_CHARS),
    addressLine: lines === undefined ? undefined : lines.slice(0, ADDRESS_LINES_MAX).map((_, index) => cutText(lines, index, ADDRESS_LINE_CHARS)),
  };
}

/** The text of `holder[key]` (a number as its literal) cut to `max` characters; undefined when it is no scalar. */
function cutText(holder: object, key: string | number, max: number): string | undefined {
  const value = (holder as Record<string | number, unknown>)[key];
  if (typeof value === 'string') return clip(value, max);
  if (typeof value === 'number') return clip(numberText(holder, key) ?? String(value), max);
  return undefined;
}

function contact(value: Party['contactDetails']): XmlElement | undefined {
  if (value === undefined) return undefined;
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

export function codeOrProprietary(value: { readonly schema?: string; readonly value?: string } | undefined, codeLengthMax: number): XmlElement | undefined {
  if (value?.value === undefined || value.value === '') return undefined;
  const code = String(value.schema ?? '').toUpperCase() === 'CODE' && value.value.length <= codeLengthMax;
  return code ? { Cd: value.value } : { Prtry: clip(value.value, MAX35) };
}

export function scalar(value: unknown, max: number): string | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const textValue = String(value).trim();
  return textValue === '' ? undefined : clip(textValue, max);
}

export function clip(value: string, max: number): string {
  return [...value].slice(0, max).join('');
}

export function chunks(value: string, size: number): string[] {
  const characters = [...value];
  const out: string[] = [];
  for (let start = 0; start < characters.length; start += size) out.push(characters.slice(start, start + size).join(''));
  return out;
}

export function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
