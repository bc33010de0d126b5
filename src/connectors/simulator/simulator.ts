import { DEFAULTS } from '../../config/schema.js';
import type { SchemeName } from '../../domain/schemes.js';
import type { Clock } from '../../ports/clock.js';
import type { SubmitOutcome } from '../../ports/scheme.js';
import { BoundedMap } from '../../lib/bounded-map.js';
import { acmt023From, type Acmt023Request } from '../iso20022/acmt023.js';
import { acmt024Document, type Acmt024Outcome } from '../iso20022/acmt024.js';
import { camt029Document, type CancellationConfirmation } from '../iso20022/camt029.js';
import { camt056From, EXPIRED_REASON, type Camt056Request } from '../iso20022/camt056.js';
import { isoDateTime, pacs008From } from '../iso20022/pacs008.js';
import { pacs002Document, type OriginalTransfer } from '../iso20022/pacs002.js';
import { pacs028From } from '../iso20022/pacs028.js';
import { pain013From } from '../iso20022/pain013.js';
import { pain014Document, type OriginalRequestToPay } from '../iso20022/pain014.js';
import { reasonText } from '../iso20022/reason-codes.js';
import { readDocument, type IsoDocument } from '../iso20022/xml.js';
import type { InboundHandler, SchemeMessage, SchemeTransport, TransportContext } from '../transport.js';
import { defaultDirectoryPath, loadDirectory, type DirectoryAnswer, type DirectoryResult } from './directory.js';
import { scenarioFor, scenarioSteps, type RequestToPayScenario, type ScenarioStep } from './request-to-pay-values.js';
import { behaviourFor, UNKNOWN_STATUS_CODE, type SimulatedBehaviour } from './test-values.js';

/**
 * The built-in scheme simulator: a transport whose far end is a simulated scheme operator. It
 * plays the external party, so it keeps its state in memory and answers with timers (the engine,
 * by contrast, keeps every timer durable). It sees only what a scheme would see: the pacs.008,
 * pacs.028, acmt.023, pain.013 and camt.056 documents a family wrote. It answers later, through the
 * inbound side, with pacs.002, acmt.024, pain.014 and camt.029 documents of its own, which the
 * family maps back like any operator's answer.
 *
 * - The outcome is chosen by the creditor account number (test-values.ts, docs/simulator.md).
 * - An identifier determination (acmt.023) is answered from the directory (directory.ts, read at
 *   the first one from `directoryPath`, else the shipped directory.json); a resend of the same
 *   MsgId is one lookup, answered like a resubmitted transfer.
 * - A resubmission (same pacs.008 MsgId, which families derive from the idempotency key) is not a
 *   second transfer: the status already answered is answered again, or the answer still on its way comes once.
 * - An enquiry about a transfer it never received, or forgot (memory is bounded and not durable:
 *   after a restart it knows nothing), is answered RJCT/NOOR, which the family reports as
 *   `not_found`; the engine then resubmits with the same key.
 * - A request-to-pay (pain.013) is reported on with pain.014 documents over time, as the debtor
 *   account number or proxy value calls for (request-to-pay-values.ts, docs/simulator.md); its
 *   cancellation (camt.056) is answered with a camt.029. A resend of either (same MsgId, same case)
 *   is the same request or cancellation.
 * - An answer the receiver rejects is delivered again, a bounded number of times.
 */
export interface SimulatorOptions {
  readonly scheme: SchemeName;
  readonly clock: Clock;
  /** Delay before each answer (0 allowed). */
  readonly latencyMs: number;
  /** Delay of a late answer; by default just past the scheme's time budget. */
  readonly lateAnswerMs: number;
  /** Transfers remembered; the oldest are forgotten beyond it. */
  readonly entriesMax: number;
  /** Deliveries of one answer when the receiver keeps rejecting it. */
  readonly deliveryAttemptsMax: number;
  /** The identifier determination directory (JSON or YAML); the shipped directory.json when absent. */
  readonly directoryPath?: string;
}

export const SIMULATOR_DEFAULTS = {
  latencyMs: DEFAULTS.simulatorLatencyMs,
  entriesMax: 10_000,
  deliveryAttemptsMax: 5,
  /** Pause before delivering an answer again that the receiver rejected. */
  redeliveryDelayMs: 100,
} as const;

/** A late answer comes this long after the time budget has run out. */
const LATE_MARGIN_MS = 1_000;

/** Status report version answering each request version (same ISO 20022 generation). */
const STATUS_REPORT_FOR: ReadonlyMap<string, string> = new Map([
  ['pacs.008.001.08', 'pacs.002.001.10'],
  ['pacs.028.001.03', 'pacs.002.001.10'],
  ['pacs.008.001.10', 'pacs.002.001.12'],
  ['pacs.028.001.05', 'pacs.002.001.12'],
  ['pacs.008.001.12', 'pacs.002.001.14'],
]);

/** Identification report version answering each identification request version. */
const IDENTIFICATION_REPORT_FOR: ReadonlyMap<string, string> = new Map([['acmt.023.001.03', 'acmt.024.001.03']]);

/** Request-to-pay status report version answering each request-to-pay version, and answer version for each cancellation version. */
const REQUEST_TO_PAY_REPORT_FOR: ReadonlyMap<string, string> = new Map([['pain.013.001.09', 'pain.014.001.09']]);
const CANCELLATION_ANSWER_FOR: ReadonlyMap<string, string> = new Map([['camt.056.001.10', 'camt.029.001.11']]);

/** Reasons a cancellation is refused with when the request is already final, or unknown (ExternalPaymentCancellationRejection1Code). */
const ALREADY_PAID = 'ARDT';
const ALREADY_REJECTED = 'ARJT';
const NO_ORIGINAL = 'NOOR';

interface Answer {
  readonly status: string;
  readonly reasonCode?: string;
}

interface Transfer {
  readonly original: OriginalTransfer;
  readonly behaviour: SimulatedBehaviour;
  readonly statusReport: string;
  submissions: number;
  /** The latest status answered; undefined while the transfer is still being processed. */
  answered: Answer | undefined;
  /** The last status report sent, sent again on resubmission. */
  lastReport: string | undefined;
}

interface Lookup {
  readonly request: Acmt023Request;
  readonly reportName: string;
  /** The acmt.024 sent, sent again on a resend; undefined while the answer is on its way, or when none comes. */
  report: string | undefined;
}

interface RequestToPay {
  readonly original: OriginalRequestToPay;
  readonly scenario: RequestToPayScenario;
  readonly reportName: string;
  /** XpryDt in epoch ms: nothing is reported after it (the scheme has expired the request). */
  readonly expiresAt: number | undefined;
  submissions: number;
  /** PAID or REJECTED once ACSC or RJCT was reported; CANCELLED once a cancellation was accepted (no report follows). */
  final: 'PAID' | 'REJECTED' | 'CANCELLED' | undefined;
  /** The last pain.014 sent, sent again on a resend. */
  lastReport: string | undefined;
}

interface Cancellation {
  /** The camt.029 sent, sent again on a resend; undefined while the answer is on its way. */
  answer: string | undefined;
}

/** Simulator settings a caller may set for every simulated scheme. */
export type SimulatorOverrides = Partial<Omit<SimulatorOptions, 'scheme' | 'clock'>>;

/**
 * A simulated scheme's settings from its configuration. Latency: the scheme's
 * `simulatorLatencyMs`, else `overrides.latencyMs`, else the default; the directory: the scheme's
 * `simulatorDirectory`, else `overrides.directoryPath`, else the shipped one; the other settings
 * from `overrides` or the defaults.
 */
export function simulatorSettings(context: TransportContext, overrides: SimulatorOverrides = {}): Omit<SimulatorOptions, 'clock'> {
  const directoryPath = context.config?.simulatorDirectory ?? overrides.directoryPath;
  return {
    scheme: context.scheme,
    latencyMs: context.config?.simulatorLatencyMs ?? overrides.latencyMs ?? SIMULATOR_DEFAULTS.latencyMs,
    lateAnswerMs: overrides.lateAnswerMs ?? context.timeBudgetMs + LATE_MARGIN_MS,
    entriesMax: overrides.entriesMax ?? SIMULATOR_DEFAULTS.entriesMax,
    deliveryAttemptsMax: overrides.deliveryAttemptsMax ?? SIMULATOR_DEFAULTS.deliveryAttemptsMax,
    ...(directoryPath === undefined ? {} : { directoryPath }),
  };
}

/** A simulator transport on the caller's thread and clock (tests; the service runs threaded-simulator.ts). */
export function simulatorTransport(overrides: SimulatorOverrides = {}): (context: TransportContext) => SchemeSimulator {
  return (context) => new SchemeSimulator({ ...simulatorSettings(context, overrides), clock: context.clock });
}

export class SchemeSimulator implements SchemeTransport {
  readonly options: SimulatorOptions;
  readonly #transfers: BoundedMap<string, Transfer>;
  /** UETR -> pacs.008 MsgId, for enquiries that name only the UETR. */
  readonly #byUetr: BoundedMap<string, string>;
  /** MsgIds whose first submission already failed (transient_failure). */
  readonly #failedOnce: BoundedMap<string, true>;
  /** acmt.023 MsgId -> the lookup it asked for. */
  readonly #lookups: BoundedMap<string, Lookup>;
  /** pain.013 MsgId -> the request-to-pay. */
  readonly #requests: BoundedMap<string, RequestToPay>;
  /** UETR -> pain.013 MsgId, for cancellations that name only the UETR. */
  readonly #requestsByUetr: BoundedMap<string, string>;
  /** camt.056 Case/Id -> the cancellation. */
  readonly #cancellations: BoundedMap<string, Cancellation>;
  /** Loaded at the first acmt.023: most simulated schemes never get one. */
  #directory: DirectoryResult | undefined;
  readonly #timers = new Set<NodeJS.Timeout>();
  #handler: InboundHandler | undefined;
  #sequence = 0;

  constructor(options: SimulatorOptions) {
    for (const key of ['latencyMs', 'lateAnswerMs', 'entriesMax', 'deliveryAttemptsMax'] as const) {
      if (!Number.isInteger(options[key]) || options[key] < 0) throw new RangeError(`simulator ${key} must be a non-negative integer, got ${options[key]}`);
    }
    this.options = options;
    this.#transfers = new BoundedMap(options.entriesMax);
    this.#byUetr = new BoundedMap(options.entriesMax);
    this.#failedOnce = new BoundedMap(options.entriesMax);
    this.#lookups = new BoundedMap(options.entriesMax);
    this.#requests = new BoundedMap(options.entriesMax);
    this.#requestsByUetr = new BoundedMap(options.entriesMax);
    this.#cancellations = new BoundedMap(options.entriesMax);
  }

  /** Distinct transfers the simulated scheme holds. */
  get transferCount(): number {
    return this.#transfers.size;
  }

  /** How often the transfer with this UETR was submitted (0 when unknown). */
  submissionsOf(uetr: string): number {
    const messageId = this.#byUetr.get(uetr.toLowerCase());
    return messageId === undefined ? 0 : (this.#transfers.get(messageId)?.submissions ?? 0);
  }

  /** How often the request-to-pay with this UETR was sent (0 when unknown). */
  requestToPaySendsOf(uetr: string): number {
    const messageId = this.#requestsByUetr.get(uetr.toLowerCase());
    return messageId === undefined ? 0 : (this.#requests.get(messageId)?.submissions ?? 0);
  }

  send(message: SchemeMessage): Promise<SubmitOutcome> {
    const document = readDocument(message.document);
    if (!document.ok) return Promise.resolve(refused(document.error));
    if (document.messageName.startsWith('pacs.008.')) return Promise.resolve(this.#creditTransfer(document));
    if (document.messageName.startsWith('pacs.028.')) return Promise.resolve(this.#enquiry(document));
    if (document.messageName.startsWith('acmt.023.')) return Promise.resolve(this.#identification(document));
    if (document.messageName.startsWith('pain.013.')) return Promise.resolve(this.#requestToPay(document));
    if (document.messageName.startsWith('camt.056.')) return Promise.resolve(this.#cancellation(document));
    return Promise.resolve(refused(`the simulator takes pacs.008, pacs.028, acmt.023, pain.013 and camt.056, not ${document.messageName}`));
  }

  start(handler: InboundHandler): Promise<void> {
    this.#handler = handler;
    return Promise.resolve();
  }

  stop(): Promise<void> {
    this.#handler = undefined;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    return Promise.resolve();
  }

  #creditTransfer(document: IsoDocument): SubmitOutcome {
    const read = pacs008From(document);
    if (!read.ok) return refused(read.error);
    const summary = read.value;
    const known = this.#transfers.get(summary.messageId);
    if (known !== undefined) {
      known.submissions += 1;
      // The same answer again; one still on its way is not doubled.
      const report = known.lastReport;
      if (report !== undefined && known.behaviour.kind !== 'silent') this.#later(this.options.latencyMs, () => this.#deliver(report));
      return { kind: 'delivered' };
    }
    const behaviour = behaviourFor(summary.creditorAccount);
    if (behaviour.kind === 'permanent_failure') return { kind: 'failed', retryable: false, error: 'simulated permanent transport failure (test value PERMANENT-FAILURE)' };
    if (behaviour.kind === 'transient_failure' && !this.#failedOnce.has(summary.messageId)) {
      this.#failedOnce.set(summary.messageId, true);
      return { kind: 'failed', retryable: true, error: 'simulated transient transport failure (test value TRANSIENT-FAILURE); send it again' };
    }
    const transfer: Transfer = {
      original: {
        messageId: summary.messageId,
        messageName: summary.messageName,
        createdAt: summary.createdAt,
        ...(summary.instructionId === undefined ? {} : { instructionId: summary.instructionId }),
        endToEndId: summary.endToEndId,
        ...(summary.transactionId === undefined ? {} : { transactionId: summary.transactionId }),
        ...(summary.uetr === undefined ? {} : { uetr: summary.uetr }),
      },
      behaviour,
      statusReport: STATUS_REPORT_FOR.get(summary.messageName) ?? 'pacs.002.001.10',
      submissions: 1,
      answered: undefined,
      lastReport: undefined,
    };
    this.#transfers.set(summary.messageId, transfer);
    if (summary.uetr !== undefined) this.#byUetr.set(summary.uetr.toLowerCase(), summary.messageId);
    this.#play(transfer);
    return { kind: 'delivered' };
  }

  /** Schedules the answers the transfer's test value calls for. */
  #play(transfer: Transfer): void {
    const { latencyMs, lateAnswerMs } = this.options;
    const { behaviour } = transfer;
    switch (behaviour.kind) {
      case 'approve':
      case 'transient_failure':
        this.#later(latencyMs, () => this.#answer(transfer, { status: 'ACSC' }));
        return;
      case 'reject':
        this.#later(latencyMs, () => this.#answer(transfer, { status: 'RJCT', reasonCode: behaviour.reasonCode }));
        return;
      case 'late':
        this.#later(lateAnswerMs, () => this.#answer(transfer, { status: 'ACSC' }));
        return;
      case 'silent':
      case 'permanent_failure':
        return;
      case 'twice':
        this.#later(latencyMs, () => {
          const report = this.#answer(transfer, { status: 'ACSC' });
          this.#later(latencyMs, () => this.#deliver(report));
        });
        return;
      case 'pending_then_accept':
        this.#later(latencyMs, () => {
          this.#answer(transfer, { status: 'PDNG' });
          this.#later(latencyMs, () => this.#answer(transfer, { status: 'ACSC' }));
        });
        return;
      case 'unknown_status':
        this.#later(latencyMs, () => this.#answer(transfer, { status: UNKNOWN_STATUS_CODE }));
        return;
    }
  }

  #enquiry(document: IsoDocument): SubmitOutcome {
    const read = pacs028From(document);
    if (!read.ok) return refused(read.error);
    const { original } = read.value;
    const messageId = original.messageId ?? (original.uetr === undefined ? undefined : this.#byUetr.get(original.uetr.toLowerCase()));
    const transfer = messageId === undefined ? undefined : this.#transfers.get(messageId);
    const statusReport = STATUS_REPORT_FOR.get(read.value.messageName) ?? 'pacs.002.001.10';
    if (transfer === undefined) {
      const about: OriginalTransfer = { ...original, messageId: original.messageId ?? read.value.messageId, messageName: original.messageName ?? read.value.messageName };
      this.#later(this.options.latencyMs, () => this.#deliver(this.#report(about, statusReport, { status: 'RJCT', reasonCode: 'NOOR' })));
      return { kind: 'delivered' };
    }
    if (transfer.behaviour.kind !== 'silent') {
      const answer = transfer.answered ?? { status: 'PDNG' };
      this.#later(this.options.latencyMs, () => this.#deliver(this.#report(transfer.original, transfer.statusReport, answer)));
    }
    return { kind: 'delivered' };
  }

  #identification(document: IsoDocument): SubmitOutcome {
    const read = acmt023From(document);
    if (!read.ok) return refused(read.error);
    const request = read.value;
    const reportName = IDENTIFICATION_REPORT_FOR.get(request.messageName);
    if (reportName === undefined) return refused(`the simulator answers ${[...IDENTIFICATION_REPORT_FOR.keys()].join(', ')}, not ${request.messageName}`);
    const known = this.#lookups.get(request.messageId);
    if (known !== undefined) {
      // The same answer again; one still on its way is not doubled.
      const report = known.report;
      if (report !== undefined) this.#later(this.options.latencyMs, () => this.#deliver(report));
      return { kind: 'delivered' };
    }
    this.#directory ??= loadDirectory(this.options.directoryPath ?? defaultDirectoryPath());
    if (!this.#directory.ok) return refused(this.#directory.error);
    const { identifier } = request;
    const answer = this.#directory.directory.lookup({ ...identifier, accountAgentBicfi: request.accountAgentBicfi });
    const lookup: Lookup = { request, reportName, report: undefined };
    this.#lookups.set(request.messageId, lookup);
    this.#playLookup(lookup, answer);
    return { kind: 'delivered' };
  }

  /** Schedules the answer the directory calls for. */
  #playLookup(lookup: Lookup, answer: DirectoryAnswer): void {
    const { latencyMs, lateAnswerMs } = this.options;
    switch (answer.kind) {
      case 'resolved':
        this.#later(latencyMs, () => this.#answerLookup(lookup, { verified: true, account: answer.account }));
        return;
      case 'late':
        this.#later(lateAnswerMs, () => this.#answerLookup(lookup, { verified: true, account: answer.account }));
        return;
      case 'failed':
        this.#later(latencyMs, () => this.#answerLookup(lookup, { verified: false, reasonCode: answer.reasonCode, reasonText: reasonText(answer.reasonCode) }));
        return;
      case 'silent':
        return;
    }
  }

  #answerLookup(lookup: Lookup, outcome: Acmt024Outcome): void {
    const { request } = lookup;
    const report = acmt024Document({
      messageName: lookup.reportName,
      messageId: this.#nextMessageId(),
      createdAt: isoDateTime(this.options.clock.now()),
      // The operator answers the bank that asked.
      assigner: request.assignee,
      assignee: request.assigner,
      original: { messageId: request.messageId, ...(request.createdAt === undefined ? {} : { createdAt: request.createdAt }) },
      originalId: request.verificationId,
      originalPartyAndAccount: request.partyAndAccount,
      outcome,
    });
    lookup.report = report;
    this.#deliver(report);
  }

  #requestToPay(document: IsoDocument): SubmitOutcome {
    const read = pain013From(document);
    if (!read.ok) return refused(read.error);
    const summary = read.value;
    const reportName = REQUEST_TO_PAY_REPORT_FOR.get(summary.messageName);
    if (reportName === undefined) return refused(`the simulator answers ${[...REQUEST_TO_PAY_REPORT_FOR.keys()].join(', ')}, not ${summary.messageName}`);
    const known = this.#requests.get(summary.messageId);
    if (known !== undefined) {
      known.submissions += 1;
      // The latest report again; one still on its way is not doubled, and a withdrawn request reports nothing more.
      const report = known.lastReport;
      if (report !== undefined && known.final !== 'CANCELLED') this.#later(this.options.latencyMs, () => this.#deliver(report));
      return { kind: 'delivered' };
    }
    const expiresAt = summary.expiry === undefined ? undefined : Date.parse(summary.expiry);
    const request: RequestToPay = {
      original: {
        messageId: summary.messageId,
        messageName: summary.messageName,
        ...(summary.createdAt === undefined ? {} : { createdAt: summary.createdAt }),
        paymentInformationId: summary.paymentInformationId ?? summary.messageId,
        ...(summary.instructionId === undefined ? {} : { instructionId: summary.instructionId }),
        endToEndId: summary.endToEndId,
        ...(summary.uetr === undefined ? {} : { uetr: summary.uetr }),
      },
      scenario: scenarioFor({ proxy: summary.debtorProxy?.value, account: summary.debtorAccount }),
      reportName,
      expiresAt: expiresAt === undefined || Number.isNaN(expiresAt) ? undefined : expiresAt,
      submissions: 1,
      final: undefined,
      lastReport: undefined,
    };
    this.#requests.set(summary.messageId, request);
    if (summary.uetr !== undefined) this.#requestsByUetr.set(summary.uetr.toLowerCase(), summary.messageId);
    this.#playRequest(request, scenarioSteps(request.scenario));
    return { kind: 'delivered' };
  }

  /** Sends the scenario's reports one after another; stops once the request is withdrawn or past its expiry. */
  #playRequest(request: RequestToPay, steps: readonly ScenarioStep[]): void {
    const [step, ...rest] = steps;
    if (step === undefined) return;
    this.#later(this.options.latencyMs * step.afterLatencies, () => {
      if (request.final === 'CANCELLED') return;
      if (request.expiresAt !== undefined && this.options.clock.now() > request.expiresAt) return;
      this.#reportRequest(request, step);
      this.#playRequest(request, rest);
    });
  }

  #reportRequest(request: RequestToPay, step: ScenarioStep): void {
    const now = this.options.clock.now();
    const report = pain014Document({
      messageName: request.reportName,
      messageId: this.#nextMessageId(),
      createdAt: isoDateTime(now),
      initiatingParty: { Nm: `${this.options.scheme} operator (simulated)` },
      original: request.original,
      status: step.status,
      ...(step.reasonCode === undefined ? {} : { reasonCode: step.reasonCode, additionalInformation: reasonText(step.reasonCode) }),
      ...(step.status === 'ACSC' || step.status === 'ACCP' ? { acceptedAt: isoDateTime(now) } : {}),
    });
    if (step.status === 'ACSC') request.final = 'PAID';
    if (step.status === 'RJCT') request.final = 'REJECTED';
    request.lastReport = report;
    this.#deliver(report);
  }

  #cancellation(document: IsoDocument): SubmitOutcome {
    const read = camt056From(document);
    if (!read.ok) return refused(read.error);
    const cancellation = read.value;
    const answerName = CANCELLATION_ANSWER_FOR.get(cancellation.messageName);
    if (answerName === undefined) return refused(`the simulator answers ${[...CANCELLATION_ANSWER_FOR.keys()].join(', ')}, not ${cancellation.messageName}`);
    const known = this.#cancellations.get(cancellation.caseId);
    if (known !== undefined) {
      // The same answer again; one still on its way is not doubled.
      const answer = known.answer;
      if (answer !== undefined) this.#later(this.options.latencyMs, () => this.#deliver(answer));
      return { kind: 'delivered' };
    }
    const { original } = cancellation;
    const messageId = original.messageId ?? (original.uetr === undefined ? undefined : this.#requestsByUetr.get(original.uetr.toLowerCase()));
    const request = messageId === undefined ? undefined : this.#requests.get(messageId);
    const decision = decideCancellation(request, cancellation.reason);
    if (request !== undefined && decision.confirmation === 'CNCL') request.final ??= 'CANCELLED';
    const entry: Cancellation = { answer: undefined };
    this.#cancellations.set(cancellation.caseId, entry);
    this.#later(this.options.latencyMs, () => {
      entry.answer = this.#cancellationAnswer(cancellation, answerName, decision);
      this.#deliver(entry.answer);
    });
    return { kind: 'delivered' };
  }

  #cancellationAnswer(cancellation: Camt056Request, messageName: string, decision: CancellationDecision): string {
    const { original } = cancellation;
    return camt029Document({
      messageName,
      messageId: this.#nextMessageId(),
      createdAt: isoDateTime(this.options.clock.now()),
      // The operator answers the bank that asked.
      assigner: cancellation.assignee,
      assignee: cancellation.assigner,
      resolvedCase: { id: cancellation.caseId, creator: cancellation.caseCreator ?? cancellation.assigner },
      confirmation: decision.confirmation,
      original: {
        messageId: original.messageId ?? cancellation.assignmentId,
        messageName: original.messageName ?? 'pain.013.001.09',
        ...(original.instructionId === undefined ? {} : { instructionId: original.instructionId }),
        ...(original.endToEndId === undefined ? {} : { endToEndId: original.endToEndId }),
        ...(original.uetr === undefined ? {} : { uetr: original.uetr }),
      },
      ...(decision.reasonCode === undefined ? {} : { reasonCode: decision.reasonCode, additionalInformation: reasonText(decision.reasonCode) }),
    });
  }

  #answer(transfer: Transfer, answer: Answer): string {
    const report = this.#report(transfer.original, transfer.statusReport, answer);
    transfer.answered = answer;
    transfer.lastReport = report;
    this.#deliver(report);
    return report;
  }

  #report(original: OriginalTransfer, messageName: string, answer: Answer): string {
    const now = this.options.clock.now();
    return pacs002Document({
      messageName,
      messageId: this.#nextMessageId(),
      createdAt: isoDateTime(now),
      original,
      status: answer.status,
      ...(answer.reasonCode === undefined ? {} : { reasonCode: answer.reasonCode, additionalInformation: reasonText(answer.reasonCode) }),
      ...(answer.status === 'ACSC' ? { acceptedAt: isoDateTime(now) } : {}),
    });
  }

  /** MsgId of an answer: unique per simulator (time and sequence), at most 35 characters. */
  #nextMessageId(): string {
    this.#sequence += 1;
    const now = this.options.clock.now();
    return `SIM${this.options.scheme.replaceAll('_', '')}${now.toString(36).toUpperCase()}${String(this.#sequence).padStart(6, '0')}`.slice(0, 35);
  }

  #deliver(document: string, attempt = 1): void {
    const handler = this.#handler;
    if (handler === undefined) return;
    handler({ document }).catch(() => {
      if (attempt < this.options.deliveryAttemptsMax) this.#later(SIMULATOR_DEFAULTS.redeliveryDelayMs * attempt, () => this.#deliver(document, attempt + 1));
    });
  }

  #later(delayMs: number, action: () => void): void {
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      action();
    }, delayMs);
    this.#timers.add(timer);
  }
}

interface CancellationDecision {
  readonly confirmation: CancellationConfirmation;
  readonly reasonCode?: string;
}

/**
 * What the simulated operator answers a cancellation: refused when the request is already paid
 * (ARDT) or rejected (ARJT), whatever the reason, since the service must learn what happened;
 * the service's expiry notice (EXPIRED) is otherwise acknowledged, even for a request the operator
 * does not know; an integrator's cancellation of an unknown request is refused (NOOR), and one of a
 * `cancellation_refused` request with that value's reason; anything else is cancelled (CNCL), and
 * no report follows.
 */
function decideCancellation(request: RequestToPay | undefined, reason: string | undefined): CancellationDecision {
  if (request?.final === 'PAID') return { confirmation: 'RJCR', reasonCode: ALREADY_PAID };
  if (request?.final === 'REJECTED') return { confirmation: 'RJCR', reasonCode: ALREADY_REJECTED };
  if (reason === EXPIRED_REASON) return { confirmation: 'CNCL' };
  if (request === undefined) return { confirmation: 'RJCR', reasonCode: NO_ORIGINAL };
  if (request.scenario.kind === 'cancellation_refused' && request.final === undefined) return { confirmation: 'RJCR', reasonCode: request.scenario.reasonCode };
  return { confirmation: 'CNCL' };
}

/** A document the simulated operator cannot take: sending it again cannot help. */
function refused(error: string): SubmitOutcome {
  return { kind: 'failed', retryable: false, error: `simulator refused the message: ${error}` };
}
