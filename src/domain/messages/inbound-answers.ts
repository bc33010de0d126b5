import { Type, type Static } from '@sinclair/typebox';
import { cutAtWord } from '../../lib/text.js';
import type { JudgedAnswer, Verdict } from '../machines/inbound.js';
import { LIST_ITEMS_MAX, MessageIdentifiersSchema, OpenObject, StringEnum, TransactionIdentifiersSchema } from './common.js';
import { IdentifierDeterminationResponseSchema, type IdentifierDeterminationResponse } from './identifier-determination.js';
import { ReasonInfoSchema, RequestToPayResponseSchema, RTP_STATUSES, type RequestToPayResponse } from './request-to-pay.js';
import { isRecord, makeValidator, type Report, type Validation } from './validate.js';

/**
 * The integrator's answers as the receiving bank (CONTRACT §11): its decision on a credit (a
 * PaymentStatusReport, APPROVED or REJECTED with an ISO 20022 reason) and its answer to a lookup
 * of its customer (an IdentifierDeterminationResponse). The same rules judge the 200 of a sync
 * call and the integrator's async report; an answer that breaks them is never passed to the
 * scheme as the integrator's (the scheme is answered AB06, or CH21 for a lookup without both names).
 */

export const AUTHORISATION_OUTCOMES = ['APPROVED', 'REJECTED'] as const;

export const AuthorisationReportSchema = OpenObject(
  {
    schema: Type.Literal('PaymentStatusReport', { description: 'Message type: PaymentStatusReport' }),
    messageIdentifiers: MessageIdentifiersSchema,
    originalMessageIdentifiers: Type.Optional(MessageIdentifiersSchema),
    transactionIdentifiers: TransactionIdentifiersSchema,
    status: OpenObject(
      {
        outcome: StringEnum(AUTHORISATION_OUTCOMES, { description: 'APPROVED: credit the customer on completion; REJECTED: with the reason in reasonInfo' }),
        reasonInfo: Type.Optional(Type.Array(ReasonInfoSchema, { maxItems: LIST_ITEMS_MAX, description: 'The ISO 20022 reason of a REJECTED decision (AC01, AC04, AC06, AG01, AM04, BE01, MD07...)' })),
      },
      { description: 'The decision on the credit' },
    ),
  },
  {
    $id: 'AuthorisationReport',
    description: "The receiving bank's decision on an inbound credit: a PaymentStatusReport whose transactionIdentifiers are the CreditTransfer's",
  },
);

export type AuthorisationReport = Static<typeof AuthorisationReportSchema>;

const REASON_CODE = /^[A-Z0-9]{4}$/;

/** A REJECTED decision names its reason code. */
function rejectionNamesReason(body: unknown, report: Report): void {
  if (!isRecord(body) || !isRecord(body.status) || body.status.outcome !== 'REJECTED') return;
  const { reasonInfo } = body.status;
  const what = 'a REJECTED decision names an ISO 20022 reason code (reasonInfo[0].reason.value, four letters or digits)';
  if (reasonInfo === undefined) report('/status/reasonInfo', `is required: ${what}`);
  // The items of a list are the schema's to judge (each names its reason code); a list that is not one, too.
  else if (Array.isArray(reasonInfo) && reasonInfo.length === 0) report('/status/reasonInfo', `must not be empty: ${what}`);
}

/**
 * A SUCCESSFUL lookup answer names the account and both names (PayShap makes both mandatory); a
 * FAILED one its reason. Only inside objects: a part that is not one is the schema's fault to name.
 */
function lookupAnswerComplete(body: unknown, report: Report): void {
  const information = isRecord(body) && isRecord(body.report) && isRecord(body.report.reportInformation) ? body.report.reportInformation : undefined;
  if (information === undefined) return;
  const at = '/report/reportInformation';
  if (information.outcome === 'FAILED') {
    if (information.reasonCode === undefined) report(`${at}/reasonCode`, 'is required: a FAILED answer names its reason code');
    return;
  }
  if (information.outcome !== 'SUCCESSFUL') return;
  const { accountInformation: account, accountOwner: owner } = information;
  if (isRecord(account)) {
    const number = account.traditionalIdentifier;
    const field = `${at}/accountInformation/traditionalIdentifier`;
    if (number === undefined) report(field, 'is required: a SUCCESSFUL answer names the account');
    // The acmt.024 carries it in an ISO 20022 account id (IBAN or Othr/Id, Max34Text).
    else if (typeof number === 'string' && [...number].length > ACCOUNT_NUMBER_CHARS_MAX) report(field, `must be at most ${ACCOUNT_NUMBER_CHARS_MAX} characters: the acmt.024 carries an account number in ${ACCOUNT_NUMBER_CHARS_MAX}`);
  }
  if (!isRecord(owner)) return;
  ownerName(owner.knownAsName, `${at}/accountOwner/knownAsName`, 'known-as name', report);
  ownerName(owner.legalName, `${at}/accountOwner/legalName`, 'legal name', report);
}

/** Characters of an account number in an ISO 20022 account id (Max34Text). */
const ACCOUNT_NUMBER_CHARS_MAX = 34;

/** A name of the account owner in a SUCCESSFUL answer: given, and not blank (ZA_RPP makes both mandatory; a blank one is none, CH21). */
function ownerName(name: unknown, field: string, what: string, report: Report): void {
  if (name === undefined) report(field, `is required: a SUCCESSFUL answer names the ${what} (mandatory in ZA_RPP)`);
  else if (typeof name === 'string' && name.trim() === '') report(field, `must not be blank: a SUCCESSFUL answer names the ${what} (mandatory in ZA_RPP)`);
}

export const validateAuthorisationReport: (body: unknown) => Validation<AuthorisationReport> = makeValidator(AuthorisationReportSchema, [rejectionNamesReason]);
export const validateLookupAnswer: (body: unknown) => Validation<IdentifierDeterminationResponse> = makeValidator(IdentifierDeterminationResponseSchema, [lookupAnswerComplete]);

function reasonCodeOf(reasonInfo: unknown): string | undefined {
  if (!Array.isArray(reasonInfo)) return undefined;
  const first: unknown = reasonInfo[0];
  const reason = isRecord(first) && isRecord(first.reason) ? first.reason : undefined;
  const code = reason?.value ?? reason?.code;
  return typeof code === 'string' && REASON_CODE.test(code) ? code : undefined;
}

function reasonTextOf(reasonInfo: unknown): string | undefined {
  if (!Array.isArray(reasonInfo)) return undefined;
  const first: unknown = reasonInfo[0];
  const info = isRecord(first) ? first.additionalInformation : undefined;
  const text: unknown = Array.isArray(info) ? info[0] : info;
  return typeof text === 'string' ? text : undefined;
}

/** The verdict of a valid decision on a credit. */
export function authorisationVerdict(report: AuthorisationReport, answerJson: string): Verdict {
  if (report.status.outcome === 'APPROVED') return { approved: true, answerJson };
  const reasonCode = reasonCodeOf(report.status.reasonInfo);
  const reasonText = reasonTextOf(report.status.reasonInfo);
  return { approved: false, ...(reasonCode === undefined ? {} : { reasonCode }), ...(reasonText === undefined ? {} : { reasonText }), answerJson };
}

/** The verdict of a valid lookup answer. */
export function lookupVerdict(answer: IdentifierDeterminationResponse, answerJson: string): Verdict {
  const information = answer.report.reportInformation;
  if (information.outcome === 'SUCCESSFUL') return { approved: true, answerJson };
  const text = information.reasonDescription;
  return { approved: false, ...(information.reasonCode === undefined ? {} : { reasonCode: information.reasonCode }), ...(text === undefined ? {} : { reasonText: text }), answerJson };
}

/**
 * The integrator's answer as the machine takes it: valid with its verdict, or why not. A lookup
 * answered SUCCESSFUL without both names is answered to the scheme CH21 (mandatory element
 * missing), as the sending side treats such a report; anything else that breaks the rules, AB06.
 */
export function judgeAnswer(kind: 'credit' | 'lookup', parsed: unknown, answerJson: string): JudgedAnswer {
  if (kind === 'credit') {
    const checked = validateAuthorisationReport(parsed);
    if (checked.ok) return { valid: true, verdict: authorisationVerdict(checked.value, answerJson), payloadJson: answerJson };
    return { valid: false, problem: problemOf(checked.errors), payloadJson: answerPayload(kind, parsed, answerJson) };
  }
  const checked = validateLookupAnswer(parsed);
  if (checked.ok) return { valid: true, verdict: lookupVerdict(checked.value, answerJson), payloadJson: answerJson };
  const namesMissing = checked.errors.some((error) => error.field.includes('/accountOwner/'));
  return { valid: false, problem: problemOf(checked.errors), ...(namesMissing ? { reasonCode: 'CH21' } : {}), payloadJson: answerPayload(kind, parsed, answerJson) };
}

/** The message the integrator answers with, by kind. */
export const ANSWER_MESSAGES = { credit: 'PaymentStatusReport', lookup: 'IdentifierDeterminationResponse' } as const;

/** Characters of an answer that is no message kept in its event payload. */
const ANSWER_TEXT_CHARS_MAX = 1_000;

/**
 * An answer as the payload of the event it causes: the integrator's message as it came when it is
 * one (an object naming the answer's schema, valid or not); anything else (not JSON, another
 * message) as its text, cut, in an `IntegratorAnswerText`, so every event payload names its schema.
 */
export function answerPayload(kind: 'credit' | 'lookup', parsed: unknown, answerJson: string): string {
  if (isRecord(parsed) && parsed.schema === ANSWER_MESSAGES[kind]) return answerJson;
  return JSON.stringify({ schema: 'IntegratorAnswerText', text: cutAtWord(answerJson, ANSWER_TEXT_CHARS_MAX) });
}

function problemOf(errors: readonly { readonly field: string; readonly message: string }[]): string {
  return errors.map((error) => `${error.field || '(body)'}: ${error.message}`).join('; ');
}

/** The statuses the integrator reports on a request-to-pay brought to its customer; the others are the service's to give. */
export const INBOUND_RTP_DECISIONS = ['PRESENTED', 'ACCEPTED', 'REJECTED'] as const;

/** The integrator reports only its customer's decisions, and a rejection names its reason. */
function requestToPayDecision(body: unknown, report: Report): void {
  if (!isRecord(body) || !isRecord(body.status) || typeof body.status.status !== 'string') return;
  const { status } = body.status;
  if (!(RTP_STATUSES as readonly string[]).includes(status)) return; // the schema reports it
  if (!(INBOUND_RTP_DECISIONS as readonly string[]).includes(status)) {
    report('/status/status', `must be PRESENTED, ACCEPTED or REJECTED: ${status} is the service's to report (PAID by the integrator's credit transfer, EXPIRED and CANCELLED by the expiry or the scheme)`);
    return;
  }
  if (status === 'REJECTED' && reasonCodeOf(body.status.reasonInfo) === undefined) {
    report('/status/reasonInfo', 'a REJECTED decision must name an ISO 20022 reason code (reasonInfo[0].reason.value, four letters or digits)');
  }
}

/** The integrator's RequestToPayResponse about a request-to-pay the scheme brought to its customer (the debtor). */
export const validateInboundRequestToPayResponse: (body: unknown) => Validation<RequestToPayResponse> = makeValidator(RequestToPayResponseSchema, [requestToPayDecision]);
