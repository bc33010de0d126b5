import { CALLBACK_PATHS } from '../../domain/callback-paths.js';
import { directionOf, eventEnvelopeJson, withEventPayload } from '../../domain/events.js';
import type { TransactionKind } from '../../domain/kinds.js';
import type { CreditTransfer } from '../../domain/messages/credit-transfer.js';
import { identifierDeterminationResponseJson, type IdentifierDeterminationRequest } from '../../domain/messages/identifier-determination.js';
import { paymentStatusReportJson } from '../../domain/messages/payment-status-report.js';
import type { PaymentStatusRequest } from '../../domain/messages/payment-status-request.js';
import {
  requestToPayCancellationResponseJson,
  requestToPayResponseJson,
  type RequestToPay,
  type RequestToPayCancellation,
  type RequestToPayStatusRequest,
} from '../../domain/messages/request-to-pay.js';
import type { SchemeName } from '../../domain/schemes.js';
import { EVENT_DOCS, type PayloadExample } from './events.js';

/**
 * The examples of the document (`components.examples`), written as the demo integrator
 * (`demo-bank`: DEMOZAJJ, member 210001) would send them, so Swagger UI's "Try it out" on a demo
 * start is answered 202/200 (the payment to a proxy once that proxy is determined, as PayShap
 * wants; the token form once its placeholders are filled in). They are made afresh each time the
 * document is served: identifiers are new (trying an example twice from one page is a retry of
 * one message, never a 409) and times are the serving time's (a request-to-pay expires an hour
 * later, within any horizon).
 *
 * Callback and event examples are written by the service's own writers of those messages
 * (paymentStatusReportJson, eventEnvelopeJson…), from the request examples, so they are exactly
 * what the service would send for those requests.
 */

export interface Example {
  readonly summary: string;
  readonly description?: string;
  readonly value: unknown;
}

export interface ExampleContext {
  /** The serving time (ms since epoch). */
  readonly now: number;
  /** A fresh version-4 UUID: a UETR must be one (ISO 20022 scheme messages refuse others). */
  readonly uuid: () => string;
}

const IDENTIFIER_DETERMINATION_REQUESTS = ['IdentifierDeterminationMobile', 'IdentifierDeterminationCustom', 'IdentifierDeterminationAccount'];

/** Example names of each operation's request body, by operationId; the first is the one Swagger UI fills in. */
export const REQUEST_EXAMPLES: Readonly<Record<string, readonly string[]>> = {
  outboundCreditTransfer: ['CreditTransferZaRtc', 'CreditTransferZaRppProxy', 'CreditTransferZaEft', 'CreditTransferCbprPlus', 'CreditTransferTcib'],
  outboundCreditTransferStatusRequest: ['PaymentStatusRequest'],
  outboundSynchronousIdentifierDetermination: IDENTIFIER_DETERMINATION_REQUESTS,
  outboundSynchronousIdentifierDeterminationAlias: IDENTIFIER_DETERMINATION_REQUESTS,
  outboundRequestToPay: ['RequestToPayMobile', 'RequestToPayAccount'],
  outboundRequestToPayStatusRequest: ['RequestToPayStatusRequest'],
  outboundRequestToPayCancellation: ['RequestToPayCancellation'],
  token: ['TokenClientCredentialsGrant', 'TokenPasswordGrant', 'TokenRefreshGrant'],
  adminReplayDeliveries: ['ReplayIntegratorSince', 'ReplaySince'],
  adminSendSimulatorSample: ['SimulatorSampleRejectAc01'],
  inboundCreditTransferAuthorisationResponse: ['PaymentStatusReportApproved'],
  inboundIdentifierDeterminationReport: ['IdentifierDeterminationResponseSuccessful'],
  inboundRequestToPayResponse: ['RequestToPayResponseInboundPresented'],
  adminSimulatorInbound: ['SimulatorInboundLookupThenCredit'],
};

/** Example names of response bodies, by operationId and status code. */
export const RESPONSE_EXAMPLES: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  outboundSynchronousIdentifierDetermination: { 200: ['IdentifierDeterminationResponseSuccessful', 'IdentifierDeterminationResponseFailed'] },
  outboundSynchronousIdentifierDeterminationAlias: { 200: ['IdentifierDeterminationResponseSuccessful', 'IdentifierDeterminationResponseFailed'] },
};

/** Example names of each callback's body, by callback (CALLBACK_PATHS). */
export const CALLBACK_EXAMPLES: Readonly<Record<keyof typeof CALLBACK_PATHS, readonly string[]>> = {
  creditTransferResponse: ['PaymentStatusReportApproved', 'PaymentStatusReportRejected'],
  identifierDeterminationReport: ['IdentifierDeterminationResponseSuccessful', 'IdentifierDeterminationResponseFailed'],
  requestToPayResponse: ['RequestToPayResponsePresented', 'RequestToPayResponsePaid', 'RequestToPayResponseRejected'],
  requestToPayCancellationResponse: ['RequestToPayCancellationResponseAccepted'],
};

/** The example of the event of one type. */
export function eventExampleName(kind: TransactionKind, type: string): string {
  return directionOf(kind) === 'INBOUND' ? `InboundEvent_${type}` : `Event_${type}`;
}

/** Placeholders in the token examples: no deployment's secret is ever written into the public document. */
export const TOKEN_PLACEHOLDERS = { password: '<password>', clientSecret: '<client secret>', refreshToken: '<refresh token of the last answer>' } as const;

const DEMO_AGENT = { bicfi: 'DEMOZAJJ', clearingSystemMemberId: { memberId: '210001' } };
const DEMO_REQUESTOR = { schema: 'INSTITUTION_IDENTIFICATION', bicfi: 'DEMOZAJJ', memberId: '210001', domain: 'demobank', name: 'Demo Bank Limited' } as const;
const MINUTE_MS = 60_000;

/** Every example of the document, by name. */
export function buildExamples(context: ExampleContext): Record<string, Example> {
  const made = new Made(context);
  const transfers = creditTransfers(made);
  const determinations = identifierDeterminations(made);
  const requestsToPay = requestToPays(made);
  const rtp = requestsToPay.RequestToPayMobile.value;
  // The account example stands for a request the scheme brings to the demo bank's customer; its answer names it by uetr.
  const inboundRtp = requestsToPay.RequestToPayAccount.value;
  const inboundRtpAnswer = JSON.parse(
    requestToPayResponseJson({ original: inboundRtp, status: 'PRESENTED', messageIdentification: made.id('RSP'), createdAt: made.at() }),
  ) as unknown;
  const statusRequest: RequestToPayStatusRequest = {
    schema: 'RequestToPayStatusRequest',
    messageIdentifiers: made.identifiers('RSQ'),
    originalMessageIdentifiers: rtp.messageIdentifiers,
    originalTransactionIdentifiers: rtp.transactionIdentifiers,
    instructingAgent: DEMO_AGENT,
  };
  const cancellation: RequestToPayCancellation = {
    schema: 'RequestToPayCancellation',
    reasonCode: 'CUST',
    messageIdentifiers: made.identifiers('RCN'),
    originalMessageIdentifiers: rtp.messageIdentifiers,
    originalTransactionIdentifiers: rtp.transactionIdentifiers,
  };
  const paymentStatusRequest: PaymentStatusRequest = {
    schema: 'PaymentStatusRequest',
    messageIdentifiers: made.identifiers('PSR'),
    originalMessageIdentifiers: transfers.CreditTransferZaRtc.value.messageIdentifiers,
    originalTransactionIdentifiers: { uetr: transfers.CreditTransferZaRtc.value.transactionIdentifiers.uetr },
  };
  const requests: Record<string, Example> = {
    ...transfers,
    PaymentStatusRequest: { summary: 'Status of the ZA_RTC example transfer', value: paymentStatusRequest },
    ...determinations,
    ...requestsToPay,
    RequestToPayStatusRequest: { summary: 'Status of the mobile-proxy example request', value: statusRequest },
    RequestToPayCancellation: { summary: 'Cancel the mobile-proxy example request (the customer asked)', value: cancellation },
    RequestToPayResponseInboundPresented: { summary: "The demo bank showed the account example request to its customer, the payer (PRESENTED)", value: inboundRtpAnswer },
    ...tokenRequests(),
    ReplayIntegratorSince: {
      summary: "Replay the integrator's undelivered messages of the last day",
      value: { integratorId: 'demo-bank', since: new Date(context.now - 24 * 60 * MINUTE_MS).toISOString() },
    },
    ReplaySince: { summary: 'Replay every undelivered message of the last hour', value: { since: new Date(context.now - 60 * MINUTE_MS).toISOString() } },
    SimulatorSampleRejectAc01: { summary: 'Send a ZA_RTC transfer the simulator rejects with AC01', value: { testValueId: 'ct-za-rtc-reject-ac01' } },
    SimulatorInboundLookupThenCredit: {
      summary: 'The simulated scheme looks up a mobile proxy at the demo bank, then credits R150.25 to the account it resolves to',
      value: { integratorId: 'demo-bank', scenario: 'LOOKUP_THEN_CREDIT', proxy: { value: '+27-821234567', schema: 'MOBILE' }, amount: '150.25' },
    },
  };
  const answers = answerExamples(made, transfers.CreditTransferZaRppProxy.value, transfers.CreditTransferZaRtc.value, determinations.IdentifierDeterminationMobile.value, rtp, cancellation);
  const events = eventExamples(made, {
    CREDIT_TRANSFER: {
      request: transfers.CreditTransferZaRppProxy.value,
      scheme: 'ZA_RPP',
      uetr: transfers.CreditTransferZaRppProxy.value.transactionIdentifiers.uetr,
      response: answers.PaymentStatusReportApproved?.value,
    },
    IDENTIFIER_DETERMINATION: {
      request: determinations.IdentifierDeterminationMobile.value,
      scheme: 'ZA_RPP',
      uetr: determinations.IdentifierDeterminationMobile.value.request.uetr,
      response: answers.IdentifierDeterminationResponseSuccessful?.value,
    },
    REQUEST_TO_PAY: { request: rtp, scheme: 'ZA_RPP', uetr: rtp.transactionIdentifiers.uetr },
    INBOUND_CREDIT_TRANSFER: {
      request: transfers.CreditTransferZaRtc.value,
      scheme: 'ZA_RTC',
      uetr: transfers.CreditTransferZaRtc.value.transactionIdentifiers.uetr,
      response: answers.PaymentStatusReportApproved?.value,
    },
    INBOUND_IDENTIFIER_DETERMINATION: {
      request: determinations.IdentifierDeterminationMobile.value,
      scheme: 'ZA_RPP',
      uetr: determinations.IdentifierDeterminationMobile.value.request.uetr,
      response: answers.IdentifierDeterminationResponseSuccessful?.value,
    },
    INBOUND_REQUEST_TO_PAY: { request: inboundRtp, scheme: 'ZA_RPP', uetr: inboundRtp.transactionIdentifiers.uetr, response: inboundRtpAnswer },
  });
  return { ...requests, ...answers, ...events };
}

/** Identifiers and times of one set of examples. */
class Made {
  readonly #context: ExampleContext;

  constructor(context: ExampleContext) {
    this.#context = context;
  }

  /** `minutesAgo` before the serving time, in RFC 3339 with the South African offset, as an integrator's system would write it. */
  time(minutesAgo = 0): string {
    const local = new Date(this.#context.now - minutesAgo * MINUTE_MS + 2 * 60 * MINUTE_MS);
    return `${local.toISOString().slice(0, 19)}+02:00`;
  }

  /** Milliseconds since the epoch, `minutesAgo` before the serving time. */
  at(minutesAgo = 0): number {
    return this.#context.now - minutesAgo * MINUTE_MS;
  }

  uuid(): string {
    return this.#context.uuid();
  }

  /** A message id of at most 35 characters: a short prefix and a UUID's hex digits. */
  id(prefix: string): string {
    return `${prefix}${this.uuid().replaceAll('-', '')}`.slice(0, 35);
  }

  identifiers(prefix: string, minutesAgo = 0): { messageIdentification: string; creationDateTime: string } {
    return { messageIdentification: this.id(prefix), creationDateTime: this.time(minutesAgo) };
  }
}

function creditTransfers(made: Made) {
  const zaRtc: CreditTransfer = {
    schema: 'CreditTransfer',
    messageIdentifiers: made.identifiers('CT', 5),
    transactionIdentifiers: { endToEndIdentification: 'INV-2026-118', transactionIdentification: made.id('TX'), uetr: made.uuid() },
    amounts: { bankSettlementAmount: { currency: 'ZAR', value: 15000 } },
    creditor: { legalName: 'Karoo Solar Installations (Pty) Ltd', address: { streetName: 'Long Street', buildingNumber: '117', postCode: '8001', townName: 'Cape Town', country: 'ZA' } },
    creditorAccount: { identification: { schema: 'GENERIC', value: '4071234567' }, name: 'Karoo Solar Business', type: { schema: 'CODE', value: 'CACC' } },
    creditorAgent: { bicfi: 'ABSAZAJJ', clearingSystemMemberId: { memberId: '632005' }, name: 'Absa Bank Limited' },
    debtor: { legalName: 'Johannes Petrus Botha', countryOfResidence: 'ZA' },
    debtorAccount: { identification: { schema: 'GENERIC', value: '62009876543' } },
    debtorAgent: DEMO_AGENT,
    paymentScheme: { schema: 'ZA_RTC' },
    purpose: { schema: 'CODE', value: 'SUPP' },
    remittanceInformation: { unstructured: ['Invoice 2026-118'] },
  };
  const zaRpp: CreditTransfer = {
    schema: 'CreditTransfer',
    messageIdentifiers: made.identifiers('CT', 4),
    transactionIdentifiers: { endToEndIdentification: 'LUNCH-0302', instructionIdentification: made.id('IN'), uetr: made.uuid() },
    amounts: { bankSettlementAmount: { currency: 'ZAR', value: 250.5 } },
    creditor: { knownAsName: 'Thandi D', legalName: 'Thandiwe Nomvula Dlamini' },
    creditorAccount: { proxy: { namespace: 'ZA_MOBILE', schema: 'MOBILE', value: '+27-0821234567' } },
    creditorAgent: { bicfi: 'FIRNZAJJ' },
    debtor: { legalName: 'Pieter van der Merwe', countryOfResidence: 'ZA' },
    debtorAccount: { identification: { schema: 'GENERIC', value: '62001234567' }, currency: 'ZAR' },
    debtorAgent: DEMO_AGENT,
    paymentScheme: { schema: 'ZA_RPP' },
    paymentTypeInformation: { localInstrument: { schema: 'PROPRIETARY', value: 'PBPX' } },
    remittanceInformation: { unstructured: ['Lunch money'] },
  };
  const zaEft: CreditTransfer = {
    schema: 'CreditTransfer',
    messageIdentifiers: made.identifiers('CT', 3),
    transactionIdentifiers: { endToEndIdentification: 'SAL-2026-02-EMP0173', uetr: made.uuid() },
    amounts: { bankSettlementAmount: { currency: 'ZAR', value: 28450.75 } },
    creditor: { legalName: 'Lerato Mokoena' },
    creditorAccount: { identification: { schema: 'GENERIC', value: '1234567890' }, type: { schema: 'CODE', value: 'SVGS' } },
    creditorAgent: { bicfi: 'SBZAZAJJ', clearingSystemMemberId: { memberId: '051001' } },
    debtor: { legalName: 'Umhlanga Logistics CC', countryOfResidence: 'ZA' },
    debtorAccount: { identification: { schema: 'GENERIC', value: '62005551234' }, name: 'Umhlanga Logistics Payroll' },
    debtorAgent: DEMO_AGENT,
    paymentScheme: { schema: 'ZA_EFT' },
    purpose: { schema: 'CODE', value: 'SALA' },
    remittanceInformation: { unstructured: ['Salary February 2026'] },
  };
  const cbprPlus: CreditTransfer = {
    schema: 'CreditTransfer',
    messageIdentifiers: made.identifiers('CT', 2),
    transactionIdentifiers: { endToEndIdentification: 'PO-44120', instructionIdentification: made.id('IN'), uetr: made.uuid() },
    amounts: { bankSettlementAmount: { currency: 'USD', value: 12500 }, instructedAmount: { currency: 'ZAR', value: 228125 } },
    creditor: { legalName: 'Hudson River Machinery Inc.', countryOfResidence: 'US', address: { streetName: 'Water Street', buildingNumber: '55', postCode: '10041', townName: 'New York', country: 'US' } },
    creditorAccount: { identification: { schema: 'GENERIC', value: '000123456789' }, currency: 'USD' },
    creditorAgent: { bicfi: 'CHASUS33XXX', name: 'JPMorgan Chase Bank, N.A.' },
    debtor: { legalName: 'Vaal Mining Supplies (Pty) Ltd', countryOfResidence: 'ZA' },
    debtorAccount: { identification: { schema: 'GENERIC', value: '62007778881' }, currency: 'ZAR' },
    debtorAgent: DEMO_AGENT,
    intermediaryAgents: [{ bicfi: 'CITIUS33', name: 'Citibank N.A.' }],
    paymentScheme: { schema: 'CBPR_PLUS', schemeData: { chargeBearer: 'SHAR', exchangeRate: 18.25 } },
    purpose: { schema: 'CODE', value: 'GDDS' },
    remittanceInformation: { unstructured: ['PO 44120 drilling spares'] },
  };
  const tcib: CreditTransfer = {
    schema: 'CreditTransfer',
    messageIdentifiers: made.identifiers('CT', 1),
    transactionIdentifiers: { endToEndIdentification: 'FAMILY-0302', uetr: made.uuid() },
    amounts: { bankSettlementAmount: { currency: 'ZAR', value: 3200 } },
    creditor: { legalName: 'Chipo Banda', countryOfResidence: 'ZM' },
    creditorAccount: { identification: { schema: 'GENERIC', value: '0110023456701' } },
    creditorAgent: { bicfi: 'ZNCOZMLU', name: 'Zambia National Commercial Bank' },
    debtor: { legalName: 'Sipho Ndlovu', countryOfResidence: 'ZA' },
    debtorAccount: { identification: { schema: 'GENERIC', value: '62003334445' } },
    debtorAgent: DEMO_AGENT,
    paymentScheme: { schema: 'TCIB' },
    purpose: { schema: 'CODE', value: 'FAMI' },
    remittanceInformation: { unstructured: ['Family support March'] },
  };
  return {
    CreditTransferZaRtc: { summary: 'ZA_RTC: real-time clearing to an account at another bank', value: zaRtc },
    CreditTransferZaRppProxy: {
      summary: 'ZA_RPP (PayShap): payment to a mobile-number proxy',
      description:
        'Pays the proxy the IdentifierDeterminationMobile example resolves: determine it first, since a PayShap payment to a proxy needs a ' +
        'successful determination of that proxy (unless proxyPayments.determinationRequired is off)',
      value: zaRpp,
    },
    CreditTransferZaEft: { summary: 'ZA_EFT: batch EFT salary payment', value: zaEft },
    CreditTransferCbprPlus: { summary: 'CBPR_PLUS: cross-border USD payment, with its schemeData', value: cbprPlus },
    CreditTransferTcib: { summary: 'TCIB: SADC cross-border payment in ZAR', value: tcib },
  } satisfies Record<string, Example & { value: CreditTransfer }>;
}

function identifierDeterminations(made: Made) {
  const request = (identifier: Record<string, string>, extra: Record<string, unknown> = {}): IdentifierDeterminationRequest => ({
    schema: 'IdentifierDeterminationRequest',
    messageIdentifiers: made.identifiers('ID'),
    request: {
      schema: 'ZA_RPP',
      instructingAgent: DEMO_AGENT,
      requestor: DEMO_REQUESTOR,
      identifier: identifier as IdentifierDeterminationRequest['request']['identifier'],
      uetr: made.uuid(),
      verificationIdentification: made.id('VRF'),
      ...extra,
    },
  });
  return {
    IdentifierDeterminationMobile: {
      summary: 'Who is behind a mobile number (proxy resolution)',
      value: request({ namespace: 'ZA_MOBILE', schema: 'MOBILE', value: '+27-0821234567' }),
    },
    IdentifierDeterminationCustom: {
      summary: "A ShapID, the custom proxy a bank hands out under its domain",
      value: request({ namespace: 'ZA_CUSTOM', schema: 'CUSTOM', value: 'thandi.d@firstbank' }),
    },
    IdentifierDeterminationAccount: {
      summary: 'Verify an account number at its bank (account resolution)',
      value: request({ schema: 'GENERIC', value: '62845123907' }, { accountAgent: { bicfi: 'FIRNZAJJ' } }),
    },
  } satisfies Record<string, Example & { value: IdentifierDeterminationRequest }>;
}

function requestToPays(made: Made) {
  const expiry = new Date(made.at(-60)).toISOString();
  const mobile: RequestToPay = {
    schema: 'RequestToPay',
    messageIdentifiers: made.identifiers('RTP'),
    transactionIdentifiers: { endToEndIdentification: 'CALLOUT-0302-17', transactionIdentification: made.id('TX'), uetr: made.uuid() },
    paymentScheme: { schema: 'ZA_RPP' },
    amounts: { bankSettlementAmount: { currency: 'ZAR', value: 450 } },
    paymentTypeInformation: { localInstrument: { schema: 'PROPRIETARY', value: 'PBPX' } },
    expiryDateTime: expiry,
    requestToPayConditions: { minAmount: { currency: 'ZAR', value: 400 }, maxAmount: { currency: 'ZAR', value: 500 } },
    creditor: { legalName: 'Sipho Ndlovu Plumbing (Pty) Ltd', knownAsName: 'Sipho Plumbing', countryOfResidence: 'ZA' },
    creditorAccount: { identification: { schema: 'GENERIC', value: '62004455667' }, name: 'Sipho Plumbing Business', currency: 'ZAR' },
    creditorAgent: DEMO_AGENT,
    debtor: { knownAsName: 'Thandi' },
    debtorAccount: { proxy: { namespace: 'ZA_MOBILE', schema: 'MOBILE', value: '+27-0821234567' } },
    remittanceInformation: { unstructured: ['Call-out 2 March, job 17'] },
  };
  const account: RequestToPay = {
    schema: 'RequestToPay',
    messageIdentifiers: made.identifiers('RTP'),
    transactionIdentifiers: { endToEndIdentification: 'RENT-2026-03-UNIT4', uetr: made.uuid() },
    paymentScheme: { schema: 'ZA_RPP' },
    amounts: { bankSettlementAmount: { currency: 'ZAR', value: 8750 } },
    paymentTypeInformation: { localInstrument: { schema: 'PROPRIETARY', value: 'PBA' } },
    expiryDateTime: expiry,
    creditor: { legalName: 'Johannes Petrus Botha', countryOfResidence: 'ZA' },
    creditorAccount: { identification: { schema: 'GENERIC', value: '62009876543' }, type: { schema: 'CODE', value: 'CACC' } },
    creditorAgent: DEMO_AGENT,
    debtor: { legalName: 'Lerato Mokoena' },
    debtorAccount: { identification: { schema: 'GENERIC', value: '4071234567' } },
    debtorAgent: { bicfi: 'ABSAZAJJ', clearingSystemMemberId: { memberId: '632005' } },
    remittanceInformation: { unstructured: ['Rent March 2026, unit 4'] },
  };
  return {
    RequestToPayMobile: { summary: "Ask for a plumber's call-out fee from the payer's mobile number (between 400 and 500 ZAR)", value: mobile },
    RequestToPayAccount: { summary: "Ask for the rent from the tenant's account at another bank", value: account },
  } satisfies Record<string, Example & { value: RequestToPay }>;
}

function tokenRequests(): Record<string, Example> {
  const client = { client_id: 'demo-client', client_secret: TOKEN_PLACEHOLDERS.clientSecret };
  return {
    TokenClientCredentialsGrant: { summary: 'An access token for the client (the demo integrator; its secret is printed at start)', value: { grant_type: 'client_credentials', ...client } },
    TokenPasswordGrant: {
      summary: 'A first token pair (the demo integrator; its password is printed at start)',
      value: { grant_type: 'password', username: 'demo', password: TOKEN_PLACEHOLDERS.password, ...client },
    },
    TokenRefreshGrant: { summary: 'A new token pair for the refresh token', value: { grant_type: 'refresh_token', refresh_token: TOKEN_PLACEHOLDERS.refreshToken, ...client } },
  };
}

/** The messages the service sends back about the request examples, written by its own writers. */
function answerExamples(
  made: Made,
  proxyPayment: CreditTransfer,
  accountPayment: CreditTransfer,
  determination: IdentifierDeterminationRequest,
  requestToPay: RequestToPay,
  cancellation: RequestToPayCancellation,
): Record<string, Example> {
  const parsed = (json: string): unknown => JSON.parse(json);
  const determinationResponse = (outcome: 'SUCCESSFUL' | 'FAILED') =>
    parsed(
      identifierDeterminationResponseJson({
        request: determination,
        scheme: 'ZA_RPP',
        messageIdentification: made.id(''),
        createdAt: made.at(),
        outcome,
        ...(outcome === 'FAILED'
          ? { reasonCode: 'AB06', reasonText: 'Timeout at the instructed agent' }
          : {
              account: {
                traditionalIdentifier: '62845123907',
                proxy: { value: '+27-821234567', schema: 'MOBILE' },
                creationDate: '2016-04-12',
                knownAsName: 'Thandi D',
                legalName: 'Thandiwe Nomvula Dlamini',
                accountAgentBicfi: 'FIRNZAJJ',
                transactionLimit: { value: '50000.00', currency: 'ZAR' },
              },
            }),
      }),
    );
  const rtpResponse = (status: 'PRESENTED' | 'PAID' | 'REJECTED') =>
    parsed(
      requestToPayResponseJson({
        original: requestToPay,
        status,
        ...(status === 'REJECTED' ? { reasonCode: 'CUST', reasonText: 'Declined by the payer' } : {}),
        messageIdentification: made.id(''),
        createdAt: made.at(),
      }),
    );
  return {
    PaymentStatusReportApproved: {
      summary: 'The ZA_RPP example payment was approved',
      value: parsed(paymentStatusReportJson({ original: proxyPayment, verdict: { outcome: 'APPROVED' }, messageIdentification: made.id(''), createdAt: made.at() })),
    },
    PaymentStatusReportRejected: {
      summary: 'The ZA_RTC example payment was declined by the scheme (account closed)',
      value: parsed(
        paymentStatusReportJson({
          original: accountPayment,
          verdict: { outcome: 'REJECTED', reasonCode: 'AC04', reasonText: 'Account closed' },
          messageIdentification: made.id(''),
          createdAt: made.at(),
        }),
      ),
    },
    IdentifierDeterminationResponseSuccessful: { summary: 'The mobile number resolved to an account at FNB', value: determinationResponse('SUCCESSFUL') },
    IdentifierDeterminationResponseFailed: { summary: 'The scheme did not answer within its time budget', value: determinationResponse('FAILED') },
    RequestToPayResponsePresented: { summary: 'The request was shown to the payer', value: rtpResponse('PRESENTED') },
    RequestToPayResponsePaid: { summary: 'The payer paid (final)', value: rtpResponse('PAID') },
    RequestToPayResponseRejected: { summary: 'The payer declined (final)', value: rtpResponse('REJECTED') },
    RequestToPayCancellationResponseAccepted: {
      summary: 'The cancellation example was accepted: the request is CANCELLED',
      value: parsed(
        requestToPayCancellationResponseJson({
          cancellation,
          original: requestToPay,
          accepted: true,
          requestToPayStatus: 'CANCELLED',
          messageIdentification: made.id(''),
          createdAt: made.at(),
        }),
      ),
    },
  };
}

interface EventSubject {
  readonly request: unknown;
  readonly scheme: SchemeName;
  readonly uetr: string;
  readonly response?: unknown;
}

/** One example event per event type, about the example request of its kind. */
function eventExamples(made: Made, subjects: Readonly<Record<TransactionKind, EventSubject>>): Record<string, Example> {
  const examples: Record<string, Example> = {};
  for (const [kind, docs] of Object.entries(EVENT_DOCS) as Array<[TransactionKind, (typeof EVENT_DOCS)[TransactionKind]]>) {
    const subject = subjects[kind];
    for (const [type, doc] of Object.entries(docs)) {
      const id = made.uuid();
      const envelope = eventEnvelopeJson({ type, uetr: subject.uetr, direction: directionOf(kind), scheme: subject.scheme, messageIdentification: id.replaceAll('-', ''), createdAt: made.at() });
      const payload = payloadExample(made, kind, subject, doc.example);
      examples[eventExampleName(kind, type)] = { summary: `${type}: ${doc.when}`, value: JSON.parse(withEventPayload(envelope, JSON.stringify(payload))) };
    }
  }
  return examples;
}

/** The payload an event of `kind` carries, for the example's kind of payload. */
function payloadExample(made: Made, kind: TransactionKind, subject: EventSubject, example: PayloadExample): unknown {
  if (typeof example === 'object') {
    const { push } = example;
    return JSON.parse(
      requestToPayResponseJson({
        original: subject.request as RequestToPay,
        status: push,
        ...(push === 'REJECTED' ? { reasonCode: 'CUST', reasonText: 'Declined by the payer' } : {}),
        messageIdentification: made.id(''),
        createdAt: made.at(),
      }),
    );
  }
  switch (example) {
    case 'request':
      return subject.request;
    case 'response':
      return subject.response;
    case 'answer':
      return subject.response;
    case 'problem':
      return { schema: 'IntegratorAnswerProblem', problem: '/report/reportInformation/accountOwner/legalName: a SUCCESSFUL answer must name the legal name (mandatory in ZA_RPP)' };
    case 'callFailure':
      return { schema: 'IntegratorCallFailure', error: 'HTTP 503' };
    case 'integratorTimeout':
      return { schema: 'IntegratorTimeout', deadline: made.time() };
    case 'schemeReport':
      return kind === 'IDENTIFIER_DETERMINATION' || kind === 'INBOUND_IDENTIFIER_DETERMINATION' ? acmt024(made, subject.request as IdentifierDeterminationRequest) : pacs002(made, subject.request as CreditTransfer);
    case 'transportFailure':
      return { schema: 'SchemeTransportFailure', error: 'connect ECONNREFUSED (scheme gateway)' };
    case 'timeout':
      return { schema: 'SchemeTimeout', timeBudgetMs: 10_000 };
    case 'capability':
      return { schema: 'SchemeCapability', error: 'the scheme connector does not carry this operation' };
    case 'ruleViolation':
      return { schema: 'SchemeRuleViolation', reasonCode: 'AM02', reasonText: 'Above the ZA_RPP maximum amount' };
    case 'payment':
      return { schema: 'RequestToPayPayment', transactionId: made.uuid() };
    case 'notice': {
      const request = subject.request as RequestToPay;
      return {
        schema: 'RequestToPayCancellation',
        reasonCode: 'CUST',
        messageIdentifiers: { messageIdentification: made.id(''), creationDateTime: made.time() },
        originalMessageIdentifiers: request.messageIdentifiers,
        originalTransactionIdentifiers: request.transactionIdentifiers,
        supplementaryData: { withdrawalReason: 'CUST' },
      };
    }
  }
}

const OPERATOR = { FinInstnId: { BICFI: 'PAYIZAJJ' } };

/** The scheme's pacs.002 approving a transfer, as the connector hands it on (element names as keys). */
function pacs002(made: Made, transfer: CreditTransfer): unknown {
  const { transactionIdentifiers: ids } = transfer;
  return {
    schema: 'pacs.002.001.12',
    FIToFIPmtStsRpt: {
      GrpHdr: { MsgId: made.id('OP'), CreDtTm: made.time() },
      TxInfAndSts: {
        OrgnlGrpInf: { OrgnlMsgId: made.id('RP'), OrgnlMsgNmId: 'pacs.008.001.08' },
        OrgnlEndToEndId: ids.endToEndIdentification,
        OrgnlUETR: ids.uetr,
        TxSts: 'ACSC',
        AccptncDtTm: made.time(),
      },
    },
  };
}

/** The scheme's acmt.024 resolving a proxy. */
function acmt024(made: Made, request: IdentifierDeterminationRequest): unknown {
  return {
    schema: 'acmt.024.001.03',
    IdVrfctnRpt: {
      Assgnmt: { MsgId: made.id('OP'), CreDtTm: made.time(), Assgnr: { Agt: OPERATOR }, Assgne: { Agt: { FinInstnId: { BICFI: 'DEMOZAJJ' } } } },
      OrgnlAssgnmt: { MsgId: made.id('RP') },
      Rpt: {
        OrgnlId: request.request.verificationIdentification,
        Vrfctn: 'true',
        UpdtdPtyAndAcctId: {
          Pty: { Nm: 'Thandiwe Nomvula Dlamini' },
          Acct: { Id: { Othr: { Id: '62845123907' } }, Nm: 'Thandi D', Prxy: { Tp: { Prtry: 'MOBILE' }, Id: '+27-821234567' } },
          Agt: { FinInstnId: { BICFI: 'FIRNZAJJ' } },
        },
      },
    },
  };
}
