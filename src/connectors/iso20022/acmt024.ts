import type { ResolvedAccount } from '../../domain/messages/identifier-determination.js';
import { assert } from '../../lib/assert.js';
import { supplementOf, VERIFICATION_SUPPLEMENT, VERIFICATION_SUPPLEMENT_NAMESPACE } from './acmt023.js';
import { child, readDocument, text, writeDocument, type IsoDocument, type XmlElement } from './xml.js';
import { cutAtWord } from '../../lib/text.js';

/**
 * IdentificationVerificationReport (acmt.024.001.03): the operator's answer to an acmt.023. One
 * report (`Rpt`) per request, naming the request's verification (`OrgnlId`) and, in
 * `OrgnlAssgnmt/MsgId`, its message. `Vrfctn` true is a resolution that passed, false one that
 * failed with `Rsn/Cd` (a reason code of the interface's list).
 *
 * Where a ResolvedAccount travels (UpdtdPtyAndAcctId, an IdentificationInformation4):
 * - legalName: `Pty/Nm` (Max140Text), the account holder's name as a party;
 * - knownAsName: `Acct/Nm` (Max70Text), the account's name agreed with its owner "as an additional
 *   means of identification" in ISO's words: what the end user sees to verify the payee. A
 *   PartyIdentification135 has one name only, so the second name goes with the account;
 * - traditionalIdentifier: `Acct/Id/Othr/Id`; proxy: `Acct/Prxy` (`Tp/Prtry` its schema);
 * - accountAgentBicfi: `Agt/FinInstnId/BICFI`.
 * The account's creation date, its per-payment limit and the failure's description have no
 * element in acmt.024.001.03 (its `Rsn` has no AddtlInf), so they travel in the message's
 * `SplmtryData` envelope, `VrfctnSplmtryData` in regpay's namespace: `AcctCreDt` (ISO date),
 * `TxLmt` (decimal text, currency in `Ccy`) and `AddtlInf` (cut to 105 characters at a word
 * boundary, like a pacs.002's AddtlInf).
 */

export type Acmt024Outcome =
  | { readonly verified: true; readonly account: ResolvedAccount }
  | { readonly verified: false; readonly reasonCode: string; readonly reasonText?: string };

export interface Acmt024Input {
  readonly messageName: string;
  readonly messageId: string;
  readonly createdAt: string;
  /** Assgnr and Assgne, Party40Choice elements: the operator answering, the bank that asked. */
  readonly assigner: XmlElement;
  readonly assignee: XmlElement;
  /** The acmt.023 answered. */
  readonly original: { readonly messageId: string; readonly createdAt?: string };
  /** Vrfctn/Id of the request. */
  readonly originalId: string;
  /** PtyAndAcctId of the request, echoed. */
  readonly originalPartyAndAccount?: XmlElement;
  readonly outcome: Acmt024Outcome;
}

/** Lengths the XSD sets for the elements a ResolvedAccount is written into. */
const LEGAL_NAME_CHARS_MAX = 140;
export const KNOWN_AS_NAME_CHARS_MAX = 70;
const ACCOUNT_NUMBER_CHARS_MAX = 34;
const ADDITIONAL_INFORMATION_CHARS_MAX = 105;

export function acmt024Document(input: Acmt024Input): string {
  const { outcome } = input;
  if (!outcome.verified) assert(/^[A-Za-z0-9]{1,4}$/.test(outcome.reasonCode), `reason code ${outcome.reasonCode} is not an ExternalVerificationReason1Code`);
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

function updatedPartyAndAccount(account: ResolvedAccount): XmlElement {
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
function supplementaryData(outcome: Acmt024Outcome): XmlElement | undefined {
  const fields: XmlElement = outcome.verified
    ? {
        AcctCreDt: outcome.account.creationDate,
        TxLmt: outcome.account.transactionLimit === undefined ? undefined : { '@_Ccy': outcome.account.transactionLimit.currency, '#text': outcome.account.transactionLimit.value },
      }
    : { AddtlInf: outcome.reasonText === undefined ? undefined : cutAtWord(outcome.reasonText, ADDITIONAL_INFORMATION_CHARS_MAX) };
  if (Object.values(fields).every((value) => value === undefined || value === '')) return undefined;
  return { PlcAndNm: 'IdVrfctnRpt/Rpt', Envlp: { [VERIFICATION_SUPPLEMENT]: { '@_xmlns': VERIFICATION_SUPPLEMENT_NAMESPACE, ...fields } } };
}

function assertLength(value: string | undefined, max: number, field: string): void {
  assert(value === undefined || [...value].length <= max, `${field} longer than the ${max} characters acmt.024 carries`);
}

/** An acmt.024 as the connector reads it. */
export interface Acmt024Report {
  readonly messageName: string;
  readonly messageId: string | undefined;
  /** OrgnlAssgnmt/MsgId: the acmt.023 answered; undefined when the report does not say. */
  readonly originalMessageId: string | undefined;
  readonly verified: boolean;
  /** Rsn/Cd (or Rsn/Prtry). */
  readonly reasonCode?: string;
  /** The supplementary AddtlInf, as written. */
  readonly reasonText?: string;
  /** What UpdtdPtyAndAcctId and the supplementary data say (the proxy from OrgnlPtyAndAcctId when UpdtdPtyAndAcctId has none). */
  readonly account: ResolvedAccount;
  /** The document as JSON (element names as keys, every value a string), for event payloads. */
  readonly json: Readonly<Record<string, unknown>>;
}

export type ReadAcmt024Result = { readonly ok: true; readonly value: Acmt024Report } | { readonly ok: false; readonly error: string };

export function readAcmt024(xml: string): ReadAcmt024Result {
  const document = readDocument(xml);
  return document.ok ? acmt024From(document) : document;
}

/** The first report is read: regpay asks one verification per message. */
function acmt024From(document: IsoDocument): ReadAcmt024Result {
  if (!document.messageName.startsWith('acmt.024.') || document.root !== 'IdVrfctnRpt') return { ok: false, error: `not an acmt.024: ${document.messageName}` };
  const body = document.body;
  const report = child(body, 'Rpt');
  const verified = verificationOf(text(report, 'Vrfctn'));
  if (report === undefined || verified === undefined) return { ok: false, error: 'acmt.024 lacks Rpt or a boolean Rpt/Vrfctn' };
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
function verificationOf(value: string | undefined): boolean | undefined {
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  return undefined;
}

function accountOf(report: XmlElement, supplement: XmlElement | undefined): ResolvedAccount {
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
function proxyOf(partyAndAccount: XmlElement | undefined): ResolvedAccount['proxy'] {
  const value = text(partyAndAccount, 'Acct', 'Prxy', 'Id');
  if (value === undefined) return undefined;
  const type = text(partyAndAccount, 'Acct', 'Prxy', 'Tp', 'Prtry') ?? text(partyAndAccount, 'Acct', 'Prxy', 'Tp', 'Cd');
  return type === undefined ? { value } : { value, schema: type.split(':')[0] ?? type };
}

/** The object without its undefined properties, so what is absent from the document is absent here. */
function definedOnly<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as T;
}
