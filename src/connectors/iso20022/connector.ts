import { createHash } from 'node:crypto';
import { REASON_DESCRIPTION_LENGTH_MAX } from '../../domain/messages/identifier-determination.js';
import { cutAtWord } from '../../lib/text.js';
import type { SchemeName } from '../../domain/schemes.js';
import type { Clock } from '../../ports/clock.js';
import type {
  CancellationReport,
  ConnectorCapabilities,
  CreditAnswer,
  IdentificationReport,
  LookupAnswer,
  RequestToPayStatusAnswer,
  SchemeRequest,
  WithdrawalAnswer,
  OutboundLookup,
  OutboundRequestToPay,
  OutboundRequestToPayCancellation,
  OutboundTransfer,
  RequestToPayReport,
  SchemeConnector,
  SchemeInbound,
  SchemeLimits,
  SchemeOriginal,
  SchemeReport,
  SchemeRuleOutcome,
  SchemeRules,
  SubmitOutcome,
  WireMessage,
} from '../../ports/scheme.js';
import { BoundedMap } from '../../lib/bounded-map.js';
import { escapePointerToken } from '../../lib/json-pointer.js';
import { inboundTransactionId } from '../../lib/inbound-id.js';
import { OK, reject, type SchemeRule } from '../rules.js';
import type { InboundSchemeMessage, SchemeMessage, SchemeTransport } from '../transport.js';
import { acmt023Document } from './acmt023.js';
import {
  additionalInformation,
  creditGroupRefusalDocument,
  creditStatusDocument,
  lookupAnswerDocument,
  lookupContextOf,
  lookupOutcome,
  requestToPayStatusDocument,
  withdrawalAnswerDocument,
  type AnswerHeader,
  type AnswerSettings,
  type Written,
} from './answers.js';
import type { InboundRead } from './inbound.js';
import { readInboundAcmt023 } from './inbound-acmt023.js';
import { readInboundCamt056, type WithdrawalContext } from './inbound-camt056.js';
import { readInboundPacs008 } from './inbound-pacs008.js';
import { readInboundPain013, type RequestToPayContext } from './inbound-pain013.js';
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
    /**
     * Present exactly when the capability `receiving` is: what the answers to scheme-originated
     * messages are written as. `creditStatus`: the pacs.002 version answering each pacs.008
     * version received. `identification` (acmt.024 answering an acmt.023), `requestToPayStatus`
     * (pain.014 about a pain.013) and `withdrawal` (camt.029 answering a camt.056): present when the
     * family receives those; a family without them discards such documents with a warning.
     */
    readonly receiving?: {
      readonly creditStatus: Readonly<Record<string, string>>;
      readonly identification?: 'acmt.024.001.03';
      readonly requestToPayStatus?: 'pain.014.001.09';
      readonly withdrawal?: 'camt.029.001.11';
    };
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

/** The MsgId and time a document is judged with before it exists (intake): neither changes whether a message can be written. */
const TRIAL_HEADER = { messageId: 'K0', createdAt: '2000-01-01T00:00:00+00:00' };

/**
 * The family's rules for one of its schemes, pure: what intake asks before accepting a message
 * and the connector again before sending. Each failure names the field of the integrator's
 * message at fault.
 */
export function isoSchemeRules(family: SchemeFamily, scheme: SchemeName): SchemeRules {
  const { creditTransfer, identifierDetermination, requestToPay } = family.messages;
  const { memberIdSystem, clearingSystem } = creditTransfer;
  return {
    check(transfer, limits) {
      for (const rule of family.rules) {
        const outcome = rule(transfer, limits);
        if (!outcome.ok) return outcome;
      }
      return universalRules(family, transfer);
    },
    checkLookup(lookup) {
      if (identifierDetermination === undefined) return reject('FF02', `${scheme} (${family.family}) offers no identifier determination`, '/request/schema');
      const written = acmt023Document(TRIAL_HEADER, lookup, {
        messageName: identifierDetermination.request,
        ...(memberIdSystem === undefined ? {} : { memberIdSystem }),
        ...(clearingSystem === undefined ? {} : { clearingSystem }),
      });
      return written.ok ? OK : written;
    },
    checkRequestToPay(request) {
      if (requestToPay === undefined) return reject('FF02', `${scheme} (${family.family}) offers no request-to-pay`, '/paymentScheme/schema');
      const written = pain013Document(TRIAL_HEADER, request, { messageName: requestToPay.request, ...(memberIdSystem === undefined ? {} : { memberIdSystem }) });
      return written.ok ? OK : written;
    },
  };
}

/** What every ISO 20022 scheme requires of the message itself, whatever the family. */
function universalRules(family: SchemeFamily, transfer: OutboundTransfer): SchemeRuleOutcome {
  const amountField = '/amounts/bankSettlementAmount/value';
  if (transfer.amount.minor <= 0n) return reject('AM01', undefined, amountField);
  if (!isoAmountFits(transfer.amount)) return reject('AM02', 'more than the 18 digits an ISO 20022 amount carries', amountField);
  if (!UUID_V4.test(transfer.uetr.toLowerCase())) return reject('FF02', 'the UETR must be a version-4 UUID in ISO 20022 scheme messages', '/transactionIdentifiers/uetr');
  const mapped = mapCreditTransfer(transfer, family.messages.creditTransfer);
  if (!mapped.ok) return mapped;
  const characterSet = family.characterSet;
  if (characterSet !== undefined) {
    for (const leaf of textLeaves(mapped.transaction)) {
      if (!characterSet.test(leaf.value)) return reject('RR10', `${leaf.path.slice(1)} has characters ${transfer.scheme} does not carry`, fieldHolding(transfer.message, leaf.value, characterSet));
    }
  }
  return OK;
}

/** The pointer of the first text of the message holding a character outside `characterSet` that `written` holds too ('' when none is found). */
function fieldHolding(message: unknown, written: string, characterSet: RegExp): string {
  const outside = [...written].find((character) => !characterSet.test(character)) ?? '';
  const search = (value: unknown, pointer: string): string | undefined => {
    if (typeof value === 'string') return value.includes(outside) ? pointer : undefined;
    if (typeof value !== 'object' || value === null) return undefined;
    for (const [key, item] of Object.entries(value)) {
      const found = search(item, `${pointer}/${escapePointerToken(key)}`);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  return search(message, '') ?? '';
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
  /** Inbound pain.013 MsgId -> what the pain.014 reports about it repeat (answers.ts says what is written once it is forgotten). */
  readonly #requestsToPay: BoundedMap<string, RequestToPayContext>;
  /** Inbound camt.056 Case/Id -> what the camt.029 answering it repeats. */
  readonly #withdrawals: BoundedMap<string, WithdrawalContext>;
  #inbound: SchemeInbound | undefined;
  #enquiries = 0;
  readonly #rules: SchemeRules;

  constructor(definition: SchemeFamily, deps: ConnectorDeps) {
    if (!definition.schemes.includes(deps.scheme)) throw new RangeError(`family ${definition.family} does not serve ${deps.scheme}`);
    if ((definition.capabilities.identifierDetermination === true) !== (definition.messages.identifierDetermination !== undefined)) {
      throw new RangeError(`family ${definition.family} must declare identifierDetermination both as a capability and as messages, or neither`);
    }
    if ((definition.capabilities.requestToPay === true) !== (definition.messages.requestToPay !== undefined)) {
      throw new RangeError(`family ${definition.family} must declare requestToPay both as a capability and as messages, or neither`);
    }
    if ((definition.capabilities.receiving === true) !== (definition.messages.receiving !== undefined)) {
      throw new RangeError(`family ${definition.family} must declare receiving both as a capability and as messages, or neither`);
    }
    this.family = definition.family;
    this.schemes = definition.schemes;
    this.capabilities = definition.capabilities;
    this.#definition = definition;
    this.#deps = deps;
    this.#correlations = new BoundedMap(deps.correlationEntriesMax ?? CORRELATION_ENTRIES_MAX);
    this.#cancellations = new BoundedMap(deps.correlationEntriesMax ?? CORRELATION_ENTRIES_MAX);
    this.#requestsToPay = new BoundedMap(deps.correlationEntriesMax ?? CORRELATION_ENTRIES_MAX);
    this.#withdrawals = new BoundedMap(deps.correlationEntriesMax ?? CORRELATION_ENTRIES_MAX);
    this.#rules = isoSchemeRules(definition, deps.scheme);
  }

  check(transfer: OutboundTransfer, limits: SchemeLimits): SchemeRuleOutcome {
    return this.#rules.check(transfer, limits);
  }

  checkLookup(lookup: OutboundLookup): SchemeRuleOutcome {
    return this.#rules.checkLookup(lookup);
  }

  checkRequestToPay(request: OutboundRequestToPay): SchemeRuleOutcome {
    return this.#rules.checkRequestToPay(request);
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

  async answerLookup(answer: LookupAnswer): Promise<SubmitOutcome> {
    const messageName = this.#definition.messages.receiving?.identification;
    if (messageName === undefined) return this.#cannotAnswer('lookups (acmt.023)');
    const outcome = lookupOutcome(answer);
    // The answer itself cannot be written: resending it cannot help.
    if (!outcome.ok) return notWritable(outcome);
    const settings = this.#answerSettings();
    const header = this.#answerHeader(messageName, answer.answerKey);
    return this.#sendAnswer(answer, header, lookupAnswerDocument(header, answer.original, lookupContextOf(answer.request.request, settings), outcome.outcome, settings));
  }

  async answerCredit(answer: CreditAnswer): Promise<SubmitOutcome> {
    const receiving = this.#definition.messages.receiving;
    if (receiving === undefined) return this.#cannotAnswer('credits (pacs.008)');
    const header = this.#answerHeader(this.#creditStatusName(answer.original.messageName), answer.answerKey);
    return this.#sendAnswer(answer, header, creditStatusDocument(header, answer.original, answer.status, answer.reasonCode, answer.reasonText));
  }

  async reportRequestToPay(answer: RequestToPayStatusAnswer): Promise<SubmitOutcome> {
    const messageName = this.#definition.messages.receiving?.requestToPayStatus;
    if (messageName === undefined) return this.#cannotAnswer('requests-to-pay (pain.013)');
    const header = this.#answerHeader(messageName, answer.answerKey);
    return this.#sendAnswer(answer, header, requestToPayStatusDocument(header, answer.original, this.#requestsToPay.get(answer.original.messageId), answer));
  }

  async answerWithdrawal(answer: WithdrawalAnswer): Promise<SubmitOutcome> {
    const messageName = this.#definition.messages.receiving?.withdrawal;
    if (messageName === undefined) return this.#cannotAnswer('withdrawals (camt.056)');
    const header = this.#answerHeader(messageName, answer.answerKey);
    return this.#sendAnswer(answer, header, withdrawalAnswerDocument(header, answer, this.#withdrawals.get(answer.caseId), this.#answerSettings()));
  }

  #cannotAnswer(what: string): SubmitOutcome {
    return { kind: 'failed', retryable: false, error: `${this.#deps.scheme} (${this.family}) does not receive ${what}` };
  }

  /** Every (re)send of one answer carries the same MsgId, derived from its answer key, so the operator de-duplicates it. */
  #answerHeader(messageName: string, answerKey: string): AnswerHeader {
    return { messageName, messageId: schemeMessageId(answerKey), createdAt: isoDateTime(this.#deps.clock.now()) };
  }

  #answerSettings(): AnswerSettings {
    const { memberIdSystem, clearingSystem } = this.#definition.messages.creditTransfer;
    return { clearingSystem: clearingSystem ?? this.#deps.scheme, ...(memberIdSystem === undefined ? {} : { memberIdSystem }) };
  }

  /** The pacs.002 version answering a pacs.008 version (the family's table), else the version the family reads. */
  #creditStatusName(creditName: string): string {
    const table = this.#definition.messages.receiving?.creditStatus ?? {};
    return (Object.hasOwn(table, creditName) ? table[creditName] : undefined) ?? this.#definition.messages.statusReport;
  }

  async #sendAnswer(answer: { readonly answerKey: string; readonly traceparent: string | null }, header: AnswerHeader, written: Written): Promise<SubmitOutcome> {
    if (!written.ok) return notWritable(written);
    return this.#send({ idempotencyKey: answer.answerKey, traceparent: answer.traceparent }, header.messageName, header.messageId, written.document);
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
    if (name.startsWith('acmt.023.')) return this.#receiveLookup(recorded, message.document, received);
    if (name.startsWith('pacs.008.')) return this.#receiveCredit(recorded, message.document, received);
    if (name.startsWith('pain.013.')) return this.#receiveRequestToPay(recorded, message.document, received);
    if (name.startsWith('camt.056.')) return this.#receiveWithdrawal(recorded, message.document);
    if (name.startsWith('acmt.024.')) return this.#receiveIdentification(recorded, message.document);
    if (name.startsWith('pain.014.')) return this.#receiveRequestToPayStatus(recorded, message.document);
    if (name.startsWith('camt.029.')) return this.#receiveCancellation(recorded, message.document);
    return this.#receiveStatus(recorded, message.document);
  }

  /** An acmt.023 for an integrator's institution: originate(lookup), or the FAILED acmt.024 at once. */
  async #receiveLookup(inbound: SchemeInbound, document: string, received: WireMessage): Promise<void> {
    const messageName = this.#definition.messages.receiving?.identification;
    if (messageName === undefined) return this.#notReceived(received);
    const settings = this.#answerSettings();
    await this.#originate(inbound, 'lookup', readInboundAcmt023(document, this.#deps.scheme), received, (refusal, header) =>
      lookupAnswerDocument(
        header,
        refusal.original,
        refusal.context,
        { verified: false, reasonCode: refusal.reasonCode, reasonText: additionalInformation(refusal.reasonCode, refusal.reasonText) ?? refusal.reasonCode },
        settings,
      ), messageName);
  }

  /** A pacs.008 for an integrator's institution: originate(credit), or the RJCT pacs.002 at once (GrpSts for a message refused as a whole). */
  async #receiveCredit(inbound: SchemeInbound, document: string, received: WireMessage): Promise<void> {
    if (this.#definition.messages.receiving === undefined) return this.#notReceived(received);
    const messageName = this.#creditStatusName(received.messageName);
    await this.#originate(inbound, 'credit', readInboundPacs008(document, this.#deps.scheme), received, (refusal, header) =>
      refusal.context.wholeMessage
        ? { ok: true, document: creditGroupRefusalDocument(header, refusal.original, refusal.context.transactionCount, refusal.reasonCode, refusal.reasonText) }
        : creditStatusDocument(header, refusal.original, 'RJCT', refusal.reasonCode, refusal.reasonText), messageName);
  }

  /** A pain.013 to an integrator's customer: originate(request_to_pay), or the RJCT pain.014 at once. */
  async #receiveRequestToPay(inbound: SchemeInbound, document: string, received: WireMessage): Promise<void> {
    const messageName = this.#definition.messages.receiving?.requestToPayStatus;
    if (messageName === undefined) return this.#notReceived(received);
    const read = readInboundPain013(document, this.#deps.scheme);
    if (read.kind !== 'unreadable') this.#requestsToPay.set(read.original.messageId, read.context);
    await this.#originate(inbound, 'request_to_pay', read, received, (refusal, header) =>
      requestToPayStatusDocument(header, refusal.original, refusal.context, { status: 'RJCT', reasonCode: refusal.reasonCode, reasonText: refusal.reasonText }), messageName);
  }

  /**
   * Hands a scheme-originated message to the service, or refuses it to the scheme at once: when
   * its body cannot be mapped into a valid message (without asking the service), or when the
   * service refuses it. The refusal's MsgId derives from the message's inbound transaction id, so
   * a resend of the message is refused with the same MsgId.
   */
  async #originate<Context>(
    inbound: SchemeInbound,
    kind: SchemeRequest['kind'],
    read: InboundRead<Context>,
    received: WireMessage,
    refusal: (refused: { readonly original: SchemeOriginal; readonly reasonCode: string; readonly reasonText: string; readonly context: Context }, header: AnswerHeader) => Written,
    answerName: string,
  ): Promise<void> {
    if (read.kind === 'unreadable') {
      this.#deps.log?.warn({ scheme: this.#deps.scheme, messageName: received.messageName, error: read.error }, 'scheme-originated message that cannot be read discarded');
      return;
    }
    if (this.#correlations.get(read.original.messageId) !== undefined) {
      // A MsgId this connector wrote coming back is no message for an integrator: never taken for one.
      this.#deps.log?.warn({ scheme: this.#deps.scheme, messageId: read.original.messageId }, 'scheme-originated message with a MsgId this connector sent discarded');
      return;
    }
    let refused = read.kind === 'refused' ? read : undefined;
    if (read.kind === 'mapped') {
      const outcome = await inbound.originate({
        kind,
        scheme: this.#deps.scheme,
        original: read.original,
        institution: read.institution,
        bodyJson: read.bodyJson,
        received,
        receivedAt: this.#deps.clock.now(),
      });
      if (outcome.kind === 'refused') refused = { ...read, kind: 'refused', reasonCode: outcome.reasonCode, reasonText: outcome.reasonText };
    }
    if (refused === undefined) return;
    const key = inboundTransactionId(this.#deps.scheme, read.original.messageName, read.original.messageId);
    const header = this.#answerHeader(answerName, key);
    const written = refusal(refused, header);
    if (!written.ok) {
      this.#deps.log?.warn({ scheme: this.#deps.scheme, messageId: read.original.messageId, reasonCode: refused.reasonCode, error: written.reasonText }, 'refusal that cannot be written; the message is left unanswered');
      return;
    }
    const sent = await this.#send({ idempotencyKey: key, traceparent: null }, header.messageName, header.messageId, written.document);
    // Not answered: the transport refuses the message, so the operator delivers it again and the refusal is sent again (same MsgId).
    if (sent.kind === 'failed') throw new Error(`the refusal of ${read.original.messageId} was not sent: ${sent.error}`);
  }

  /** A camt.056 withdrawing a request-to-pay the scheme brought to an integrator's customer: one WithdrawalReport. */
  async #receiveWithdrawal(inbound: SchemeInbound, document: string): Promise<void> {
    if (this.#definition.messages.receiving?.withdrawal === undefined) {
      this.#deps.log?.warn({ scheme: this.#deps.scheme }, 'withdrawal (camt.056) for a family that does not receive requests-to-pay discarded');
      return;
    }
    const read = readInboundCamt056(document, this.#deps.scheme);
    if (read.kind === 'unreadable') {
      this.#deps.log?.warn({ scheme: this.#deps.scheme, error: read.error }, 'scheme message that is not a readable camt.056 discarded');
      return;
    }
    if (this.#correlations.get(read.context.request.messageId) !== undefined) {
      this.#deps.log?.warn({ scheme: this.#deps.scheme, originalMessageId: read.context.request.messageId }, 'camt.056 about a request-to-pay this connector sent discarded');
      return;
    }
    this.#withdrawals.set(read.report.caseId, read.context);
    await inbound.receive({ ...read.report, receivedAt: this.#deps.clock.now() });
  }

  #notReceived(received: WireMessage): void {
    this.#deps.log?.warn({ scheme: this.#deps.scheme, messageName: received.messageName }, `scheme-originated message ${this.family} does not receive discarded`);
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

  /**
   * What a pacs.002 status is about. A MsgId this connector remembers writing: that transfer.
   * Otherwise it may be the scheme's final word on a credit it brought to an integrator (its own
   * pacs.008, whose MsgId the connector never wrote): a MsgId that reverses is taken for the
   * transfer it reverses to, with the inbound credit as `inboundKey` (the engine takes whichever
   * transaction exists); one that does not reverse can only be the inbound credit. The uetr is
   * OrgnlUETR, or '' when the report names none (an RTC credit may carry none). A status about a
   * message that is no pacs.008 (an enquiry's pacs.028) is this connector's only from its memory
   * or a reversible MsgId, as before.
   */
  #subjectOf(status: ReportedStatus): { readonly idempotencyKey: string; readonly uetr: string; readonly inboundKey?: string } | undefined {
    const messageId = status.originalMessageId;
    if (messageId === undefined) return undefined;
    const correlation = this.#correlations.get(messageId);
    if (correlation !== undefined) return { idempotencyKey: correlation.idempotencyKey, uetr: (status.uetr ?? correlation.uetr).toLowerCase() };
    const reversed = idempotencyKeyOf(messageId);
    const name = status.originalMessageName;
    if (name !== undefined && !name.startsWith('pacs.008.')) {
      const uetr = status.uetr?.toLowerCase();
      return reversed === undefined || uetr === undefined ? undefined : { idempotencyKey: reversed, uetr };
    }
    const inboundKey = inboundTransactionId(this.#deps.scheme, name ?? this.#definition.messages.creditTransfer.version, messageId);
    const uetr = status.uetr?.toLowerCase() ?? '';
    return reversed === undefined ? { idempotencyKey: inboundKey, uetr } : { idempotencyKey: reversed, uetr, inboundKey };
  }

  /** The idempotency key behind a MsgId this connector wrote: remembered, else reversed. */
  #keyOf(messageId: string): string | undefined {
    return this.#correlations.get(messageId)?.idempotencyKey ?? idempotencyKeyOf(messageId);
  }

  #report(status: ReportedStatus, json: Readonly<Record<string, unknown>>): SchemeReport | undefined {
    const about = this.#subjectOf(status);
    if (about === undefined) return undefined;
    const base = { scheme: this.#deps.scheme, ...about, message: json, receivedAt: this.#deps.clock.now() };
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
 * Why an answer cannot be written (its reason code or its content): failed, not retryable.
 */
function notWritable(problem: { readonly reasonCode: string; readonly reasonText: string }): SubmitOutcome {
  return { kind: 'failed', retryable: false, error: `${problem.reasonCode}: ${problem.reasonText}`, reasonCode: problem.reasonCode };
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

/** A reason text as ZA_RPP restricts it (the interface's reason description), cut at a word boundary. */
function cut(text: string): string {
  return cutAtWord(text, REASON_DESCRIPTION_LENGTH_MAX);
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
