import { randomUUID } from 'node:crypto';
import type { SchemeName } from '../../domain/schemes.js';
import type { Clock, Ids } from '../../ports/clock.js';
import type { SubmitOutcome } from '../../ports/scheme.js';
import { acmt023From } from '../iso20022/acmt023.js';
import { acmt024Document, readAcmt024 } from '../iso20022/acmt024.js';
import { camt029Document, readCamt029 } from '../iso20022/camt029.js';
import { camt056From, EXPIRED_REASON } from '../iso20022/camt056.js';
import { isoDateTime, pacs008From } from '../iso20022/pacs008.js';
import { pacs002Document, readPacs002, type OriginalTransfer } from '../iso20022/pacs002.js';
import { pacs028From } from '../iso20022/pacs028.js';
import { pain013From } from '../iso20022/pain013.js';
import { pain014Document, readPain014 } from '../iso20022/pain014.js';
import { reasonText } from '../iso20022/reason-codes.js';
import { readDocument, text, type IsoDocument } from '../iso20022/xml.js';
import { defaultDirectoryPath, loadDirectory, type DirectoryResult } from './directory.js';
import {
  inboundCreditDocument,
  inboundLookupDocument,
  inboundMessagesOf,
  inboundRequestToPayDocument,
  inboundWithdrawalDocument,
  type CreditPayee,
  type InboundMessages,
  type WriteResult,
} from './inbound-documents.js';
import { checkOrder, CREDIT_CANCELLED_REASON, isRequestToPayScenario, WITHDRAWAL_REASON, type InboundOrder, type InboundScenario } from './inbound-values.js';
import type {
  Answer,
  CancellationDecision,
  InboundAnswer,
  InboundRecord,
  InboundStage,
  LookupRecord,
  OperatorDocument,
  OperatorState,
  OriginatedDocument,
  RequestToPayRecord,
  TransferRecord,
} from './operator-state.js';
import { scenarioFor, scenarioSteps } from './request-to-pay-values.js';
import { behaviourFor, behaviourSteps, type TransferStep } from './test-values.js';

/**
 * The simulated scheme operator's decisions, one copy for both simulators: the built-in one
 * (simulator.ts: state in memory, timers, answers handed to the connector in the process) and the
 * standalone one (src/operator/: state in SQLite, durable timers, answers sent over the operator
 * link). It sees only what a scheme would see: the pacs.008, pacs.028, acmt.023, pain.013 and
 * camt.056 documents a family wrote. It answers later with pacs.002, acmt.024, pain.014 and camt.029
 * documents of its own, which the family maps back like any operator's answer.
 *
 * - The outcome is chosen by the creditor account number (test-values.ts, docs/simulator.md).
 * - An identifier determination (acmt.023) is answered from the directory (directory.ts, read at
 *   the first one from `directoryPath`, else the shipped directory.json); a resend of the same
 *   MsgId is one lookup, answered like a resubmitted transfer.
 * - A resubmission (same pacs.008 MsgId, which families derive from the idempotency key) is not a
 *   second transfer: the status already answered is answered again, or the answer still on its way comes once.
 * - An enquiry about a transfer it does not know (never received, or forgotten by a state that
 *   forgets) is answered RJCT/NOOR, which the family reports as `not_found`; the engine then
 *   resubmits with the same key.
 * - A request-to-pay (pain.013) is reported on with pain.014 documents over time, as the debtor
 *   account number or proxy value calls for (request-to-pay-values.ts, docs/simulator.md); its
 *   cancellation (camt.056) is answered with a camt.029. A resend of either (same MsgId, same case)
 *   is the same request or cancellation.
 *
 * - It also originates traffic for an integrator's institution (`originate`, the receiving
 *   direction, CONTRACT §11): a lookup then a credit, a credit, a request-to-pay and its
 *   withdrawal, as the order's scenario says (inbound-values.ts, docs/simulator.md). It reads the
 *   service's answers (acmt.024, pacs.002, pain.014, camt.029), matched to the transaction by the
 *   original MsgId (or case id) they name, and gives the final word on an approved credit. An
 *   answer about a message it never originated is counted and ignored; a resend of one (same
 *   MsgId) changes nothing.
 *
 * Everything here is synchronous and goes through two ports: the state (operator-state.ts) and
 * the effects below. Whatever one message or one action changes, and the answers it schedules,
 * can therefore be committed together by a store.
 */

export interface SimulatedOperatorOptions {
  readonly scheme: SchemeName;
  readonly clock: Clock;
  /** Delay before each answer (0 allowed). */
  readonly latencyMs: number;
  /** Delay of a late answer (ANSWER-LATE, the directory's LATE entries). */
  readonly lateAnswerMs: number;
  /** The identifier determination directory (JSON or YAML); the shipped directory.json when absent. */
  readonly directoryPath?: string;
  /** UETRs of originated transactions: version-4 UUIDs. node:crypto's randomUUID when absent. */
  readonly ids?: Ids;
  /** Where the operator reports the service's answers it ignores (about nothing it originated). */
  readonly log?: { warn(details: Record<string, unknown>, message: string): void };
}

/** What `originate` started, for a caller to follow the transaction (inboundOf). */
export type OriginateResult =
  | {
      readonly ok: true;
      readonly scheme: SchemeName;
      readonly scenario: InboundScenario;
      /** Lowercase; `inboundOf` takes it. */
      readonly uetr: string;
      /** MsgIds of the documents sent so far: the acmt.023 (lookup), pacs.008 (credit) or pain.013 (requestToPay). */
      readonly messageIds: { readonly lookup?: string; readonly credit?: string; readonly requestToPay?: string };
    }
  | { readonly ok: false; readonly error: string };

/** What the operator has seen of an originated transaction. */
export interface InboundView {
  readonly scheme: SchemeName;
  readonly scenario: InboundScenario;
  readonly uetr: string;
  readonly stage: InboundStage;
  readonly startedAt: number;
  readonly sent: readonly OriginatedDocument[];
  readonly answers: readonly InboundAnswer[];
  /** The operator's final word on an approved credit (pacs.002 ACSC, or RJCT in CREDIT_CANCELLED). */
  readonly finalWord?: { readonly status: string; readonly reasonCode?: string; readonly messageId: string };
  readonly resolvedAccount?: string;
}

/** Work the operator schedules for later: plain data, so a store can keep it across a restart. */
export type OperatorAction =
  /** Answer step `step` of the transfer's behaviour (behaviourSteps). */
  | { readonly type: 'transfer'; readonly messageId: string; readonly step: number }
  /** Report step `step` of the request-to-pay's scenario (scenarioSteps). */
  | { readonly type: 'request'; readonly messageId: string; readonly step: number }
  /** Answer the lookup. */
  | { readonly type: 'lookup'; readonly messageId: string }
  /** Answer the cancellation. */
  | { readonly type: 'cancellation'; readonly caseId: string }
  /** Withdraw the originated request-to-pay (camt.056: CUST, or EXPIRED at its expiry), unless the service already reported it paid or refused. */
  | { readonly type: 'withdraw'; readonly uetr: string };

export interface OperatorEffects {
  /** Run `action` (SimulatedOperator.run) `delayMs` from now. */
  later(delayMs: number, action: OperatorAction): void;
  /**
   * Hand `document` to the service `delayMs` from now. `subject` is the MsgId of the message it is
   * about (the transfer, lookup or request): documents about one subject are handed on in order.
   */
  deliver(document: OperatorDocument, subject: string, delayMs: number): void;
}

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

/** What the ids port must give for a UETR. */
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Statuses by which the service approves a credit (pacs.002 TxSts). */
const APPROVED = new Set(['ACSP', 'ACCP']);

export class SimulatedOperator {
  readonly options: SimulatedOperatorOptions;
  readonly #state: OperatorState;
  readonly #effects: OperatorEffects;
  readonly #ids: Ids;
  /** Loaded at the first acmt.023: most simulated schemes never get one. */
  #directory: DirectoryResult | undefined;
  #ignoredAnswers = 0;

  constructor(options: SimulatedOperatorOptions, state: OperatorState, effects: OperatorEffects) {
    this.options = options;
    this.#state = state;
    this.#effects = effects;
    this.#ids = options.ids ?? { uuid: randomUUID };
  }

  /** Answers of the service about no message this operator originated (or one it forgot), ignored since it started. */
  get ignoredAnswerCount(): number {
    return this.#ignoredAnswers;
  }

  /** Distinct transfers the operator holds. */
  get transferCount(): number {
    return this.#state.transfers.size;
  }

  /** How often the transfer with this UETR was submitted (0 when unknown). */
  submissionsOf(uetr: string): number {
    return submissionsOf(this.#state, uetr);
  }

  /** How often the request-to-pay with this UETR was sent (0 when unknown). */
  requestToPaySendsOf(uetr: string): number {
    const messageId = this.#state.requests.idOf(uetr);
    return messageId === undefined ? 0 : (this.#state.requests.get(messageId)?.submissions ?? 0);
  }

  /** One document from the service: whether the operator took it. Its answers follow through the effects. */
  take(text: string): SubmitOutcome {
    const document = readDocument(text);
    if (!document.ok) return refused(document.error);
    if (document.messageName.startsWith('pacs.008.')) return this.#creditTransfer(document);
    if (document.messageName.startsWith('pacs.028.')) return this.#enquiry(document);
    if (document.messageName.startsWith('acmt.023.')) return this.#identification(document);
    if (document.messageName.startsWith('pain.013.')) return this.#requestToPay(document);
    if (document.messageName.startsWith('camt.056.')) return this.#cancellation(document);
    if (document.messageName.startsWith('acmt.024.')) return this.#lookupAnswer(text, document);
    if (document.messageName.startsWith('pacs.002.')) return this.#creditAnswer(text);
    if (document.messageName.startsWith('pain.014.')) return this.#requestToPayAnswer(text);
    if (document.messageName.startsWith('camt.029.')) return this.#withdrawalAnswer(text);
    return refused(`the simulator takes pacs.008, pacs.028, acmt.023, pain.013, camt.056, and acmt.024, pacs.002, pain.014, camt.029 answering its own, not ${document.messageName}`);
  }

  /** Work scheduled earlier through `later`. */
  run(action: OperatorAction): void {
    switch (action.type) {
      case 'transfer':
        this.#transferStep(action.messageId, action.step);
        return;
      case 'request':
        this.#requestStep(action.messageId, action.step);
        return;
      case 'lookup':
        this.#answerLookup(action.messageId);
        return;
      case 'cancellation':
        this.#answerCancellation(action.caseId);
        return;
      case 'withdraw':
        this.#withdraw(action.uetr);
        return;
    }
  }

  /**
   * Originates what the order's scenario starts with, for the institution it names: its first
   * document is handed to the service at once (through the `deliver` effect, like every answer),
   * what follows comes as the service answers. Nothing is kept when the order cannot be played.
   */
  originate(order: InboundOrder): OriginateResult {
    const checked = checkOrder(order);
    if (!checked.ok) return checked;
    const { scheme } = this.options;
    const messages = inboundMessagesOf(scheme);
    if (messages === undefined) return { ok: false, error: `the simulator originates nothing on ${scheme}` };
    const uetr = this.#ids.uuid().toLowerCase();
    if (!UUID_V4.test(uetr)) return { ok: false, error: `the ids port gave ${uetr}, no version-4 UUID` };
    const now = this.options.clock.now();
    const record: InboundRecord = { scenario: checked.order.scenario, order: checked.order, uetr, startedAt: now, stage: 'requested', sent: [], answers: [] };
    const started = this.#start(record, messages);
    if (!started.ok) return started;
    return { ok: true, scheme, scenario: record.scenario, uetr, messageIds: started.messageIds };
  }

  /** What the operator has seen of the transaction it originated with this UETR; undefined when it knows none. */
  inboundOf(uetr: string): InboundView | undefined {
    const record = this.#state.inbound.get(uetr.toLowerCase());
    if (record === undefined) return undefined;
    const finalWord = record.sent.find((document) => document.kind === 'final_word');
    return {
      scheme: this.options.scheme,
      scenario: record.scenario,
      uetr: record.uetr,
      stage: record.stage,
      startedAt: record.startedAt,
      sent: structuredClone(record.sent),
      answers: structuredClone(record.answers),
      ...(finalWord === undefined
        ? {}
        : { finalWord: { status: record.stage === 'cancelled' ? 'RJCT' : 'ACSC', ...(record.stage === 'cancelled' ? { reasonCode: CREDIT_CANCELLED_REASON } : {}), messageId: finalWord.messageId } }),
      ...(record.resolvedAccount === undefined ? {} : { resolvedAccount: record.resolvedAccount }),
    };
  }

  /** Sends the scenario's first document(s); the record is changed, not yet kept. */
  #start(record: InboundRecord, messages: InboundMessages): { readonly ok: true; readonly messageIds: Extract<OriginateResult, { ok: true }>['messageIds'] } | { readonly ok: false; readonly error: string } {
    const { order, scenario } = record;
    const { scheme, clock, latencyMs } = this.options;
    const now = clock.now();
    if (scenario === 'LOOKUP_THEN_CREDIT') {
      const messageId = this.#nextMessageId();
      const written = inboundLookupDocument({ scheme, messageId, createdAt: now, uetr: record.uetr }, order, messages);
      if (!written.ok) return written;
      record.stage = 'lookup_sent';
      this.#originated(record, 'lookup', { messageName: messages.lookup ?? '', messageId, document: written.document }, 0);
      return { ok: true, messageIds: { lookup: messageId } };
    }
    if (isRequestToPayScenario(scenario)) {
      const messageId = this.#nextMessageId();
      const expiresAt = now + order.expiresInMs;
      const written = inboundRequestToPayDocument({ scheme, messageId, createdAt: now, uetr: record.uetr, expiresAt }, order, messages);
      if (!written.ok) return written;
      if (scenario !== 'REQUEST_TO_PAY' && messages.withdrawal === undefined) return { ok: false, error: `${scheme} has no request-to-pay cancellation` };
      const messageName = messages.requestToPay ?? '';
      record.stage = 'requested';
      record.request = { messageId, messageName, endToEndId: messageId, instructionId: messageId, expiresAt };
      this.#originated(record, 'request_to_pay', { messageName, messageId, document: written.document }, 0);
      if (scenario === 'REQUEST_TO_PAY_WITHDRAWN') this.#effects.later(order.withdrawAfterMs, { type: 'withdraw', uetr: record.uetr });
      if (scenario === 'REQUEST_TO_PAY_EXPIRING') this.#effects.later(order.expiresInMs, { type: 'withdraw', uetr: record.uetr });
      return { ok: true, messageIds: { requestToPay: messageId } };
    }
    const credit = this.#credit(record, { ...(order.accountNumber === undefined ? {} : { accountNumber: order.accountNumber }), ...(order.customerName === undefined ? {} : { legalName: order.customerName }) }, messages, 0);
    if (!credit.ok) return credit;
    // The same document (same MsgId) once more, shortly after: a scheme's resend the service must recognise.
    if (scenario === 'CREDIT_DUPLICATE') this.#originated(record, 'credit', credit.sent, latencyMs);
    return { ok: true, messageIds: { credit: credit.sent.messageId } };
  }

  /** Writes and sends the pacs.008 of the record's credit `delayMs` from now. */
  #credit(record: InboundRecord, payee: CreditPayee, messages: InboundMessages, delayMs: number): { readonly ok: true; readonly sent: OperatorDocument } | { readonly ok: false; readonly error: string } {
    const { scheme, clock } = this.options;
    const now = clock.now();
    const messageId = this.#nextMessageId();
    const written: WriteResult = inboundCreditDocument({ scheme, messageId, createdAt: now, uetr: record.uetr }, record.order, payee, messages);
    if (!written.ok) return written;
    const messageName = messages.family.messages.creditTransfer.version;
    record.stage = 'credit_sent';
    record.credit = {
      messageId,
      messageName,
      createdAt: isoDateTime(now),
      instructionId: messageId,
      endToEndId: messageId,
      transactionId: messageId,
      uetr: record.uetr,
      statusReport: STATUS_REPORT_FOR.get(messageName) ?? 'pacs.002.001.10',
    };
    const sent = { messageName, messageId, document: written.document };
    this.#originated(record, 'credit', sent, delayMs);
    return { ok: true, sent };
  }

  /** Hands an originated document to the service (about the transaction's UETR, in order) and notes it. */
  #originated(record: InboundRecord, kind: OriginatedDocument['kind'], document: OperatorDocument, delayMs: number): void {
    record.sent.push({ ...document, kind, at: this.options.clock.now() + delayMs });
    this.#state.inboundMessages.put(document.messageId, record.uetr);
    // Kept before it is handed on: an answer may come back before this call returns.
    this.#state.inbound.put(record.uetr, record, record.uetr);
    this.#effects.deliver(document, record.uetr, delayMs);
  }

  /** The originated transaction an answer names by its original MsgId (or case id), unless the answer is one already taken. */
  #answered(ids: readonly (string | undefined)[], answer: Omit<InboundAnswer, 'at'>): InboundRecord | undefined {
    let uetr: string | undefined;
    for (const id of ids) uetr ??= id === undefined ? undefined : this.#state.inboundMessages.get(id);
    const record = uetr === undefined ? undefined : this.#state.inbound.get(uetr);
    if (record === undefined) {
      this.#ignoredAnswers += 1;
      this.options.log?.warn({ scheme: this.options.scheme, messageName: answer.messageName, messageId: answer.messageId, about: ids }, 'simulated operator: an answer about no message it originated is ignored');
      return undefined;
    }
    // A resend of an answer already taken (same MsgId) changes nothing.
    if (record.answers.some((taken) => taken.messageId === answer.messageId && taken.messageName === answer.messageName)) return undefined;
    record.answers.push({ ...answer, at: this.options.clock.now() });
    return record;
  }

  /** acmt.024: after a SUCCESSFUL one, the credit to the account resolved, with the lookup's UETR; after FAILED, nothing. */
  #lookupAnswer(xml: string, document: IsoDocument): SubmitOutcome {
    const read = readAcmt024(xml);
    if (!read.ok) return refused(read.error);
    const report = read.value;
    const record = this.#answered([report.originalMessageId, text(document.body, 'Rpt', 'OrgnlId')], {
      messageName: report.messageName,
      messageId: report.messageId ?? '',
      about: 'lookup',
      status: report.verified ? 'SUCCESSFUL' : 'FAILED',
      ...(report.reasonCode === undefined ? {} : { reasonCode: report.reasonCode }),
    });
    if (record === undefined) return { kind: 'delivered' };
    if (record.stage === 'lookup_sent') {
      const account = report.account.traditionalIdentifier ?? record.order.accountNumber;
      const messages = inboundMessagesOf(this.options.scheme);
      if (!report.verified || account === undefined || messages === undefined) {
        record.stage = 'lookup_failed';
      } else {
        record.resolvedAccount = account;
        const payee: CreditPayee = {
          accountNumber: account,
          ...(report.account.knownAsName === undefined ? {} : { knownAsName: report.account.knownAsName }),
          ...(report.account.legalName === undefined ? {} : { legalName: report.account.legalName }),
        };
        const credit = this.#credit(record, payee, messages, this.options.latencyMs);
        if (!credit.ok) {
          record.stage = 'lookup_failed';
          this.options.log?.warn({ scheme: this.options.scheme, uetr: record.uetr, error: credit.error }, 'simulated operator: the credit after a successful lookup cannot be written');
        }
      }
    }
    this.#state.inbound.put(record.uetr, record);
    return { kind: 'delivered' };
  }

  /** pacs.002: after ACSP or ACCP, the final word (ACSC; RJCT in CREDIT_CANCELLED); after RJCT, nothing. */
  #creditAnswer(xml: string): SubmitOutcome {
    const read = readPacs002(xml);
    if (!read.ok) return refused(read.error);
    const [status] = read.value.statuses;
    const record = this.#answered([status?.originalMessageId], {
      messageName: read.value.messageName,
      messageId: read.value.messageId ?? '',
      about: 'credit',
      status: status?.status ?? '',
      ...(status?.reasonCode === undefined ? {} : { reasonCode: status.reasonCode }),
    });
    if (record === undefined) return { kind: 'delivered' };
    const credit = record.credit;
    if (record.stage === 'credit_sent' && credit !== undefined && status?.status !== undefined) {
      if (APPROVED.has(status.status)) {
        const answer: Answer = record.scenario === 'CREDIT_CANCELLED' ? { status: 'RJCT', reasonCode: CREDIT_CANCELLED_REASON } : { status: 'ACSC' };
        const finalWord = this.#statusReport(credit, credit.statusReport, answer);
        record.stage = answer.status === 'ACSC' ? 'settled' : 'cancelled';
        this.#originated(record, 'final_word', finalWord, this.options.latencyMs);
      } else if (status.status === 'RJCT') {
        record.stage = 'rejected';
      }
    }
    this.#state.inbound.put(record.uetr, record);
    return { kind: 'delivered' };
  }

  /** pain.014: recorded; ACSC and RJCT end the request (no withdrawal follows). */
  #requestToPayAnswer(xml: string): SubmitOutcome {
    const read = readPain014(xml);
    if (!read.ok) return refused(read.error);
    const [status] = read.value.statuses;
    const record = this.#answered([read.value.originalMessageId], {
      messageName: read.value.messageName,
      messageId: read.value.messageId ?? '',
      about: 'request_to_pay',
      status: status?.status ?? '',
      ...(status?.reasonCode === undefined ? {} : { reasonCode: status.reasonCode }),
    });
    if (record === undefined) return { kind: 'delivered' };
    if (record.stage === 'requested' && status?.status === 'ACSC') record.stage = 'paid';
    if (record.stage === 'requested' && status?.status === 'RJCT') record.stage = 'refused';
    this.#state.inbound.put(record.uetr, record);
    return { kind: 'delivered' };
  }

  /** camt.029: recorded against the withdrawal it resolves (its case id), else the request it names. */
  #withdrawalAnswer(xml: string): SubmitOutcome {
    const read = readCamt029(xml);
    if (!read.ok) return refused(read.error);
    const answer = read.value;
    const record = this.#answered([answer.caseId, answer.originalMessageId], {
      messageName: answer.messageName,
      messageId: answer.messageId ?? '',
      about: 'withdrawal',
      status: answer.confirmation ?? answer.transactionStatus ?? '',
      ...(answer.reasonCode === undefined ? {} : { reasonCode: answer.reasonCode }),
    });
    if (record !== undefined) this.#state.inbound.put(record.uetr, record);
    return { kind: 'delivered' };
  }

  /** The camt.056 of REQUEST_TO_PAY_WITHDRAWN (CUST) or REQUEST_TO_PAY_EXPIRING (EXPIRED), unless the request already ended. */
  #withdraw(uetr: string): void {
    const record = this.#state.inbound.get(uetr);
    const request = record?.request;
    const messages = inboundMessagesOf(this.options.scheme);
    if (record === undefined || request === undefined || messages === undefined || record.stage !== 'requested') return;
    const caseId = this.#nextMessageId();
    const reason = record.scenario === 'REQUEST_TO_PAY_EXPIRING' ? EXPIRED_REASON : WITHDRAWAL_REASON;
    const written = inboundWithdrawalDocument({ scheme: this.options.scheme, caseId, createdAt: this.options.clock.now() }, record.order, { ...request, uetr: record.uetr }, reason, messages);
    if (!written.ok) {
      this.options.log?.warn({ scheme: this.options.scheme, uetr, error: written.error }, 'simulated operator: the withdrawal cannot be written');
      return;
    }
    record.stage = 'withdrawn';
    record.withdrawalCaseId = caseId;
    this.#originated(record, 'withdrawal', { messageName: messages.withdrawal ?? '', messageId: caseId, document: written.document }, 0);
    this.#state.inbound.put(uetr, record);
  }

  #creditTransfer(document: IsoDocument): SubmitOutcome {
    const read = pacs008From(document);
    if (!read.ok) return refused(read.error);
    const summary = read.value;
    const { transfers, failedOnce } = this.#state;
    const known = transfers.get(summary.messageId);
    if (known !== undefined) {
      known.submissions += 1;
      transfers.put(summary.messageId, known);
      // The same answer again; one still on its way is not doubled.
      if (known.lastReport !== undefined && known.behaviour.kind !== 'silent') this.#effects.deliver(known.lastReport, summary.messageId, this.options.latencyMs);
      return { kind: 'delivered' };
    }
    const behaviour = behaviourFor(summary.creditorAccount);
    if (behaviour.kind === 'permanent_failure') return { kind: 'failed', retryable: false, error: 'Permanent transport failure (simulated: test value PERMANENT-FAILURE)' };
    if (behaviour.kind === 'transient_failure' && failedOnce.get(summary.messageId) === undefined) {
      failedOnce.put(summary.messageId, true);
      return { kind: 'failed', retryable: true, error: 'simulated transient transport failure (test value TRANSIENT-FAILURE); send it again' };
    }
    const transfer: TransferRecord = {
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
    };
    transfers.put(summary.messageId, transfer, summary.uetr);
    this.#scheduleTransferStep(summary.messageId, behaviourSteps(behaviour), 0);
    return { kind: 'delivered' };
  }

  #scheduleTransferStep(messageId: string, steps: readonly TransferStep[], step: number): void {
    const next = steps[step];
    if (next === undefined) return;
    this.#effects.later(next.after === 'late' ? this.options.lateAnswerMs : this.options.latencyMs, { type: 'transfer', messageId, step });
  }

  /** Gives the answer the transfer's behaviour calls for at this step, and schedules the next. */
  #transferStep(messageId: string, step: number): void {
    const transfer = this.#state.transfers.get(messageId);
    if (transfer === undefined) return;
    const steps = behaviourSteps(transfer.behaviour);
    const current = steps[step];
    if (current === undefined) return;
    if ('repeat' in current) {
      if (transfer.lastReport !== undefined) this.#effects.deliver(transfer.lastReport, messageId, 0);
    } else {
      const answer: Answer = { status: current.status, ...(current.reasonCode === undefined ? {} : { reasonCode: current.reasonCode }) };
      const report = this.#statusReport(transfer.original, transfer.statusReport, answer);
      transfer.answered = answer;
      transfer.lastReport = report;
      this.#state.transfers.put(messageId, transfer);
      this.#effects.deliver(report, messageId, 0);
    }
    this.#scheduleTransferStep(messageId, steps, step + 1);
  }

  #enquiry(document: IsoDocument): SubmitOutcome {
    const read = pacs028From(document);
    if (!read.ok) return refused(read.error);
    const { original } = read.value;
    const { transfers } = this.#state;
    const messageId = original.messageId ?? (original.uetr === undefined ? undefined : transfers.idOf(original.uetr));
    const transfer = messageId === undefined ? undefined : transfers.get(messageId);
    const statusReport = STATUS_REPORT_FOR.get(read.value.messageName) ?? 'pacs.002.001.10';
    if (transfer === undefined) {
      const about: OriginalTransfer = { ...original, messageId: original.messageId ?? read.value.messageId, messageName: original.messageName ?? read.value.messageName };
      this.#effects.deliver(this.#statusReport(about, statusReport, { status: 'RJCT', reasonCode: NO_ORIGINAL }), about.messageId, this.options.latencyMs);
      return { kind: 'delivered' };
    }
    if (transfer.behaviour.kind !== 'silent') {
      const answer = transfer.answered ?? { status: 'PDNG' };
      this.#effects.deliver(this.#statusReport(transfer.original, transfer.statusReport, answer), transfer.original.messageId, this.options.latencyMs);
    }
    return { kind: 'delivered' };
  }

  #identification(document: IsoDocument): SubmitOutcome {
    const read = acmt023From(document);
    if (!read.ok) return refused(read.error);
    const request = read.value;
    const reportName = IDENTIFICATION_REPORT_FOR.get(request.messageName);
    if (reportName === undefined) return refused(`the simulator answers ${[...IDENTIFICATION_REPORT_FOR.keys()].join(', ')}, not ${request.messageName}`);
    const { lookups } = this.#state;
    const known = lookups.get(request.messageId);
    if (known !== undefined) {
      // The same answer again; one still on its way is not doubled.
      if (known.report !== undefined) this.#effects.deliver(known.report, request.messageId, this.options.latencyMs);
      return { kind: 'delivered' };
    }
    this.#directory ??= loadDirectory(this.options.directoryPath ?? defaultDirectoryPath());
    if (!this.#directory.ok) return refused(this.#directory.error);
    const answer = this.#directory.directory.lookup({ ...request.identifier, accountAgentBicfi: request.accountAgentBicfi });
    const { latencyMs, lateAnswerMs } = this.options;
    switch (answer.kind) {
      case 'resolved':
      case 'late':
        lookups.put(request.messageId, { request, reportName, outcome: { verified: true, account: answer.account } }, request.uetr);
        this.#effects.later(answer.kind === 'late' ? lateAnswerMs : latencyMs, { type: 'lookup', messageId: request.messageId });
        break;
      case 'failed':
        lookups.put(request.messageId, { request, reportName, outcome: { verified: false, reasonCode: answer.reasonCode, reasonText: reasonText(answer.reasonCode) } }, request.uetr);
        this.#effects.later(latencyMs, { type: 'lookup', messageId: request.messageId });
        break;
      case 'silent':
        lookups.put(request.messageId, { request, reportName }, request.uetr);
        break;
    }
    return { kind: 'delivered' };
  }

  #answerLookup(messageId: string): void {
    const lookup: LookupRecord | undefined = this.#state.lookups.get(messageId);
    if (lookup?.outcome === undefined) return;
    const { request } = lookup;
    const reportId = this.#nextMessageId();
    const report = acmt024Document({
      messageName: lookup.reportName,
      messageId: reportId,
      createdAt: isoDateTime(this.options.clock.now()),
      // The operator answers the bank that asked.
      assigner: request.assignee,
      assignee: request.assigner,
      original: { messageId: request.messageId, ...(request.createdAt === undefined ? {} : { createdAt: request.createdAt }) },
      originalId: request.verificationId,
      originalPartyAndAccount: request.partyAndAccount,
      outcome: lookup.outcome,
    });
    lookup.report = { messageName: lookup.reportName, messageId: reportId, document: report };
    this.#state.lookups.put(messageId, lookup);
    this.#effects.deliver(lookup.report, messageId, 0);
  }

  #requestToPay(document: IsoDocument): SubmitOutcome {
    const read = pain013From(document);
    if (!read.ok) return refused(read.error);
    const summary = read.value;
    const reportName = REQUEST_TO_PAY_REPORT_FOR.get(summary.messageName);
    if (reportName === undefined) return refused(`the simulator answers ${[...REQUEST_TO_PAY_REPORT_FOR.keys()].join(', ')}, not ${summary.messageName}`);
    const { requests } = this.#state;
    const known = requests.get(summary.messageId);
    if (known !== undefined) {
      known.submissions += 1;
      requests.put(summary.messageId, known);
      // The latest report again; one still on its way is not doubled, and a withdrawn request reports nothing more.
      if (known.lastReport !== undefined && known.final !== 'CANCELLED') this.#effects.deliver(known.lastReport, summary.messageId, this.options.latencyMs);
      return { kind: 'delivered' };
    }
    const expiresAt = summary.expiry === undefined ? undefined : Date.parse(summary.expiry);
    const request: RequestToPayRecord = {
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
      ...(expiresAt === undefined || Number.isNaN(expiresAt) ? {} : { expiresAt }),
      submissions: 1,
    };
    requests.put(summary.messageId, request, summary.uetr);
    this.#scheduleRequestStep(request, summary.messageId, 0);
    return { kind: 'delivered' };
  }

  #scheduleRequestStep(request: RequestToPayRecord, messageId: string, step: number): void {
    const next = scenarioSteps(request.scenario)[step];
    if (next !== undefined) this.#effects.later(this.options.latencyMs * next.afterLatencies, { type: 'request', messageId, step });
  }

  /** Sends the scenario's report of this step and schedules the next; stops once the request is withdrawn or past its expiry. */
  #requestStep(messageId: string, step: number): void {
    const request = this.#state.requests.get(messageId);
    const current = request === undefined ? undefined : scenarioSteps(request.scenario)[step];
    if (request === undefined || current === undefined) return;
    const now = this.options.clock.now();
    if (request.final === 'CANCELLED') return;
    if (request.expiresAt !== undefined && now > request.expiresAt) return;
    const reportId = this.#nextMessageId();
    const report = pain014Document({
      messageName: request.reportName,
      messageId: reportId,
      createdAt: isoDateTime(now),
      initiatingParty: { Nm: `${this.options.scheme} operator (simulated)` },
      original: request.original,
      status: current.status,
      ...(current.reasonCode === undefined ? {} : { reasonCode: current.reasonCode, additionalInformation: reasonText(current.reasonCode) }),
      ...(current.status === 'ACSC' || current.status === 'ACCP' ? { acceptedAt: isoDateTime(now) } : {}),
    });
    if (current.status === 'ACSC') request.final = 'PAID';
    if (current.status === 'RJCT') request.final = 'REJECTED';
    request.lastReport = { messageName: request.reportName, messageId: reportId, document: report };
    this.#state.requests.put(messageId, request);
    this.#effects.deliver(request.lastReport, messageId, 0);
    this.#scheduleRequestStep(request, messageId, step + 1);
  }

  #cancellation(document: IsoDocument): SubmitOutcome {
    const read = camt056From(document);
    if (!read.ok) return refused(read.error);
    const cancellation = read.value;
    const answerName = CANCELLATION_ANSWER_FOR.get(cancellation.messageName);
    if (answerName === undefined) return refused(`the simulator answers ${[...CANCELLATION_ANSWER_FOR.keys()].join(', ')}, not ${cancellation.messageName}`);
    const { requests, cancellations } = this.#state;
    const known = cancellations.get(cancellation.caseId);
    if (known !== undefined) {
      // The same answer again; one still on its way is not doubled.
      if (known.answer !== undefined) this.#effects.deliver(known.answer, subjectOf(known.request), this.options.latencyMs);
      return { kind: 'delivered' };
    }
    const { original } = cancellation;
    const messageId = original.messageId ?? (original.uetr === undefined ? undefined : requests.idOf(original.uetr));
    const request = messageId === undefined ? undefined : requests.get(messageId);
    const decision = decideCancellation(request, cancellation.reason);
    if (messageId !== undefined && request !== undefined && decision.confirmation === 'CNCL' && request.final === undefined) {
      request.final = 'CANCELLED';
      requests.put(messageId, request);
    }
    cancellations.put(cancellation.caseId, { request: cancellation, answerName, decision });
    this.#effects.later(this.options.latencyMs, { type: 'cancellation', caseId: cancellation.caseId });
    return { kind: 'delivered' };
  }

  #answerCancellation(caseId: string): void {
    const record = this.#state.cancellations.get(caseId);
    if (record === undefined) return;
    const { request: cancellation, decision } = record;
    const { original } = cancellation;
    const answerId = this.#nextMessageId();
    const answer = camt029Document({
      messageName: record.answerName,
      messageId: answerId,
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
    record.answer = { messageName: record.answerName, messageId: answerId, document: answer };
    this.#state.cancellations.put(caseId, record);
    this.#effects.deliver(record.answer, subjectOf(cancellation), 0);
  }

  #statusReport(original: OriginalTransfer, messageName: string, answer: Answer): OperatorDocument {
    const now = this.options.clock.now();
    const messageId = this.#nextMessageId();
    const document = pacs002Document({
      messageName,
      messageId,
      createdAt: isoDateTime(now),
      original,
      status: answer.status,
      ...(answer.reasonCode === undefined ? {} : { reasonCode: answer.reasonCode, additionalInformation: reasonText(answer.reasonCode) }),
      ...(answer.status === 'ACSC' ? { acceptedAt: isoDateTime(now) } : {}),
    });
    return { messageName, messageId, document };
  }

  /** MsgId of an answer: unique per operator state (time and sequence), at most 35 characters. */
  #nextMessageId(): string {
    const sequence = this.#state.nextSequence();
    const now = this.options.clock.now();
    return `SIM${this.options.scheme.replaceAll('_', '')}${now.toString(36).toUpperCase()}${String(sequence).padStart(6, '0')}`.slice(0, 35);
  }
}

/** How often an operator with this state was sent the transfer with this UETR (0 when unknown): for tests and tools reading a state. */
export function submissionsOf(state: OperatorState, uetr: string): number {
  const messageId = state.transfers.idOf(uetr);
  return messageId === undefined ? 0 : (state.transfers.get(messageId)?.submissions ?? 0);
}

/** The subject of a cancellation's answer: the request-to-pay it withdraws, so the answer follows that request's reports. */
function subjectOf(cancellation: { readonly caseId: string; readonly original: { readonly messageId: string | undefined } }): string {
  return cancellation.original.messageId ?? cancellation.caseId;
}

/**
 * What the simulated operator answers a cancellation: refused when the request is already paid
 * (ARDT) or rejected (ARJT), whatever the reason, since the service must learn what happened;
 * the service's expiry notice (EXPIRED) is otherwise acknowledged, even for a request the operator
 * does not know; an integrator's cancellation of an unknown request is refused (NOOR), and one of a
 * `cancellation_refused` request with that value's reason; anything else is cancelled (CNCL), and
 * no report follows.
 */
function decideCancellation(request: RequestToPayRecord | undefined, reason: string | undefined): CancellationDecision {
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
