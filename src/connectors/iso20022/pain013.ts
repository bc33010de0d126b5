import type { OutboundRequestToPay } from '../../ports/scheme.js';
import { Carried, supplementElement } from './supplement.js';
import { moneyOf } from '../../domain/messages/validate.js';
import { MAX35, schemeMessageId } from './ids.js';
import { PartyMapper, Problems } from './parties.js';
import { amountElement, isoAmountFits, isoDateTime, refuseUnwritable } from './pacs008.js';
import { child, readDocument, text, writeDocument, type IsoDocument, type XmlElement } from './xml.js';

/**
 * CreditorPaymentActivationRequest (pain.013.001.09): a request-to-pay as the scheme sees it. The
 * creditor (the integrator's customer) asks the debtor, named by account or proxy, to pay. One
 * message carries one payment information block (`PmtInf`) with one transaction (`CdtTrfTx`):
 *
 * - `GrpHdr/MsgId` = `PmtInf/PmtInfId` = schemeMessageId(idempotencyKey): the same on every resend,
 *   so the operator de-duplicates it, and reversible, so its status reports (pain.014, naming it
 *   as `OrgnlMsgId`) lead back to the request even after a restart; `GrpHdr/InitgPty` is the creditor;
 * - `PmtInf/PmtMtd` TRF; `PmtTpInf/LclInstrm/Prtry` the PayShap local instrument (PBPX, PBA...);
 *   `ReqdExctnDt/DtTm` the creation time (pay at once); `XpryDt/DtTm` the request's expiry;
 * - `PmtCond`: `AmtModAllwd` true when requestToPayConditions let the debtor pay another amount
 *   than the one requested, `EarlyPmtAllwd` true, `GrntedPmtReqd` false;
 * - `Dbtr`, `DbtrAcct` (account number as `Id/Othr/Id` and/or proxy as `Prxy`, `Tp/Prtry` =
 *   `<schema>:<namespace>`), `DbtrAgt` (the debtor's bank; `FinInstnId/Othr/Id` NOTPROVIDED when
 *   the request names the debtor by proxy only: the operator resolves the proxy);
 * - `CdtTrfTx/PmtId`: `InstrId` the integrator's transactionIdentification (else the MsgId),
 *   `EndToEndId`, `UETR`; `Amt/InstdAmt` the amount requested, written exactly from minor units;
 *   `ChrgBr` SLEV; `CdtrAgt`, `Cdtr`, `CdtrAcct`; `RmtInf`;
 * - the least and the most the debtor may pay (requestToPayConditions) have no element in
 *   pain.013.001.09: they travel in `CdtTrfTx/SplmtryData/Envlp/RtpSplmtryData` (`MinAmt`,
 *   `MaxAmt`, each with `Ccy`), in regpay's namespace RTP_SUPPLEMENT_NAMESPACE.
 */

export const PAIN013_VERSION = 'pain.013.001.09';

/** Namespace of the supplementary data regpay writes into a pain.013 (docs/connectors.md). */
export const RTP_SUPPLEMENT_NAMESPACE = 'urn:regpay:xsd:rtp.splmtrydata.01';
export const RTP_SUPPLEMENT = 'RtpSplmtryData';

/** FinInstnId/Othr/Id of an agent the request cannot name (a debtor named by proxy only): the ISO usage for "not known". */
export const AGENT_NOT_PROVIDED = 'NOTPROVIDED';

/** What a family fixes in the pain.013 it writes. */
export interface Pain013Settings {
  readonly messageName: string;
  /** ClrSysMmbId/ClrSysId/Cd written beside member ids, e.g. ZANCC. */
  readonly memberIdSystem?: string;
}

export interface Pain013Header {
  readonly messageId: string;
  /** ISO date-time with offset. */
  readonly createdAt: string;
}

export type Pain013Result =
  | { readonly ok: true; readonly document: string }
  | { readonly ok: false; readonly reasonCode: string; readonly reasonText: string; readonly field?: string };

/** The pain.013 document for a request-to-pay, or why the scheme message cannot carry it (a reason code). */
export function pain013Document(header: Pain013Header, request: OutboundRequestToPay, settings: Pain013Settings): Pain013Result {
  const message = request.message;
  const amountField = '/amounts/bankSettlementAmount/value';
  if (request.amount.minor <= 0n) return { ok: false, reasonCode: 'AM01', reasonText: 'the amount requested must be above zero', field: amountField };
  if (!isoAmountFits(request.amount)) return { ok: false, reasonCode: 'AM02', reasonText: 'more than the 18 digits an ISO 20022 amount carries', field: amountField };
  const problems = new Problems();
  const carried = new Carried();
  const parts = new PartyMapper({ ...(settings.memberIdSystem === undefined ? {} : { memberIdSystem: settings.memberIdSystem }), accountWithoutNumber: true }, problems, carried);
  const ids = message.transactionIdentifiers;
  const creditor = parts.requiredParty(message.creditor, 'creditor');
  const creditorAgent = parts.requiredAgent(message.creditorAgent, 'creditorAgent');
  const creditorAccount = parts.account(message.creditorAccount, 'creditorAccount');
  const debtor = parts.requiredParty(message.debtor, 'debtor');
  const debtorAccount = parts.account(message.debtorAccount, 'debtorAccount');
  const debtorAgent = message.debtorAgent === undefined ? { FinInstnId: { Othr: { Id: AGENT_NOT_PROVIDED } } } : parts.requiredAgent(message.debtorAgent, 'debtorAgent');
  // Amt holds one amount, the one requested (bankSettlementAmount); an instructed amount travels in the supplement.
  carried.add('/amounts/instructedAmount', message.amounts.instructedAmount);
  const remittance = parts.remittance(message.remittanceInformation, carried);
  carried.add('/supplementaryData', message.supplementaryData);
  refuseUnwritable(carried, problems);
  const transaction: XmlElement = {
    PmtId: {
      InstrId: instructionId(ids.transactionIdentification, header.messageId),
      EndToEndId: ids.endToEndIdentification,
      UETR: request.uetr.toLowerCase(),
    },
    Amt: { InstdAmt: amountElement(request.amount) },
    ChrgBr: 'SLEV',
    CdtrAgt: creditorAgent,
    Cdtr: creditor,
    CdtrAcct: creditorAccount,
    RmtInf: remittance,
    SplmtryData: [conditions(request), supplementElement('CdtrPmtActvtnReq/PmtInf/CdtTrfTx', carried)],
  };
  const paymentInformation: XmlElement = {
    PmtInfId: header.messageId,
    PmtMtd: 'TRF',
    PmtTpInf: { LclInstrm: { Prtry: message.paymentTypeInformation.localInstrument.value } },
    ReqdExctnDt: { DtTm: header.createdAt },
    XpryDt: { DtTm: isoDateTime(request.expiresAt) },
    PmtCond: { AmtModAllwd: amountMayDiffer(request) ? 'true' : 'false', EarlyPmtAllwd: 'true', GrntedPmtReqd: 'false' },
    Dbtr: debtor,
    DbtrAcct: debtorAccount,
    DbtrAgt: debtorAgent,
    CdtTrfTx: transaction,
  };
  if (problems.first !== undefined) return { ok: false, ...problems.first };
  const document = writeDocument(settings.messageName, 'CdtrPmtActvtnReq', {
    GrpHdr: { MsgId: header.messageId, CreDtTm: header.createdAt, NbOfTxs: '1', InitgPty: creditor },
    PmtInf: paymentInformation,
  });
  return { ok: true, document };
}

/** The MsgId of the pain.013 for a request: derived from its idempotency key, the same on every resend. */
export function requestToPayMessageId(request: OutboundRequestToPay): string {
  return schemeMessageId(request.idempotencyKey);
}

/** PmtId/InstrId: the integrator's transactionIdentification when it fits Max35Text, else the message id. */
export function instructionId(transactionIdentification: string | undefined, messageId: string): string {
  return transactionIdentification !== undefined && transactionIdentification !== '' && [...transactionIdentification].length <= MAX35 ? transactionIdentification : messageId;
}

/** Whether the conditions let the debtor pay an amount other than the one requested. */
function amountMayDiffer(request: OutboundRequestToPay): boolean {
  const { minAmount, maxAmount } = request.message.requestToPayConditions ?? {};
  const differs = (bound: typeof minAmount): boolean => bound !== undefined && moneyOf(bound).minor !== request.amount.minor;
  return differs(minAmount) || differs(maxAmount);
}

/** CdtTrfTx/SplmtryData carrying the conditions, or undefined when the request has none (an empty envelope is invalid). */
function conditions(request: OutboundRequestToPay): XmlElement | undefined {
  const { minAmount, maxAmount } = request.message.requestToPayConditions ?? {};
  if (minAmount === undefined && maxAmount === undefined) return undefined;
  return {
    PlcAndNm: 'CdtrPmtActvtnReq/PmtInf/CdtTrfTx',
    Envlp: {
      [RTP_SUPPLEMENT]: {
        '@_xmlns': RTP_SUPPLEMENT_NAMESPACE,
        MinAmt: minAmount === undefined ? undefined : amountElement(moneyOf(minAmount)),
        MaxAmt: maxAmount === undefined ? undefined : amountElement(moneyOf(maxAmount)),
      },
    },
  };
}

/** A pain.013 as the operator reads it (the simulator). */
export interface Pain013Request {
  readonly messageName: string;
  readonly messageId: string;
  readonly createdAt: string | undefined;
  readonly paymentInformationId: string | undefined;
  readonly instructionId: string | undefined;
  readonly endToEndId: string;
  readonly uetr: string | undefined;
  /** Amt/InstdAmt as written, and its currency. */
  readonly amount: string;
  readonly currency: string;
  /** XpryDt (DtTm, or Dt). */
  readonly expiry: string | undefined;
  /** DbtrAcct/Id: Othr/Id or IBAN. */
  readonly debtorAccount: string | undefined;
  /** DbtrAcct/Prxy: its Id, and its type (Tp/Prtry or Tp/Cd). */
  readonly debtorProxy: { readonly type: string | undefined; readonly value: string } | undefined;
  /** CdtrAgt and DbtrAgt as read, for answers to echo. */
  readonly creditorAgent: XmlElement | undefined;
  readonly debtorAgent: XmlElement | undefined;
  /** The supplementary MinAmt and MaxAmt as written (decimal text and currency). */
  readonly minAmount: { readonly value: string; readonly currency: string } | undefined;
  readonly maxAmount: { readonly value: string; readonly currency: string } | undefined;
}

export type ReadPain013Result = { readonly ok: true; readonly value: Pain013Request } | { readonly ok: false; readonly error: string };

export function readPain013(xml: string): ReadPain013Result {
  const document = readDocument(xml);
  return document.ok ? pain013From(document) : document;
}

/** readPain013 of a document already parsed. The first transaction of the first PmtInf is read: regpay sends one per message. */
export function pain013From(document: IsoDocument): ReadPain013Result {
  if (!document.messageName.startsWith('pain.013.') || document.root !== 'CdtrPmtActvtnReq') return { ok: false, error: `not a pain.013: ${document.messageName}` };
  const body = document.body;
  const payment = child(body, 'PmtInf');
  const transaction = child(payment, 'CdtTrfTx');
  const messageId = text(body, 'GrpHdr', 'MsgId');
  const endToEndId = text(transaction, 'PmtId', 'EndToEndId');
  const amount = text(transaction, 'Amt', 'InstdAmt');
  const currency = child(transaction, 'Amt', 'InstdAmt')?.['@_Ccy'];
  if (messageId === undefined || endToEndId === undefined || amount === undefined || typeof currency !== 'string') {
    return { ok: false, error: 'pain.013 lacks MsgId, CdtTrfTx/PmtId/EndToEndId or Amt/InstdAmt' };
  }
  const proxy = text(payment, 'DbtrAcct', 'Prxy', 'Id');
  const supplement = child(transaction, 'SplmtryData', 'Envlp', RTP_SUPPLEMENT);
  return {
    ok: true,
    value: {
      messageName: document.messageName,
      messageId,
      createdAt: text(body, 'GrpHdr', 'CreDtTm'),
      paymentInformationId: text(payment, 'PmtInfId'),
      instructionId: text(transaction, 'PmtId', 'InstrId'),
      endToEndId,
      uetr: text(transaction, 'PmtId', 'UETR'),
      amount,
      currency,
      expiry: text(payment, 'XpryDt', 'DtTm') ?? text(payment, 'XpryDt', 'Dt'),
      debtorAccount: text(payment, 'DbtrAcct', 'Id', 'Othr', 'Id') ?? text(payment, 'DbtrAcct', 'Id', 'IBAN'),
      debtorProxy: proxy === undefined ? undefined : { type: text(payment, 'DbtrAcct', 'Prxy', 'Tp', 'Prtry') ?? text(payment, 'DbtrAcct', 'Prxy', 'Tp', 'Cd'), value: proxy },
      creditorAgent: child(transaction, 'CdtrAgt'),
      debtorAgent: child(payment, 'DbtrAgt'),
      minAmount: amountOf(supplement, 'MinAmt'),
      maxAmount: amountOf(supplement, 'MaxAmt'),
    },
  };
}

function amountOf(node: XmlElement | undefined, tag: string): { readonly value: string; readonly currency: string } | undefined {
  const value = text(node, tag);
  const currency = child(node, tag)?.['@_Ccy'];
  return value === undefined || typeof currency !== 'string' ? undefined : { value, currency };
}
