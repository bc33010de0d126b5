import type { CreditTransfer } from '../../domain/messages/credit-transfer.js';
import type { PaymentAccount } from '../../domain/messages/common.js';
import { isDate } from '../../domain/messages/formats.js';
import { numberText } from '../../lib/json.js';
import { formatAmount, parseAmount, type Money } from '../../lib/money.js';
import type { OutboundTransfer } from '../../ports/scheme.js';
import { MAX35, schemeMessageId } from './ids.js';
import { clip, codeOrProprietary, COUNTRY_CODE, moneyOfAmount, PartyMapper, Problems, record, scalar } from './parties.js';
import { Carried, supplementElement } from './supplement.js';
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
  /**
   * False when the scheme's usage guidelines leave `SplmtryData` out of the message (CBPR+): what
   * would travel there (supplement.ts) cannot be carried, and is refused (CH17) naming its field.
   */
  readonly supplement?: false;
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

const INSTRUCTION_CODES = new Set(['CHQB', 'HOLD', 'PHOB', 'TELB']);

/** The CdtTrfTxInf element of the transfer, or why the scheme message cannot carry it. */
export function mapCreditTransfer(transfer: OutboundTransfer, settings: Pacs008Settings): MappingResult {
  const problems = new Problems();
  const transaction = new TransactionMapper(transfer, settings, problems).map();
  return problems.first === undefined ? { ok: true, transaction } : { ok: false, ...problems.first };
}

/** Refuses (CH17, element not admitted) the first value a message without supplementary data would have to carry there. */
export function refuseCarried(carried: Carried, scheme: string, problems: Problems): void {
  const [first] = carried.values;
  if (first !== undefined) problems.add('CH17', `${scheme} messages carry no supplementary data, where ${first.pointer} would travel`, first.pointer);
}

/** Refuses (FF02) a carried value whose member name XML cannot hold (Carried.unwritable). */
export function refuseUnwritable(carried: Carried, problems: Problems): void {
  const bad = carried.unwritable();
  if (bad !== undefined) problems.add('FF02', 'a member name holds a character XML 1.0 cannot carry', bad.pointer);
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
  readonly #parts: PartyMapper;
  /** What the message has no element for: its supplement. */
  readonly #carried = new Carried();

  constructor(
    readonly transfer: OutboundTransfer,
    readonly settings: Pacs008Settings,
    readonly problems: Problems,
  ) {
    this.#message = transfer.message;
    this.#parts = new PartyMapper({ ...(settings.memberIdSystem === undefined ? {} : { memberIdSystem: settings.memberIdSystem }), accountWithoutNumber: settings.version !== 'pacs.008.001.08' }, problems, this.#carried);
  }

  map(): XmlElement {
    const m = this.#message;
    const ids = m.transactionIdentifiers;
    const messageId = schemeMessageId(this.transfer.idempotencyKey);
    const schemeData = record(m.paymentScheme.schemeData);
    const previous = m.previousInstructingAgents ?? [];
    const intermediaries = m.intermediaryAgents ?? [];
    const carried = this.#carried;
    const transaction: XmlElement = {
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
      PrvsInstgAgt1: this.#parts.agent(previous[0], 'previousInstructingAgents/0'),
      PrvsInstgAgt2: this.#parts.agent(previous[1], 'previousInstructingAgents/1'),
      PrvsInstgAgt3: this.#parts.agent(previous[2], 'previousInstructingAgents/2'),
      InstgAgt: this.#parts.agent(m.instructingAgent, 'instructingAgent'),
      InstdAgt: this.#parts.agent(m.instructedAgent, 'instructedAgent'),
      IntrmyAgt1: this.#parts.agent(intermediaries[0], 'intermediaryAgents/0'),
      IntrmyAgt2: this.#parts.agent(intermediaries[1], 'intermediaryAgents/1'),
      IntrmyAgt3: this.#parts.agent(intermediaries[2], 'intermediaryAgents/2'),
      InitgPty: m.initiatingParty === undefined ? undefined : this.#parts.party(m.initiatingParty, 'initiatingParty'),
      Dbtr: this.#parts.requiredParty(m.debtor, 'debtor'),
      DbtrAcct: this.#parts.account(m.debtorAccount, 'debtorAccount'),
      DbtrAgt: this.#parts.requiredAgent(m.debtorAgent, 'debtorAgent'),
      DbtrAgtAcct: this.#parts.account(m.debtorAgentAccount, 'debtorAgentAccount'),
      CdtrAgt: this.#parts.requiredAgent(m.creditorAgent, 'creditorAgent'),
      CdtrAgtAcct: this.#parts.account(m.creditorAgentAccount, 'creditorAgentAccount'),
      Cdtr: this.#parts.requiredParty(m.creditor, 'creditor'),
      CdtrAcct: this.#parts.account(withResolvedAccount(m.creditorAccount, this.transfer.resolvedAccount), 'creditorAccount'),
      InstrForCdtrAgt: (m.instructionForCreditorAgent ?? []).map((instruction) => {
        const code = instruction.code !== undefined && INSTRUCTION_CODES.has(instruction.code) ? instruction.code : undefined;
        const information = [code === undefined ? instruction.code : undefined, instruction.information].filter((part) => part !== undefined).join(' ');
        return { Cd: code, InstrInf: information === '' ? undefined : clip(information, 140) };
      }),
      Purp: codeOrProprietary(m.purpose, 4),
      RgltryRptg: (m.regulatoryReporting ?? []).map((entry) => this.#regulatoryReporting(entry)),
      Tax: this.#tax(m.tax, carried),
      RmtInf: this.#parts.remittance(m.remittanceInformation, carried),
    };
    // The scheme data of a scheme whose content the spec does not show (all but CBPR+, which reads its own) travels whole.
    if (this.settings.chargeBearer !== 'schemeData') carried.addOthers('/paymentScheme/schemeData', m.paymentScheme.schemeData, ['charges', 'exchangeRate']);
    carried.add('/supplementaryData', m.supplementaryData);
    if (this.settings.supplement === false) refuseCarried(carried, this.transfer.scheme, this.problems);
    refuseUnwritable(carried, this.problems);
    return { ...transaction, SplmtryData: supplementElement('FIToFICstmrCdtTrf/CdtTrfTxInf', carried) };
  }

  /** Tax (TaxInformation7/10): the amounts, reference, method, zone and date; its other members travel in the supplement. */
  #tax(tax: CreditTransfer['tax'], carried: Carried): XmlElement | undefined {
    if (tax === undefined) return undefined;
    const members = tax as Readonly<Record<string, unknown>>;
    const written: string[] = [];
    const take = <T>(member: string, value: T | undefined): T | undefined => {
      if (value !== undefined) written.push(member);
      return value;
    };
    const text = (member: string, max: number): string | undefined => {
      const value = members[member];
      return take(member, typeof value === 'string' && value !== '' && value.trim() === value && [...value].length <= max ? value : undefined);
    };
    const amount = (member: string): XmlElement | undefined => {
      const money = moneyOfAmount(members[member]);
      return take(member, money === undefined ? undefined : amountElement(money));
    };
    const date = members.date;
    const element: XmlElement = {
      AdmstnZone: text('administrationZone', MAX35),
      RefNb: text('referenceNumber', 140),
      Mtd: text('method', MAX35),
      TtlTaxblBaseAmt: amount('totalTaxableBaseAmount'),
      TtlTaxAmt: amount('totalAmount'),
      Dt: take('date', typeof date === 'string' && isDate(date) ? date : undefined),
    };
    carried.addOthers('/tax', tax, written);
    return element;
  }

  #paymentType(): XmlElement | undefined {
    const instrument = this.#message.paymentTypeInformation?.localInstrument;
    const mapped = codeOrProprietary(instrument, 35);
    return mapped === undefined ? undefined : { LclInstrm: mapped };
  }

  #amount(amount: unknown, field: string): XmlElement | undefined {
    const money = moneyOf(amount);
    if (money === undefined) return this.problems.add('FF02', `${field} is not an amount`, `/amounts/${field}`);
    if (!isoAmountFits(money)) return this.problems.add('AM02', `${field} has more than the 18 digits an ISO 20022 amount carries`, `/amounts/${field}/value`);
    return amountElement(money);
  }

  #exchangeRate(schemeData: Record<string, unknown> | undefined): string | undefined {
    const rate = schemeData?.exchangeRate;
    if (typeof rate !== 'number') return undefined;
    const literal = numberText(schemeData as object, 'exchangeRate') ?? String(rate);
    // BaseOneRate: a plain decimal with at most 11 digits, 10 of them decimals.
    const match = /^(\d+)(?:\.(\d+))?$/.exec(literal);
    if (match === null || (match[1] ?? '').replace(/^0+/, '').length + (match[2] ?? '').length > 11 || (match[2] ?? '').length > 10) {
      return this.problems.add('FF02', `exchangeRate ${literal} cannot be written as an ISO 20022 rate (at most 11 digits, 10 decimals)`, '/paymentScheme/schemeData/exchangeRate');
    }
    return literal;
  }

  #chargeBearer(schemeData: Record<string, unknown> | undefined): string | undefined {
    if (this.settings.chargeBearer !== 'schemeData') return this.settings.chargeBearer;
    const bearer = schemeData?.chargeBearer;
    if (typeof bearer === 'string' && (CHARGE_BEARER_CODES as readonly string[]).includes(bearer)) return bearer;
    return this.problems.add('CH21', `paymentScheme.schemeData.chargeBearer (DEBT, CRED, SHAR or SLEV) is required on ${this.transfer.scheme}`, '/paymentScheme/schemeData/chargeBearer');
  }

  /** Charges given as {amount, agent}; other shapes are not shown by the spec and are left out of the scheme message. */
  #charges(schemeData: Record<string, unknown> | undefined): XmlElement[] {
    const charges = Array.isArray(schemeData?.charges) ? (schemeData.charges as unknown[]) : [];
    const out: XmlElement[] = [];
    for (const [index, charge] of charges.entries()) {
      const item = record(charge);
      const money = moneyOf(item?.amount);
      const agent = this.#parts.agent(record(item?.agent), `paymentScheme/schemeData/charges/${index}/agent`);
      if (money !== undefined && isoAmountFits(money) && agent !== undefined) out.push({ Amt: amountElement(money), Agt: agent });
    }
    return out;
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
