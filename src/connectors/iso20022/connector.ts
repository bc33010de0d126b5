import { createHash } from 'node:crypto';
import { REASON_DESCRIPTION_LENGTH_MAX } from '../../domain/messages/identifier-determination.js';
import type { SchemeName } from '../../domain/schemes.js';
import type { Clock } from '../../ports/clock.js';
import type {
  CancellationReport,
  ConnectorCapabilities,
  IdentificationReport,
  OutboundLookup,
  OutboundRequestToPay,
  OutboundRequestToPayCancellation,
  OutboundTransfer,
  RequestToPayReport,
  SchemeConnector,
  SchemeInbound,
  SchemeLimits,
  SchemeReport,
  SchemeRuleOutcome,
  SubmitOutcome,
  WireMessage,
} from '../../ports/scheme.js';
import { BoundedMap } from '../../lib/bounded-map.js';
import { OK, reject, type SchemeRule } from '../rules.js';
import type { InboundSchemeMessage, SchemeMessage, SchemeTransport } from '../transport.js';
import { acmt023Document } from './acmt023.js';
import { readAcmt024, type Acmt024Report } from './acmt024.js';
import { readCamt029, type Camt029Report } from './camt029.js';
import { camt056Document } from './camt056.js';
import { enquiryMessageId, idempotencyKeyOf, schemeMessageId } from './ids.js';
import { readPacs002, type OriginalTransfer, type ReportedStatus } from './pacs002.js';
import { isoAmountFits, isoDateTime, mapCreditTransfer, pacs008Document, type Pacs008Settings } from './pacs008.js';
import { pacs028Document } from './pacs028.js';
import { pain013Document } from './pain013.js';
import { readPain014, type RequestToPayStatus } from './pain014.js';
import { reasonText } from './reason-codes.js';
import { requestToPayStatusOf, statusOf, type StatusTable } from './status.js';
import { documentMessageId, documentMessageName, textLeaves } from './xml.js';

/**
 * One general ISO 20022 connector; a scheme family is a value of `SchemeFamily` (its folder
 * under src/connectors/ holds nothing else). Families differ only in data: the schemes they
 * serve, message versions, pacs.008 settings, their rule list, their status table and their
 * character set.
 */
export interface SchemeFamily {
  /** Folder name, e.g. `za-rtc`. */
  readonly family: string;
  readonly schemes: readonly SchemeName[];
  readonly capabilities: ConnectorCapabilities;
  readonly messages: {
    readonly creditTransfer: Pacs008Settings;
    /** pacs.002 version the scheme answers with (any pacs.002 version is read). */
    readonly statusReport: string;
    /** pacs.028 version written for status enquiries. */
    readonly statusRequest: string;
    /** Present exactly when the capability `identifierDetermination` is: acmt.023 version written (answers: acmt.024). */
    readonly identifierDetermination?: { readonly request: 'acmt.023.001.03' };
    /**
     * Present exactly when the capability `requestToPay` is: the pain.013 version written for a
     * request-to-pay (answers: pain.014) and the camt.056 version written for its cancellation
     * (answer: camt.029).
     */
    readonly requestToPay?: { readonly request: 'pain.013.001.09'; readonly cancellation: 'camt.056.001.10' };
  };
  /** Checked in order before the universal rules; the first failure decides. */
  readonly rules: readonly SchemeRule[];
  readonly statuses: StatusTable;
  /** Every text written into the scheme message must match (RR10 otherwise), e.g. CBPR+'s restricted Latin set. */
  readonly characterSet?: RegExp;
}

/** The logger connectors report discarded scheme messages to (pino's shape). */
export interface ConnectorLog {
  warn(details: Record<string, unknown>, message: string): void;
}

export interface ConnectorDeps {
  /** The scheme this instance serves (one of the family's). */
  readonly scheme: SchemeName;
  readonly transport: SchemeTransport;
  readonly clock: Clock;
  readonly log?: ConnectorLog;
  /** MsgIds remembered to identify the transfer an answer is about (oldest forgotten first). */
  readonly correlationEntriesMax?: number;
}

const CORRELATION_ENTRIES_MAX = 100_000;
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

export function createIsoConnector(family: SchemeFamily, deps: ConnectorDeps): SchemeConnector {
  return new IsoSchemeConnector(family, deps);
}

interface Correlation {
  readonly idempotencyKey: string;
  readonly uetr: string;
}

/** What a cancellation's case id (camt.056 Case/Id, repeated as camt.029 RslvdCase/Id) stands for. */
interface CancellationCorrelation {
  readonly idempotencyKey: string;
  readonly cancellationKey: string;
}

/** What a message is sent about: its idempotency key toward the operator, and the trace it continues. */
interface Subject {
  readonly idempotencyKey: string;
  readonly traceparent: string | null;
}

class IsoSchemeConnector implements SchemeConnector {
  readonly family: string;
  readonly schemes: readonly SchemeName[];
  readonly capabilities: ConnectorCapabilities;
  readonly #definition: SchemeFamily;
  readonly #deps: ConnectorDeps;
  /** MsgId (of a pacs.008 or pacs.028) -> the transfer it belongs to. */
  readonly #correlations: BoundedMap<string, Correlation>;
  /** camt.056 Case/Id -> the request and cancellation it belongs to (needed only for keys whose ids do not reverse). */
  readonly #cancellations: BoundedMap<string, CancellationCorrelation>;
  #inbound: SchemeInbound | undefined;
  #enquiries = 0;

  constructor(definition: SchemeFamily, deps: ConnectorDeps) {
    if (!definition.schemes.includes(deps.scheme)) throw new RangeError(`family ${definition.family} does not serve ${deps.scheme}`);
    if ((definition.capabilities.identifierDetermination === true) !== (definition.messages.identifierDetermination !== undefined)) {
      throw new RangeError(`family ${definition.family} must declare identifierDetermination both as a capability and as messages, or neither`);
    }
    if ((definition.capabilities.requestToPay === true) !== (definition.messages.requestToPay !== undefined)) {
      throw new RangeError(`family ${definition.family} must declare requestToPay both as a capability and as messages, or neither`);
    }
    this.family = definition.family;
    this.schemes = definition.schemes;
    this.capabilities = definition.capabilities;
    this.#definition = definition;
    this.#deps = deps;
    this.#correlations = new BoundedMap(deps.correlationEntriesMax ?? CORRELATION_ENTRIES_MAX);
    this.#cancellations = new BoundedMap(deps.correlationEntriesMax ?? CORRELATION_ENTRIES_MAX);
  }

  check(transfer: OutboundTransfer, limits: SchemeLimits): SchemeRuleOutcome {
    for (const rule of this.#definition.rules) {
      const outcome = rule(transfer, limits);
      if (!outcome.ok) return outcome;
    }
    return this.#universalRules(transfer);
  }

  /** What every ISO 20022 scheme requires of the message itself, whatever the family. */
  #universalRules(transfer: OutboundTransfer): SchemeRuleOutcome {
    if (transfer.amount.minor <= 0n) return reject('AM01');
    if (!isoAmountFits(transfer.amount)) return reject('AM02', 'more than the 18 digits an ISO 20022 amount carries');
    if (!UUID_V4.test(transfer.uetr.toLowerCase())) return reject('FF02', 'the UETR must be a version-4 UUID in ISO 20022 scheme messages');
    const mapped = mapCreditTransfer(transfer, this.#definition.messages.creditTransfer);
    if (!mapped.ok) return { ok: false, reasonCode: mapped.reasonCode, reasonText: mapped.reasonText };
    const characterSet = this.#definition.characterSet;
    if (characterSet !== undefined) {
      for (const leaf of textLeaves(mapped.transaction)) {
        if (!characterSet.test(leaf.value)) return reject('RR10', `${leaf.path.slice(1)} has characters ${transfer.scheme} does not carry`);
      }
    }
    return OK;
  }

  async submit(transfer: OutboundTransfer): Promise<SubmitOutcome> {
    const settings = this.#definition.messages.creditTransfer;
    const mapped = mapCreditTransfer(transfer, settings);
    // check() refuses such a transfer first; reaching here means the engine skipped it, and resending cannot help.
    if (!mapped.ok) return { kind: 'failed', retryable: false, error: `${mapped.reasonCode}: ${mapped.reasonText}` };
    const messageId = schemeMessageId(transfer.idempotencyKey);
    this.#remember(messageId, transfer);
    const document = pacs008Document({ messageId, createdAt: isoDateTime(this.#deps.clock.now()) }, mapped.transaction, settings);
    return this.#send(transfer, settings.version, messageId, document);
  }

  async enquire(transfer: OutboundTransfer): Promise<SubmitOutcome> {
    const { statusRequest, creditTransfer } = this.#definition.messages;
    this.#enquiries += 1;
    const messageId = enquiryMessageId(transfer.idempotencyKey, this.#deps.clock.now(), this.#enquiries);
    this.#remember(messageId, transfer);
    this.#remember(schemeMessageId(transfer.idempotencyKey), transfer);
    const document = pacs028Document({
      messageName: statusRequest,
      messageId,
      createdAt: isoDateTime(this.#deps.clock.now()),
      original: originalOf(transfer, creditTransfer.version),
    });
    return this.#send(transfer, statusRequest, messageId, document);
  }

  async resolve(lookup: OutboundLookup): Promise<SubmitOutcome> {
    const request = this.#definition.messages.identifierDetermination;
    if (request === undefined) return { kind: 'failed', retryable: false, error: `${this.#deps.scheme} (${this.family}) offers no identifier determination` };
    const { memberIdSystem, clearingSystem } = this.#definition.messages.creditTransfer;
    // Every resend of one lookup carries the same MsgId, so the operator de-duplicates it and its answer leads back to the key.
    const messageId = schemeMessageId(lookup.idempotencyKey);
    const written = acmt023Document(
      { messageId, createdAt: isoDateTime(this.#deps.clock.now()) },
      lookup,
      { messageName: request.request, ...(memberIdSystem === undefined ? {} : { memberIdSystem }), ...(clearingSystem === undefined ? {} : { clearingSystem }) },
    );
    // Resending the same lookup cannot make it writable.
    if (!written.ok) return { kind: 'failed', retryable: false, error: `${written.reasonCode}: ${written.reasonText}`, reasonCode: written.reasonCode };
    this.#remember(messageId, lookup);
    return this.#send(lookup, request.request, messageId, written.document);
  }

  async requestToPay(request: OutboundRequestToPay): Promise<SubmitOutcome> {
    const messages = this.#definition.messages.requestToPay;
    if (messages === undefined) return { kind: 'failed', retryable: false, error: `${this.#deps.scheme} (${this.family}) offers no request-to-pay` };
    const { memberIdSystem } = this.#definition.messages.creditTransfer;
    // Every resend of one request carries the same MsgId, so the operator de-duplicates it and its reports lead back to the key.
    const messageId = schemeMessageId(request.idempotencyKey);
    const written = pain013Document(
      { messageId, createdAt: isoDateTime(this.#deps.clock.now()) },
      request,
      { messageName: messages.request, ...(memberIdSystem === undefined ? {} : { memberIdSystem }) },
    );
    // Resending the same request cannot make it writable.
    if (!written.ok) return { kind: 'failed', retryable: false, error: `${written.reasonCode}: ${written.reasonText}`, reasonCode: written.reasonCode };
    this.#remember(messageId, request);
    return this.#send(request, messages.request, messageId, written.document);
  }

  async cancelRequestToPay(cancellation: OutboundRequestToPayCancellation): Promise<SubmitOutcome> {
    const messages = this.#definition.messages.requestToPay;
    if (messages === undefined) return { kind: 'failed', retryable: false, error: `${this.#deps.scheme} (${this.family}) offers no request-to-pay` };
    const { memberIdSystem, clearingSystem } = this.#definition.messages.creditTransfer;
    const { request } = cancellation;
    const written = camt056Document(isoDateTime(this.#deps.clock.now()), cancellation, {
      messageName: messages.cancellation,
      clearingSystem: clearingSystem ?? this.#deps.scheme,
      ...(memberIdSystem === undefined ? {} : { memberIdSystem }),
    });
    if (!written.ok) return { kind: 'failed', retryable: false, error: `${written.reasonCode}: ${written.reasonText}`, reasonCode: written.reasonCode };
    // Assgnmt/Id and Case/Id: the same on every resend of one cancellation; the answer repeats the case.
    const caseId = schemeMessageId(cancellation.cancellationKey);
    this.#cancellations.set(caseId, { idempotencyKey: request.idempotencyKey, cancellationKey: cancellation.cancellationKey });
    this.#remember(schemeMessageId(request.idempotencyKey), request);
    return this.#send({ idempotencyKey: cancellation.cancellationKey, traceparent: request.traceparent }, messages.cancellation, caseId, written.document);
  }

  answerLookup(): Promise<SubmitOutcome> {
    return Promise.resolve({ kind: 'failed', retryable: false, error: 'not built yet' });
  }

  answerCredit(): Promise<SubmitOutcome> {
    return Promise.resolve({ kind: 'failed', retryable: false, error: 'not built yet' });
  }

  reportRequestToPay(): Promise<SubmitOutcome> {
    return Promise.resolve({ kind: 'failed', retryable: false, error: 'not built yet' });
  }

  answerWithdrawal(): Promise<SubmitOutcome> {
    return Promise.resolve({ kind: 'failed', retryable: false, error: 'not built yet' });
  }

  async start(inbound: SchemeInbound): Promise<void> {
    this.#inbound = inbound;
    await this.#deps.transport.start((message) => this.#receive(message));
  }

  async stop(): Promise<void> {
    this.#inbound = undefined;
    await this.#deps.transport.stop();
  }

  async #send(about: Subject, messageName: string, messageId: string, document: string): Promise<SubmitOutcome> {
    const message: SchemeMessage = {
      scheme: this.#deps.scheme,
      messageName,
      messageId,
      idempotencyKey: about.idempotencyKey,
      document,
      traceparent: about.traceparent,
    };
    const sent: WireMessage = { messageName, messageId, document };
    try {
      return { ...(await this.#deps.transport.send(message)), sent };
    } catch (error) {
      // A transport that throws has not said the operator took the message: sending again is safe (same MsgId).
      return { kind: 'failed', retryable: true, error: error instanceof Error ? error.message : String(error), sent };
    }
  }

  /**
   * Kept for every message sent: answers may name only the MsgId (a report about the whole
   * message has no UETR). After a restart the memory is empty, and reversible MsgIds still lead
   * back to the key; the engine's enquiries re-fill it.
   */
  #remember(messageId: string, about: OutboundTransfer | OutboundLookup | OutboundRequestToPay): void {
    this.#correlations.set(messageId, { idempotencyKey: about.idempotencyKey, uetr: about.uetr });
  }

  /**
   * A message from the operator, routed by its message name: acmt.024 answers a lookup, pain.014
   * reports on a request-to-pay, camt.029 answers its cancellation; anything else is read as a pacs.002.
   */
  async #receive(message: InboundSchemeMessage): Promise<void> {
    const inbound = this.#inbound;
    // Stopped: refused, not dropped, so the operator delivers it again (to another instance, or after the restart).
    if (inbound === undefined) throw new Error('the connector is stopped; the answer was not recorded');
    const name = documentMessageName(message.document) ?? '';
    // Every report read from the message carries it, for the record of the transaction it is about.
    const received: WireMessage = { messageName: name || 'unknown', messageId: documentMessageId(message.document) ?? contentId(message.document), document: message.document };
    const recorded: SchemeInbound = { receive: (report) => inbound.receive({ ...report, received }), originate: (request) => inbound.originate(request) };
    if (name.startsWith('acmt.024.')) return this.#receiveIdentification(recorded, message.document);
    if (name.startsWith('pain.014.')) return this.#receiveRequestToPayStatus(recorded, message.document);
    if (name.startsWith('camt.029.')) return this.#receiveCancellation(recorded, message.document);
    return this.#receiveStatus(recorded, message.document);
  }

  /** Each transaction status of a pacs.002 becomes one SchemeReport. */
  async #receiveStatus(inbound: SchemeInbound, document: string): Promise<void> {
    const read = readPacs002(document);
    if (!read.ok) {
      this.#deps.log?.warn({ scheme: this.#deps.scheme, error: read.error }, 'scheme message that is not a readable pacs.002 discarded');
      return;
    }
    for (const status of read.value.statuses) {
      const report = this.#report(status, read.value.json);
      if (report === undefined) {
        this.#deps.log?.warn({ scheme: this.#deps.scheme, originalMessageId: status.originalMessageId }, 'scheme answer for a transfer this connector cannot identify discarded');
        continue;
      }
      await inbound.receive(report);
    }
  }

  /** An acmt.024 becomes one IdentificationReport about the lookup whose acmt.023 it names. */
  async #receiveIdentification(inbound: SchemeInbound, document: string): Promise<void> {
    const read = readAcmt024(document);
    if (!read.ok) {
      this.#deps.log?.warn({ scheme: this.#deps.scheme, error: read.error }, 'scheme message that is not a readable acmt.024 discarded');
      return;
    }
    const messageId = read.value.originalMessageId;
    const idempotencyKey = messageId === undefined ? undefined : (this.#correlations.get(messageId)?.idempotencyKey ?? idempotencyKeyOf(messageId));
    if (idempotencyKey === undefined) {
      this.#deps.log?.warn({ scheme: this.#deps.scheme, originalMessageId: messageId }, 'identification report for a lookup this connector cannot identify discarded');
      return;
    }
    await inbound.receive(identificationReport(read.value, { scheme: this.#deps.scheme, idempotencyKey, receivedAt: this.#deps.clock.now() }));
  }

  /** Each transaction status of a pain.014 becomes one RequestToPayReport about the request its pain.013 MsgId names. */
  async #receiveRequestToPayStatus(inbound: SchemeInbound, document: string): Promise<void> {
    const read = readPain014(document);
    if (!read.ok) {
      this.#deps.log?.warn({ scheme: this.#deps.scheme, error: read.error }, 'scheme message that is not a readable pain.014 discarded');
      return;
    }
    const messageId = read.value.originalMessageId;
    const idempotencyKey = messageId === undefined ? undefined : this.#keyOf(messageId);
    if (idempotencyKey === undefined) {
      this.#deps.log?.warn({ scheme: this.#deps.scheme, originalMessageId: messageId }, 'request-to-pay status for a request this connector cannot identify discarded');
      return;
    }
    for (const status of read.value.statuses) {
      await inbound.receive(requestToPayReport(status, { scheme: this.#deps.scheme, idempotencyKey, message: read.value.json, receivedAt: this.#deps.clock.now() }));
    }
  }

  /**
   * A camt.029 becomes one CancellationReport: the cancellation from RslvdCase/Id, the request from
   * the pain.013 MsgId it names (both remembered, else reversed). An answer that decides nothing
   * (a pending cancellation, an unknown status) is discarded with a warning: it is never taken
   * for an acceptance or a refusal.
   */
  async #receiveCancellation(inbound: SchemeInbound, document: string): Promise<void> {
    const read = readCamt029(document);
    if (!read.ok) {
      this.#deps.log?.warn({ scheme: this.#deps.scheme, error: read.error }, 'scheme message that is not a readable camt.029 discarded');
      return;
    }
    const answer = read.value;
    const remembered = answer.caseId === undefined ? undefined : this.#cancellations.get(answer.caseId);
    const cancellationKey = remembered?.cancellationKey ?? (answer.caseId === undefined ? undefined : idempotencyKeyOf(answer.caseId));
    const idempotencyKey = remembered?.idempotencyKey ?? (answer.originalMessageId === undefined ? undefined : this.#keyOf(answer.originalMessageId));
    if (cancellationKey === undefined || idempotencyKey === undefined) {
      this.#deps.log?.warn(
        { scheme: this.#deps.scheme, caseId: answer.caseId, originalMessageId: answer.originalMessageId },
        'cancellation answer for a request or cancellation this connector cannot identify discarded',
      );
      return;
    }
    if (answer.outcome === 'undecided') {
      this.#deps.log?.warn(
        { scheme: this.#deps.scheme, caseId: answer.caseId, confirmation: answer.confirmation, status: answer.transactionStatus },
        'cancellation answer that neither accepts nor refuses discarded',
      );
      return;
    }
    await inbound.receive(cancellationReport(answer, { scheme: this.#deps.scheme, idempotencyKey, cancellationKey, receivedAt: this.#deps.clock.now() }));
  }

  /** The idempotency key behind a MsgId this connector wrote: remembered, else reversed. */
  #keyOf(messageId: string): string | undefined {
    return this.#correlations.get(messageId)?.idempotencyKey ?? idempotencyKeyOf(messageId);
  }

  #report(status: ReportedStatus, json: Readonly<Record<string, unknown>>): SchemeReport | undefined {
    const messageId = status.originalMessageId;
    const correlation = messageId === undefined ? undefined : this.#correlations.get(messageId);
    const idempotencyKey = correlation?.idempotencyKey ?? (messageId === undefined ? undefined : idempotencyKeyOf(messageId));
    const uetr = (status.uetr ?? correlation?.uetr)?.toLowerCase();
    if (idempotencyKey === undefined || uetr === undefined) return undefined;
    const base = { scheme: this.#deps.scheme, uetr, idempotencyKey, message: json, receivedAt: this.#deps.clock.now() };
    // RJCT with NOOR answers an enquiry: the scheme never received the original, so it may be sent again.
    if (status.status === 'RJCT' && status.reasonCode === 'NOOR') {
      return { ...base, kind: 'not_found', status: 'PENDING', reasonCode: 'NOOR', reasonText: status.reasonText ?? reasonText('NOOR') };
    }
    const verdict = statusOf(this.#definition.statuses, status.status);
    return {
      ...base,
      kind: 'status',
      status: verdict,
      ...(status.reasonCode === undefined ? {} : { reasonCode: status.reasonCode }),
      ...(status.reasonText === undefined && status.reasonCode === undefined ? {} : { reasonText: status.reasonText ?? reasonText(status.reasonCode ?? '') }),
    };
  }
}

/**
 * The IdentificationReport for an acmt.024. A resolution that passed yet lacks the account
 * owner's knownAsName or legalName is reported FAILED with CH21 (mandatory element missing): the
 * interface makes both names optional, but ZA_RPP, the one scheme offering identifier
 * determination, makes both mandatory, and the end user verifies the payee by them.
 */
export function identificationReport(
  read: Acmt024Report,
  about: { readonly scheme: SchemeName; readonly idempotencyKey: string; readonly receivedAt: number },
): IdentificationReport {
  const base = { kind: 'identification', ...about, message: read.json } as const;
  if (read.verified) {
    const { account } = read;
    if (account.knownAsName === undefined || account.legalName === undefined) return { ...base, outcome: 'FAILED', reasonCode: 'CH21', reasonText: cut(reasonText('CH21')) };
    return { ...base, outcome: 'SUCCESSFUL', account };
  }
  const code = read.reasonCode;
  const text = read.reasonText ?? (code === undefined ? undefined : reasonText(code));
  return { ...base, outcome: 'FAILED', ...(code === undefined ? {} : { reasonCode: code }), ...(text === undefined ? {} : { reasonText: cut(text) }) };
}

/** A reason text as ZA_RPP restricts it (the interface's reason description). */
function cut(text: string): string {
  return [...text].slice(0, REASON_DESCRIPTION_LENGTH_MAX).join('');
}

/**
 * The RequestToPayReport for one transaction status of a pain.014, mapped as CONTRACT §10 says
 * (status.ts): an unknown code is PENDING, never final. The reason travels with any status that
 * carries one; its text is the operator's, else the code's.
 */
export function requestToPayReport(
  status: RequestToPayStatus,
  about: { readonly scheme: SchemeName; readonly idempotencyKey: string; readonly message: Readonly<Record<string, unknown>>; readonly receivedAt: number },
): RequestToPayReport {
  const code = status.reasonCode;
  const text = status.reasonText ?? (code === undefined ? undefined : reasonText(code));
  return {
    kind: 'request_to_pay',
    ...about,
    status: requestToPayStatusOf(status.status),
    ...(code === undefined ? {} : { reasonCode: code }),
    ...(text === undefined ? {} : { reasonText: text }),
  };
}

/** The CancellationReport for a camt.029 that accepts or refuses (never an undecided one). */
export function cancellationReport(
  answer: Camt029Report,
  about: { readonly scheme: SchemeName; readonly idempotencyKey: string; readonly cancellationKey: string; readonly receivedAt: number },
): CancellationReport {
  const code = answer.reasonCode;
  const text = answer.reasonText ?? (code === undefined ? undefined : reasonText(code));
  return {
    kind: 'cancellation',
    ...about,
    accepted: answer.outcome === 'accepted',
    ...(code === undefined ? {} : { reasonCode: code }),
    ...(text === undefined ? {} : { reasonText: text }),
    message: answer.json,
  };
}

/** A document without a message id is told apart by its content. */
function contentId(document: string): string {
  return `sha256:${createHash('sha256').update(document).digest('hex').slice(0, 32)}`;
}

function originalOf(transfer: OutboundTransfer, messageName: string): OriginalTransfer {
  const ids = transfer.message.transactionIdentifiers;
  const messageId = schemeMessageId(transfer.idempotencyKey);
  return {
    messageId,
    messageName,
    instructionId: ids.instructionIdentification ?? messageId,
    endToEndId: ids.endToEndIdentification,
    transactionId: ids.transactionIdentification ?? messageId,
    uetr: transfer.uetr.toLowerCase(),
  };
}
