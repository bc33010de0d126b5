import type { CreditTransfer } from '../../domain/messages/credit-transfer.js';
import type { InstitutionIdentification, Party, PaymentAccount, PostalAddress } from '../../domain/messages/common.js';
import { numberText } from '../../lib/json.js';
import { formatAmount, parseAmount, type Money } from '../../lib/money.js';
import type { OutboundTransfer } from '../../ports/scheme.js';
import { MAX35, schemeMessageId } from './ids.js';
import { child, readDocument, text, writeDocument, type IsoDocument, type XmlElement, type XmlValue } from './xml.js';

/**
 * Our CreditTransfer as an ISO 20022 FIToFICustomerCreditTransfer (pacs.008). Versions .08 and
 * .10 share the element order used here; they differ in one point that matters to us: .10's
 * CashAccount40 may omit the account number (a proxy-only creditor account), .08's may not.
 *
 * Mapping is pure and separate from writing: `mapCreditTransfer` yields the transaction element
 * or the reason it cannot be written, so a connector's `check()` refuses such a transfer with a
 * reason code before anything is sent; `pacs008Document` then only adds the group header.
 */

export const PACS008_VERSIONS = ['pacs.008.001.08', 'pacs.008.001.10'] as const;
export type Pacs008Version = (typeof PACS008_VERSIONS)[number];

export const CHARGE_BEARER_CODES = ['DEBT', 'CRED', 'SHAR', 'SLEV'] as const;
export type ChargeBearerCode = (typeof CHARGE_BEARER_CODES)[number];

/** What a scheme family fixes in its pacs.008 (all data; no code differs between families). */
export interface Pacs008Settings {
  readonly version: Pacs008Version;
  /** SttlmInf/SttlmMtd: CLRG through a clearing system, INDA over the instructed agent's books (correspondent banking). */
  readonly settlementMethod: 'CLRG' | 'INDA';
  /** SttlmInf/ClrSys/Prtry, for schemes settled through a clearing system. */
  readonly clearingSystem?: string;
  /** ClrSysMmbId/ClrSysId/Cd written beside member ids, e.g. ZANCC (South African national clearing code). */
  readonly memberIdSystem?: string;
  /** ChrgBr: a fixed code, or the integrator's paymentScheme.schemeData.chargeBearer. */
  readonly chargeBearer: ChargeBearerCode | 'schemeData';
}

export interface Pacs008Header {
  readonly messageId: string;
  /** ISO date-time with offset, e.g. 2026-03-02T07:15:27.482+00:00. */
  readonly createdAt: string;
}

export type MappingResult =
  | { readonly ok: true; readonly transaction: XmlElement }
  | { readonly ok: false; readonly reasonCode: string; readonly reasonText: string };

/** ActiveCurrencyAndAmount allows 18 digits in all (xs:totalDigits), decimals included. */
export const ISO_AMOUNT_DIGITS_MAX = 18;

const PHONE_NUMBER = /^\+[0-9]{1,3}-[0-9()+-]{1,30}$/;
const COUNTRY_CODE = /^[A-Z]{2}$/;
const IBAN = /^[A-Z]{2}[0-9]{2}[a-zA-Z0-9]{1,30}$/;
const BIC = /^[A-Z0-9]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/;
const ADDRESS_TYPES = new Set(['ADDR', 'PBOX', 'HOME', 'BIZZ', 'MLTO', 'DLVY']);
const INSTRUCTION_CODES = new Set(['CHQB', 'HOLD', 'PHOB', 'TELB']);
const REMITTANCE_LINE_CHARS_MAX = 140;
const ADDRESS_LINES_MAX = 7;

/** Collects the first reason a transfer cannot be written; later mapping steps still run but change nothing. */
class Problems {
  first: { reasonCode: string; reasonText: string } | undefined;
  add(reasonCode: string, reasonText: string): undefined {
    this.first ??= { reasonCode, reasonText };
    return undefined;
  }
}

/** The CdtTrfTxInf element of the transfer, or why the scheme message cannot carry it. */
export function mapCreditTransfer(transfer: OutboundTransfer, settings: Pacs008Settings): MappingResult {
  const problems = new Problems();
  const transaction = new TransactionMapper(transfer, settings, problems).map();
  return problems.first === undefined ? { ok: true, transaction } : { ok: false, ...problems.first };
}

/** The whole pacs.008 document: group header plus the one transaction. */
export function pacs008Document(header: Pacs008Header, transaction: XmlElement, settings: Pacs008Settings): string {
  return writeDocument(settings.version, 'FIToFICstmrCdtTrf', {
    GrpHdr: {
      MsgId: header.messageId,
      CreDtTm: header.createdAt,
      NbOfTxs: '1',
      SttlmInf: {
        SttlmMtd: settings.settlementMethod,
        ClrSys: settings.clearingSystem === undefined ? undefined : { Prtry: settings.clearingSystem },
      },
    },
    CdtTrfTxInf: transaction,
  });
}

/** The date-time form written in group headers: UTC with an explicit offset (CBPR+ requires the offset). */
export function isoDateTime(epochMs: number): string {
  return new Date(epochMs).toISOString().replace('Z', '+00:00');
}

class TransactionMapper {
  readonly #message: CreditTransfer;

  constructor(
    readonly transfer: OutboundTransfer,
    readonly settings: Pacs008Settings,
    readonly problems: Problems,
  ) {
    this.#message = transfer.message;
  }

  map(): XmlElement {
    const m = this.#message;
    const ids = m.transactionIdentifiers;
    const messageId = schemeMessageId(this.transfer.idempotencyKey);
    const schemeData = record(m.paymentScheme.schemeData);
    const previous = m.previousInstructingAgents ?? [];
    const intermediaries = m.intermediaryAgents ?? [];
    return {
      PmtId: {
        // Point-to-point references of this hop are ours to assign: the integrator's when given, else the derived MsgId.
        InstrId: ids.instructionIdentification ?? messageId,
        EndToEndId: ids.endToEndIdentification,
        TxId: ids.transactionIdentification ?? messageId,
        UETR: this.transfer.uetr.toLowerCase(),
      },
      PmtTpInf: this.#paymentType(),
      IntrBkSttlmAmt: amountElement(this.transfer.amount),
      IntrBkSttlmDt: m.settlementDate,
      InstdAmt: m.amounts.instructedAmount === undefined ? undefined : this.#amount(m.amounts.instructedAmount, 'instructedAmount'),
      XchgRate: this.#exchangeRate(schemeData),
      ChrgBr: this.#chargeBearer(schemeData),
      ChrgsInf: this.#charges(schemeData),
      PrvsInstgAgt1: this.#agent(previous[0]),
      PrvsInstgAgt2: this.#agent(previous[1]),
      PrvsInstgAgt3: this.#agent(previous[2]),
      InstgAgt: this.#agent(m.instructingAgent),
      InstdAgt: this.#agent(m.instructedAgent),
      IntrmyAgt1: this.#agent(intermediaries[0]),
      IntrmyAgt2: this.#agent(intermediaries[1]),
      IntrmyAgt3: this.#agent(intermediaries[2]),
      InitgPty: m.initiatingParty === undefined ? undefined : this.#party(m.initiatingParty),
      Dbtr: this.#requiredParty(m.debtor, 'debtor'),
      DbtrAcct: this.#account(m.debtorAccount, 'debtorAccount'),
      DbtrAgt: this.#requiredAgent(m.debtorAgent, 'debtorAgent'),
      DbtrAgtAcct: this.#account(m.debtorAgentAccount, 'debtorAgentAccount'),
      CdtrAgt: this.#requiredAgent(m.creditorAgent, 'creditorAgent'),
      CdtrAgtAcct: this.#account(m.creditorAgentAccount, 'creditorAgentAccount'),
      Cdtr: this.#requiredParty(m.creditor, 'creditor'),
      CdtrAcct: this.#account(withResolvedAccount(m.creditorAccount, this.transfer.resolvedAccount), 'creditorAccount'),
      InstrForCdtrAgt: (m.instructionForCreditorAgent ?? []).map((instruction) => {
        const code = instruction.code !== undefined && INSTRUCTION_CODES.has(instruction.code) ? instruction.code : undefined;
        const information = [code === undefined ? instruction.code : undefined, instruction.information].filter((part) => part !== undefined).join(' ');
        return { Cd: code, InstrInf: information === '' ? undefined : clip(information, 140) };
      }),
      Purp: codeOrProprietary(m.purpose, 4),
      RgltryRptg: (m.regulatoryReporting ?? []).map((entry) => this.#regulatoryReporting(entry)),
      RmtInf: this.#remittance(),
    };
  }

  #paymentType(): XmlElement | undefined {
    const instrument = this.#message.paymentTypeInformation?.localInstrument;
    const mapped = codeOrProprietary(instrument, 35);
    return mapped === undefined ? undefined : { LclInstrm: mapped };
  }

  #amount(amount: unknown, field: string): XmlElement | undefined {
    const money = moneyOf(amount);
    if (money === undefined) return this.problems.add('FF02', `${field} is not an amount`);
    if (!isoAmountFits(money)) return this.problems.add('AM02', `${field} has more than the 18 digits an ISO 20022 amount carries`);
    return amountElement(money);
  }

  #exchangeRate(schemeData: Record<string, unknown> | undefined): string | undefined {
    const rate = schemeData?.exchangeRate;
    if (typeof rate !== 'number') return undefined;
    const literal = numberText(schemeData as object, 'exchangeRate') ?? String(rate);
    // BaseOneRate: a plain decimal with at most 11 digits, 10 of them decimals.
    const match = /^(\d+)(?:\.(\d+))?$/.exec(literal);
    if (match === null || (match[1] ?? '').replace(/^0+/, '').length + (match[2] ?? '').length > 11 || (match[2] ?? '').length > 10) {
      return this.problems.add('FF02', `exchangeRate ${literal} cannot be written as an ISO 20022 rate (at most 11 digits, 10 decimals)`);
    }
    return literal;
  }

  #chargeBearer(schemeData: Record<string, unknown> | undefined): string | undefined {
    if (this.settings.chargeBearer !== 'schemeData') return this.settings.chargeBearer;
    const bearer = schemeData?.chargeBearer;
    if (typeof bearer === 'string' && (CHARGE_BEARER_CODES as readonly string[]).includes(bearer)) return bearer;
    return this.problems.add('CH21', `paymentScheme.schemeData.chargeBearer (DEBT, CRED, SHAR or SLEV) is required on ${this.transfer.scheme}`);
  }

  /** Charges given as {amount, agent}; other shapes are not shown by the spec and are left out of the scheme message. */
  #charges(schemeData: Record<string, unknown> | undefined): XmlElement[] {
    const charges = Array.isArray(schemeData?.charges) ? (schemeData.charges as unknown[]) : [];
    const out: XmlElement[] = [];
    for (const charge of charges) {
      const item = record(charge);
      const money = moneyOf(item?.amount);
      const agent = this.#agent(record(item?.agent));
      if (money !== undefined && isoAmountFits(money) && agent !== undefined) out.push({ Amt: amountElement(money), Agt: agent });
    }
    return out;
  }

  #requiredParty(party: Party, field: string): XmlElement | undefined {
    // Originator and beneficiary names travel with every payment (FATF Recommendation 16).
    if (party.legalName === undefined && party.knownAsName === undefined) return this.problems.add('CH21', `${field} has no name (legalName or knownAsName)`);
    return this.#party(party);
  }

  #party(party: Party): XmlElement {
    return {
      Nm: party.legalName ?? party.knownAsName,
      PstlAdr: address(party.address),
      Id: this.#partyIdentification(party.identification),
      CtryOfRes: party.countryOfResidence,
      CtctDtls: contact(party.contactDetails),
    };
  }

  #partyIdentification(identification: Party['identification']): XmlElement | undefined {
    if (identification === undefined) return undefined;
    const person = String(identification.schema ?? '').toUpperCase() === 'PERSON';
    const others: XmlElement[] = [];
    for (const identifier of identification.identifiers ?? []) {
      if (identifier.identification === undefined) continue;
      const id = String(identifier.identification);
      if (id.length > MAX35) return this.problems.add('RR12', `party identification ${id.slice(0, 12)}... is longer than 35 characters`);
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

  #account(account: PaymentAccount | undefined, field: string): XmlElement | undefined {
    if (account === undefined) return undefined;
    const identification = account.identification?.value === undefined ? undefined : this.#accountIdentification(account.identification, field);
    // CashAccount38 (.08) requires the account number; a proxy-only account then travels without
    // the element (a scheme rule refuses it where the creditor account is needed).
    if (identification === undefined && this.settings.version === 'pacs.008.001.08') return undefined;
    const proxy = account.proxy?.value === undefined ? undefined : this.#proxy(account.proxy);
    const type = account.type?.value === undefined ? undefined : String(account.type.schema ?? '').toUpperCase() === 'CODE' && account.type.value.length <= 4 ? { Cd: account.type.value } : { Prtry: clip(account.type.value, MAX35) };
    return { Id: identification, Tp: type, Ccy: account.currency, Nm: account.name, Prxy: proxy };
  }

  #accountIdentification(identification: NonNullable<PaymentAccount['identification']>, field: string): XmlElement | undefined {
    const value = identification.value ?? '';
    if (String(identification.schema ?? '').toUpperCase() === 'IBAN') {
      if (!IBAN.test(value)) return this.problems.add('AC01', `${field}: ${value} is not an IBAN`);
      return { IBAN: value };
    }
    if (value.length > 34) return this.problems.add('AC01', `${field}: account number longer than 34 characters`);
    const scheme = identification.scheme;
    const schemeName =
      scheme?.value === undefined ? undefined : String(scheme.schema ?? '').toUpperCase() === 'CODE' && scheme.value.length <= 4 ? { Cd: scheme.value } : { Prtry: clip(scheme.value, MAX35) };
    return { Othr: { Id: value, SchmeNm: schemeName, Issr: identification.issuer === undefined ? undefined : clip(identification.issuer, MAX35) } };
  }

  /** Prxy/Tp is proprietary: the proxy kind, with its namespace when one is given (e.g. MOBILE:ZA_MOBILE). */
  #proxy(proxy: NonNullable<PaymentAccount['proxy']>): XmlElement | undefined {
    const kind = [proxy.schema, proxy.namespace].filter((part) => part !== undefined && part !== '').join(':');
    if (kind.length > MAX35) return this.problems.add('FF02', 'proxy kind and namespace together are longer than 35 characters');
    return { Tp: kind === '' ? undefined : { Prtry: kind }, Id: proxy.value };
  }

  #requiredAgent(agent: InstitutionIdentification, field: string): XmlElement | undefined {
    const mapped = this.#agent(agent);
    if (mapped === undefined) return this.problems.add('CH21', `${field} carries no identification (BIC, clearing member id, LEI or name)`);
    return mapped;
  }

  #agent(agent: InstitutionIdentification | undefined): XmlElement | undefined {
    if (agent === undefined) return undefined;
    const memberId = agent.clearingSystemMemberId?.memberId ?? agent.memberId;
    const system = this.settings.memberIdSystem;
    // Agents inside charges are not validated at intake (their shape is not shown by the spec).
    if (agent.bicfi !== undefined && !BIC.test(String(agent.bicfi))) return this.problems.add('RC05', `${String(agent.bicfi)} is not a BIC`);
    const institution: XmlElement = {
      BICFI: agent.bicfi,
      ClrSysMmbId: memberId === undefined || memberId === '' ? undefined : { ClrSysId: system === undefined ? undefined : { Cd: system }, MmbId: memberId },
      LEI: agent.lei,
      Nm: agent.name === undefined || agent.name === '' ? undefined : agent.name,
      PstlAdr: address(agent.address),
    };
    if (Object.values(institution).every((value) => value === undefined)) return undefined;
    const branch = agent.branch;
    return {
      FinInstnId: institution,
      BrnchId:
        branch === undefined
          ? undefined
          : {
              Id: branch.identification === undefined ? undefined : clip(String(branch.identification), MAX35),
              Nm: branch.name === undefined ? undefined : clip(String(branch.name), 140),
              PstlAdr: address(branch.address),
            },
    };
  }

  /** Regulatory reporting given as {debitCreditReportingIndicator?, authority{name,country}, details[{type,date,country,code,amount,information}]}. */
  #regulatoryReporting(entry: unknown): XmlElement | undefined {
    const item = record(entry);
    if (item === undefined) return undefined;
    const authority = record(item.authority);
    const indicator = typeof item.debitCreditReportingIndicator === 'string' && ['CRED', 'DEBT', 'BOTH'].includes(item.debitCreditReportingIndicator) ? item.debitCreditReportingIndicator : undefined;
    const details = (Array.isArray(item.details) ? (item.details as unknown[]) : []).map((detail) => {
      const d = record(detail);
      if (d === undefined) return undefined;
      const information = Array.isArray(d.information) ? (d.information as unknown[]) : d.information === undefined ? [] : [d.information];
      const money = moneyOf(d.amount);
      return {
        Tp: scalar(d.type, MAX35),
        Dt: typeof d.date === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(d.date) ? d.date : undefined,
        Ctry: typeof d.country === 'string' && COUNTRY_CODE.test(d.country) ? d.country : undefined,
        Cd: scalar(d.code, 10),
        Amt: money === undefined ? undefined : amountElement(money),
        Inf: information.map((line) => scalar(line, MAX35)),
      };
    });
    return {
      DbtCdtRptgInd: indicator,
      Authrty: authority === undefined ? undefined : { Nm: scalar(authority.name, 140), Ctry: typeof authority.country === 'string' && COUNTRY_CODE.test(authority.country) ? authority.country : undefined },
      Dtls: details,
    };
  }

  #remittance(): XmlElement | undefined {
    const remittance = this.#message.remittanceInformation;
    if (remittance === undefined) return undefined;
    // Ustrd is Max140Text, repeatable: a longer line is carried whole, in 140-character pieces.
    const lines = (remittance.unstructured ?? []).flatMap((line) => chunks(line, REMITTANCE_LINE_CHARS_MAX));
    const structured = (remittance.structured ?? []).map((item) => {
      const additional = Array.isArray(item.additionalRemittanceInformation) ? (item.additionalRemittanceInformation as unknown[]) : [item.additionalRemittanceInformation];
      return {
        CdtrRefInf: typeof item.creditorReference === 'string' ? { Ref: clip(item.creditorReference, MAX35) } : undefined,
        AddtlRmtInf: additional.slice(0, 3).map((line) => scalar(line, 140)),
      };
    });
    return { Ustrd: lines, Strd: structured };
  }
}

/** The amount as ISO 20022 writes it: exact decimal text from bigint minor units, never through a float. */
export function amountElement(money: Money): XmlElement {
  return { '#text': formatAmount(money), '@_Ccy': money.currency };
}

/** Whether an amount fits ActiveCurrencyAndAmount (18 digits in all). */
export function isoAmountFits(money: Money): boolean {
  return formatAmount(money).replace('.', '').replace(/^0+(?=\d)/, '').length <= ISO_AMOUNT_DIGITS_MAX;
}

/** An Amount object of the interface as Money, judged from the number's literal text when known; undefined when it is not a valid amount. */
function moneyOf(amount: unknown): Money | undefined {
  const item = record(amount);
  if (item === undefined || typeof item.currency !== 'string' || typeof item.value !== 'number') return undefined;
  const parsed = parseAmount(numberText(item, 'value') ?? String(item.value), item.currency);
  return parsed.ok ? parsed.money : undefined;
}

function address(value: PostalAddress | undefined): XmlElement | undefined {
  if (value === undefined) return undefined;
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

function codeOrProprietary(value: { readonly schema?: string; readonly value?: string } | undefined, codeLengthMax: number): XmlElement | undefined {
  if (value?.value === undefined || value.value === '') return undefined;
  const code = String(value.schema ?? '').toUpperCase() === 'CODE' && value.value.length <= codeLengthMax;
  return code ? { Cd: value.value } : { Prtry: clip(value.value, MAX35) };
}

function scalar(value: unknown, max: number): string | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const textValue = String(value).trim();
  return textValue === '' ? undefined : clip(textValue, max);
}

function clip(value: string, max: number): string {
  return [...value].slice(0, max).join('');
}

function chunks(value: string, size: number): string[] {
  const characters = [...value];
  const out: string[] = [];
  for (let start = 0; start < characters.length; start += size) out.push(characters.slice(start, start + size).join(''));
  return out;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** A proxy-only creditor account with the account number its identifier determination resolved it to. */
function withResolvedAccount(account: PaymentAccount, resolved: string | undefined): PaymentAccount {
  if (resolved === undefined || account.identification?.value !== undefined) return account;
  return { ...account, identification: { schema: 'GENERIC', value: resolved } };
}

/** What a scheme reads from a pacs.008: the simulator's view of a transfer. */
export interface Pacs008Summary {
  readonly messageName: string;
  readonly messageId: string;
  readonly createdAt: string;
  readonly instructionId: string | undefined;
  readonly endToEndId: string;
  readonly transactionId: string | undefined;
  readonly uetr: string | undefined;
  readonly amount: string;
  readonly currency: string;
  /** CdtrAcct/Id: the IBAN or Othr/Id; undefined for a proxy-only account. */
  readonly creditorAccount: string | undefined;
  readonly creditorProxy: string | undefined;
}

export type ReadPacs008Result = { readonly ok: true; readonly value: Pacs008Summary } | { readonly ok: false; readonly error: string };

export function readPacs008(xml: string): ReadPacs008Result {
  const document = readDocument(xml);
  return document.ok ? pacs008From(document) : document;
}

/** readPacs008 of a document already parsed (a reader that parsed it to learn which message it is). */
export function pacs008From(document: IsoDocument): ReadPacs008Result {
  if (!document.messageName.startsWith('pacs.008.') || document.root !== 'FIToFICstmrCdtTrf') return { ok: false, error: `not a pacs.008: ${document.messageName}` };
  const body = document.body;
  const transaction = child(body, 'CdtTrfTxInf');
  const messageId = text(body, 'GrpHdr', 'MsgId');
  const createdAt = text(body, 'GrpHdr', 'CreDtTm');
  const endToEndId = text(transaction, 'PmtId', 'EndToEndId');
  const amount = text(transaction, 'IntrBkSttlmAmt');
  const currency = child(transaction, 'IntrBkSttlmAmt')?.['@_Ccy'];
  if (messageId === undefined || createdAt === undefined || endToEndId === undefined || amount === undefined || typeof currency !== 'string') {
    return { ok: false, error: 'pacs.008 lacks MsgId, CreDtTm, EndToEndId or IntrBkSttlmAmt' };
  }
  const account: XmlValue = child(transaction, 'CdtrAcct', 'Id');
  return {
    ok: true,
    value: {
      messageName: document.messageName,
      messageId,
      createdAt,
      instructionId: text(transaction, 'PmtId', 'InstrId'),
      endToEndId,
      transactionId: text(transaction, 'PmtId', 'TxId'),
      uetr: text(transaction, 'PmtId', 'UETR'),
      amount,
      currency,
      creditorAccount: text(account, 'IBAN') ?? text(account, 'Othr', 'Id'),
      creditorProxy: text(transaction, 'CdtrAcct', 'Prxy', 'Id'),
    },
  };
}
