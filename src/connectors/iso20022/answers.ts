import type { IdentifierDeterminationRequest } from '../../domain/messages/identifier-determination.js';
import type { LookupAnswer, SchemeOriginal } from '../../ports/scheme.js';
import { acmt024Document, KNOWN_AS_NAME_CHARS_MAX, type Acmt024Outcome } from './acmt024.js';
import { camt029Document } from './camt029.js';
import type { LookupContext } from './inbound-acmt023.js';
import type { RequestToPayContext } from './inbound-pain013.js';
import type { WithdrawalContext } from './inbound-camt056.js';
import { ADDITIONAL_INFORMATION_CHARS_MAX } from './inbound.js';
import { pacs002Document, pacs002GroupDocument } from './pacs002.js';
import { pain014Document } from './pain014.js';
import { reasonText } from './reason-codes.js';
import { cutAtWord } from '../../lib/text.js';
import type { XmlElement } from './xml.js';

/**
 * The documents that answer scheme-originated messages (the receiving direction): acmt.024 to an
 * acmt.023, pacs.002 to a pacs.008, pain.014 about a pain.013, camt.029 to a camt.056. Every
 * answer names the message it answers as the scheme wrote it (SchemeOriginal), and every text is
 * cut to the element's length at a word boundary (text.ts).
 */

/**
 * The pacs.002 version answering each pacs.008 version, one generation each (as the simulated
 * operator answers: simulator/simulated-operator.ts): .08 (2019) with .10, .10 (2021) with .12,
 * .12 (2023) with .14.
 */
export const CREDIT_STATUS_FOR: Readonly<Record<string, string>> = Object.freeze({
  'pacs.008.001.08': 'pacs.002.001.10',
  'pacs.008.001.10': 'pacs.002.001.12',
  'pacs.008.001.12': 'pacs.002.001.14',
});

/** What every answer's header carries: its MsgId (derived from the answer key) and creation time. */
export interface AnswerHeader {
  readonly messageName: string;
  readonly messageId: string;
  readonly createdAt: string;
}

/** What a family fixes in the answers it writes. */
export interface AnswerSettings {
  /** ClrSysMmbId/ClrSysId/Cd written beside member ids, e.g. ZANCC. */
  readonly memberIdSystem?: string;
  /** The scheme's clearing system (e.g. RPP), the operator, named where an answer must name a party it does not know. */
  readonly clearingSystem: string;
}

export type Written = { readonly ok: true; readonly document: string } | { readonly ok: false; readonly reasonCode: string; readonly reasonText: string };

/** ExternalStatusReason1Code, ExternalVerificationReason1Code, ExternalPaymentCancellationRejection1Code: Max4Text codes. */
const REASON_CODE = /^[A-Za-z0-9]{1,4}$/;
const LEGAL_NAME_CHARS_MAX = 140;
const ACCOUNT_NUMBER_CHARS_MAX = 34;
const NOT_PROVIDED = 'NOTPROVIDED';

function refuse(reasonCode: string, text: string): Written {
  return { ok: false, reasonCode, reasonText: text };
}

/** The reason's words for AddtlInf: the integrator's, else the code's; cut at a word boundary. */
export function additionalInformation(code: string | undefined, text: string | undefined): string | undefined {
  const words = text ?? (code === undefined ? undefined : reasonText(code));
  return words === undefined || words.trim() === '' ? undefined : cutAtWord(words, ADDITIONAL_INFORMATION_CHARS_MAX);
}

function badReason(code: string | undefined): boolean {
  return code !== undefined && !REASON_CODE.test(code);
}

// -------------------------------------------------------------------------------------------
// acmt.024

/** The acmt.024 answering an inbound acmt.023: the answering bank is the one the request was assigned to, and it answers the one that assigned it. */
export function lookupAnswerDocument(header: AnswerHeader, original: SchemeOriginal, context: LookupContext, outcome: Acmt024Outcome, settings: AnswerSettings): Written {
  if (!outcome.verified && badReason(outcome.reasonCode)) return refuse('FF02', `reason code ${outcome.reasonCode} is not a four-character ISO 20022 code`);
  const operator = operatorParty(settings);
  const document = acmt024Document({
    ...header,
    assigner: context.assignee ?? operator,
    assignee: context.assigner ?? operator,
    original: { messageId: original.messageId, ...(original.createdAt === undefined ? {} : { createdAt: original.createdAt }) },
    originalId: context.verificationId,
    ...(context.partyAndAccount === undefined ? {} : { originalPartyAndAccount: context.partyAndAccount }),
    outcome,
  });
  return { ok: true, document };
}

/**
 * The outcome the acmt.024 carries for a LookupAnswer. SUCCESSFUL needs the account with both
 * names (ZA_RPP makes both mandatory): without them the answer cannot be written (CH21). Names
 * longer than their elements are cut at a word boundary; an account number longer than 34
 * characters cannot be carried (AC01).
 */
export function lookupOutcome(answer: LookupAnswer): { readonly ok: true; readonly outcome: Acmt024Outcome } | { readonly ok: false; readonly reasonCode: string; readonly reasonText: string } {
  if (answer.outcome === 'FAILED') {
    const code = answer.reasonCode ?? 'MS03';
    const text = additionalInformation(code, answer.reasonText);
    return { ok: true, outcome: { verified: false, reasonCode: code, ...(text === undefined ? {} : { reasonText: text }) } };
  }
  const account = answer.account;
  if (account?.knownAsName === undefined || account.legalName === undefined || account.knownAsName.trim() === '' || account.legalName.trim() === '') {
    return { ok: false, reasonCode: 'CH21', reasonText: 'a successful lookup needs the account owner knownAsName and legalName' };
  }
  if (account.traditionalIdentifier !== undefined && [...account.traditionalIdentifier].length > ACCOUNT_NUMBER_CHARS_MAX) {
    return { ok: false, reasonCode: 'AC01', reasonText: `account number longer than ${ACCOUNT_NUMBER_CHARS_MAX} characters` };
  }
  return {
    ok: true,
    outcome: {
      verified: true,
      account: { ...account, knownAsName: cutAtWord(account.knownAsName, KNOWN_AS_NAME_CHARS_MAX), legalName: cutAtWord(account.legalName, LEGAL_NAME_CHARS_MAX) },
    },
  };
}

/**
 * What the acmt.024 repeats, from the lookup as the integrator was asked it (the acmt.023 rendered
 * by inbound-acmt023.ts): the requesting bank (requestor) is answered; the bank answering is the
 * instructed agent, else the account agent, else the operator.
 */
export function lookupContextOf(request: IdentifierDeterminationRequest['request'], settings: AnswerSettings): LookupContext {
  const requestor = bankAgent({ bicfi: request.requestor.bicfi, memberId: request.requestor.memberId, name: request.requestor.name }, settings);
  const instructed = request.instructedAgent;
  const answering =
    bankAgent({ bicfi: instructed?.bicfi, memberId: instructed?.clearingSystemMemberId?.memberId ?? instructed?.memberId, name: instructed?.name }, settings) ??
    bankAgent({ bicfi: request.accountAgent?.bicfi }, settings);
  const { identifier } = request;
  const bicfi = request.accountAgent?.bicfi;
  const agent = bicfi === undefined ? undefined : { FinInstnId: { BICFI: bicfi } };
  const type = identifier.namespace === undefined || identifier.namespace === '' ? identifier.schema : `${identifier.schema}:${identifier.namespace}`;
  const partyAndAccount: XmlElement =
    identifier.schema === 'GENERIC'
      ? { Acct: { Id: { Othr: { Id: identifier.value } } }, Agt: agent }
      : { Acct: { Prxy: { Tp: { Prtry: cutAtWord(type, 35) }, Id: identifier.value } }, Agt: agent };
  return {
    verificationId: request.verificationIdentification,
    assigner: requestor === undefined ? undefined : { Agt: requestor },
    assignee: answering === undefined ? undefined : { Agt: answering },
    partyAndAccount,
  };
}

// -------------------------------------------------------------------------------------------
// pacs.002

/** The pacs.002 with the status of the one transaction of an inbound pacs.008 (ACSP, ACCP, RJCT with the reason). */
export function creditStatusDocument(header: AnswerHeader, original: SchemeOriginal, status: string, reasonCode: string | undefined, text: string | undefined): Written {
  if (badReason(reasonCode)) return refuse('FF02', `reason code ${reasonCode ?? ''} is not a four-character ISO 20022 code`);
  const information = status === 'RJCT' ? additionalInformation(reasonCode, text) : text === undefined ? undefined : cutAtWord(text, ADDITIONAL_INFORMATION_CHARS_MAX);
  return {
    ok: true,
    document: pacs002Document({
      ...header,
      original,
      status,
      ...(reasonCode === undefined ? {} : { reasonCode }),
      ...(information === undefined ? {} : { additionalInformation: information }),
      ...(status === 'RJCT' ? {} : { acceptedAt: header.createdAt }),
    }),
  };
}

/** The pacs.002 refusing a whole pacs.008 (GrpSts RJCT), e.g. one carrying more than one transaction. */
export function creditGroupRefusalDocument(header: AnswerHeader, original: SchemeOriginal, transactionCount: string | undefined, reasonCode: string, text: string): string {
  const information = additionalInformation(reasonCode, text);
  return pacs002GroupDocument({
    ...header,
    original: { messageId: original.messageId, messageName: original.messageName, ...(original.createdAt === undefined ? {} : { createdAt: original.createdAt }), ...(transactionCount === undefined ? {} : { transactionCount }) },
    status: 'RJCT',
    reasonCode,
    ...(information === undefined ? {} : { additionalInformation: information }),
  });
}

// -------------------------------------------------------------------------------------------
// pain.014

/**
 * The pain.014 reporting the debtor's decision on an inbound pain.013. The reporting party
 * (GrpHdr/InitgPty) is the debtor agent, the integrator's institution, by BIC or member id; when the
 * connector no longer knows it (a restart between the pain.013 and the report), NOTPROVIDED.
 */
export function requestToPayStatusDocument(
  header: AnswerHeader,
  original: SchemeOriginal,
  context: RequestToPayContext | undefined,
  answer: { readonly status: string; readonly reasonCode?: string; readonly reasonText?: string },
): Written {
  if (badReason(answer.reasonCode)) return refuse('FF02', `reason code ${answer.reasonCode ?? ''} is not a four-character ISO 20022 code`);
  const information = answer.status === 'RJCT' ? additionalInformation(answer.reasonCode, answer.reasonText) : answer.reasonText === undefined ? undefined : cutAtWord(answer.reasonText, ADDITIONAL_INFORMATION_CHARS_MAX);
  return {
    ok: true,
    document: pain014Document({
      ...header,
      initiatingParty: reportingParty(context?.debtorAgent),
      original: {
        messageId: original.messageId,
        messageName: original.messageName,
        ...(original.createdAt === undefined ? {} : { createdAt: original.createdAt }),
        // pain013.ts writes PmtInfId = MsgId: the best guess when the pain.013's own is no longer known.
        paymentInformationId: context?.paymentInformationId ?? original.messageId,
        ...(original.instructionId === undefined ? {} : { instructionId: original.instructionId }),
        ...(original.endToEndId === undefined ? {} : { endToEndId: original.endToEndId }),
        ...(original.uetr === undefined ? {} : { uetr: original.uetr }),
      },
      status: answer.status,
      ...(answer.reasonCode === undefined ? {} : { reasonCode: answer.reasonCode }),
      ...(information === undefined ? {} : { additionalInformation: information }),
      ...(answer.status === 'ACCP' || answer.status === 'ACSC' ? { acceptedAt: header.createdAt } : {}),
    }),
  };
}

/** A PartyIdentification135 naming an agent: its BIC as AnyBIC, else its member id, else NOTPROVIDED. */
function reportingParty(agent: XmlElement | undefined): XmlElement {
  const institution = agent?.FinInstnId as XmlElement | undefined;
  const bicfi = institution?.BICFI;
  if (typeof bicfi === 'string') return { Id: { OrgId: { AnyBIC: bicfi } } };
  const member = (institution?.ClrSysMmbId as XmlElement | undefined)?.MmbId;
  return { Id: { OrgId: { Othr: { Id: typeof member === 'string' ? member : NOT_PROVIDED } } } };
}

// -------------------------------------------------------------------------------------------
// camt.029

/**
 * The camt.029 answering an inbound camt.056: CNCL (withdrawn), or RJCR with the reason (ARDT:
 * already paid). The answering bank is the camt.056's assignee, answering its assigner; the case is
 * repeated with its creator. When the connector no longer knows the camt.056's parties (a restart
 * between the camt.056 and the answer), the assignee is the operator, the assigner NOTPROVIDED,
 * and OrgnlGrpInf is left out (optional in camt.029).
 */
export function withdrawalAnswerDocument(
  header: AnswerHeader,
  answer: { readonly caseId: string; readonly original: SchemeOriginal; readonly accepted: boolean; readonly reasonCode?: string },
  context: WithdrawalContext | undefined,
  settings: AnswerSettings,
): Written {
  if (badReason(answer.reasonCode)) return refuse('FF02', `reason code ${answer.reasonCode ?? ''} is not a four-character ISO 20022 code`);
  const operator = operatorParty(settings);
  const unknown: XmlElement = { Agt: { FinInstnId: { Othr: { Id: NOT_PROVIDED } } } };
  const { original } = answer;
  const information = answer.accepted ? undefined : additionalInformation(answer.reasonCode, undefined);
  return {
    ok: true,
    document: camt029Document({
      ...header,
      assigner: context?.assignee ?? unknown,
      assignee: context?.assigner ?? operator,
      resolvedCase: { id: answer.caseId, creator: context?.caseCreator ?? context?.assigner ?? operator },
      confirmation: answer.accepted ? 'CNCL' : 'RJCR',
      original: {
        ...(context === undefined ? {} : { messageId: context.request.messageId, messageName: context.request.messageName }),
        ...(original.instructionId === undefined ? {} : { instructionId: original.instructionId }),
        ...(original.endToEndId === undefined ? {} : { endToEndId: original.endToEndId }),
        ...(original.uetr === undefined ? {} : { uetr: original.uetr }),
      },
      ...(answer.reasonCode === undefined ? {} : { reasonCode: answer.reasonCode }),
      ...(information === undefined ? {} : { additionalInformation: information }),
    }),
  };
}

// -------------------------------------------------------------------------------------------

/** The operator as a Party40Choice: its clearing system, `FinInstnId/Othr/Id` (as acmt023.ts and camt056.ts name it). */
function operatorParty(settings: AnswerSettings): XmlElement {
  return { Agt: { FinInstnId: { Othr: { Id: settings.clearingSystem } } } };
}

/** BranchAndFinancialInstitutionIdentification6 of a bank named by BIC and/or member id; undefined when it names neither. */
function bankAgent(bank: { readonly bicfi?: string | undefined; readonly memberId?: string | undefined; readonly name?: string | undefined }, settings: AnswerSettings): XmlElement | undefined {
  const present = (value: string | undefined): value is string => value !== undefined && value !== '';
  if (!present(bank.bicfi) && !present(bank.memberId)) return undefined;
  return {
    FinInstnId: {
      BICFI: bank.bicfi,
      ClrSysMmbId: present(bank.memberId) ? { ClrSysId: settings.memberIdSystem === undefined ? undefined : { Cd: settings.memberIdSystem }, MmbId: bank.memberId } : undefined,
      Nm: present(bank.name) ? cutAtWord(bank.name, 140) : undefined,
    },
  };
}
