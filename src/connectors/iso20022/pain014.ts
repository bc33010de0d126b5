import { readReason, type ReadReason } from './reason-codes.js';
import { child, children, readDocument, text, writeDocument, type XmlElement } from './xml.js';
import { cutAtWord } from '../../lib/text.js';

/**
 * CreditorPaymentActivationRequestStatusReport (pain.014.001.09): the scheme's report on a
 * request-to-pay (pain.013), one per status change. It names the request by its message
 * (`OrgnlGrpInfAndSts/OrgnlMsgId`, the pain.013 MsgId, from which the connector recovers the
 * request's idempotency key without any memory) and by its transaction
 * (`OrgnlPmtInfAndSts/TxInfAndSts`: `OrgnlEndToEndId`, `OrgnlUETR`), with the status in `TxSts`
 * (PDNG, PRES, ACCP, ACSC, RJCT; CONTRACT §10) and, on rejection, the reason in
 * `StsRsnInf/Rsn/Cd` and `AddtlInf`.
 */

/** The request-to-pay a report is about, as its pain.013 named it. */
export interface OriginalRequestToPay {
  readonly messageId: string;
  readonly messageName: string;
  readonly createdAt?: string;
  /** PmtInf/PmtInfId of the pain.013. */
  readonly paymentInformationId: string;
  readonly instructionId?: string;
  readonly endToEndId?: string;
  readonly uetr?: string;
}

export interface Pain014Input {
  readonly messageName: string;
  readonly messageId: string;
  readonly createdAt: string;
  /** GrpHdr/InitgPty (PartyIdentification135): who reports, e.g. the operator. */
  readonly initiatingParty: XmlElement;
  readonly original: OriginalRequestToPay;
  /** TxSts, e.g. PDNG, PRES, ACCP, ACSC, RJCT. */
  readonly status: string;
  readonly reasonCode?: string;
  /** AddtlInf is Max105Text. */
  readonly additionalInformation?: string;
  /** AccptncDtTm: when the payer accepted or paid. */
  readonly acceptedAt?: string;
}

const ADDITIONAL_INFORMATION_CHARS_MAX = 105;

export function pain014Document(input: Pain014Input): string {
  const { original } = input;
  return writeDocument(input.messageName, 'CdtrPmtActvtnReqStsRpt', {
    GrpHdr: { MsgId: input.messageId, CreDtTm: input.createdAt, InitgPty: input.initiatingParty },
    OrgnlGrpInfAndSts: { OrgnlMsgId: original.messageId, OrgnlMsgNmId: original.messageName, OrgnlCreDtTm: original.createdAt },
    OrgnlPmtInfAndSts: {
      OrgnlPmtInfId: original.paymentInformationId,
      TxInfAndSts: {
        OrgnlInstrId: original.instructionId,
        OrgnlEndToEndId: original.endToEndId,
        OrgnlUETR: original.uetr,
        TxSts: input.status,
        StsRsnInf:
          input.reasonCode === undefined && input.additionalInformation === undefined
            ? undefined
            : {
                Rsn: input.reasonCode === undefined ? undefined : { Cd: input.reasonCode },
                AddtlInf: input.additionalInformation === undefined ? undefined : cutAtWord(input.additionalInformation, ADDITIONAL_INFORMATION_CHARS_MAX),
              },
        AccptncDtTm: input.acceptedAt,
      },
    },
  });
}

/** One transaction's status as read from a report. */
export interface RequestToPayStatus {
  readonly originalEndToEndId: string | undefined;
  readonly uetr: string | undefined;
  /** TxSts (else PmtInfSts or GrpSts for a report about a whole block or message); undefined when the report gives none. */
  readonly status: string | undefined;
  readonly reasonCode: string | undefined;
  readonly reasonText: string | undefined;
}

export interface Pain014Report {
  readonly messageName: string;
  readonly messageId: string | undefined;
  /** OrgnlGrpInfAndSts/OrgnlMsgId: the pain.013 reported on. */
  readonly originalMessageId: string | undefined;
  readonly originalMessageName: string | undefined;
  readonly statuses: readonly RequestToPayStatus[];
  /** The document as JSON (element names as keys, every value a string), for event payloads. */
  readonly json: Readonly<Record<string, unknown>>;
}

export type ReadPain014Result = { readonly ok: true; readonly value: Pain014Report } | { readonly ok: false; readonly error: string };

/**
 * Every transaction status of every payment information block; a block without transactions
 * counts by its PmtInfSts, and a report without blocks by its GrpSts (e.g. the operator refusing
 * the whole message).
 */
export function readPain014(xml: string): ReadPain014Result {
  const document = readDocument(xml);
  if (!document.ok) return document;
  if (!document.messageName.startsWith('pain.014.') || document.root !== 'CdtrPmtActvtnReqStsRpt') return { ok: false, error: `not a pain.014: ${document.messageName}` };
  const body = document.body;
  const group = child(body, 'OrgnlGrpInfAndSts');
  if (group === undefined) return { ok: false, error: 'pain.014 lacks OrgnlGrpInfAndSts' };
  const statuses: RequestToPayStatus[] = [];
  for (const payment of children(body, 'OrgnlPmtInfAndSts')) {
    const transactions = children(payment, 'TxInfAndSts');
    for (const transaction of transactions) {
      statuses.push({
        originalEndToEndId: text(transaction, 'OrgnlEndToEndId'),
        uetr: text(transaction, 'OrgnlUETR'),
        status: text(transaction, 'TxSts'),
        ...reason(transaction),
      });
    }
    if (transactions.length === 0) statuses.push({ originalEndToEndId: undefined, uetr: undefined, status: text(payment, 'PmtInfSts'), ...reason(payment) });
  }
  if (statuses.length === 0) statuses.push({ originalEndToEndId: undefined, uetr: undefined, status: text(group, 'GrpSts'), ...reason(group) });
  return {
    ok: true,
    value: {
      messageName: document.messageName,
      messageId: text(body, 'GrpHdr', 'MsgId'),
      originalMessageId: text(group, 'OrgnlMsgId'),
      originalMessageName: text(group, 'OrgnlMsgNmId'),
      statuses,
      json: { schema: document.messageName, [document.root]: body },
    },
  };
}

/** The status reason of a report's transaction, block or group (StsRsnInf). */
function reason(node: XmlElement | undefined): ReadReason {
  return readReason(child(node, 'StsRsnInf'));
}
