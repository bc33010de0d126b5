import { readReason } from './reason-codes.js';
import { child, readDocument, text, writeDocument, type XmlElement } from './xml.js';
import { cutAtWord } from '../../lib/text.js';

/**
 * ResolutionOfInvestigation (camt.029.001.11): the scheme's answer to a camt.056 cancelling a
 * request-to-pay. `Sts/Conf` CNCL (cancelled as asked) or RJCR (cancellation refused), repeated per
 * transaction in `CxlDtls/TxInfAndSts/TxCxlSts` (ACCR accepted, RJCR rejected, PDCR pending) with
 * the reason of a refusal in `CxlStsRsnInf` (e.g. ARDT: the request was already paid).
 *
 * What leads back to the keys (camt056.ts): `RslvdCase/Id` repeats the camt.056 `Case/Id`, derived
 * from the cancellation key; `CxlDtls/TxInfAndSts/OrgnlGrpInf/OrgnlMsgId` names the pain.013,
 * whose MsgId is derived from the request's idempotency key.
 */

/** Sts/Conf of an answer to a cancellation: CNCL (cancelled as asked) or RJCR (refused). */
export type CancellationConfirmation = 'CNCL' | 'RJCR';

/** TxCxlSts for each confirmation (CancellationIndividualStatus1Code). */
const TRANSACTION_STATUS: Readonly<Record<CancellationConfirmation, string>> = { CNCL: 'ACCR', RJCR: 'RJCR' };

export interface Camt029Input {
  readonly messageName: string;
  readonly messageId: string;
  readonly createdAt: string;
  /** Assgnr and Assgne (Party40Choice): the operator answering, the bank that asked. */
  readonly assigner: XmlElement;
  readonly assignee: XmlElement;
  /** The case resolved: the camt.056's Case/Id and its creator (Party40Choice). */
  readonly resolvedCase: { readonly id: string; readonly creator: XmlElement };
  readonly confirmation: CancellationConfirmation;
  /** The request-to-pay (pain.013) the cancellation was about; OrgnlGrpInf is left out when its message is not known. */
  readonly original: {
    readonly messageId?: string;
    readonly messageName?: string;
    readonly instructionId?: string;
    readonly endToEndId?: string;
    readonly uetr?: string;
  };
  /** CxlStsRsnInf/Rsn/Cd (ExternalPaymentCancellationRejection1Code), e.g. ARDT, LEGL, NOAS. */
  readonly reasonCode?: string;
  /** AddtlInf is Max105Text. */
  readonly additionalInformation?: string;
}

const ADDITIONAL_INFORMATION_CHARS_MAX = 105;

export function camt029Document(input: Camt029Input): string {
  const { original } = input;
  return writeDocument(input.messageName, 'RsltnOfInvstgtn', {
    Assgnmt: { Id: input.messageId, Assgnr: input.assigner, Assgne: input.assignee, CreDtTm: input.createdAt },
    RslvdCase: { Id: input.resolvedCase.id, Cretr: input.resolvedCase.creator },
    Sts: { Conf: input.confirmation },
    CxlDtls: {
      TxInfAndSts: {
        OrgnlGrpInf: original.messageId === undefined || original.messageName === undefined ? undefined : { OrgnlMsgId: original.messageId, OrgnlMsgNmId: original.messageName },
        OrgnlInstrId: original.instructionId,
        OrgnlEndToEndId: original.endToEndId,
        OrgnlUETR: original.uetr,
        TxCxlSts: TRANSACTION_STATUS[input.confirmation],
        CxlStsRsnInf:
          input.reasonCode === undefined && input.additionalInformation === undefined
            ? undefined
            : {
                Rsn: input.reasonCode === undefined ? undefined : { Cd: input.reasonCode },
                AddtlInf: input.additionalInformation === undefined ? undefined : cutAtWord(input.additionalInformation, ADDITIONAL_INFORMATION_CHARS_MAX),
              },
      },
    },
  });
}

/**
 * What the answer decides: `accepted` (the request is withdrawn), `rejected` (it is not), or
 * `undecided` (a pending cancellation, PDCR, or a status outside the code lists): never taken
 * for either.
 */
export type CancellationOutcome = 'accepted' | 'rejected' | 'undecided';

/** A camt.029 as the connector reads it. */
export interface Camt029Report {
  readonly messageName: string;
  /** Assgnmt/Id of the answer. */
  readonly messageId: string | undefined;
  /** RslvdCase/Id (else the transaction's or the group's RslvdCase/Id): the camt.056's Case/Id. */
  readonly caseId: string | undefined;
  /** CxlDtls/TxInfAndSts/OrgnlGrpInf/OrgnlMsgId (else CxlDtls/OrgnlGrpInfAndSts/OrgnlMsgId): the pain.013's MsgId. */
  readonly originalMessageId: string | undefined;
  readonly uetr: string | undefined;
  /** Sts/Conf as written. */
  readonly confirmation: string | undefined;
  /** TxCxlSts (else GrpCxlSts) as written. */
  readonly transactionStatus: string | undefined;
  readonly outcome: CancellationOutcome;
  readonly reasonCode: string | undefined;
  readonly reasonText: string | undefined;
  /** The document as JSON (element names as keys, every value a string), for event payloads. */
  readonly json: Readonly<Record<string, unknown>>;
}

export type ReadCamt029Result = { readonly ok: true; readonly value: Camt029Report } | { readonly ok: false; readonly error: string };

/** The first cancellation detail is read: regpay cancels one request per message. */
export function readCamt029(xml: string): ReadCamt029Result {
  const document = readDocument(xml);
  if (!document.ok) return document;
  if (!document.messageName.startsWith('camt.029.') || document.root !== 'RsltnOfInvstgtn') return { ok: false, error: `not a camt.029: ${document.messageName}` };
  const body = document.body;
  const details = child(body, 'CxlDtls');
  const transaction = child(details, 'TxInfAndSts');
  const group = child(details, 'OrgnlGrpInfAndSts');
  const confirmation = text(body, 'Sts', 'Conf');
  const transactionStatus = text(transaction, 'TxCxlSts') ?? text(group, 'GrpCxlSts');
  const reason = readReason(child(transaction, 'CxlStsRsnInf') ?? child(group, 'CxlStsRsnInf'));
  return {
    ok: true,
    value: {
      messageName: document.messageName,
      messageId: text(body, 'Assgnmt', 'Id'),
      caseId: text(body, 'RslvdCase', 'Id') ?? text(transaction, 'RslvdCase', 'Id') ?? text(group, 'RslvdCase', 'Id'),
      originalMessageId: text(transaction, 'OrgnlGrpInf', 'OrgnlMsgId') ?? text(group, 'OrgnlMsgId'),
      uetr: text(transaction, 'OrgnlUETR'),
      confirmation,
      transactionStatus,
      outcome: outcomeOf(transactionStatus, confirmation),
      ...reason,
      json: { schema: document.messageName, [document.root]: body },
    },
  };
}

/** The transaction's (or group's) cancellation status decides when given; else Sts/Conf. Exhaustive: anything else is undecided. */
export function outcomeOf(transactionStatus: string | undefined, confirmation: string | undefined): CancellationOutcome {
  if (transactionStatus !== undefined) {
    if (transactionStatus === 'ACCR') return 'accepted';
    if (transactionStatus === 'RJCR') return 'rejected';
    return 'undecided';
  }
  if (confirmation === 'CNCL') return 'accepted';
  if (confirmation === 'RJCR') return 'rejected';
  return 'undecided';
}
