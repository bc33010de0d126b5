import { Type, type Static } from '@sinclair/typebox';
import { assert } from '../../lib/assert.js';
import { numberText } from '../../lib/json.js';
import { currencyDecimals, formatAmount, parseAmount, type Money } from '../../lib/money.js';
import { SCHEMES, type SchemeName } from '../schemes.js';
import {
  AmountSchema,
  DateTime,
  InstitutionIdentificationSchema,
  LIST_ITEMS_MAX,
  MessageIdentifiersSchema,
  OpenObject,
  PartySchema,
  PaymentAccountSchema,
  StringEnum,
  SupplementaryDataSchema,
  Text,
  TransactionIdentifiersSchema,
  type Amount,
} from './common.js';
import { RemittanceInformationSchema } from './credit-transfer.js';
import { isDateTime } from './formats.js';
import { normaliseIdentifier, PROXY_VALUE_LENGTH_MAX } from './identifier-determination.js';
import { isRecord, makeValidator, moneyOf, remittanceFits, withUetrV4, type Report, type Rule, type Validation } from './validate.js';

/**
 * PayShap request-to-pay (CONTRACT §2, §3 and §10): the integrator's customer, the creditor,
 * asks a debtor at another bank, named by proxy or by account, to pay it. The integrator sends a
 * RequestToPay, may ask for its status (RequestToPayStatusRequest) or cancel it
 * (RequestToPayCancellation); the service answers with a RequestToPayResponse per status change
 * and a RequestToPayCancellationResponse per cancellation.
 *
 * Two rules depend on the clock and the configuration (the expiry is in the future, and not too
 * far in it), so they are not part of the pure validation: the use case asks expiryProblem().
 */

// ---------------------------------------------------------------------------------------------
// Statuses

/** Status of a request-to-pay as the integrator sees it (CONTRACT §10). */
export const RTP_STATUSES = ['PENDING', 'PRESENTED', 'ACCEPTED', 'PAID', 'REJECTED', 'EXPIRED', 'CANCELLED'] as const;
export type RtpStatus = (typeof RTP_STATUSES)[number];

/** Statuses after which nothing changes any more. */
export const RTP_FINAL_STATUSES = ['PAID', 'REJECTED', 'EXPIRED', 'CANCELLED'] as const satisfies readonly RtpStatus[];
export type RtpFinalStatus = (typeof RTP_FINAL_STATUSES)[number];

export function isFinalRtpStatus(status: RtpStatus): status is RtpFinalStatus {
  return (RTP_FINAL_STATUSES as readonly RtpStatus[]).includes(status);
}

/** The scheme's ISO 20022 status codes and the status each one means (CONTRACT §10). A Map, so "constructor" is no code. */
export const RTP_ISO_STATUSES: ReadonlyMap<string, RtpStatus> = new Map([
  ['PDNG', 'PENDING'],
  ['PRES', 'PRESENTED'],
  ['ACCP', 'ACCEPTED'],
  ['ACSC', 'PAID'],
  ['RJCT', 'REJECTED'],
]);

/**
 * The status an ISO 20022 code of the scheme means. Any other code is PENDING, never a final
 * status (STYLE.md rule 6: unknown means pending and a status enquiry, never success or failure).
 */
export function rtpStatusFromIso(code: string): RtpStatus {
  return RTP_ISO_STATUSES.get(code) ?? 'PENDING';
}

// ---------------------------------------------------------------------------------------------
// RequestToPay

/**
 * PayShap local instruments (ISO 20022 LclInstrm/Prtry, so localInstrument.schema is PROPRIETARY)
 * as the seed system publishes them: PBA pay-by-account and PBPX pay-by-proxy, and the same two
 * for a payment that answers a request-to-pay, RTP-PBA and RTP-PBPX.
 */
export const RTP_LOCAL_INSTRUMENTS = ['PBA', 'PBPX', 'RTP-PBA', 'RTP-PBPX'] as const;
export type RtpLocalInstrument = (typeof RTP_LOCAL_INSTRUMENTS)[number];

/** Kinds of proxy a PayShap account may be named by (as in identifier determination). */
export const RTP_PROXY_SCHEMAS = ['MOBILE', 'CUSTOM'] as const;

export const RequestToPayConditionsSchema = OpenObject(
  {
    minAmount: Type.Optional(AmountSchema),
    maxAmount: Type.Optional(AmountSchema),
  },
  {
    description:
      'The least and the most the debtor may pay, in the currency of amounts.bankSettlementAmount; minAmount <= bankSettlementAmount <= maxAmount',
  },
);

export const RequestToPaySchema = OpenObject(
  {
    schema: Type.Literal('RequestToPay', { description: 'Message type: RequestToPay' }),
    messageIdentifiers: MessageIdentifiersSchema,
    transactionIdentifiers: TransactionIdentifiersSchema,
    paymentScheme: OpenObject(
      { schema: StringEnum(SCHEMES, { description: 'The scheme: ZA_RPP (the only one carrying request-to-pay; another scheme is answered 422)' }) },
      { description: 'Scheme the request-to-pay is made in' },
    ),
    amounts: OpenObject(
      {
        bankSettlementAmount: AmountSchema,
        instructedAmount: Type.Optional(AmountSchema),
      },
      { description: 'The amount requested (TransactionAmounts, as in CreditTransfer)' },
    ),
    paymentTypeInformation: OpenObject(
      {
        localInstrument: OpenObject(
          {
            schema: Type.Literal('PROPRIETARY', { description: 'Kind of local instrument code: PROPRIETARY (the PayShap codes are not ISO codes)' }),
            value: StringEnum(RTP_LOCAL_INSTRUMENTS, {
              description: 'PayShap local instrument: PBPX (pay-by-proxy), PBA (pay-by-account), RTP-PBPX or RTP-PBA',
            }),
          },
          { description: 'PayShap local instrument' },
        ),
      },
      { description: 'Payment type information' },
    ),
    expiryDateTime: DateTime(
      'When the request expires (RFC 3339); ZA_RPP rejects a payment after it. Must lie in the future and within the configured horizon',
    ),
    requestToPayConditions: Type.Optional(RequestToPayConditionsSchema),
    creditor: PartySchema,
    creditorAccount: PaymentAccountSchema,
    creditorAgent: InstitutionIdentificationSchema,
    debtor: PartySchema,
    debtorAccount: PaymentAccountSchema,
    debtorAgent: Type.Optional(InstitutionIdentificationSchema),
    remittanceInformation: Type.Optional(RemittanceInformationSchema),
    supplementaryData: Type.Optional(SupplementaryDataSchema),
  },
  {
    $id: 'RequestToPay',
    description:
      'Outbound request-to-pay (ZA_RPP): the creditor (the integrator customer) asks the debtor to pay. creditorAccount and debtorAccount carry ' +
      'identification or proxy; a proxy carries schema MOBILE or CUSTOM and its namespace; debtorAgent is required (with bicfi or ' +
      'clearingSystemMemberId) when debtorAccount has no proxy; requestToPayConditions, when given, surround the amount in its currency.',
  },
);

export type RequestToPay = Static<typeof RequestToPaySchema>;

/** The validated request-to-pay with the values the use case needs, already parsed. */
export interface ValidRequestToPay {
  /** The message as received (unknown fields included). */
  readonly message: RequestToPay;
  readonly scheme: SchemeName;
  /** transactionIdentifiers.uetr, lowercased: UUIDs compare case-insensitively (RFC 9562). */
  readonly uetr: string;
  readonly messageId: string;
  /** amounts.bankSettlementAmount. */
  readonly amount: Money;
  /** expiryDateTime in epoch milliseconds. */
  readonly expiresAt: number;
  readonly minAmount?: Money;
  readonly maxAmount?: Money;
}

const PARTIES = ['creditor', 'debtor'] as const;

/** Each account carries what identifies it: an account number, a proxy, or both, each with its value. */
const accountsIdentified: Rule = (body, report) => {
  if (!isRecord(body)) return;
  for (const party of PARTIES) {
    const account = body[`${party}Account`];
    if (!isRecord(account)) continue;
    if (carriesValue(account.identification) || carriesValue(account.proxy)) continue;
    report(`/${party}Account`, 'must carry identification (with its value) or proxy (with its value), or both');
  }
};

function carriesValue(part: unknown): boolean {
  return isRecord(part) && typeof part.value === 'string';
}

/** The normal form of a MOBILE proxy (normaliseIdentifier gives it exactly to the published forms). */
const MOBILE_NORMAL = /^\+27-[1-9]\d{8}$/;

/** Worded as identifier determination words it, so an integrator reads one rule for one proxy. */
const MOBILE_FORMS_MESSAGE =
  'must be a South African mobile number in one of the forms 0831234567, +27831234567, +27-831234567, +27-0831234567 or 27831234567';

/** A proxy is a PayShap proxy, as identifier determination takes it: MOBILE or CUSTOM, with its namespace, its value of that form. */
const proxiesComplete: Rule = (body, report) => {
  if (!isRecord(body)) return;
  for (const party of PARTIES) {
    const account = body[`${party}Account`];
    if (isRecord(account) && isRecord(account.proxy)) checkProxy(account.proxy, `/${party}Account/proxy`, report);
  }
};

function checkProxy(proxy: Record<string, unknown>, pointer: string, report: Report): void {
  const { schema, namespace, value } = proxy;
  // Values of the wrong type are the schema's to report; each fault is told once.
  if (schema === undefined) report(`${pointer}/schema`, 'is required for a proxy: MOBILE or CUSTOM');
  else if (typeof schema === 'string' && !(RTP_PROXY_SCHEMAS as readonly string[]).includes(schema)) report(`${pointer}/schema`, 'must be MOBILE or CUSTOM');
  if (namespace === undefined) report(`${pointer}/namespace`, 'is required for a proxy, e.g. ZA_MOBILE or ZA_CUSTOM');
  else if (typeof namespace === 'string' && namespace.trim() === '') report(`${pointer}/namespace`, 'must not be blank');
  if (typeof value !== 'string' || value === '' || [...value].length > PROXY_VALUE_LENGTH_MAX) return;
  if (schema === 'MOBILE' && !MOBILE_NORMAL.test(normaliseIdentifier({ schema: 'MOBILE', value }).value)) {
    report(`${pointer}/value`, MOBILE_FORMS_MESSAGE);
  } else if (schema === 'CUSTOM' && value.trim() === '') {
    report(`${pointer}/value`, 'must not be blank');
  }
}

/**
 * Without a proxy, nothing resolves the debtor's bank: an account number alone needs the agent
 * that holds it, named by BIC or clearing member id (as account resolution needs accountAgent.bicfi).
 */
const debtorAgentForAccount: Rule = (body, report) => {
  if (!isRecord(body) || !isRecord(body.debtorAccount)) return;
  const { identification, proxy } = body.debtorAccount;
  if (!carriesValue(identification) || carriesValue(proxy)) return;
  const agent = body.debtorAgent;
  if (agent === undefined) {
    report('/debtorAgent', 'is required when debtorAccount is identified by account number only: it names the bank holding the account');
    return;
  }
  // An agent that is not an object is already reported by the schema.
  if (!isRecord(agent) || agent.bicfi !== undefined || agent.clearingSystemMemberId !== undefined || agent.memberId !== undefined) return;
  report('/debtorAgent', 'must carry bicfi or clearingSystemMemberId.memberId when debtorAccount is identified by account number only');
};

const CONDITIONS = [
  { key: 'minAmount', exceeds: (bound: bigint, amount: bigint) => bound > amount, words: 'must not be more than' },
  { key: 'maxAmount', exceeds: (bound: bigint, amount: bigint) => bound < amount, words: 'must not be less than' },
] as const;

/** minAmount <= bankSettlementAmount <= maxAmount, all three in one currency, compared exactly (never as floats). */
const conditionsSurroundAmount: Rule = (body, report) => {
  if (!isRecord(body) || !isRecord(body.requestToPayConditions) || !isRecord(body.amounts)) return;
  const settlement = body.amounts.bankSettlementAmount;
  const currency = usableCurrency(settlement);
  if (currency === undefined) return;
  const amount = moneyAt(settlement);
  for (const { key, exceeds, words } of CONDITIONS) {
    const bound = body.requestToPayConditions[key];
    const boundCurrency = usableCurrency(bound);
    if (boundCurrency === undefined) continue;
    const pointer = `/requestToPayConditions/${key}`;
    if (boundCurrency !== currency) {
      report(`${pointer}/currency`, `must be ${currency}, the currency of amounts.bankSettlementAmount`);
      continue;
    }
    const boundMoney = moneyAt(bound);
    if (amount === undefined || boundMoney === undefined || !exceeds(boundMoney.minor, amount.minor)) continue;
    report(`${pointer}/value`, `${words} amounts.bankSettlementAmount (${formatAmount(amount)} ${currency})`);
  }
};

/** The currency of an Amount-shaped value when it can carry a payment amount; a bad one is the schema's to report. */
function usableCurrency(amount: unknown): string | undefined {
  if (!isRecord(amount) || typeof amount.currency !== 'string' || currencyDecimals(amount.currency) === undefined) return undefined;
  return amount.currency;
}

/** The Money of an Amount-shaped value, judged from its literal text as validation does; undefined when it is not a valid amount. */
function moneyAt(amount: unknown): Money | undefined {
  if (!isRecord(amount)) return undefined;
  const { currency, value } = amount;
  if (typeof currency !== 'string' || typeof value !== 'number' || !(value >= 0)) return undefined;
  const parsed = parseAmount(numberText(amount, 'value') ?? String(value), currency);
  return parsed.ok ? parsed.money : undefined;
}

const checkRequestToPay = makeValidator(RequestToPaySchema, [accountsIdentified, proxiesComplete, debtorAgentForAccount, conditionsSurroundAmount, remittanceFits]);

/**
 * Validates a RequestToPay body (as produced by parseJson) against every rule of the interface
 * that does not depend on the clock; the use case then asks expiryProblem() about expiryDateTime.
 */
export function validateRequestToPay(body: unknown): Validation<ValidRequestToPay> {
  const result = checkRequestToPay(body);
  if (!result.ok) return result;
  const message = result.value;
  const expiresAt = dateTimeEpochMs(message.expiryDateTime);
  assert(expiresAt !== undefined, `expiryDateTime ${message.expiryDateTime} passed validation but does not parse`);
  const { minAmount, maxAmount } = message.requestToPayConditions ?? {};
  const valid: ValidRequestToPay = {
    message,
    scheme: message.paymentScheme.schema,
    uetr: message.transactionIdentifiers.uetr.toLowerCase(),
    messageId: message.messageIdentifiers.messageIdentification,
    amount: moneyOf(message.amounts.bankSettlementAmount),
    expiresAt,
    ...(minAmount === undefined ? {} : { minAmount: moneyOf(minAmount) }),
    ...(maxAmount === undefined ? {} : { maxAmount: moneyOf(maxAmount) }),
  };
  return { ok: true, value: valid };
}

// ---------------------------------------------------------------------------------------------
// The expiry: a rule of the clock and the configuration, asked by the use case

/** RFC 3339 date-time, as formats.ts accepts it, with the parts an instant is computed from. */
const DATE_TIME_PARTS = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

/**
 * The instant of an RFC 3339 date-time in epoch milliseconds, offset applied; undefined when the
 * text is not one. Exact to the millisecond: digits of a fraction beyond the third are cut, never
 * rounded up. Computed by calendar arithmetic, not Date.parse, so years 0000 to 0099, `t`, `z`
 * and a space separator read as written. A leap second (23:59:60Z) is the first millisecond of the
 * next day.
 */
export function dateTimeEpochMs(text: string): number | undefined {
  if (!isDateTime(text)) return undefined;
  const match = DATE_TIME_PARTS.exec(text);
  assert(match !== null, 'an RFC 3339 date-time has the parts of one');
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const milliseconds = Number((match[7] ?? '').slice(0, 3).padEnd(3, '0'));
  const offsetMinutes = (match[8] === '-' ? -1 : 1) * (Number(match[9] ?? 0) * 60 + Number(match[10] ?? 0));
  const minutes = (daysFromCivil(year, month, day) * 24 + hour) * 60 + minute - offsetMinutes;
  return (minutes * 60 + second) * 1000 + milliseconds;
}

/** Days from 1970-01-01 to a date of the proleptic Gregorian calendar (H. Hinnant's days_from_civil). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/**
 * What is wrong with a request's expiryDateTime at `now`, or undefined when nothing is: it must
 * lie in the future, and at most `horizonMs` ahead. The use case reports the text at
 * `/expiryDateTime` (400), so the integrator sees the service's time and the latest it accepts.
 */
export function expiryProblem(expiryDateTime: string, now: number, horizonMs: number): string | undefined {
  const expiresAt = dateTimeEpochMs(expiryDateTime);
  if (expiresAt === undefined) return 'must be an RFC 3339 date-time with a time zone, e.g. 2024-05-01T10:15:30Z or 2024-05-01T12:15:30.250+02:00';
  if (expiresAt <= now) return `must be in the future (the service's time is ${isoTime(now)})`;
  if (expiresAt - now > horizonMs) return `must be at most ${durationText(horizonMs)} ahead, not after ${isoTime(now + horizonMs)}`;
  return undefined;
}

function isoTime(epochMs: number): string {
  const date = new Date(epochMs);
  return Number.isNaN(date.getTime()) ? `${epochMs} ms after 1970-01-01T00:00:00Z` : date.toISOString();
}

const DURATION_UNITS = [
  [86_400_000, 'day'],
  [3_600_000, 'hour'],
  [60_000, 'minute'],
  [1000, 'second'],
] as const;

/** A duration in the largest whole unit, e.g. "7 days", "90 minutes", "1500 ms". */
function durationText(ms: number): string {
  for (const [size, unit] of DURATION_UNITS) {
    if (ms >= size && ms % size === 0) return `${ms / size} ${unit}${ms === size ? '' : 's'}`;
  }
  return `${ms} ms`;
}

// ---------------------------------------------------------------------------------------------
// RequestToPayStatusRequest

export const RequestToPayStatusRequestSchema = OpenObject(
  {
    schema: Type.Literal('RequestToPayStatusRequest', { description: 'Message type: RequestToPayStatusRequest' }),
    messageIdentifiers: MessageIdentifiersSchema,
    originalMessageIdentifiers: Type.Optional(MessageIdentifiersSchema),
    originalTransactionIdentifiers: TransactionIdentifiersSchema,
    instructingAgent: Type.Optional(InstitutionIdentificationSchema),
    instructedAgent: Type.Optional(InstitutionIdentificationSchema),
    supplementaryData: Type.Optional(SupplementaryDataSchema),
  },
  {
    $id: 'RequestToPayStatusRequest',
    description:
      'Request for the current status of an outbound request-to-pay, named by originalTransactionIdentifiers.uetr; ' +
      'the answer is a fresh RequestToPayResponse callback',
  },
);

export type RequestToPayStatusRequest = Static<typeof RequestToPayStatusRequestSchema>;

export interface ValidRequestToPayStatusRequest {
  readonly message: RequestToPayStatusRequest;
  readonly messageId: string;
  /** originalTransactionIdentifiers.uetr, lowercased: UUIDs compare case-insensitively. */
  readonly uetr: string;
}

const checkStatusRequest = makeValidator(RequestToPayStatusRequestSchema);

export function validateRequestToPayStatusRequest(body: unknown): Validation<ValidRequestToPayStatusRequest> {
  const result = checkStatusRequest(body);
  if (!result.ok) return result;
  const message = result.value;
  return {
    ok: true,
    value: { message, messageId: message.messageIdentifiers.messageIdentification, uetr: message.originalTransactionIdentifiers.uetr.toLowerCase() },
  };
}

// ---------------------------------------------------------------------------------------------
// RequestToPayCancellation

/**
 * ISO 20022 ExternalCancellationReason1Code (the external code set's cancellation reasons), with
 * their meaning in a few words. DRTP, ECAG, MODT, PAID and PPRC are the ones made for request-to-pay.
 */
export const CANCELLATION_REASON_CODES = Object.freeze({
  AC02: 'Debtor account number invalid or missing',
  AC03: 'Creditor account number wrong',
  AGNT: 'Agent in the payment workflow incorrect',
  AM09: 'Amount not the amount agreed or expected',
  BE16: 'Debtor identification code missing or invalid',
  BIAS: 'Batch already settled',
  COVR: 'Cover payment returned or cancelled',
  CURR: 'Currency of the payment incorrect',
  CUST: 'Requested by the customer',
  CUTA: 'Investigation received, no remediation possible',
  DRTP: 'Duplicate request-to-pay',
  DS24: 'Original order expired (time-out)',
  DT01: 'Invalid date',
  DUPL: 'Duplicate payment',
  ECAG: 'Error or adjustment agreed with the payer',
  ENUE: 'Error by the debtor in the original transfer',
  FRAD: 'Fraudulent origin',
  FRNA: 'Forward to the next agent',
  FRTR: 'Mandate cancelled (direct debit tracking)',
  INCR: 'Incorrect reference to the original batch',
  INDM: 'Indemnity agreement wished',
  MD06: 'Return of funds requested by end customer',
  MODT: 'Underlying transaction modified',
  NARR: 'Reason given in the narrative',
  NFNA: 'Not to be forwarded to the next agent',
  PAID: 'Already paid by other means',
  PPRC: 'Payee not in good standing',
  SVNR: 'Service not rendered',
  SYAD: 'Not to be forwarded by the settlement system',
  TECH: 'Technical problem',
  UAPA: 'Payment not properly authorised',
  UPAY: 'Payment not justified',
  WNTB: 'Breach of warranty',
});

export type CancellationReasonCode = keyof typeof CANCELLATION_REASON_CODES;

const CANCELLATION_REASONS = Object.keys(CANCELLATION_REASON_CODES) as CancellationReasonCode[];

export const RequestToPayCancellationSchema = OpenObject(
  {
    schema: Type.Literal('RequestToPayCancellation', { description: 'Message type: RequestToPayCancellation' }),
    reasonCode: StringEnum(CANCELLATION_REASONS, {
      description: 'Why the request is cancelled: an ISO 20022 ExternalCancellationReason1Code, e.g. CUST (asked by the customer), DUPL, AM09, DRTP',
    }),
    messageIdentifiers: MessageIdentifiersSchema,
    originalMessageIdentifiers: Type.Optional(MessageIdentifiersSchema),
    originalTransactionIdentifiers: TransactionIdentifiersSchema,
    supplementaryData: Type.Optional(SupplementaryDataSchema),
  },
  {
    $id: 'RequestToPayCancellation',
    description:
      'Cancellation of an outbound request-to-pay, named by originalTransactionIdentifiers.uetr; no paymentScheme (it is the original one). ' +
      'The answer is a RequestToPayCancellationResponse callback',
  },
);

export type RequestToPayCancellation = Static<typeof RequestToPayCancellationSchema>;

export interface ValidRequestToPayCancellation {
  readonly message: RequestToPayCancellation;
  readonly messageId: string;
  /** originalTransactionIdentifiers.uetr, lowercased. */
  readonly uetr: string;
  readonly reasonCode: CancellationReasonCode;
}

const checkCancellation = makeValidator(RequestToPayCancellationSchema);

export function validateRequestToPayCancellation(body: unknown): Validation<ValidRequestToPayCancellation> {
  const result = checkCancellation(body);
  if (!result.ok) return result;
  const message = result.value;
  return {
    ok: true,
    value: {
      message,
      messageId: message.messageIdentifiers.messageIdentification,
      uetr: message.originalTransactionIdentifiers.uetr.toLowerCase(),
      reasonCode: message.reasonCode,
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The answers: RequestToPayResponse and RequestToPayCancellationResponse

export const ReasonInfoSchema = OpenObject(
  {
    reason: OpenObject(
      {
        schema: Text('Kind of code: CODE, an ISO 20022 external code'),
        value: Type.String({ pattern: '^[A-Z0-9]{4}$', description: 'The ISO 20022 reason code' }),
      },
      { description: 'The reason code' },
    ),
    additionalInformation: Type.Optional(
      Type.Array(Text('The reason in words'), { maxItems: LIST_ITEMS_MAX, description: 'The reason in words, as the scheme gave it' }),
    ),
  },
  { description: 'Why a status is what it is (as in PaymentStatusReport)' },
);

export const RequestToPayResponseSchema = OpenObject(
  {
    schema: Type.Literal('RequestToPayResponse', { description: 'Message type: RequestToPayResponse' }),
    messageIdentifiers: MessageIdentifiersSchema,
    originalMessageIdentifiers: MessageIdentifiersSchema,
    transactionIdentifiers: TransactionIdentifiersSchema,
    status: OpenObject(
      {
        status: StringEnum(RTP_STATUSES, {
          description:
            'PENDING (forwarded, first report awaited), PRESENTED (shown to the payer), ACCEPTED (payer agreed, payment awaited), ' +
            'PAID, REJECTED, EXPIRED, CANCELLED; the last four are final',
        }),
        reasonInfo: Type.Array(ReasonInfoSchema, { maxItems: LIST_ITEMS_MAX, description: 'Reasons, e.g. of a rejection; empty when there are none' }),
      },
      { description: 'The current status of the request-to-pay' },
    ),
    requestToPayConditions: Type.Optional(RequestToPayConditionsSchema),
  },
  {
    $id: 'RequestToPayResponse',
    description:
      'Status of an outbound request-to-pay, posted to the integrator at each status change and on a status request. ' +
      "originalMessageIdentifiers are the RequestToPay's; requestToPayConditions are echoed when the request had them",
  },
);

export type RequestToPayResponse = Static<typeof RequestToPayResponseSchema>;

export const CANCELLATION_STATUSES = ['ACCEPTED', 'REJECTED'] as const;
export type CancellationStatus = (typeof CANCELLATION_STATUSES)[number];

export const RequestToPayCancellationResponseSchema = OpenObject(
  {
    schema: Type.Literal('RequestToPayCancellationResponse', { description: 'Message type: RequestToPayCancellationResponse' }),
    messageIdentifiers: MessageIdentifiersSchema,
    originalMessageIdentifiers: MessageIdentifiersSchema,
    originalTransactionIdentifiers: TransactionIdentifiersSchema,
    cancellationStatus: OpenObject(
      {
        status: StringEnum(CANCELLATION_STATUSES, { description: 'ACCEPTED: the request is cancelled; REJECTED: it is not' }),
        reasonInfo: Type.Array(ReasonInfoSchema, { maxItems: LIST_ITEMS_MAX, description: 'Why the cancellation was rejected; empty when there is no reason' }),
      },
      { description: 'Outcome of the cancellation' },
    ),
    requestToPayStatus: OpenObject(
      { status: StringEnum(RTP_STATUSES, { description: 'Status of the request-to-pay after the attempt' }) },
      { description: 'The request-to-pay after the attempt' },
    ),
  },
  {
    $id: 'RequestToPayCancellationResponse',
    description:
      "Outcome of a RequestToPayCancellation. originalMessageIdentifiers are the cancellation's; originalTransactionIdentifiers the request-to-pay's",
  },
);

export type RequestToPayCancellationResponse = Static<typeof RequestToPayCancellationResponseSchema>;

export interface RequestToPayResponseInput {
  readonly original: RequestToPay;
  readonly status: RtpStatus;
  /** An ISO 20022 reason code, written as reasonInfo. */
  readonly reasonCode?: string;
  /** The reason in words, written with the code. */
  readonly reasonText?: string;
  /** This response's own message id (max 35 characters). */
  readonly messageIdentification: string;
  readonly createdAt: number;
}

/** The JSON text of the RequestToPayResponse reporting `status` of the request `original`. */
export function requestToPayResponseJson(input: RequestToPayResponseInput): string {
  const { original } = input;
  const head = JSON.stringify({
    schema: 'RequestToPayResponse',
    messageIdentifiers: ownIdentifiers(input),
    originalMessageIdentifiers: original.messageIdentifiers,
    transactionIdentifiers: original.transactionIdentifiers,
    status: { status: input.status, reasonInfo: reasonInfo(input.reasonCode, input.reasonText) },
  });
  const conditions = original.requestToPayConditions;
  return conditions === undefined ? head : withMember(head, 'requestToPayConditions', conditionsJson(conditions));
}

export interface RequestToPayCancellationResponseInput {
  /** The cancellation answered; only its messageIdentifiers are written (as originalMessageIdentifiers). */
  readonly cancellation: Pick<RequestToPayCancellation, 'messageIdentifiers'>;
  /** The request-to-pay cancelled; only its transactionIdentifiers are written (as originalTransactionIdentifiers). */
  readonly original: Pick<RequestToPay, 'transactionIdentifiers'>;
  readonly accepted: boolean;
  /** An ISO 20022 reason code (e.g. of a refusal), written as reasonInfo. */
  readonly reasonCode?: string;
  readonly reasonText?: string;
  /** The request-to-pay's status after the attempt. */
  readonly requestToPayStatus: RtpStatus;
  /** This response's own message id (max 35 characters). */
  readonly messageIdentification: string;
  readonly createdAt: number;
}

/** The JSON text of the RequestToPayCancellationResponse answering `cancellation` of `original`. */
export function requestToPayCancellationResponseJson(input: RequestToPayCancellationResponseInput): string {
  const status: CancellationStatus = input.accepted ? 'ACCEPTED' : 'REJECTED';
  return JSON.stringify({
    schema: 'RequestToPayCancellationResponse',
    messageIdentifiers: ownIdentifiers(input),
    originalMessageIdentifiers: input.cancellation.messageIdentifiers,
    originalTransactionIdentifiers: input.original.transactionIdentifiers,
    cancellationStatus: { status, reasonInfo: reasonInfo(input.reasonCode, input.reasonText) },
    requestToPayStatus: { status: input.requestToPayStatus },
  });
}

function ownIdentifiers(input: { readonly messageIdentification: string; readonly createdAt: number }) {
  return { messageIdentification: input.messageIdentification, creationDateTime: new Date(input.createdAt).toISOString() };
}

function reasonInfo(code: string | undefined, text: string | undefined) {
  if (code === undefined) return [];
  return [{ reason: { schema: 'CODE', value: code }, ...(text === undefined ? {} : { additionalInformation: [text] }) }];
}

/**
 * The conditions as sent: minAmount and maxAmount (each when sent), their values written from the
 * exact amount with the currency's decimals (250.5 is written 250.50), never through a float.
 */
function conditionsJson(conditions: { readonly minAmount?: Amount; readonly maxAmount?: Amount }): string {
  let json = '{}';
  if (conditions.minAmount !== undefined) json = withMember(json, 'minAmount', amountJson(moneyOf(conditions.minAmount)));
  if (conditions.maxAmount !== undefined) json = withMember(json, 'maxAmount', amountJson(moneyOf(conditions.maxAmount)));
  return json;
}

/** An Amount whose value is the exact decimal text of the Money, written as a JSON number literal. */
function amountJson(money: Money): string {
  return `{"currency":${JSON.stringify(money.currency)},"value":${formatAmount(money)}}`;
}

/** The JSON text of an object with one more member, whose value is the JSON text `valueJson` written as it is. */
function withMember(objectJson: string, key: string, valueJson: string): string {
  assert(objectJson.startsWith('{') && objectJson.endsWith('}'), 'members are added to the JSON text of an object');
  const separator = objectJson === '{}' ? '' : ',';
  return `${objectJson.slice(0, -1)}${separator}${JSON.stringify(key)}:${valueJson}}`;
}

/** An integrator's RequestToPay (POST /transactions/outbound/request-to-pay): its uetr a version-4 UUID. */
export const validateOutboundRequestToPay = withUetrV4(validateRequestToPay, '/transactionIdentifiers/uetr');
