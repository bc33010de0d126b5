import type { SchemeName } from '../../domain/schemes.js';
import type { Clock } from '../../ports/clock.js';
import type {
  ConnectorCapabilities,
  OutboundTransfer,
  SchemeConnector,
  SchemeInbound,
  SchemeLimits,
  SchemeReport,
  SchemeRuleOutcome,
  SubmitOutcome,
} from '../../ports/scheme.js';
import { BoundedMap } from '../../lib/bounded-map.js';
import { OK, reject, type SchemeRule } from '../rules.js';
import type { InboundSchemeMessage, SchemeMessage, SchemeTransport } from '../transport.js';
import { enquiryMessageId, idempotencyKeyOf, schemeMessageId } from './ids.js';
import { readPacs002, type OriginalTransfer, type ReportedStatus } from './pacs002.js';
import { isoAmountFits, isoDateTime, mapCreditTransfer, pacs008Document, type Pacs008Settings } from './pacs008.js';
import { pacs028Document } from './pacs028.js';
import { reasonText } from './reason-codes.js';
import { statusOf, type StatusTable } from './status.js';
import { textLeaves } from './xml.js';

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

class IsoSchemeConnector implements SchemeConnector {
  readonly family: string;
  readonly schemes: readonly SchemeName[];
  readonly capabilities: ConnectorCapabilities;
  readonly #definition: SchemeFamily;
  readonly #deps: ConnectorDeps;
  /** MsgId (of a pacs.008 or pacs.028) -> the transfer it belongs to. */
  readonly #correlations: BoundedMap<string, Correlation>;
  #inbound: SchemeInbound | undefined;
  #enquiries = 0;

  constructor(definition: SchemeFamily, deps: ConnectorDeps) {
    if (!definition.schemes.includes(deps.scheme)) throw new RangeError(`family ${definition.family} does not serve ${deps.scheme}`);
    this.family = definition.family;
    this.schemes = definition.schemes;
    this.capabilities = definition.capabilities;
    this.#definition = definition;
    this.#deps = deps;
    this.#correlations = new BoundedMap(deps.correlationEntriesMax ?? CORRELATION_ENTRIES_MAX);
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

  async start(inbound: SchemeInbound): Promise<void> {
    this.#inbound = inbound;
    await this.#deps.transport.start((message) => this.#receive(message));
  }

  async stop(): Promise<void> {
    this.#inbound = undefined;
    await this.#deps.transport.stop();
  }

  async #send(transfer: OutboundTransfer, messageName: string, messageId: string, document: string): Promise<SubmitOutcome> {
    const message: SchemeMessage = {
      scheme: this.#deps.scheme,
      messageName,
      messageId,
      idempotencyKey: transfer.idempotencyKey,
      document,
      traceparent: transfer.traceparent,
    };
    try {
      return await this.#deps.transport.send(message);
    } catch (error) {
      // A transport that throws has not said the operator took the message: sending again is safe (same MsgId).
      return { kind: 'failed', retryable: true, error: error instanceof Error ? error.message : String(error) };
    }
  }

  /**
   * Kept for every message sent: answers may name only the MsgId (a report about the whole
   * message has no UETR). After a restart the memory is empty, and reversible MsgIds still lead
   * back to the key; the engine's enquiries re-fill it.
   */
  #remember(messageId: string, transfer: OutboundTransfer): void {
    this.#correlations.set(messageId, { idempotencyKey: transfer.idempotencyKey, uetr: transfer.uetr });
  }

  /** A message from the operator: each transaction status in it becomes one SchemeReport. */
  async #receive(message: InboundSchemeMessage): Promise<void> {
    const inbound = this.#inbound;
    if (inbound === undefined) return;
    const read = readPacs002(message.document);
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
