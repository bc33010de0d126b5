import type { SchemeOriginal } from '../../ports/scheme.js';
import { readReason, type ReadReason } from './reason-codes.js';
import { child, children, readDocument, text, writeDocument, type XmlElement } from './xml.js';
import { cutAtWord } from '../../lib/text.js';

/**
 * FIToFIPaymentStatusReport (pacs.002): the scheme's answer to a pacs.008 or to a status
 * enquiry (pacs.028). Versions .10 and .12 share every element used here.
 */

/** The transfer a status report is about, as the original pacs.008 named it (whoever sent it). */
export type OriginalTransfer = SchemeOriginal;

/** StsRsnInf/AddtlInf is Max105Text. */
const ADDITIONAL_INFORMATION_CHARS_MAX = 105;

export interface Pacs002Input {
  readonly messageName: string;
  readonly messageId: string;
  readonly createdAt: string;
  readonly original: OriginalTransfer;
  /** TxSts, an ExternalPaymentTransactionStatus1Code such as ACSC or RJCT. */
  readonly status: string;
  readonly reasonCode?: string;
  /** AddtlInf is Max105Text. */
  readonly additionalInformation?: string;
  readonly acceptedAt?: string;
}

export function pacs002Document(input: Pacs002Input): string {
  const { original } = input;
  return writeDocument(input.messageName, 'FIToFIPmtStsRpt', {
    GrpHdr: { MsgId: input.messageId, CreDtTm: input.createdAt },
    TxInfAndSts: {
      OrgnlGrpInf: { OrgnlMsgId: original.messageId, OrgnlMsgNmId: original.messageName, OrgnlCreDtTm: original.createdAt },
      OrgnlInstrId: original.instructionId,
      OrgnlEndToEndId: original.endToEndId,
      OrgnlTxId: original.transactionId,
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
  });
}

/** A report about a whole message (OrgnlGrpInfAndSts/GrpSts), e.g. refusing a pacs.008 that carries more than one transaction. */
export interface Pacs002GroupInput {
  readonly messageName: string;
  readonly messageId: string;
  readonly createdAt: string;
  readonly original: { readonly messageId: string; readonly messageName: string; readonly createdAt?: string; readonly transactionCount?: string };
  readonly status: string;
  readonly reasonCode?: string;
  /** AddtlInf is Max105Text. */
  readonly additionalInformation?: string;
}

export function pacs002GroupDocument(input: Pacs002GroupInput): string {
  const { original } = input;
  return writeDocument(input.messageName, 'FIToFIPmtStsRpt', {
    GrpHdr: { MsgId: input.messageId, CreDtTm: input.createdAt },
    OrgnlGrpInfAndSts: {
      OrgnlMsgId: original.messageId,
      OrgnlMsgNmId: original.messageName,
      OrgnlCreDtTm: original.createdAt,
      OrgnlNbOfTxs: original.transactionCount !== undefined && /^[0-9]{1,15}$/.test(original.transactionCount) ? original.transactionCount : undefined,
      GrpSts: input.status,
      StsRsnInf:
        input.reasonCode === undefined && input.additionalInformation === undefined
          ? undefined
          : {
              Rsn: input.reasonCode === undefined ? undefined : { Cd: input.reasonCode },
              AddtlInf: input.additionalInformation === undefined ? undefined : cutAtWord(input.additionalInformation, ADDITIONAL_INFORMATION_CHARS_MAX),
            },
    },
  });
}

/** One transaction's status as read from a report. */
export interface ReportedStatus {
  readonly originalMessageId: string | undefined;
  readonly originalMessageName: string | undefined;
  readonly originalEndToEndId: string | undefined;
  readonly uetr: string | undefined;
  /** TxSts (or GrpSts for a report about the whole message); undefined when the report gives none. */
  readonly status: string | undefined;
  readonly reasonCode: string | undefined;
  readonly reasonText: string | undefined;
}

export interface Pacs002Report {
  readonly messageName: string;
  readonly messageId: string | undefined;
  readonly statuses: readonly ReportedStatus[];
  /** The document as JSON (element names as keys, every value a string), for event payloads. */
  readonly json: Readonly<Record<string, unknown>>;
}

export type ReadPacs002Result = { readonly ok: true; readonly value: Pacs002Report } | { readonly ok: false; readonly error: string };

export function readPacs002(xml: string): ReadPacs002Result {
  const document = readDocument(xml);
  if (!document.ok) return document;
  if (!document.messageName.startsWith('pacs.002.') || document.root !== 'FIToFIPmtStsRpt') return { ok: false, error: `not a pacs.002: ${document.messageName}` };
  const body = document.body;
  const group = child(body, 'OrgnlGrpInfAndSts');
  const transactions = children(body, 'TxInfAndSts');
  const statuses: ReportedStatus[] = transactions.map((transaction) => ({
    originalMessageId: text(transaction, 'OrgnlGrpInf', 'OrgnlMsgId') ?? text(group, 'OrgnlMsgId'),
    originalMessageName: text(transaction, 'OrgnlGrpInf', 'OrgnlMsgNmId') ?? text(group, 'OrgnlMsgNmId'),
    originalEndToEndId: text(transaction, 'OrgnlEndToEndId'),
    uetr: text(transaction, 'OrgnlUETR'),
    status: text(transaction, 'TxSts'),
    ...reason(transaction),
  }));
  // A report about the whole message (e.g. the operator refused it) carries only the group status.
  if (statuses.length === 0 && group !== undefined) {
    statuses.push({
      originalMessageId: text(group, 'OrgnlMsgId'),
      originalMessageName: text(group, 'OrgnlMsgNmId'),
      originalEndToEndId: undefined,
      uetr: undefined,
      status: text(group, 'GrpSts'),
      ...reason(group),
    });
  }
  return {
    ok: true,
    value: { messageName: document.messageName, messageId: text(body, 'GrpHdr', 'MsgId'), statuses, json: { schema: document.messageName, [document.root]: body } },
  };
}

/** The status reason of a report's transaction, block or group (StsRsnInf). */
function reason(node: XmlElement | undefined): ReadReason {
  return readReason(child(node, 'StsRsnInf'));
}
