import type { InstitutionIdentification } from '../../domain/messages/common.js';
import { Carried, supplementElement } from './supplement.js';
import type { IdentifierDeterminationRequest } from '../../domain/messages/identifier-determination.js';
import type { OutboundLookup } from '../../ports/scheme.js';
import { MAX35 } from './ids.js';
import { agentAsWritten, clip } from './parties.js';
import { child, children, readDocument, text, type IsoDocument, type XmlElement, writeDocument } from './xml.js';

/**
 * IdentificationVerificationRequest (acmt.023.001.03): an identifier determination as the scheme
 * sees it. One request carries one verification (`Vrfctn`), whose `PtyAndAcctId` names what is
 * looked up:
 * - a proxy (identifier schema MOBILE or CUSTOM) as `Acct/Prxy`, its type `Tp/Prtry` =
 *   `<schema>[:<namespace>]` and its value `Id` as the integrator wrote it;
 * - an account (schema GENERIC) as `Acct/Id/Othr/Id`, with the bank that holds it as
 *   `Agt/FinInstnId/BICFI` (accountAgent.bicfi).
 * The assigner (`Assgnr/Agt`) is the requesting bank: the requestor when it names a BIC or member
 * id, else the instructing agent. The assignee (`Assgne/Agt`) is the operator: the instructed
 * agent when given, else the scheme's clearing system (`FinInstnId/Othr/Id`, e.g. RPP).
 *
 * The UETR has no element of its own in acmt.023.001.03; it travels in the message's
 * `SplmtryData` envelope (`VrfctnSplmtryData/UETR`, namespace VERIFICATION_SUPPLEMENT_NAMESPACE),
 * which the XSD leaves open (`xs:any`, lax) for such scheme-defined additions.
 */

/** Namespace of the supplementary data regpay writes into acmt.023 and reads from acmt.024 (docs/connectors.md). */
export const VERIFICATION_SUPPLEMENT_NAMESPACE = 'urn:regpay:xsd:vrfctn.splmtrydata.01';

/** Element of the SplmtryData envelope holding regpay's supplementary verification data. */
export const VERIFICATION_SUPPLEMENT = 'VrfctnSplmtryData';

/** What a family fixes in the acmt.023 it writes. */
export interface Acmt023Settings {
  readonly messageName: string;
  /** ClrSysMmbId/ClrSysId/Cd written beside member ids, e.g. ZANCC. */
  readonly memberIdSystem?: string;
  /** The scheme's clearing system (e.g. RPP): the assignee when the request names no instructed agent. */
  readonly clearingSystem?: string;
}

export interface Acmt023Header {
  readonly messageId: string;
  /** ISO date-time with offset. */
  readonly createdAt: string;
}

/** Why a lookup cannot be written: a reason code of the interface's list and what is wrong. */
export interface Refusal {
  readonly ok: false;
  readonly reasonCode: string;
  readonly reasonText: string;
  /** The JSON pointer of the request's field at fault, which intake names. */
  readonly field?: string;
}

export type Acmt023Result = { readonly ok: true; readonly document: string } | Refusal;

const BIC = /^[A-Z0-9]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/;
/** Max34Text: GenericAccountIdentification1/Id. */
const ACCOUNT_NUMBER_CHARS_MAX = 34;
/** Max2048Text: ProxyAccountIdentification1/Id. */
const PROXY_CHARS_MAX = 2048;

/** The acmt.023 document for a lookup, or why the scheme message cannot carry it (a reason code of the interface's list). */
export function acmt023Document(header: Acmt023Header, lookup: OutboundLookup, settings: Acmt023Settings): Acmt023Result {
  const request = lookup.message.request;
  const assigner = institution(requestingBank(request), settings.memberIdSystem);
  if (assigner === undefined) return refuse('RC05', 'neither requestor nor instructingAgent names a BIC or member id', '/request/requestor');
  if (!assigner.ok) return assigner;
  const assignee = operator(request, settings);
  if (assignee === undefined) return refuse('RC05', 'no instructedAgent and no clearing system to address the request to', '/request/instructedAgent');
  if (!assignee.ok) return assignee;
  const partyAndAccount = verifiedIdentifier(request);
  if (!partyAndAccount.ok) return partyAndAccount;
  // The requestor's domain has no element in Party40Choice's agent; it travels in the supplement with the request's supplementary data.
  const carried = new Carried();
  carried.add('/request/requestor/domain', request.requestor.domain);
  // The assignment names agents by BIC, member id and name: the rest of each agent, or an agent it does not name at all, travels there too.
  const requestorAssigns = present(request.requestor.bicfi) || present(request.requestor.memberId);
  carryAgent(carried, '/request/instructingAgent', request.instructingAgent, !requestorAssigns || sameBank(requestingBank(request), request.instructingAgent));
  carryAgent(carried, '/request/instructedAgent', request.instructedAgent, institution(bankOf(request.instructedAgent), settings.memberIdSystem) !== undefined);
  carried.add('/supplementaryData', lookup.message.supplementaryData);
  const unwritable = carried.unwritable();
  if (unwritable !== undefined) return refuse('FF02', 'a member name holds a character XML 1.0 cannot carry', unwritable.pointer);
  const document = writeDocument(settings.messageName, 'IdVrfctnReq', {
    Assgnmt: { MsgId: header.messageId, CreDtTm: header.createdAt, Assgnr: { Agt: assigner.agent }, Assgne: { Agt: assignee.agent } },
    Vrfctn: { Id: verificationId(request.verificationIdentification, header.messageId), PtyAndAcctId: partyAndAccount.element },
    SplmtryData: [
      {
        PlcAndNm: 'IdVrfctnReq/Vrfctn',
        Envlp: { [VERIFICATION_SUPPLEMENT]: { '@_xmlns': VERIFICATION_SUPPLEMENT_NAMESPACE, UETR: request.uetr.toLowerCase() } },
      },
      supplementElement('IdVrfctnReq', carried),
    ],
  });
  return { ok: true, document };
}

type Request = IdentifierDeterminationRequest['request'];

interface Bank {
  readonly bicfi?: string;
  readonly memberId?: string;
  readonly name?: string;
}

type AgentResult = { readonly ok: true; readonly agent: XmlElement } | Refusal;

/** The requestor when it identifies a bank (validation requires it to), else the instructing agent. */
function requestingBank(request: Request): Bank | undefined {
  const { requestor } = request;
  if (present(requestor.bicfi) || present(requestor.memberId)) return { bicfi: requestor.bicfi, memberId: requestor.memberId, name: requestor.name };
  return bankOf(request.instructingAgent);
}

function operator(request: Request, settings: Acmt023Settings): AgentResult | undefined {
  const instructed = institution(bankOf(request.instructedAgent), settings.memberIdSystem);
  if (instructed !== undefined) return instructed;
  return settings.clearingSystem === undefined ? undefined : { ok: true, agent: { FinInstnId: { Othr: { Id: settings.clearingSystem } } } };
}

/** The BIC, member id (clearingSystemMemberId, else the deprecated memberId) and name of an agent: all the assignment carries. */
function bankOf(agent: InstitutionIdentification | undefined): Bank | undefined {
  if (agent === undefined) return undefined;
  return { bicfi: agent.bicfi, memberId: agent.clearingSystemMemberId?.memberId ?? agent.memberId, name: agent.name };
}

/**
 * Carries what the assignment leaves out of `agent`: all of it when `written` is false (the
 * requestor, another bank, stood in its place), else its members beyond BIC, member id and name;
 * each as an agent element of the other messages holds it (agentAsWritten: address parts cut to
 * their ISO lengths), so an agent costs the acmt.023 no more than it costs a pacs.008.
 */
function carryAgent(carried: Carried, pointer: string, agent: InstitutionIdentification | undefined, written: boolean): void {
  if (agent === undefined) return;
  const asWritten = agentAsWritten(agent);
  if (!written) {
    carried.add(pointer, asWritten);
    return;
  }
  const members = ['bicfi', 'clearingSystemMemberId', 'name'];
  // The deprecated memberId is written unless a clearingSystemMemberId names another.
  const clearing = agent.clearingSystemMemberId?.memberId;
  if (!present(clearing) || agent.memberId === clearing) members.push('memberId');
  carried.addOthers(pointer, asWritten, members);
}

/** Whether the assigner written from the requestor is the instructing agent too: the same BIC, member id and name. */
function sameBank(assigner: Bank | undefined, agent: InstitutionIdentification | undefined): boolean {
  const bank = bankOf(agent);
  return assigner !== undefined && bank !== undefined && assigner.bicfi === bank.bicfi && assigner.memberId === bank.memberId && (bank.name === undefined || assigner.name === bank.name);
}

/** BranchAndFinancialInstitutionIdentification6 of a bank; undefined when it names neither BIC nor member id. */
function institution(bank: Bank | undefined, memberIdSystem: string | undefined): AgentResult | undefined {
  if (bank === undefined || (!present(bank.bicfi) && !present(bank.memberId))) return undefined;
  if (present(bank.bicfi) && !BIC.test(bank.bicfi)) return refuse('RC05', `${bank.bicfi} is not a BIC`);
  if (present(bank.memberId) && [...bank.memberId].length > MAX35) return refuse('RC08', `member id longer than ${MAX35} characters`);
  return {
    ok: true,
    agent: {
      FinInstnId: {
        BICFI: bank.bicfi,
        ClrSysMmbId: present(bank.memberId) ? { ClrSysId: memberIdSystem === undefined ? undefined : { Cd: memberIdSystem }, MmbId: bank.memberId } : undefined,
        Nm: present(bank.name) ? clip(bank.name, 140) : undefined,
      },
    },
  };
}

type IdentifierResult = { readonly ok: true; readonly element: XmlElement } | Refusal;

/** PtyAndAcctId: the proxy or the account looked up. */
function verifiedIdentifier(request: Request): IdentifierResult {
  const { identifier } = request;
  const bicfi = request.accountAgent?.bicfi;
  if (present(bicfi) && !BIC.test(bicfi)) return refuse('RC05', `accountAgent.bicfi ${bicfi} is not a BIC`, '/request/accountAgent/bicfi');
  const agent = present(bicfi) ? { FinInstnId: { BICFI: bicfi } } : undefined;
  if (identifier.schema === 'GENERIC') {
    if (agent === undefined) return refuse('RC05', 'an account lookup (GENERIC) needs accountAgent.bicfi', '/request/accountAgent/bicfi');
    if ([...identifier.value].length > ACCOUNT_NUMBER_CHARS_MAX) return refuse('AC01', `account number longer than ${ACCOUNT_NUMBER_CHARS_MAX} characters`, '/request/identifier/value');
    return { ok: true, element: { Acct: { Id: { Othr: { Id: identifier.value } } }, Agt: agent } };
  }
  const type = present(identifier.namespace) ? `${identifier.schema}:${identifier.namespace}` : identifier.schema;
  if ([...type].length > MAX35) return refuse('FF02', `identifier schema and namespace longer than ${MAX35} characters together`, '/request/identifier/namespace');
  if ([...identifier.value].length > PROXY_CHARS_MAX) return refuse('PX04', `proxy longer than ${PROXY_CHARS_MAX} characters`, '/request/identifier/value');
  return { ok: true, element: { Acct: { Prxy: { Tp: { Prtry: type }, Id: identifier.value } }, Agt: agent } };
}

/** Vrfctn/Id (Max35Text): the integrator's verificationIdentification when it fits, else the message id (derived from the idempotency key). */
function verificationId(given: string | undefined, messageId: string): string {
  return present(given) && [...given].length <= MAX35 ? given : messageId;
}

function refuse(reasonCode: string, reasonText: string, field?: string): Refusal {
  return { ok: false, reasonCode, reasonText, ...(field === undefined ? {} : { field }) };
}

function present(value: string | undefined): value is string {
  return value !== undefined && value !== '';
}

/** An acmt.023 as the operator reads it (the simulator). */
export interface Acmt023Request {
  readonly messageName: string;
  readonly messageId: string;
  readonly createdAt: string | undefined;
  /** Vrfctn/Id, echoed as the report's OrgnlId. */
  readonly verificationId: string;
  /**
   * What is looked up: a proxy (`schema` and `namespace` from `Tp/Prtry` = `<schema>[:<namespace>]`,
   * or `Tp/Cd`) or an account (`schema` GENERIC, `value` the account number).
   */
  readonly identifier: { readonly schema: string; readonly namespace?: string; readonly value: string };
  /** Agt/FinInstnId/BICFI of PtyAndAcctId: the bank holding the account. */
  readonly accountAgentBicfi: string | undefined;
  readonly uetr: string | undefined;
  /** Assgnr and Assgne (Party40Choice) and PtyAndAcctId as read, for an answer to echo. */
  readonly assigner: XmlElement;
  readonly assignee: XmlElement;
  readonly partyAndAccount: XmlElement;
}

export type ReadAcmt023Result = { readonly ok: true; readonly value: Acmt023Request } | { readonly ok: false; readonly error: string };

export function readAcmt023(xml: string): ReadAcmt023Result {
  const document = readDocument(xml);
  return document.ok ? acmt023From(document) : document;
}

/** readAcmt023 of a document already parsed. The first verification is read: regpay sends one per message. */
export function acmt023From(document: IsoDocument): ReadAcmt023Result {
  if (!document.messageName.startsWith('acmt.023.') || document.root !== 'IdVrfctnReq') return { ok: false, error: `not an acmt.023: ${document.messageName}` };
  const body = document.body;
  const messageId = text(body, 'Assgnmt', 'MsgId');
  const verification = child(body, 'Vrfctn');
  const verificationId = text(verification, 'Id');
  const partyAndAccount = child(verification, 'PtyAndAcctId');
  const assigner = child(body, 'Assgnmt', 'Assgnr');
  const assignee = child(body, 'Assgnmt', 'Assgne');
  if (messageId === undefined || verificationId === undefined || partyAndAccount === undefined || assigner === undefined || assignee === undefined) {
    return { ok: false, error: 'acmt.023 lacks MsgId, Assgnr, Assgne, Vrfctn/Id or PtyAndAcctId' };
  }
  const identifier = identifierOf(partyAndAccount);
  if (identifier === undefined) return { ok: false, error: 'acmt.023 names neither a proxy (Acct/Prxy/Id) nor an account (Acct/Id)' };
  const supplement = supplementOf(body, VERIFICATION_SUPPLEMENT);
  return {
    ok: true,
    value: {
      messageName: document.messageName,
      messageId,
      createdAt: text(body, 'Assgnmt', 'CreDtTm'),
      verificationId,
      identifier,
      accountAgentBicfi: text(partyAndAccount, 'Agt', 'FinInstnId', 'BICFI'),
      uetr: text(supplement, 'UETR'),
      assigner,
      assignee,
      partyAndAccount,
    },
  };
}

function identifierOf(partyAndAccount: XmlElement): Acmt023Request['identifier'] | undefined {
  const proxy = text(partyAndAccount, 'Acct', 'Prxy', 'Id');
  if (proxy !== undefined) {
    const type = text(partyAndAccount, 'Acct', 'Prxy', 'Tp', 'Prtry') ?? text(partyAndAccount, 'Acct', 'Prxy', 'Tp', 'Cd') ?? '';
    const colon = type.indexOf(':');
    return colon < 0 ? { schema: type, value: proxy } : { schema: type.slice(0, colon), namespace: type.slice(colon + 1), value: proxy };
  }
  const account = text(partyAndAccount, 'Acct', 'Id', 'Othr', 'Id') ?? text(partyAndAccount, 'Acct', 'Id', 'IBAN');
  return account === undefined ? undefined : { schema: 'GENERIC', value: account };
}

/** The element `name` inside the first SplmtryData envelope holding one (acmt.023 and acmt.024 alike). */
export function supplementOf(body: XmlElement, name: string): XmlElement | undefined {
  for (const supplement of children(body, 'SplmtryData')) {
    const found = child(supplement, 'Envlp', name);
    if (found !== undefined) return found;
  }
  return undefined;
}
