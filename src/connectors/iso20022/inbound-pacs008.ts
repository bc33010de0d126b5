import { validateCreditTransfer } from '../../domain/messages/validate.js';
import type { SchemeName } from '../../domain/schemes.js';
import { inboundTransactionId } from '../../lib/inbound-id.js';
import { lowerUetr, originalOf, validatedJson, type InboundRead } from './inbound.js';
import { accountJson, agentJson, amountJson, codeJson, institutionOf, partyJson, remittanceJson, texts, type JsonObject } from './inbound-parties.js';
import { compact, JsonDecimal, type JsonValue } from './json-text.js';
import { child, children, readDocument, text, type XmlElement } from './xml.js';

/**
 * A pacs.008 the scheme originates for an integrator's institution (its creditor agent), read
 * into the integrator API's CreditTransfer: the reverse of pacs008.ts and parties.ts. Versions
 * .08, .10 and .12 share every element read here.
 *
 * - messageIdentifiers: GrpHdr/MsgId and CreDtTm; transactionIdentifiers: PmtId (EndToEndId,
 *   InstrId, TxId, UETR lowercased). A pacs.008 without UETR (RTC credits may carry none) is given
 *   the inbound transaction id as uetr (a UUID in form, derived from the MsgId): the interface
 *   requires one; the answers still carry no OrgnlUETR, as the original had none;
 * - amounts: IntrBkSttlmAmt and InstdAmt, each value the exact decimal literal of the document;
 * - parties, accounts, agents, purpose, local instrument, remittance, regulatory reporting and
 *   settlement date as parties.ts writes them; ChrgBr, XchgRate and ChrgsInf as
 *   paymentScheme.schemeData (chargeBearer, exchangeRate, charges);
 * - paymentScheme.schema: the scheme the connector serves.
 *
 * One transaction per message: a pacs.008 with NbOfTxs above 1 (or more than one CdtTrfTxInf) is
 * refused as a whole with AM18 (number of transactions invalid), since each credit to an
 * integrator is authorised on its own.
 */

/** What an answer (pacs.002) to an inbound pacs.008 repeats beyond its SchemeOriginal: whether it refuses the whole message. */
export interface CreditContext {
  /** NbOfTxs as written, for a refusal of the whole message. */
  readonly transactionCount: string | undefined;
  /** The refusal is about the group (OrgnlGrpInfAndSts), not one transaction. */
  readonly wholeMessage: boolean;
}

export const MULTIPLE_TRANSACTIONS_REASON = 'AM18';

export function readInboundPacs008(xml: string, scheme: SchemeName): InboundRead<CreditContext> {
  const document = readDocument(xml);
  if (!document.ok) return { kind: 'unreadable', error: document.error };
  if (!document.messageName.startsWith('pacs.008.') || document.root !== 'FIToFICstmrCdtTrf') return { kind: 'unreadable', error: `not a pacs.008: ${document.messageName}` };
  const body = document.body;
  const messageId = text(body, 'GrpHdr', 'MsgId');
  if (messageId === undefined) return { kind: 'unreadable', error: 'pacs.008 lacks GrpHdr/MsgId' };
  const createdAt = text(body, 'GrpHdr', 'CreDtTm');
  const transactionCount = text(body, 'GrpHdr', 'NbOfTxs');
  const transactions = children(body, 'CdtTrfTxInf');
  const transaction = transactions[0];
  const original = originalOf({
    messageId,
    messageName: document.messageName,
    createdAt,
    instructionId: text(transaction, 'PmtId', 'InstrId'),
    endToEndId: text(transaction, 'PmtId', 'EndToEndId'),
    transactionId: text(transaction, 'PmtId', 'TxId'),
    uetr: lowerUetr(text(transaction, 'PmtId', 'UETR')),
  });
  if (transactions.length > 1 || (transactionCount !== undefined && transactionCount !== '1')) {
    return {
      kind: 'refused',
      original,
      reasonCode: MULTIPLE_TRANSACTIONS_REASON,
      // The transactions found when there are several (NbOfTxs may say 1); else NbOfTxs, which is not 1.
      reasonText: `${transactions.length > 1 ? transactions.length : transactionCount} transactions in one message; one per message is taken`,
      context: { transactionCount, wholeMessage: true },
    };
  }
  const context: CreditContext = { transactionCount, wholeMessage: false };
  if (transaction === undefined) return { kind: 'refused', original, reasonCode: 'CH21', reasonText: 'CdtTrfTxInf is missing', context };
  const uetr = original.uetr ?? inboundTransactionId(scheme, document.messageName, messageId);
  const mapped = validatedJson(creditTransferJson(body, transaction, scheme, uetr), validateCreditTransfer);
  if (!mapped.ok) return { kind: 'refused', original, reasonCode: mapped.reasonCode, reasonText: mapped.reasonText, context };
  return { kind: 'mapped', original, institution: institutionOf(child(transaction, 'CdtrAgt')), bodyJson: mapped.json, context };
}

function creditTransferJson(body: XmlElement, transaction: XmlElement, scheme: SchemeName, uetr: string): JsonObject {
  const agents = (...tags: string[]): JsonValue[] | undefined => {
    const list = tags.map((tag) => agentJson(child(transaction, tag))).filter((agent) => agent !== undefined);
    return list.length === 0 ? undefined : list;
  };
  const instructions = children(transaction, 'InstrForCdtrAgt').map((item) => compact({ code: text(item, 'Cd'), information: text(item, 'InstrInf') })).filter((item) => item !== undefined);
  const reporting = children(transaction, 'RgltryRptg').map(regulatoryReportingJson).filter((item) => item !== undefined);
  const localInstrument = codeJson(child(transaction, 'PmtTpInf', 'LclInstrm'));
  return {
    schema: 'CreditTransfer',
    messageIdentifiers: { messageIdentification: text(body, 'GrpHdr', 'MsgId'), creationDateTime: text(body, 'GrpHdr', 'CreDtTm') },
    transactionIdentifiers: compact({
      endToEndIdentification: text(transaction, 'PmtId', 'EndToEndId'),
      instructionIdentification: text(transaction, 'PmtId', 'InstrId'),
      transactionIdentification: text(transaction, 'PmtId', 'TxId'),
      uetr,
    }),
    amounts: compact({ bankSettlementAmount: amountJson(transaction, 'IntrBkSttlmAmt'), instructedAmount: amountJson(transaction, 'InstdAmt') }),
    creditor: partyJson(child(transaction, 'Cdtr')),
    creditorAccount: accountJson(child(transaction, 'CdtrAcct')),
    creditorAgent: agentJson(child(transaction, 'CdtrAgt')),
    creditorAgentAccount: accountJson(child(transaction, 'CdtrAgtAcct')),
    debtor: partyJson(child(transaction, 'Dbtr')),
    debtorAccount: accountJson(child(transaction, 'DbtrAcct')),
    debtorAgent: agentJson(child(transaction, 'DbtrAgt')),
    debtorAgentAccount: accountJson(child(transaction, 'DbtrAgtAcct')),
    initiatingParty: partyJson(child(transaction, 'InitgPty')),
    instructedAgent: agentJson(child(transaction, 'InstdAgt')),
    instructingAgent: agentJson(child(transaction, 'InstgAgt')),
    instructionForCreditorAgent: instructions.length === 0 ? undefined : instructions,
    intermediaryAgents: agents('IntrmyAgt1', 'IntrmyAgt2', 'IntrmyAgt3'),
    previousInstructingAgents: agents('PrvsInstgAgt1', 'PrvsInstgAgt2', 'PrvsInstgAgt3'),
    paymentScheme: compact({ schema: scheme, schemeData: schemeDataJson(transaction) }),
    paymentTypeInformation: localInstrument === undefined ? undefined : { localInstrument },
    purpose: codeJson(child(transaction, 'Purp')),
    regulatoryReporting: reporting.length === 0 ? undefined : reporting,
    remittanceInformation: remittanceJson(child(transaction, 'RmtInf')),
    settlementDate: text(transaction, 'IntrBkSttlmDt'),
  };
}

/** ChrgBr, XchgRate and ChrgsInf, where pacs008.ts takes them from (paymentScheme.schemeData). */
function schemeDataJson(transaction: XmlElement): JsonObject | undefined {
  const rate = text(transaction, 'XchgRate');
  const charges = children(transaction, 'ChrgsInf').map((charge) => compact({ amount: amountJson(charge, 'Amt'), agent: agentJson(child(charge, 'Agt')) })).filter((item) => item !== undefined);
  return compact({
    chargeBearer: text(transaction, 'ChrgBr'),
    charges: charges.length === 0 ? undefined : charges,
    exchangeRate: rate === undefined ? undefined : JsonDecimal.of(rate),
  });
}

function regulatoryReportingJson(entry: XmlElement): JsonValue {
  const details = children(entry, 'Dtls').map((detail) => {
    const information = texts(detail, 'Inf');
    return compact({
      type: text(detail, 'Tp'),
      date: text(detail, 'Dt'),
      country: text(detail, 'Ctry'),
      code: text(detail, 'Cd'),
      amount: amountJson(detail, 'Amt'),
      information: information.length === 0 ? undefined : information,
    });
  }).filter((item) => item !== undefined);
  return compact({
    debitCreditReportingIndicator: text(entry, 'DbtCdtRptgInd'),
    authority: compact({ name: text(entry, 'Authrty', 'Nm'), country: text(entry, 'Authrty', 'Ctry') }),
    details: details.length === 0 ? undefined : details,
  });
}
