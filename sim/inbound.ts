import { reportInboundAnswer, type InboundAnswer } from '../src/app/inbound-answers.js';
import type { IntegratorConfig } from '../src/config/types.js';
import { INBOUND_PATHS } from '../src/domain/callback-paths.js';
import type { TransactionKind } from '../src/domain/kinds.js';
import { TIMEOUT_REASON } from '../src/domain/machines/inbound.js';
import { toApiError } from '../src/http/plugins/errors.js';
import { validateAuthorisationReport, validateInboundRequestToPayResponse, validateLookupAnswer } from '../src/domain/messages/inbound-answers.js';
import type { Validation } from '../src/domain/messages/validate.js';
import type { SchemeName } from '../src/domain/schemes.js';
import { inboundTransactionId } from '../src/lib/inbound-id.js';
import type { CreditTransfer } from '../src/domain/messages/credit-transfer.js';
import type { RequestToPay } from '../src/domain/messages/request-to-pay.js';
import type { CallResult, PartnerCall } from '../src/ports/partner.js';
import type { CreditAnswer, InboundReport, LookupAnswer, RequestToPayStatusAnswer, SchemeRequest, SubmitOutcome, WithdrawalAnswer } from '../src/ports/scheme.js';
import type { OutboxRecord } from '../src/ports/store.js';
import { creditTransfer } from '../test/fixtures/credit-transfer.js';
import { identifierDetermination } from '../test/fixtures/identifier-determination.js';
import { requestToPay } from '../test/fixtures/request-to-pay.js';
import type { OutboxView, TransactionView } from './inspect.js';
import type { SimIntegrators } from './integrator.js';
import type { SimOperator } from './operator.js';
import type { Random } from './random.js';
import type { Scheduler } from './scheduler.js';
import type { ServiceProcess } from './service.js';
import { amountValue, SIM_INTEGRATORS, type SimIntegrator } from './workload.js';

/**
 * The receiving direction in the simulation (CONTRACT §11): the simulated scheme operator
 * originates lookups of an integrator's customer (acmt.023), credits to authorise (pacs.008,
 * some after a lookup of the same UETR) and requests-to-pay to an integrator's customer
 * (pain.013), through the live process's `SchemeInbound.originate`, sending a message again when
 * the service did not record it (it crashed under it) and sometimes on purpose; it withdraws some
 * requests (camt.056) and gives its final word on every credit it was answered ACSP. It records
 * every answer the service gives (acmt.024, pacs.002, pain.014, camt.029), with transport faults.
 * The simulated integrators, as receiving banks, answer the service's calls (sync: a decision in
 * the 200; async: 202, then the decision through the use case the HTTP route uses) with seeded
 * decisions, delays, 500s and timeouts past the budget, and decide on the requests-to-pay handed
 * to them. What the operator sent, what each integrator decided and what the scheme was answered
 * are the truth the inbound invariants compare the service's rows with (`check`, `checkEnd`).
 */

export type InboundKind = Extract<TransactionKind, 'INBOUND_CREDIT_TRANSFER' | 'INBOUND_IDENTIFIER_DETERMINATION' | 'INBOUND_REQUEST_TO_PAY'>;

export function isInbound(kind: TransactionKind): kind is InboundKind {
  return kind === 'INBOUND_CREDIT_TRANSFER' || kind === 'INBOUND_IDENTIFIER_DETERMINATION' || kind === 'INBOUND_REQUEST_TO_PAY';
}

/** One message the operator originated: the truth of what the scheme sent. */
interface Originated {
  readonly id: string;
  readonly kind: InboundKind;
  readonly integrator: SimIntegrator;
  readonly request: SchemeRequest;
  readonly uetr: string;
  readonly amountMinor: bigint | null;
  /** The service recorded it (originate resolved accepted) at least once. */
  accepted: boolean;
  /** The messages that are this one: itself first, then its resends under a new MsgId (same UETR); one transaction for all. */
  readonly group: Originated[];
}

/** An integrator's decision on a credit or a lookup (made once, on the first call it processed). */
interface Decision {
  readonly approved: boolean;
  readonly reasonCode?: string;
  /** A lookup's account. */
  readonly account?: string;
}

/** What the operator took of the service's answers: per answer key, the content (the same on every resend). */
interface Answers {
  readonly byKey: Map<string, string>;
  /** A credit's or lookup's answer, as the operator read it the first time. */
  first?: { readonly approved: boolean; readonly reasonCode: string | undefined; readonly account: string | undefined };
}

type Record_ = (transactionId: string | undefined, message: string, keys?: readonly string[]) => void;

const OTHER_BANK = { bicfi: 'FIRNZAJJ', clearingSystemMemberId: { memberId: '250655' } };
const MESSAGE_NAMES = { lookup: 'acmt.023.001.03', credit: 'pacs.008.001.08', request_to_pay: 'pain.013.001.07' } as const;
const CREDIT_REJECTIONS = ['AC01', 'AC04', 'AM04', 'MD07'];
const trace0 = { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', tracestate: null };

export interface InboundParts {
  readonly random: Random;
  readonly scheduler: Scheduler;
  readonly operator: SimOperator;
  readonly integrators: SimIntegrators;
  readonly integratorConfigs: ReadonlyMap<string, IntegratorConfig>;
  readonly live: () => ServiceProcess | undefined;
  readonly trace: (transactionId: string, line: string) => void;
  /** A violation found in a callback (kept; the run stops at the end of the step). */
  readonly record: Record_;
  readonly stats: Record<string, number>;
  /** Share of arrivals the operator originates. */
  readonly share: number;
  /** The integrator pays a request-to-pay its customer accepted: an outbound credit transfer of its own, through the workload's use case. */
  readonly pay: (integratorId: string, transfer: CreditTransfer, amountMinor: bigint) => void;
}

export class SimInbound {
  readonly originated = new Map<string, Originated>();
  readonly decisions = new Map<string, Decision>();
  /** Per transaction: the integrator's 200 broke the answer's rules; the code the scheme must get (or AB06). */
  readonly invalidAnswers = new Map<string, string>();
  /** Per transaction: the calls the integrator received (their bodies). */
  readonly calls = new Map<string, string[]>();
  readonly answers = new Map<string, Answers>();
  /** A credit's final word, decided when the operator first took an ACSP. */
  readonly finalWords = new Map<string, { readonly settled: boolean; readonly reasonCode?: string }>();
  /** Per inbound request-to-pay: the decisions the integrator sent (whether or not the service took them). */
  readonly debtorDecisions = new Map<string, Set<string>>();
  /** Per inbound request-to-pay: the camt.056 case the operator sent, if any. */
  readonly withdrawals = new Map<string, string>();
  readonly #parts: InboundParts;
  readonly #workload: Random;
  readonly #operator: Random;
  readonly #integrator: Random;

  constructor(parts: InboundParts) {
    this.#parts = parts;
    this.#workload = parts.random.fork();
    this.#operator = parts.random.fork();
    this.#integrator = parts.random.fork();
    for (const stat of ['originated', 'originations', 'integratorCalls', 'schemeAnswered']) parts.stats[stat] = 0;
    parts.operator.receiving = {
      answerLookup: (answer) => this.#took(answer, `acmt.024 ${answer.outcome}${answer.reasonCode === undefined ? '' : ` ${answer.reasonCode}`}${answer.account?.traditionalIdentifier === undefined ? '' : ` ${answer.account.traditionalIdentifier}`}`),
      answerCredit: (answer) => this.#took(answer, `pacs.002 ${answer.status}${answer.reasonCode === undefined ? '' : ` ${answer.reasonCode}`}`),
      reportRequestToPay: (answer) => this.#took(answer, `pain.014 ${answer.status}${answer.reasonCode === undefined ? '' : ` ${answer.reasonCode}`}`),
      answerWithdrawal: (answer) => this.#took(answer, `camt.029 ${answer.caseId} ${answer.accepted ? 'CNCL' : `RJCR ${answer.reasonCode ?? ''}`}`),
    };
    parts.integrators.receiving = { call: (call, integrator) => this.#call(call, integrator), processed: (message) => this.#processed(message) };
  }

  /** An arrival: the operator originates one in `share` of them; false leaves the arrival to the integrators' own traffic. */
  arrives(): boolean {
    const random = this.#workload;
    if (!random.chance(this.#parts.share)) return false;
    const integrator = random.pick(SIM_INTEGRATORS);
    const choice = random.next();
    const minor = random.between(1, 5_000_000);
    if (choice < 0.3) {
      const lookup = this.#lookup(integrator);
      // Some lookups are followed by a credit of the same UETR to the account found.
      if (random.chance(0.5)) this.#parts.scheduler.after(random.between(3_000, 12_000), () => this.#creditAfter(lookup, minor));
    } else if (choice < 0.75) {
      this.#credit(integrator, random.chance(0.5) ? 'ZA_RTC' : 'ZA_RPP', random.uuid4(), minor, undefined);
    } else {
      this.#requestToPay(integrator, minor);
    }
    return true;
  }

  // --- the operator: what it originates ---

  #lookup(integrator: SimIntegrator): Originated {
    const random = this.#workload;
    const message = identifierDetermination(random.chance(0.7) ? 'MOBILE' : 'GENERIC');
    message.messageIdentifiers.messageIdentification = this.#messageId();
    message.messageIdentifiers.creationDateTime = new Date(this.#parts.scheduler.now()).toISOString();
    message.request.uetr = random.uuid4();
    message.request.verificationIdentification = `VRF${random.uuid4().replaceAll('-', '')}`;
    message.request.requestor = { ...message.request.requestor, bicfi: OTHER_BANK.bicfi, memberId: OTHER_BANK.clearingSystemMemberId.memberId, domain: 'firstbank', name: 'First Bank' };
    message.request.instructingAgent = OTHER_BANK;
    if (message.request.accountAgent !== undefined) message.request.accountAgent = { bicfi: integrator.bicfi };
    if (message.request.instructedAgent !== undefined) message.request.instructedAgent = { bicfi: integrator.bicfi, clearingSystemMemberId: { memberId: integrator.memberId } };
    return this.#originate('lookup', 'ZA_RPP', integrator, message.request.uetr, message.messageIdentifiers.messageIdentification, JSON.stringify(message), null);
  }

  /** A credit after a lookup: sent only when the operator was answered SUCCESSFUL, to the account it was given. */
  #creditAfter(lookup: Originated, minor: number): void {
    const answer = lookup.group.map((message) => this.answers.get(message.id)?.first).find((first) => first !== undefined);
    if (answer === undefined || !answer.approved) {
      this.#parts.trace(lookup.id, 'operator: no credit follows the lookup (not answered SUCCESSFUL)');
      return;
    }
    this.#credit(lookup.integrator, 'ZA_RPP', lookup.uetr, minor, answer.account);
  }

  #credit(integrator: SimIntegrator, scheme: 'ZA_RPP' | 'ZA_RTC', uetr: string, minor: number, account: string | undefined): void {
    const random = this.#workload;
    const message = creditTransfer(scheme);
    message.messageIdentifiers.messageIdentification = this.#messageId();
    message.messageIdentifiers.creationDateTime = new Date(this.#parts.scheduler.now()).toISOString();
    message.transactionIdentifiers.uetr = uetr;
    message.amounts.bankSettlementAmount.value = amountValue(minor);
    message.creditorAgent = { bicfi: integrator.bicfi, clearingSystemMemberId: { memberId: integrator.memberId } };
    message.debtorAgent = OTHER_BANK;
    if (account !== undefined || scheme === 'ZA_RPP') message.creditorAccount = { identification: { schema: 'GENERIC', value: account ?? String(random.between(1_000_000_000, 9_999_999_999)) } };
    this.#originate('credit', scheme, integrator, uetr, message.messageIdentifiers.messageIdentification, JSON.stringify(message), BigInt(minor));
  }

  #requestToPay(integrator: SimIntegrator, minor: number): void {
    const random = this.#workload;
    const now = this.#parts.scheduler.now();
    const expiresIn = random.between(20_000, 600_000);
    const message = requestToPay('MOBILE', now);
    message.messageIdentifiers.messageIdentification = this.#messageId();
    message.transactionIdentifiers.uetr = random.uuid4();
    message.expiryDateTime = new Date(now + expiresIn).toISOString();
    message.amounts.bankSettlementAmount.value = amountValue(minor);
    delete (message as { requestToPayConditions?: unknown }).requestToPayConditions;
    message.creditorAgent = OTHER_BANK;
    message.debtorAgent = { bicfi: integrator.bicfi, clearingSystemMemberId: { memberId: integrator.memberId } };
    const sent = this.#originate('request_to_pay', 'ZA_RPP', integrator, message.transactionIdentifiers.uetr, message.messageIdentifiers.messageIdentification, JSON.stringify(message), BigInt(minor));
    // The creditor withdraws some requests (camt.056), once or twice, before or after their expiry.
    if (random.chance(0.2)) {
      const caseId = `CASE${random.uuid4().replaceAll('-', '').slice(0, 24)}`;
      const withdrawal = (): void => {
        // Sent whether or not the service has recorded the pain.013 yet: one that overtakes it is
        // refused, and delivered again until taken. Only a taken withdrawal must be answered.
        const report: InboundReport = {
          kind: 'withdrawal',
          scheme: 'ZA_RPP',
          idempotencyKey: sent.id,
          caseId,
          original: { messageId: `W${caseId}`, messageName: 'camt.056.001.08' },
          reasonCode: 'CUST',
          message: { caseId },
          receivedAt: this.#parts.scheduler.now(),
        };
        this.#report(sent.id, report, 'camt.056 CUST', 0, () => this.withdrawals.set(sent.id, caseId));
      };
      // Some at once, so that one may overtake a pain.013 the service has not recorded yet.
      const at = random.chance(0.25) ? random.between(0, 300) : random.between(1_000, expiresIn + 30_000);
      this.#parts.scheduler.after(at, withdrawal);
      if (random.chance(0.2)) this.#parts.scheduler.after(at + random.between(100, 60_000), withdrawal);
    }
  }

  #messageId(): string {
    return `S${this.#workload.uuid4().replaceAll('-', '').slice(0, 30)}`;
  }

  #originate(kind: SchemeRequest['kind'], scheme: SchemeName, integrator: SimIntegrator, uetr: string, messageId: string, bodyJson: string, amountMinor: bigint | null): Originated {
    const { scheduler } = this.#parts;
    const messageName = MESSAGE_NAMES[kind];
    const id = inboundTransactionId(scheme, messageName, messageId);
    const request: SchemeRequest = {
      kind,
      scheme,
      original: { messageId, messageName, createdAt: new Date(scheduler.now()).toISOString(), uetr: uetr.toLowerCase() },
      institution: { bicfi: integrator.bicfi },
      bodyJson,
      received: { messageName, messageId, document: `<Document><MsgId>${messageId}</MsgId></Document>` },
      receivedAt: scheduler.now(),
    };
    const kinds = { lookup: 'INBOUND_IDENTIFIER_DETERMINATION', credit: 'INBOUND_CREDIT_TRANSFER', request_to_pay: 'INBOUND_REQUEST_TO_PAY' } as const;
    const originated: Originated = { id, kind: kinds[kind], integrator, request, uetr: uetr.toLowerCase(), amountMinor, accepted: false, group: [] };
    originated.group.push(originated);
    this.originated.set(id, originated);
    this.#parts.stats.originated = (this.#parts.stats.originated ?? 0) + 1;
    this.#send(originated, 0, `${messageName}${amountMinor === null ? '' : ` amount ${amountMinor}`} to ${integrator.id}`);
    // The scheme sends some messages again on purpose (the same MsgId): the same transaction, answered again.
    if (this.#operator.chance(0.1)) scheduler.after(this.#operator.between(10, 30_000), () => this.#send(originated, 0, `${messageName} again on purpose`));
    // Some lookups and credits it sends again under a new MsgId, the same UETR: still the same transaction, whichever is recorded first.
    if (kind !== 'request_to_pay' && this.#operator.chance(0.05)) {
      const again = `S${this.#operator.uuid4().replaceAll('-', '').slice(0, 30)}`;
      const body = JSON.parse(bodyJson) as { messageIdentifiers: { messageIdentification: string } };
      body.messageIdentifiers.messageIdentification = again;
      const alias: Originated = {
        ...originated,
        id: inboundTransactionId(scheme, messageName, again),
        request: { ...request, original: { ...request.original, messageId: again }, bodyJson: JSON.stringify(body), received: { ...request.received, messageId: again } },
      };
      originated.group.push(alias);
      this.originated.set(alias.id, alias);
      scheduler.after(this.#operator.between(0, 20_000), () => this.#send(alias, 0, `${messageName} again under the new MsgId ${again}`));
    }
    return originated;
  }

  #send(originated: Originated, attempt: number, what: string): void {
    const { scheduler, trace, operator } = this.#parts;
    const inbound = operator.inbound;
    const retry = (): void => {
      if (attempt < 60) scheduler.after(this.#operator.between(500, 5_000), () => this.#send(originated, attempt + 1, what));
    };
    if (inbound === undefined) return retry();
    this.#parts.stats.originations = (this.#parts.stats.originations ?? 0) + 1;
    trace(originated.id, `operator originates ${what}${attempt > 0 ? ` (again, ${attempt})` : ''}`);
    // The request as the connector hands it over, received now (a resend is received anew).
    inbound.originate({ ...originated.request, receivedAt: scheduler.now() }).then(
      (outcome) => {
        if (outcome.kind === 'refused') {
          this.#parts.record(originated.id, `the service refused ${originated.request.original.messageName} ${originated.request.original.messageId}: ${outcome.reasonCode} ${outcome.reasonText}`);
          return;
        }
        originated.accepted = true;
        trace(originated.id, 'service recorded it');
      },
      () => {
        // Not recorded (the service was down or crashed under it): the operator sends it again.
        trace(originated.id, 'not recorded: the operator sends it again');
        retry();
      },
    );
  }

  /** A scheme message about an originated one (a final word, a withdrawal), delivered until the service records it. */
  #report(id: string, report: InboundReport, what: string, attempt: number, taken: () => void = () => undefined): void {
    const { scheduler, trace, operator } = this.#parts;
    const inbound = operator.inbound;
    const retry = (): void => {
      if (attempt < 60) scheduler.after(this.#operator.between(500, 5_000), () => this.#report(id, report, what, attempt + 1, taken));
    };
    if (inbound === undefined) return retry();
    trace(id, `operator sends ${what}${attempt > 0 ? ` (again, ${attempt})` : ''}`);
    inbound.receive({ ...report, receivedAt: scheduler.now() }).then(taken, retry);
  }

  /** An answer of the service reaches the operator's transport: recorded, with the transport's faults. */
  #took(answer: LookupAnswer | CreditAnswer | RequestToPayStatusAnswer | WithdrawalAnswer, content: string): Promise<SubmitOutcome> {
    const { scheduler, trace, operator } = this.#parts;
    const random = this.#operator;
    const id = answer.transactionId;
    const reply = (outcome: SubmitOutcome): Promise<SubmitOutcome> => new Promise((resolve) => scheduler.after(random.between(1, 40), () => resolve(outcome)));
    if (random.chance(operator.faults.submitFails)) {
      trace(id, `transport fails: ${content} never reaches the operator`);
      return reply({ kind: 'failed', retryable: true, error: 'connection reset before the operator took the answer' });
    }
    const lostAck = random.chance(operator.faults.submitFailsAfterTaking);
    this.#parts.stats.schemeAnswered = (this.#parts.stats.schemeAnswered ?? 0) + 1;
    trace(id, `operator takes ${content} (key ${answer.answerKey.slice(-12)})${lostAck ? ', its acknowledgement is lost' : ''}`);
    const answers = this.answers.get(id) ?? { byKey: new Map<string, string>() };
    this.answers.set(id, answers);
    const before = answers.byKey.get(answer.answerKey);
    if (before !== undefined && before !== content) this.#parts.record(id, `answer key ${answer.answerKey} sent as ${before}, then as ${content}`);
    answers.byKey.set(answer.answerKey, content);
    if (answers.first === undefined && ('outcome' in answer || ('status' in answer && (answer.status === 'ACSP' || answer.status === 'ACCP' || answer.status === 'RJCT') && this.originated.get(id)?.kind === 'INBOUND_CREDIT_TRANSFER'))) {
      const approved = 'outcome' in answer ? answer.outcome === 'SUCCESSFUL' : answer.status !== 'RJCT';
      answers.first = { approved, reasonCode: answer.reasonCode, account: 'outcome' in answer ? answer.account?.traditionalIdentifier : undefined };
      if (!('outcome' in answer) && approved) this.#finalWord(id);
    }
    return reply(lostAck ? { kind: 'failed', retryable: true, error: 'timed out waiting for the operator (it took the answer)' } : { kind: 'delivered' });
  }

  /** An approved credit: the scheme settles it (or not) and says so with a pacs.002, reliably, sometimes twice. */
  #finalWord(id: string): void {
    const random = this.#operator;
    const originated = this.originated.get(id);
    if (originated === undefined) return;
    const settled = !random.chance(0.1);
    const word = settled ? { settled } : { settled, reasonCode: 'AM04' };
    this.finalWords.set(id, word);
    const report: InboundReport = {
      kind: 'status',
      status: settled ? 'ACCEPTED' : 'REJECTED',
      scheme: originated.request.scheme,
      uetr: originated.uetr,
      idempotencyKey: id,
      inboundKey: id,
      ...(settled ? {} : { reasonCode: 'AM04', reasonText: 'Settlement failed' }),
      message: { status: settled ? 'ACSC' : 'RJCT' },
      receivedAt: this.#parts.scheduler.now(),
    };
    const copies = random.chance(this.#parts.operator.faults.answerDuplicated) ? 2 : 1;
    for (let copy = 0; copy < copies; copy += 1) {
      const late = random.chance(this.#parts.operator.faults.answerLate);
      this.#parts.scheduler.after(late ? random.between(60_000, 900_000) : random.between(5, 3_000), () => this.#report(id, report, `final pacs.002 ${settled ? 'ACSC' : 'RJCT AM04'}`, 0));
    }
  }

  // --- the integrators as receiving banks ---

  #call(call: PartnerCall, integrator: IntegratorConfig): Promise<CallResult> {
    const { scheduler, trace, integrators } = this.#parts;
    const random = this.#integrator;
    const faults = integrators.faults;
    const id = call.id;
    const path = call.url.slice(integrator.partnerApiUrl.length);
    const about: 'credit' | 'lookup' = path.includes('credit-transfer') ? 'credit' : 'lookup';
    const sync = path.endsWith('-sync');
    const calls = this.calls.get(id) ?? [];
    calls.push(call.body);
    this.calls.set(id, calls);
    this.#parts.stats.integratorCalls = (this.#parts.stats.integratorCalls ?? 0) + 1;
    const after = (ms: number, result: Omit<CallResult, 'durationMs'>, onAnswer?: () => void): Promise<CallResult> =>
      new Promise((resolve) =>
        scheduler.after(ms, () => {
          onAnswer?.();
          resolve({ ...result, durationMs: ms });
        }),
      );
    const timedOut = { delivered: false, httpStatus: null, error: 'timed out', body: null };
    if (random.chance(faults.serverError)) {
      trace(id, `integrator ${integrator.id} answers 500 to the ${sync ? 'sync' : 'async'} ${about} call`);
      return after(random.between(1, 50), { delivered: false, httpStatus: 500, error: null, body: null });
    }
    if (random.chance(faults.timeout * 2)) {
      // No answer within the call's deadline; the integrator may have decided all the same.
      const processed = random.chance(faults.ackLost);
      const decision = processed ? this.#decide(id, about, integrator) : undefined;
      trace(id, `integrator ${integrator.id} does not answer the ${about} call within ${call.timeoutMs} ms${decision === undefined ? '' : ` (it decided ${describe(decision)})`}`);
      if (processed && !sync) this.#reportLater(id, about, integrator, call, 0);
      return after(call.timeoutMs, timedOut);
    }
    const decision = this.#decide(id, about, integrator);
    if (!sync) {
      trace(id, `integrator ${integrator.id} takes the async ${about} call (202)`);
      return after(random.between(1, 100), { delivered: true, httpStatus: 202, error: null, body: '' }, () => this.#reportLater(id, about, integrator, call, 0));
    }
    const delay = random.between(5, 2_500);
    if (delay >= call.timeoutMs) {
      trace(id, `integrator ${integrator.id} decides ${describe(decision)} too slowly (${delay} ms of ${call.timeoutMs})`);
      return after(call.timeoutMs, timedOut);
    }
    let body = this.#answerJson(about, call.body, decision);
    if (random.chance(0.04)) {
      // An answer that breaks the rules: a rejection without its reason, a lookup answer without the legal name.
      const broken = JSON.parse(body) as { status?: { outcome: string; reasonInfo?: unknown }; report?: { reportInformation: { outcome: string; accountOwner: { legalName?: string }; reasonCode?: string } } };
      if (broken.status !== undefined) broken.status = { outcome: 'REJECTED' };
      else if (broken.report !== undefined) {
        const information = broken.report.reportInformation;
        information.outcome = 'SUCCESSFUL';
        delete information.reasonCode;
        delete information.accountOwner.legalName;
      }
      body = JSON.stringify(broken);
      this.invalidAnswers.set(id, about === 'credit' ? TIMEOUT_REASON : 'CH21');
      trace(id, `integrator ${integrator.id}'s answer breaks the rules`);
    }
    return after(delay, { delivered: true, httpStatus: 200, error: null, body }, () => trace(id, `integrator ${integrator.id} answers the sync ${about} call: ${describe(decision)}`));
  }

  /** The integrator's decision on a credit or lookup: made once, the same on every later call. */
  #decide(id: string, about: 'credit' | 'lookup', integrator: IntegratorConfig): Decision {
    const known = this.decisions.get(id);
    if (known !== undefined) return known;
    const random = this.#integrator;
    const decision: Decision =
      about === 'credit'
        ? random.chance(0.75)
          ? { approved: true }
          : { approved: false, reasonCode: random.pick(CREDIT_REJECTIONS) }
        : random.chance(0.8)
          ? { approved: true, account: String(random.between(1_000_000_000, 9_999_999_999)) }
          : { approved: false, reasonCode: 'BE23' };
    this.decisions.set(id, decision);
    this.#parts.trace(id, `integrator ${integrator.id} decides ${describe(decision)}`);
    return decision;
  }

  /** The async decision, posted later through the integrator API's use case; sent again while the service is down. */
  #reportLater(id: string, about: 'credit' | 'lookup', integrator: IntegratorConfig, call: PartnerCall, attempt: number): void {
    if (attempt === 0 && this.#reported.has(id)) return;
    this.#reported.add(id);
    const random = this.#integrator;
    const decision = this.decisions.get(id)!;
    // Some come after the budget (the service refuses them: the scheme was answered AB06).
    const delay = attempt === 0 ? random.between(50, Math.round(call.timeoutMs * 1.3)) : random.between(500, 5_000);
    const bodyJson = this.#reportBodies.get(id) ?? this.#answerJson(about, call.body, decision);
    this.#reportBodies.set(id, bodyJson);
    this.#parts.scheduler.after(delay, () => {
      const validate: (body: unknown) => Validation<unknown> = about === 'credit' ? validateAuthorisationReport : validateLookupAnswer;
      const report = valid(validate(JSON.parse(bodyJson) as unknown), about);
      this.#post(id, integrator, { about, report } as InboundAnswer, bodyJson, `${about} decision ${describe(decision)}`, attempt, () => this.#reportLater(id, about, integrator, call, attempt + 1));
    });
  }

  readonly #reported = new Set<string>();
  readonly #reportBodies = new Map<string, string>();

  /** One of the integrator's async answers, through reportInboundAnswer on the live process (as the HTTP route calls it). */
  #post(id: string, integrator: IntegratorConfig, answer: InboundAnswer, rawBody: string, what: string, attempt: number, again: () => void): void {
    const { trace, live } = this.#parts;
    const process = live();
    if (process === undefined) {
      trace(id, `integrator ${integrator.id} posts its ${what}: service down`);
      if (attempt < 20) again();
      return;
    }
    trace(id, `integrator ${integrator.id} posts its ${what}${attempt > 0 ? ` (again, ${attempt})` : ''}`);
    reportInboundAnswer(process.deps, { ...answer, integrator, rawBody, trace: trace0 }).then(
      () => {
        if (process.alive) trace(id, `${what}: 202`);
      },
      (error: unknown) => {
        // What the integrator's HTTP client would get: the error plugin's own mapping.
        const answer = toApiError(error);
        trace(id, `${what}: ${answer.status} ${answer.code}`);
        if (answer.code === 'ANSWER_NOT_AWAITED') return;
        // The connection broke under it, or the service asked for the identical request again (503): sent again.
        if (!process.alive || answer.status === 503) {
          if (attempt < 20) again();
          return;
        }
        this.#parts.record(id, `the integrator's ${what} was answered ${answer.status} ${answer.code}: ${error instanceof Error ? error.message : String(error)}`);
      },
    );
  }

  #answerJson(about: 'credit' | 'lookup', callBody: string, decision: Decision): string {
    const asked = JSON.parse(callBody) as Record<string, unknown>;
    const messageIdentifiers = { messageIdentification: `ANS${this.#integrator.uuid4().replaceAll('-', '').slice(0, 30)}`, creationDateTime: new Date(this.#parts.scheduler.now()).toISOString() };
    if (about === 'credit') {
      return JSON.stringify({
        schema: 'PaymentStatusReport',
        messageIdentifiers,
        originalMessageIdentifiers: asked.messageIdentifiers,
        transactionIdentifiers: asked.transactionIdentifiers,
        status: decision.approved ? { outcome: 'APPROVED', reasonInfo: [] } : { outcome: 'REJECTED', reasonInfo: [{ reason: { schema: 'CODE', value: decision.reasonCode }, additionalInformation: ['Declined by the bank'] }] },
      });
    }
    const request = asked.request as { uetr: string; verificationIdentification: string; identifier: { schema: string; value: string } };
    const proxy = request.identifier.schema === 'GENERIC' ? {} : { proxy: { value: request.identifier.value, schema: request.identifier.schema } };
    return JSON.stringify({
      schema: 'IdentifierDeterminationResponse',
      messageIdentifiers,
      originalMessageIdentifiers: asked.messageIdentifiers,
      scheme: 'ZA_RPP',
      uetr: request.uetr,
      verificationIdentification: request.verificationIdentification,
      report: {
        reportInformation: decision.approved
          ? { outcome: 'SUCCESSFUL', accountInformation: { ...proxy, traditionalIdentifier: decision.account }, accountOwner: { knownAsName: 'Sim Customer', legalName: 'Simulated Customer' } }
          : { outcome: 'FAILED', reasonCode: decision.reasonCode, reasonDescription: 'Proxy unknown', accountInformation: { ...proxy }, accountOwner: {} },
      },
    });
  }

  /** A callback the integrator processed the first time: a request-to-pay handed to its customer is decided on. */
  #processed(message: OutboxRecord): void {
    if (!message.url.endsWith(INBOUND_PATHS.requestToPay)) return;
    const random = this.#integrator;
    const integrator = this.#parts.integratorConfigs.get(message.integratorId)!;
    const id = message.transactionId;
    const request = JSON.parse(message.body) as RequestToPay;
    const decide = (status: 'PRESENTED' | 'ACCEPTED' | 'REJECTED', at: number): void => {
      const rawBody = JSON.stringify({
        schema: 'RequestToPayResponse',
        messageIdentifiers: { messageIdentification: `RSP${random.uuid4().replaceAll('-', '').slice(0, 30)}`, creationDateTime: new Date(this.#parts.scheduler.now() + at).toISOString() },
        originalMessageIdentifiers: request.messageIdentifiers,
        transactionIdentifiers: request.transactionIdentifiers,
        status: status === 'REJECTED' ? { status, reasonInfo: [{ reason: { schema: 'CODE', value: 'AC04' }, additionalInformation: ['Debtor declined'] }] } : { status, reasonInfo: [] },
      });
      const report = valid(validateInboundRequestToPayResponse(JSON.parse(rawBody) as unknown), 'request_to_pay');
      const post = (attempt: number): void => {
        const decisions = this.debtorDecisions.get(id) ?? new Set<string>();
        decisions.add(status);
        this.debtorDecisions.set(id, decisions);
        this.#post(id, integrator, { about: 'request_to_pay', report }, rawBody, `request-to-pay decision ${status}`, attempt, () => this.#parts.scheduler.after(random.between(500, 5_000), () => post(attempt + 1)));
      };
      this.#parts.scheduler.after(at, () => post(0));
    };
    const choice = random.next();
    let at = random.between(100, 20_000);
    if (choice < 0.7) decide('PRESENTED', at);
    at += random.between(100, 200_000);
    if (choice < 0.45) {
      decide('ACCEPTED', at);
      // Most accepted requests are paid: the customer's transfer carries the request's uetr and end-to-end id.
      if (random.chance(0.8)) {
        const paying = random.between(100, 60_000);
        const messageId = `MSG${random.uuid4().replaceAll('-', '')}`;
        this.#parts.scheduler.after(at + paying, () => this.#pay(id, message, messageId));
      }
    } else if (choice < 0.85) decide('REJECTED', at);
  }

  #pay(id: string, callback: OutboxRecord, messageId: string): void {
    const sent = this.originated.get(id);
    if (sent?.amountMinor == null) return;
    const asked = JSON.parse(callback.body) as RequestToPay;
    const transfer = creditTransfer('ZA_RPP');
    transfer.messageIdentifiers.messageIdentification = messageId;
    transfer.messageIdentifiers.creationDateTime = new Date(this.#parts.scheduler.now()).toISOString();
    transfer.transactionIdentifiers = { ...transfer.transactionIdentifiers, uetr: asked.transactionIdentifiers.uetr, endToEndIdentification: asked.transactionIdentifiers.endToEndIdentification };
    transfer.amounts.bankSettlementAmount.value = amountValue(Number(sent.amountMinor));
    transfer.debtorAgent = { bicfi: sent.integrator.bicfi, clearingSystemMemberId: { memberId: sent.integrator.memberId } };
    if (asked.creditorAgent !== undefined) transfer.creditorAgent = asked.creditorAgent;
    if (asked.creditorAccount !== undefined) transfer.creditorAccount = asked.creditorAccount;
    this.#parts.trace(id, `integrator ${sent.integrator.id} pays the request-to-pay (transfer ${messageId})`);
    this.#parts.pay(sent.integrator.id, transfer, sent.amountMinor);
  }

  // --- invariants ---

  /** The inbound invariants of one transaction (after a step, and with `final` at the end). */
  check(transaction: TransactionView, outbox: readonly OutboxView[], final: boolean, fail: (message: string) => never): void {
    const { id } = transaction;
    const sent = this.originated.get(id);
    // Each originated message is one transaction, under the id its MsgId gives.
    if (sent === undefined) return fail(`inbound transaction ${id} (${transaction.kind} ${transaction.uetr}) the operator never originated`);
    if (sent.kind !== transaction.kind || sent.integrator.id !== transaction.integratorId || sent.uetr !== transaction.uetr) {
      fail(`the ${sent.request.original.messageName} to ${sent.integrator.id} is stored as ${transaction.kind} of ${transaction.integratorId} uetr ${transaction.uetr}`);
    }
    // Money: the amount the scheme sent is the amount stored and the amount the integrator is asked about.
    if (sent.amountMinor !== transaction.amountMinor) fail(`the scheme sent amount ${sent.amountMinor}, the transaction stores ${transaction.amountMinor}`);
    const calls = this.calls.get(id) ?? [];
    for (const body of calls) if (body !== sent.request.bodyJson) fail('the integrator was asked about another message (amount, parties) than the scheme sent');
    const data = JSON.parse(transaction.data) as { mode?: string; calls?: number; verdict?: { approved: boolean; reasonCode?: string } };
    const config = this.#parts.integratorConfigs.get(transaction.integratorId)!;
    const answers = this.answers.get(id);
    if (transaction.kind === 'INBOUND_REQUEST_TO_PAY') return this.#checkRequestToPay(transaction, answers, outbox, final, fail);
    // The integrator is asked once, again only after a call that failed (the machine counts its calls).
    if (calls.length > (data.calls ?? 0)) fail(`the integrator was called ${calls.length} times, the machine made ${data.calls ?? 0} calls`);
    if (data.mode === 'auto' && calls.length > 0) fail('auto-authorisation, yet the integrator was called');
    if (data.mode !== undefined && data.mode !== (transaction.kind === 'INBOUND_CREDIT_TRANSFER' ? config.inbound.authorisation : config.inbound.identifierDetermination)) {
      fail(`answered in mode ${data.mode}, the integrator is configured otherwise`);
    }
    // One answer per original: every resend under the same key, with the same content.
    const keys = answers === undefined ? [] : [...answers.byKey.keys()];
    if (keys.length > 1) fail(`${keys.length} answers to one ${sent.request.original.messageName}: ${keys.join(', ')}`);
    const first = answers?.first;
    if (first !== undefined) {
      // The answer the scheme got matches the integrator's decision (auto-authorisation aside); without one in time, the timeout code.
      const decision = this.decisions.get(id);
      const invalid = this.invalidAnswers.get(id);
      if (first.approved && invalid !== undefined) fail(`the scheme was answered approved, the integrator's answer broke the rules`);
      if (!first.approved && invalid !== undefined && first.reasonCode !== invalid && first.reasonCode !== TIMEOUT_REASON) fail(`the integrator's answer broke the rules, the scheme was answered ${first.reasonCode}, not ${invalid}`);
      if (first.approved && data.mode !== 'auto' && decision?.approved !== true) fail(`the scheme was answered approved, the integrator decided ${decision === undefined ? 'nothing' : describe(decision)}`);
      if (first.approved && transaction.kind === 'INBOUND_IDENTIFIER_DETERMINATION' && first.account !== decision?.account) fail(`the scheme was given account ${first.account}, the integrator ${decision?.account}`);
      if (!first.approved && invalid === undefined && first.reasonCode !== TIMEOUT_REASON && (decision === undefined || decision.approved || decision.reasonCode !== first.reasonCode)) {
        fail(`the scheme was answered rejected ${first.reasonCode}, the integrator decided ${decision === undefined ? 'nothing' : describe(decision)}`);
      }
      if (data.verdict !== undefined && data.verdict.approved !== first.approved) fail(`the stored verdict (${data.verdict.approved ? 'approved' : 'rejected'}) is not the answer the scheme got`);
    }
    if (transaction.kind === 'INBOUND_CREDIT_TRANSFER') {
      // Exactly one completion per credit, saying what the scheme's final word (or the rejection) was.
      const completions = outbox.filter((row) => row.channel === 'callback');
      if (completions.length > 1) fail(`${completions.length} completion callbacks`);
      const completion = completions[0];
      if (completion?.body != null && first !== undefined) {
        const outcome = /"outcome":"([A-Z]+)"/.exec(completion.body)?.[1];
        const word = this.finalWords.get(id);
        const expected = first.approved ? (word === undefined ? undefined : word.settled ? 'APPROVED' : 'REJECTED') : 'REJECTED';
        if (outcome !== expected) fail(`the completion says ${outcome}, the scheme's word was ${expected ?? 'none'}`);
      }
      if (final && first !== undefined && completions.length !== 1) fail(`${completions.length} completion callbacks at the end`);
    }
    if (final && sent.group.some((message) => message.accepted) && first === undefined) fail(`the scheme never got an answer to its ${sent.request.original.messageName}`);
  }

  #checkRequestToPay(transaction: TransactionView, answers: Answers | undefined, outbox: readonly OutboxView[], final: boolean, fail: (message: string) => never): void {
    const { id } = transaction;
    const decided = this.debtorDecisions.get(id) ?? new Set<string>();
    // PAID (and its ACSC) only on a transfer of the integrator that carries the request's uetr and that the scheme accepted.
    const paidBy = (JSON.parse(transaction.data) as { paidBy?: string }).paidBy;
    const paid = (what: string): void => {
      const transfer = paidBy === undefined ? undefined : this.#parts.operator.transfers.get(paidBy);
      if (transfer?.status !== 'ACCEPTED' || transfer.uetr !== transaction.uetr) fail(`${what}, but the scheme ${transfer === undefined ? 'took no transfer paying it' : `said ${transfer.status} to the transfer ${paidBy} uetr ${transfer.uetr}`}`);
      if (transfer.amountMinor !== transaction.amountMinor) fail(`${what}, paid ${transfer.amountMinor} of ${transaction.amountMinor}`);
    };
    if (transaction.state === 'REQUEST_TO_PAY_STATUS_PAID') paid('PAID');
    const statusOf: Readonly<Record<string, string>> = { PRES: 'PRESENTED', ACCP: 'ACCEPTED', RJCT: 'REJECTED' };
    for (const [key, content] of answers?.byKey ?? []) {
      const [kind, code] = content.split(' ');
      if (kind === 'pain.014') {
        if (key !== `${id}:${code}`) fail(`pain.014 ${code} under answer key ${key}`);
        const status = statusOf[code ?? ''];
        if (code === 'ACSC') paid('pain.014 ACSC');
        else if (status === undefined || !decided.has(status)) fail(`pain.014 ${code}, the integrator never sent ${status ?? 'such a decision'}`);
      } else if (final) {
        // The camt.029 (`camt.029 <case> CNCL` or `camt.029 <case> RJCR <reason>`): withdrawn unless the request had ended paid or rejected.
        const [, , answer, why] = content.split(' ');
        const ended = transaction.state;
        if (answer === 'RJCR' && !(why === 'ARJT' && ended === 'REQUEST_TO_PAY_STATUS_REJECTED') && !(why === 'ARDT' && ended === 'REQUEST_TO_PAY_STATUS_PAID')) fail(`camt.029 RJCR ${why}, the request is ${ended}`);
        if (answer !== 'RJCR' && (ended === 'REQUEST_TO_PAY_STATUS_REJECTED' || ended === 'REQUEST_TO_PAY_STATUS_PAID')) fail(`camt.029 CNCL, the request is ${ended}`);
      }
    }
    if (final) {
      const requests = outbox.filter((row) => row.channel === 'callback' && row.body?.includes('"schema":"RequestToPay"') === true);
      if (requests.length > 1) fail(`${requests.length} inboundRequestToPay callbacks`);
      const notices = outbox.filter((row) => row.channel === 'callback' && row.body?.includes('"schema":"RequestToPayCancellation"') === true);
      if (notices.length > 1) fail(`${notices.length} cancellation notices`);
      if (this.withdrawals.has(id) && !answers?.byKey.has(`${id}:withdrawal:${this.withdrawals.get(id)}`) && transaction.state !== 'REQUEST_TO_PAY_REQUEST_RECEIVED') {
        fail('the scheme withdrew the request and got no camt.029');
      }
    }
  }

  /**
   * At the end: every message the service recorded is one transaction (with its resends under
   * another MsgId), found by its uetr under the id one of their MsgIds gives.
   */
  async checkEnd(
    get: (id: string) => Promise<TransactionView | undefined>,
    find: (integratorId: string, uetr: string, kind: TransactionKind) => Promise<TransactionView | undefined>,
    checkTransaction: (id: string) => Promise<void>,
    fail: (id: string | undefined, message: string) => never,
  ): Promise<void> {
    for (const sent of this.originated.values()) {
      if (sent.group[0] !== sent) continue;
      const transaction = await find(sent.integrator.id, sent.uetr, sent.kind);
      const what = `${sent.request.original.messageName} ${sent.request.original.messageId}`;
      if (sent.group.some((message) => message.accepted) && transaction === undefined) fail(sent.id, `${what} was recorded and is lost`);
      const stored = [];
      for (const message of sent.group) if ((await get(message.id)) !== undefined) stored.push(message.id);
      if (stored.length > 1) fail(sent.id, `${what} and its resend under another MsgId are ${stored.length} transactions`);
      if (transaction !== undefined && !sent.group.some((message) => message.id === transaction.id)) fail(sent.id, `${what} is stored under ${transaction.id}, not the id its MsgId gives`);
      if (transaction !== undefined) await checkTransaction(transaction.id);
    }
  }
}

function describe(decision: Decision): string {
  return decision.approved ? `approved${decision.account === undefined ? '' : ` ${decision.account}`}` : `rejected ${decision.reasonCode ?? ''}`;
}

function valid<T>(result: Validation<T>, what: string): T {
  if (!result.ok) throw new Error(`the simulation wrote an invalid ${what} answer: ${JSON.stringify(result.errors)}`);
  return result.value;
}
