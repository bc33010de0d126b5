import type { SchemeName } from '../src/domain/schemes.js';
import type {
  CreditAnswer,
  InboundReport,
  LookupAnswer,
  RequestToPayStatusAnswer,
  WithdrawalAnswer,
  OutboundLookup,
  OutboundRequestToPay,
  OutboundRequestToPayCancellation,
  OutboundTransfer,
  SchemeConnector,
  SchemeInbound,
  SubmitOutcome,
} from '../src/ports/scheme.js';
import type { Random } from './random.js';
import { EXPIRY_REASON } from '../src/engine/kinds/request-to-pay.js';
import type { Scheduler } from './scheduler.js';

/** Probabilities of the scheme's faults (each drawn per message). */
export interface SchemeFaults {
  /** A submission fails at the transport and the operator never took it. */
  readonly submitFails: number;
  /** A submission is reported failed, but the operator took it (the acknowledgement was lost). */
  readonly submitFailsAfterTaking: number;
  /** An answer is lost on its way (never reaches the service). */
  readonly answerLost: number;
  /** An answer is sent twice. */
  readonly answerDuplicated: number;
  /** An answer comes after the scheme's time budget (minutes late). */
  readonly answerLate: number;
  /** The operator never answers a message at all (only an enquiry finds out). */
  readonly neverAnswers: number;
  /** An enquiry is answered with a stale PENDING although the operator has decided. */
  readonly enquiryStale: number;
}

export const NO_SCHEME_FAULTS: SchemeFaults = { submitFails: 0, submitFailsAfterTaking: 0, answerLost: 0, answerDuplicated: 0, answerLate: 0, neverAnswers: 0, enquiryStale: 0 };

/** What the operator decided about each message: the truth the invariants compare the service with. */
export interface OperatorTransfer {
  readonly uetr: string;
  readonly amountMinor: bigint;
  readonly status: 'ACCEPTED' | 'REJECTED';
  readonly reasonCode?: string;
  takes: number;
}

export interface OperatorRequestToPay {
  readonly amountMinor: bigint;
  readonly expiresAt: number;
  /** The debtor's decision once made; null while open. */
  final: 'PAID' | 'REJECTED' | null;
  /** A cancellation or expiry notice the operator accepted: nothing is paid after it. */
  withdrawn: boolean;
}

/**
 * The simulated scheme operator, on the scheme connector port: it takes credit transfers,
 * lookups and requests-to-pay, decides each once (seeded), and sends its answers back through
 * `SchemeAnswers.receive` after a seeded delay, with the faults of SchemeFaults. Its state (what
 * it decided) survives a crash of the service; a restart of the operator itself drops the
 * answers it had not yet sent.
 */
export class SimOperator implements SchemeConnector {
  readonly family = 'sim';
  readonly schemes: readonly SchemeName[] = ['ZA_RPP', 'ZA_RTC'];
  readonly capabilities = { creditTransfer: true, statusEnquiry: true, identifierDetermination: true, requestToPay: true };
  readonly transfers = new Map<string, OperatorTransfer>();
  readonly lookups = new Map<string, { outcome: 'SUCCESSFUL' | 'FAILED'; account: string }>();
  readonly requests = new Map<string, OperatorRequestToPay>();
  /** Cancellation keys answered, with the answer (the same on every resend). */
  readonly cancellations = new Map<string, boolean>();
  /** Requests whose integrator's cancellation (not an expiry notice) named a pain.013 the operator never took (refused NOOR). */
  readonly cancelledUnknown = new Set<string>();
  readonly #refusals = new Map<string, { reasonCode: string; reasonText: string }>();
  /** Answers sent (counted per delivery attempt), for the report. */
  answersSent = 0;
  #inbound: SchemeInbound | undefined;
  /** Where the service's answers to originated messages go (the receiving direction); none: the operator originates nothing. */
  receiving: Pick<SchemeConnector, 'answerLookup' | 'answerCredit' | 'reportRequestToPay' | 'answerWithdrawal'> | undefined;
  #generation = 0;
  faults: SchemeFaults;
  readonly #random: Random;
  readonly #scheduler: Scheduler;
  readonly #trace: (transactionKey: string, line: string) => void;

  constructor(random: Random, scheduler: Scheduler, faults: SchemeFaults, trace: (transactionKey: string, line: string) => void) {
    this.#random = random;
    this.#scheduler = scheduler;
    this.faults = faults;
    this.#trace = trace;
  }

  /** The operator refuses nothing for its content: intake already asked the scheme's real rules (UseCaseDeps.schemeRules). */
  check(): { ok: true } {
    return { ok: true };
  }

  checkLookup(): { ok: true } {
    return { ok: true };
  }

  checkRequestToPay(): { ok: true } {
    return { ok: true };
  }

  start(inbound: SchemeInbound): Promise<void> {
    this.#inbound = inbound;
    return Promise.resolve();
  }

  stop(): Promise<void> {
    return Promise.resolve();
  }

  /** The operator restarts: answers it had scheduled are never sent; what it decided stays. */
  restart(): void {
    this.#generation += 1;
  }

  submit(transfer: OutboundTransfer): Promise<SubmitOutcome> {
    const key = transfer.idempotencyKey;
    const fail = this.#transportFault(key, 'pacs.008');
    if (fail === 'lost') return this.#reply(failed('connection reset before the operator took the pacs.008'));
    let known = this.transfers.get(key);
    if (known === undefined) {
      const rejected = this.#random.chance(0.15);
      known = { uetr: transfer.uetr, amountMinor: transfer.amount.minor, status: rejected ? 'REJECTED' : 'ACCEPTED', ...(rejected ? { reasonCode: this.#random.pick(['AC01', 'AM04', 'AG01']) } : {}), takes: 0 };
      this.transfers.set(key, known);
      this.#trace(key, `operator takes pacs.008 amount ${transfer.amount.minor} and decides ${known.status}`);
    }
    known.takes += 1;
    if (!this.#random.chance(this.faults.neverAnswers)) this.#answer(key, () => this.#transferReport(transfer, known));
    if (fail === 'taken') return this.#reply(failed('timed out waiting for the operator (it took the pacs.008)'));
    return this.#reply(delivered());
  }

  enquire(transfer: OutboundTransfer): Promise<SubmitOutcome> {
    const key = transfer.idempotencyKey;
    if (this.#transportFault(key, 'pacs.028') === 'lost') return this.#reply(failed('connection reset before the operator took the pacs.028'));
    const known = this.transfers.get(key);
    this.#answer(key, () => {
      if (known === undefined) {
        return { kind: 'not_found', status: 'PENDING', scheme: transfer.scheme, uetr: transfer.uetr, idempotencyKey: key, reasonCode: 'NOOR', message: { status: 'RJCT', reason: 'NOOR' }, receivedAt: this.#scheduler.now() };
      }
      if (this.#random.chance(this.faults.enquiryStale)) {
        return { kind: 'status', status: 'PENDING', scheme: transfer.scheme, uetr: transfer.uetr, idempotencyKey: key, message: { status: 'PDNG' }, receivedAt: this.#scheduler.now() };
      }
      return this.#transferReport(transfer, known);
    });
    return this.#reply(delivered());
  }

  resolve(lookup: OutboundLookup): Promise<SubmitOutcome> {
    const key = lookup.idempotencyKey;
    const fail = this.#transportFault(key, 'acmt.023');
    if (fail === 'lost') return this.#reply(failed('connection reset before the operator took the acmt.023'));
    let known = this.lookups.get(key);
    if (known === undefined) {
      known = { outcome: this.#random.chance(0.2) ? 'FAILED' : 'SUCCESSFUL', account: String(this.#random.between(1_000_000_000, 9_999_999_999)) };
      this.lookups.set(key, known);
      this.#trace(key, `operator takes acmt.023 and decides ${known.outcome}`);
    }
    const decided = known;
    if (!this.#random.chance(this.faults.neverAnswers)) {
      this.#answer(key, () => ({
        kind: 'identification',
        scheme: lookup.scheme,
        idempotencyKey: key,
        outcome: decided.outcome,
        ...(decided.outcome === 'FAILED'
          ? { reasonCode: 'PX03', reasonText: 'Proxy not registered' }
          : { account: { traditionalIdentifier: decided.account, knownAsName: 'Sim', legalName: 'Simulated Customer', accountAgentBicfi: 'FIRNZAJJ' } }),
        message: { outcome: decided.outcome },
        receivedAt: this.#scheduler.now(),
      }));
    }
    if (fail === 'taken') return this.#reply(failed('timed out waiting for the operator (it took the acmt.023)'));
    return this.#reply(delivered());
  }

  requestToPay(request: OutboundRequestToPay): Promise<SubmitOutcome> {
    const key = request.idempotencyKey;
    const fail = this.#transportFault(key, 'pain.013');
    if (fail === 'lost') return this.#reply(failed('connection reset before the operator took the pain.013'));
    if (!this.requests.has(key)) {
      const state: OperatorRequestToPay = { amountMinor: request.amount.minor, expiresAt: request.expiresAt, final: null, withdrawn: false };
      this.requests.set(key, state);
      this.#trace(key, `operator takes pain.013 amount ${request.amount.minor}`);
      const report = (status: 'PRESENTED' | 'ACCEPTED' | 'PAID' | 'REJECTED'): (() => InboundReport) => () => ({
        kind: 'request_to_pay',
        scheme: request.scheme,
        idempotencyKey: key,
        status,
        ...(status === 'REJECTED' ? { reasonCode: 'AC04', reasonText: 'Debtor declined' } : {}),
        message: { status },
        receivedAt: this.#scheduler.now(),
      });
      this.#answer(key, report('PRESENTED'));
      // The debtor decides later (or never: the request expires).
      const choice = this.#random.next();
      if (choice < 0.8) {
        const decision: 'PAID' | 'REJECTED' = choice < 0.55 ? 'PAID' : 'REJECTED';
        const at = this.#scheduler.now() + this.#random.between(1_000, 400_000);
        const generation = this.#generation;
        this.#scheduler.at(at, () => {
          if (generation !== this.#generation && this.#random.chance(0.5)) return;
          if (state.withdrawn || state.final !== null || this.#scheduler.now() >= state.expiresAt) return;
          state.final = decision;
          this.#trace(key, `operator: the debtor ${decision === 'PAID' ? 'pays' : 'declines'}`);
          if (decision === 'PAID' && this.#random.chance(0.5)) this.#answer(key, report('ACCEPTED'));
          this.#answer(key, report(decision));
        });
      }
    }
    if (fail === 'taken') return this.#reply(failed('timed out waiting for the operator (it took the pain.013)'));
    return this.#reply(delivered());
  }

  cancelRequestToPay(cancellation: OutboundRequestToPayCancellation): Promise<SubmitOutcome> {
    const key = cancellation.request.idempotencyKey;
    const fail = this.#transportFault(key, 'camt.056');
    if (fail === 'lost') return this.#reply(failed('connection reset before the operator took the camt.056'));
    const state = this.requests.get(key);
    let accepted = this.cancellations.get(cancellation.cancellationKey);
    if (accepted === undefined) {
      // A camt.056 that overtakes its pain.013 names an original the operator does not know: refused NOOR, as a scheme does.
      accepted = state !== undefined && state.final === null;
      this.cancellations.set(cancellation.cancellationKey, accepted);
      if (state !== undefined && accepted) state.withdrawn = true;
      if (state === undefined && cancellation.reasonCode !== EXPIRY_REASON) this.cancelledUnknown.add(key);
      this.#trace(key, `operator takes camt.056 ${cancellation.reasonCode}: ${accepted ? 'withdrawn' : state === undefined ? 'refused, original not found' : `refused, already ${state.final ?? ''}`}`);
    }
    const answer = accepted;
    // Decided once per cancellation, as its acceptance is: a resend is answered the same.
    let refusal = this.#refusals.get(cancellation.cancellationKey);
    if (refusal === undefined) {
      refusal = state === undefined ? { reasonCode: 'NOOR', reasonText: 'Original request not found' } : { reasonCode: 'ARDT', reasonText: 'Already paid or declined' };
      this.#refusals.set(cancellation.cancellationKey, refusal);
    }
    this.#answer(key, () => ({
      kind: 'cancellation',
      scheme: cancellation.request.scheme,
      idempotencyKey: key,
      cancellationKey: cancellation.cancellationKey,
      accepted: answer,
      ...(answer ? {} : refusal),
      message: { accepted: answer },
      receivedAt: this.#scheduler.now(),
    }));
    if (fail === 'taken') return this.#reply(failed('timed out waiting for the operator (it took the camt.056)'));
    return this.#reply(delivered());
  }

  // The service's answers to the messages the operator originated go to its receiving side (sim/inbound.ts).
  answerLookup(answer: LookupAnswer): Promise<SubmitOutcome> {
    return this.receiving?.answerLookup(answer) ?? notReceiving();
  }

  answerCredit(answer: CreditAnswer): Promise<SubmitOutcome> {
    return this.receiving?.answerCredit(answer) ?? notReceiving();
  }

  reportRequestToPay(answer: RequestToPayStatusAnswer): Promise<SubmitOutcome> {
    return this.receiving?.reportRequestToPay(answer) ?? notReceiving();
  }

  answerWithdrawal(answer: WithdrawalAnswer): Promise<SubmitOutcome> {
    return this.receiving?.answerWithdrawal(answer) ?? notReceiving();
  }

  /** The live process's side for the messages the operator originates and its answers (set at each restart). */
  get inbound(): SchemeInbound | undefined {
    return this.#inbound;
  }

  #transferReport(transfer: OutboundTransfer, known: OperatorTransfer): InboundReport {
    return {
      kind: 'status',
      status: known.status,
      scheme: transfer.scheme,
      uetr: transfer.uetr,
      idempotencyKey: transfer.idempotencyKey,
      ...(known.reasonCode === undefined ? {} : { reasonCode: known.reasonCode, reasonText: 'Simulated rejection' }),
      message: { status: known.status === 'ACCEPTED' ? 'ACSC' : 'RJCT' },
      receivedAt: this.#scheduler.now(),
    };
  }

  #transportFault(key: string, what: string): 'lost' | 'taken' | undefined {
    if (this.#random.chance(this.faults.submitFails)) {
      this.#trace(key, `transport fails: ${what} never reaches the operator`);
      return 'lost';
    }
    if (this.#random.chance(this.faults.submitFailsAfterTaking)) {
      this.#trace(key, `transport fails after the operator took the ${what}`);
      return 'taken';
    }
    return undefined;
  }

  /** Send an answer after a seeded delay, with its faults; one the service could not record is sent again. */
  #answer(key: string, make: () => InboundReport): void {
    const faults = this.faults;
    if (this.#random.chance(faults.answerLost)) {
      this.#trace(key, 'operator answer lost');
      return;
    }
    const copies = this.#random.chance(faults.answerDuplicated) ? 2 : 1;
    const generation = this.#generation;
    for (let copy = 0; copy < copies; copy += 1) {
      const late = this.#random.chance(faults.answerLate);
      const delay = late ? this.#random.between(60_000, 900_000) : this.#random.between(5, 3_000);
      this.#scheduler.after(delay, () => {
        if (generation !== this.#generation) return;
        this.#deliver(key, make(), 0);
      });
    }
  }

  #deliver(key: string, report: InboundReport, attempt: number): void {
    const inbound = this.#inbound;
    if (inbound === undefined) return;
    this.answersSent += 1;
    this.#trace(key, `operator answer ${describe(report)}${attempt > 0 ? ` (again, ${attempt})` : ''}`);
    inbound.receive(report).catch(() => {
      // Not recorded (the service refused it, or crashed under it): the operator sends it again.
      if (attempt < 20) this.#scheduler.after(this.#random.between(500, 5_000), () => this.#deliver(key, report, attempt + 1));
    });
  }

  /** The transport's answer to a call comes a few simulated milliseconds later (a crash may fall in between). */
  #reply(outcome: SubmitOutcome): Promise<SubmitOutcome> {
    return new Promise((resolve) => this.#scheduler.after(this.#random.between(1, 40), () => resolve(outcome)));
  }

}

function describe(report: InboundReport): string {
  switch (report.kind) {
    case 'status':
    case 'not_found':
      return `${report.kind} ${report.status}`;
    case 'identification':
      return `identification ${report.outcome}`;
    case 'request_to_pay':
      return `request_to_pay ${report.status}`;
    case 'cancellation':
      return `cancellation ${report.accepted ? 'accepted' : 'refused'}`;
    default:
      return report.kind;
  }
}

function delivered(): SubmitOutcome {
  return { kind: 'delivered' };
}

function failed(error: string): SubmitOutcome {
  return { kind: 'failed', retryable: true, error };
}

function notReceiving(): Promise<SubmitOutcome> {
  return Promise.resolve({ kind: 'failed', retryable: false, error: 'the simulated operator originates no messages in this run' });
}
