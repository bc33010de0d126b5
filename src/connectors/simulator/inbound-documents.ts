import type { PaymentAccount, Amount, InstitutionIdentification } from '../../domain/messages/common.js';
import type { CreditTransfer } from '../../domain/messages/credit-transfer.js';
import type { IdentifierDeterminationRequest } from '../../domain/messages/identifier-determination.js';
import type { RequestToPay } from '../../domain/messages/request-to-pay.js';
import type { SchemeName } from '../../domain/schemes.js';
import { parseJson } from '../../lib/json.js';
import { parseAmount, type Money } from '../../lib/money.js';
import type { OutboundLookup, OutboundRequestToPay, OutboundTransfer } from '../../ports/scheme.js';
import { CBPR_PLUS } from '../cbpr-plus/family.js';
import { acmt023Document } from '../iso20022/acmt023.js';
import { cancellationReason } from '../iso20022/camt056.js';
import type { SchemeFamily } from '../iso20022/connector.js';
import { isoDateTime, mapCreditTransfer, pacs008Document } from '../iso20022/pacs008.js';
import { pain013Document } from '../iso20022/pain013.js';
import { PartyMapper, Problems } from '../iso20022/parties.js';
import { writeDocument } from '../iso20022/xml.js';
import { TCIB } from '../tcib/family.js';
import { ZA_EFT } from '../za-eft/family.js';
import { ZA_RPP } from '../za-rpp/family.js';
import { ZA_RTC } from '../za-rtc/family.js';
import { INBOUND_CURRENCY, SIMULATED_BANK, SIMULATED_PAYEE, SIMULATED_PAYER, type CheckedOrder } from './inbound-values.js';

/**
 * The documents the simulated operator originates for an integrator's institution (the receiving
 * direction), written by the same iso20022 writers regpay's connector uses for the sending
 * direction: the operator builds the port objects they take (an OutboundLookup, OutboundTransfer,
 * OutboundRequestToPay) as the other bank would have them. The camt.056 is written here, because
 * the connector's writer derives its ids from regpay's idempotency keys, which the operator's
 * messages do not have: its ids start with `S` (never regpay's reversible `U`/`K` forms).
 */

/** Every family (as the registry lists them; the registry itself is not imported: it imports the simulator). */
const FAMILIES: readonly SchemeFamily[] = [ZA_RTC, ZA_RPP, ZA_EFT, CBPR_PLUS, TCIB];

/** The message versions a scheme's operator originates in: its family's. */
export interface InboundMessages {
  readonly family: SchemeFamily;
  readonly lookup: string | undefined;
  readonly requestToPay: string | undefined;
  readonly withdrawal: string | undefined;
}

export function inboundMessagesOf(scheme: SchemeName): InboundMessages | undefined {
  const family = FAMILIES.find((candidate) => candidate.schemes.includes(scheme));
  if (family === undefined) return undefined;
  return {
    family,
    lookup: family.messages.identifierDetermination?.request,
    requestToPay: family.messages.requestToPay?.request,
    withdrawal: family.messages.requestToPay?.cancellation,
  };
}

/** Who the operator is, in the port objects: no integrator of regpay's. */
const ORIGINATOR = 'scheme-simulator';

export interface Written {
  readonly ok: true;
  readonly document: string;
}
export type WriteResult = Written | { readonly ok: false; readonly error: string };

export interface DocumentHeader {
  readonly scheme: SchemeName;
  readonly messageId: string;
  readonly createdAt: number;
  readonly uetr: string;
}

/** The acmt.023 asking the institution who is behind the order's proxy (or account). */
export function inboundLookupDocument(header: DocumentHeader, order: CheckedOrder, messages: InboundMessages): WriteResult {
  if (messages.lookup === undefined) return { ok: false, error: `${header.scheme} has no identifier determination` };
  const institution = institutionOf(order);
  const identifier =
    order.proxy === undefined
      ? { schema: 'GENERIC' as const, value: order.accountNumber ?? '' }
      : { schema: order.proxy.schema, value: order.proxy.value, ...(order.proxy.namespace === undefined ? {} : { namespace: order.proxy.namespace }) };
  const message = {
    schema: 'IdentifierDeterminationRequest',
    messageIdentifiers: { messageIdentification: header.messageId, creationDateTime: isoDateTime(header.createdAt) },
    request: {
      schema: header.scheme,
      instructingAgent: simulatedBank(),
      instructedAgent: institution,
      requestor: { schema: 'INSTITUTION_IDENTIFICATION', bicfi: SIMULATED_BANK.bicfi, memberId: SIMULATED_BANK.memberId, name: SIMULATED_BANK.name },
      identifier,
      ...(order.proxy === undefined && order.institution.bicfi !== undefined ? { accountAgent: { bicfi: order.institution.bicfi } } : {}),
      uetr: header.uetr,
      verificationIdentification: header.messageId,
    },
  } as IdentifierDeterminationRequest;
  const lookup: OutboundLookup = { ...portIds(header), message, traceparent: null };
  const { memberIdSystem, clearingSystem } = messages.family.messages.creditTransfer;
  const written = acmt023Document({ messageId: header.messageId, createdAt: isoDateTime(header.createdAt) }, lookup, {
    messageName: messages.lookup,
    ...(memberIdSystem === undefined ? {} : { memberIdSystem }),
    ...(clearingSystem === undefined ? {} : { clearingSystem }),
  });
  return written.ok ? written : { ok: false, error: `${written.reasonCode}: ${written.reasonText}` };
}

/** What a credit pays: the order's account, or the one its lookup resolved to, with the names the lookup gave. */
export interface CreditPayee {
  readonly accountNumber?: string;
  readonly knownAsName?: string;
  readonly legalName?: string;
}

/** The pacs.008 paying the institution's customer. */
export function inboundCreditDocument(header: DocumentHeader, order: CheckedOrder, payee: CreditPayee, messages: InboundMessages): WriteResult {
  const settings = messages.family.messages.creditTransfer;
  const amount = moneyOf(order.amount);
  const creditorAccount: PaymentAccount = {
    ...(payee.accountNumber === undefined ? {} : { identification: { schema: 'GENERIC', value: payee.accountNumber } }),
    ...(order.proxy === undefined ? {} : { proxy: { schema: order.proxy.schema, value: order.proxy.value, ...(order.proxy.namespace === undefined ? {} : { namespace: order.proxy.namespace }) } }),
  };
  const name = payee.legalName ?? payee.knownAsName ?? order.customerName ?? 'Customer';
  const message = {
    schema: 'CreditTransfer',
    messageIdentifiers: { messageIdentification: header.messageId, creationDateTime: isoDateTime(header.createdAt) },
    transactionIdentifiers: { endToEndIdentification: header.messageId, instructionIdentification: header.messageId, transactionIdentification: header.messageId, uetr: header.uetr },
    amounts: { bankSettlementAmount: amountJson(order.amount) },
    creditor: { legalName: name, ...(payee.knownAsName === undefined ? {} : { knownAsName: payee.knownAsName }) },
    creditorAccount,
    creditorAgent: institutionOf(order),
    debtor: { legalName: order.payerName },
    debtorAccount: { identification: { schema: 'GENERIC', value: SIMULATED_PAYER.account } },
    debtorAgent: simulatedBank(),
    instructingAgent: simulatedBank(),
    instructedAgent: institutionOf(order),
    // CBPR+ asks the charge bearer of the integrator's message; every other family fixes it.
    paymentScheme: { schema: header.scheme, ...(settings.chargeBearer === 'schemeData' ? { schemeData: { chargeBearer: 'SHAR' } } : {}) },
    ...(header.scheme === 'ZA_RPP' ? { paymentTypeInformation: { localInstrument: { schema: 'PROPRIETARY', value: order.proxy === undefined ? 'PBA' : 'PBPX' } } } : {}),
    ...(order.remittance === undefined ? {} : { remittanceInformation: { unstructured: [order.remittance] } }),
  } as CreditTransfer;
  const transfer: OutboundTransfer = { ...portIds(header), message, amount, traceparent: null };
  const mapped = mapCreditTransfer(transfer, settings);
  if (!mapped.ok) return { ok: false, error: `${mapped.reasonCode}: ${mapped.reasonText}` };
  return { ok: true, document: pacs008Document({ messageId: header.messageId, createdAt: isoDateTime(header.createdAt) }, mapped.transaction, settings) };
}

/** The pain.013 a payee at the simulated bank sends the institution's customer. */
export function inboundRequestToPayDocument(header: DocumentHeader & { readonly expiresAt: number }, order: CheckedOrder, messages: InboundMessages): WriteResult {
  if (messages.requestToPay === undefined) return { ok: false, error: `${header.scheme} has no request-to-pay` };
  const debtorAccount: PaymentAccount = {
    ...(order.accountNumber === undefined ? {} : { identification: { schema: 'GENERIC', value: order.accountNumber } }),
    ...(order.proxy === undefined ? {} : { proxy: { schema: order.proxy.schema, value: order.proxy.value, ...(order.proxy.namespace === undefined ? {} : { namespace: order.proxy.namespace }) } }),
  };
  const conditions = {
    ...(order.minAmount === undefined ? {} : { minAmount: amountJson(order.minAmount) }),
    ...(order.maxAmount === undefined ? {} : { maxAmount: amountJson(order.maxAmount) }),
  };
  const message = {
    schema: 'RequestToPay',
    messageIdentifiers: { messageIdentification: header.messageId, creationDateTime: isoDateTime(header.createdAt) },
    transactionIdentifiers: { endToEndIdentification: header.messageId, transactionIdentification: header.messageId, uetr: header.uetr },
    paymentScheme: { schema: header.scheme },
    amounts: { bankSettlementAmount: amountJson(order.amount) },
    paymentTypeInformation: { localInstrument: { schema: 'PROPRIETARY', value: order.proxy === undefined ? 'PBA' : 'PBPX' } },
    expiryDateTime: isoDateTime(header.expiresAt),
    ...(Object.keys(conditions).length === 0 ? {} : { requestToPayConditions: conditions }),
    creditor: { legalName: SIMULATED_PAYEE.name },
    creditorAccount: { identification: { schema: 'GENERIC', value: SIMULATED_PAYEE.account } },
    creditorAgent: simulatedBank(),
    debtor: { legalName: order.customerName ?? 'Customer' },
    debtorAccount,
    debtorAgent: institutionOf(order),
    ...(order.remittance === undefined ? {} : { remittanceInformation: { unstructured: [order.remittance] } }),
  } as RequestToPay;
  const request: OutboundRequestToPay = { ...portIds(header), message, amount: moneyOf(order.amount), expiresAt: header.expiresAt, traceparent: null };
  const { memberIdSystem } = messages.family.messages.creditTransfer;
  const written = pain013Document({ messageId: header.messageId, createdAt: isoDateTime(header.createdAt) }, request, {
    messageName: messages.requestToPay,
    ...(memberIdSystem === undefined ? {} : { memberIdSystem }),
  });
  return written.ok ? written : { ok: false, error: `${written.reasonCode}: ${written.reasonText}` };
}

/** The request-to-pay a withdrawal names, as the pain.013 wrote it. */
export interface WithdrawnRequest {
  readonly messageId: string;
  readonly messageName: string;
  readonly instructionId: string;
  readonly endToEndId: string;
  readonly uetr: string;
}

/**
 * The camt.056 withdrawing a request-to-pay: the payee's bank (the simulated bank) is the assigner
 * and the case's creator, the institution (the debtor's bank) the assignee. Case/Id, Assgnmt/Id and
 * CxlId are the operator's `caseId`; OrgnlGrpInf names the pain.013.
 */
export function inboundWithdrawalDocument(
  header: { readonly scheme: SchemeName; readonly caseId: string; readonly createdAt: number },
  order: CheckedOrder,
  request: WithdrawnRequest,
  reasonCode: string,
  messages: InboundMessages,
): WriteResult {
  if (messages.withdrawal === undefined) return { ok: false, error: `${header.scheme} has no request-to-pay cancellation` };
  const { memberIdSystem } = messages.family.messages.creditTransfer;
  const problems = new Problems();
  const parts = new PartyMapper({ ...(memberIdSystem === undefined ? {} : { memberIdSystem }), accountWithoutNumber: true }, problems);
  const payeeBank = parts.requiredAgent(simulatedBank(), 'creditorAgent');
  const debtorBank = parts.requiredAgent(institutionOf(order), 'debtorAgent');
  if (problems.first !== undefined || payeeBank === undefined || debtorBank === undefined) return { ok: false, error: problems.first?.reasonText ?? 'no agent to address' };
  const document = writeDocument(messages.withdrawal, 'FIToFIPmtCxlReq', {
    Assgnmt: { Id: header.caseId, Assgnr: { Agt: payeeBank }, Assgne: { Agt: debtorBank }, CreDtTm: isoDateTime(header.createdAt) },
    Case: { Id: header.caseId, Cretr: { Agt: payeeBank } },
    Undrlyg: {
      TxInf: {
        CxlId: header.caseId,
        OrgnlGrpInf: { OrgnlMsgId: request.messageId, OrgnlMsgNmId: request.messageName },
        OrgnlInstrId: request.instructionId,
        OrgnlEndToEndId: request.endToEndId,
        OrgnlUETR: request.uetr,
        CxlRsnInf: { Rsn: cancellationReason(reasonCode) },
      },
    },
  });
  return { ok: true, document };
}

/** The institution as the integrator API names an agent. */
function institutionOf(order: CheckedOrder): InstitutionIdentification {
  const { bicfi, memberId } = order.institution;
  return { ...(bicfi === undefined ? {} : { bicfi }), ...(memberId === undefined ? {} : { clearingSystemMemberId: { memberId } }) };
}

function simulatedBank(): InstitutionIdentification {
  return { bicfi: SIMULATED_BANK.bicfi, clearingSystemMemberId: { memberId: SIMULATED_BANK.memberId } };
}

/** The port objects' ids: the operator's message id stands for the key regpay would derive them from. */
function portIds(header: DocumentHeader): { transactionId: string; integratorId: string; scheme: SchemeName; uetr: string; idempotencyKey: string } {
  return { transactionId: header.uetr, integratorId: ORIGINATOR, scheme: header.scheme, uetr: header.uetr, idempotencyKey: header.messageId };
}

/** An Amount of the integrator API from decimal text, its literal kept (numberText), so the writers judge the text, never a float. */
function amountJson(text: string): Amount {
  const parsed = parseJson(`{"currency":"${INBOUND_CURRENCY}","value":${text}}`);
  if (!parsed.ok) throw new Error(`an order's amount ${text} was checked, yet is no JSON number`);
  return parsed.value as Amount;
}

function moneyOf(text: string): Money {
  const parsed = parseAmount(text, INBOUND_CURRENCY);
  if (!parsed.ok) throw new Error(`an order's amount ${text} was checked, yet does not parse: ${parsed.reason}`);
  return parsed.money;
}
