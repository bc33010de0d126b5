import { INBOUND_PATHS } from '../../domain/callback-paths.js';
import {
  COMPLETION,
  decideInbound,
  INBOUND_CREDIT_TRANSFER,
  INBOUND_CREDIT_TRANSFER_MACHINE,
  INBOUND_IDENTIFIER_DETERMINATION,
  INBOUND_IDENTIFIER_DETERMINATION_MACHINE,
  type FinalWord,
  type InboundData,
  type InboundInput,
  type InboundProfile,
  type Verdict,
} from '../../domain/machines/inbound.js';
import type { MachineDefinition } from '../../domain/machines/machine.js';
import type { CreditTransfer } from '../../domain/messages/credit-transfer.js';
import { answerPayload, judgeAnswer } from '../../domain/messages/inbound-answers.js';
import { identifierDeterminationResponseJson, type IdentifierDeterminationRequest, type IdentifierDeterminationResponse, type ResolvedAccount } from '../../domain/messages/identifier-determination.js';
import { paymentStatusReportJson } from '../../domain/messages/payment-status-report.js';
import { parseJson } from '../../lib/json.js';
import type { SchemeOriginal, SubmitOutcome } from '../../ports/scheme.js';
import type { NewOutboxMessage } from '../../ports/store.js';
import { callbackMessage, callbackRowInput, carrying, traceHeaders, type CommandOutcome, type DriverEnv, type EngineInput, type KindContext, type KindDecision, type KindDriver } from './kind.js';

/**
 * The engine's side of a message the scheme originated for an integrator (the machine of
 * domain/machines/inbound.ts): the call to the integrator (`ask`), its answer judged by the
 * domain's rules, the answer to the scheme (`answer`, through the connector), and for a credit the
 * completion callback. The working data holds, beside the machine's, `origin`: the scheme
 * message's identity that every answer to it repeats.
 */

/** The working data of an inbound transaction: the machine's, and the scheme message it answers. */
export type InboundTransactionData = InboundData & { readonly origin: SchemeOriginal };

/** What differs between the inbound kinds: the integrator's paths, how its answer is judged, how the scheme is answered. */
interface InboundSide {
  readonly profile: InboundProfile;
  readonly machine: MachineDefinition;
  readonly answerKind: 'credit' | 'lookup';
  readonly paths: { readonly sync: string; readonly async: string };
  answerScheme(context: KindContext, data: InboundTransactionData, verdict: Verdict): Promise<SubmitOutcome>;
  /** The service's own answer, as the integrator would have written it (a verdict it decided without one). */
  answerOf(context: KindContext, verdict: Verdict, messageIdentification: string, now: number): string;
}

/** The states whose event carries the answer given to the scheme, as a message of the integrator API. */
const CARRYING_THE_ANSWER: ReadonlySet<string> = new Set(['RESPONSE_ACCEPTED', 'RESPONSE_PENDING', 'RESPONSE_DELIVERED'].flatMap((state) => [`PAYMENT_AUTH_${state}`, `IDENTIFIER_DETERMINATION_${state}`]));

/** The states whose event carries the completion callback, the PaymentStatusReport. */
const CARRYING_THE_COMPLETION: ReadonlySet<string> = new Set([COMPLETION.PENDING, COMPLETION.DELIVERED, COMPLETION.DELIVERY_FAILURE]);

function inboundDriver(side: InboundSide): KindDriver {
  const { profile } = side;
  return {
    machine: side.machine,

    answers(_transaction, report) {
      // A credit's final word comes as a pacs.002; a lookup is answered by nobody but the integrator.
      return profile.completion && report.kind === 'status';
    },

    async decide(context, input, env) {
      const { transaction } = context;
      const data = transaction.data as unknown as InboundTransactionData;
      const settled = await settledCallback(context, data, input, env);
      const machineInput = inputOf(side, data, settled);
      if (machineInput === undefined) return undefined;
      const decision = decideInbound(profile, { state: transaction.state, data, dueAt: transaction.dueAt }, machineInput, {
        now: env.now,
        resendDelayMs: env.delays.resendDelayMs,
        callbackCheckMs: env.delays.callbackCheckMs,
      });
      if (decision === undefined) return undefined;
      const outbox: NewOutboxMessage[] = [];
      let next: InboundTransactionData = { ...decision.data, origin: data.origin };
      if (decision.decided !== undefined && decision.decided.answerJson === undefined) {
        // The service decided: its answer, as the integrator would have written it, is rendered once and kept.
        next = { ...next, verdict: { ...decision.decided, answerJson: side.answerOf(context, decision.decided, env.ids.uuid().replaceAll('-', ''), env.now) } };
      }
      // The completion callback: rendered now, or the one whose delivery this input reports.
      let completion = settled.type === 'callback' ? settled.body : undefined;
      if (decision.complete !== undefined) {
        const id = env.ids.uuid();
        completion = completionJson(context, decision.complete, id, env.now);
        outbox.push(callbackMessage(context, id, INBOUND_PATHS.creditTransferCompletion, completion, env.now));
        next = { ...next, callbackId: id };
      }
      const outcome = outcomeOf(side, decision.decided, decision.complete);
      return {
        steps: carrying(carrying(decision.steps, CARRYING_THE_ANSWER, next.verdict?.answerJson), CARRYING_THE_COMPLETION, completion),
        data: next as unknown as Record<string, unknown>,
        dueAt: decision.dueAt,
        commands: decision.commands,
        outbox,
        ...(decision.refused === undefined ? {} : { refused: decision.refused }),
        ...(outcome === undefined ? {} : { outcome }),
      } satisfies KindDecision;
    },

    async execute(context, command, now) {
      const data = context.transaction.data as unknown as InboundTransactionData;
      if (command === 'ask') return ask(side, context, data, now);
      if (data.verdict === undefined) return { kind: 'failed', retryable: false, error: 'no answer decided to send' };
      return side.answerScheme(context, data, data.verdict);
    },
  };
}

/**
 * A tick while the completion callback is awaited, as the callback input its outbox row says it
 * is (the dispatcher's notice may have died with a process); any other input as it is.
 */
async function settledCallback(context: KindContext, data: InboundTransactionData, input: EngineInput, env: DriverEnv): Promise<EngineInput> {
  const { transaction } = context;
  if (input.type !== 'tick' || (transaction.state !== COMPLETION.PENDING && transaction.state !== COMPLETION.DELIVERY_FAILURE) || data.callbackId === undefined) return input;
  return (await callbackRowInput(env, transaction.id, data.callbackId, transaction.state === COMPLETION.PENDING)) ?? input;
}

function inputOf(side: InboundSide, data: InboundTransactionData, input: EngineInput): InboundInput | undefined {
  switch (input.type) {
    case 'tick':
      return { type: 'tick' };
    case 'sent': {
      const { outcome } = input;
      if (input.command === 'answer') {
        return outcome.kind === 'delivered' ? { type: 'answered', ok: true } : { type: 'answered', ok: false, retryable: outcome.retryable, error: outcome.error };
      }
      if (outcome.kind === 'failed') return { type: 'asked', ok: false, error: outcome.error };
      if (data.mode !== 'sync') return { type: 'asked', ok: true };
      const body = outcome.reply?.body ?? '';
      return { type: 'asked', ok: true, answer: judged(side, body) };
    }
    case 'scheme': {
      const { report } = input;
      if (report.kind !== 'status' || report.status === 'PENDING') return undefined;
      const word: FinalWord = {
        settled: report.status === 'ACCEPTED',
        ...(report.reasonCode === undefined ? {} : { reasonCode: report.reasonCode }),
        ...(report.reasonText === undefined ? {} : { reasonText: report.reasonText }),
      };
      return { type: 'final', word, payloadJson: JSON.stringify(report.message) };
    }
    case 'request': {
      const { request } = input;
      if (request.type === 'report') return { type: 'report', answer: judgeAnswer(side.answerKind, request.answer, request.answerJson) };
      if (request.type === 'resend') return { type: 'resend' };
      return undefined;
    }
    case 'callback':
      return input.outboxId === data.callbackId ? { type: 'callback', delivered: input.delivered } : undefined;
  }
}

/** The 200 of a sync call as the machine takes it: JSON that passes the answer's rules, or why not. */
function judged(side: InboundSide, body: string) {
  const parsed = parseJson(body);
  if (!parsed.ok) return { valid: false as const, problem: `the answer is not JSON: ${parsed.message}`, payloadJson: answerPayload(side.answerKind, undefined, body) };
  return judgeAnswer(side.answerKind, parsed.value, body);
}

/** The call to the integrator: its webhook-id is the transaction's id on every call, its deadline whatever is left of the budget. */
async function ask(side: InboundSide, context: KindContext, data: InboundTransactionData, now: number): Promise<CommandOutcome> {
  const { transaction, integrator, partner } = context;
  if (partner === undefined) return { kind: 'failed', retryable: false, error: 'this instance makes no calls to integrators' };
  const result = await partner.call(
    {
      id: transaction.id,
      url: `${integrator.partnerApiUrl}${data.mode === 'sync' ? side.paths.sync : side.paths.async}`,
      body: context.rawBody,
      headers: traceHeaders(transaction),
      timeoutMs: Math.max(1, data.deadlineAt - now),
    },
    integrator,
  );
  if (result.delivered && result.httpStatus !== null) return { kind: 'delivered', reply: { httpStatus: result.httpStatus, body: result.body ?? '' } };
  return { kind: 'failed', retryable: true, error: result.error ?? `HTTP ${String(result.httpStatus)}` };
}

/** The transaction's outcome, when a decision gives it: the verdict, then for a credit the scheme's final word. */
function outcomeOf(side: InboundSide, decided: Verdict | undefined, complete: FinalWord | undefined) {
  if (complete !== undefined) return { outcome: complete.settled ? 'APPROVED' : 'REJECTED', reasonCode: complete.reasonCode ?? null };
  if (decided === undefined) return undefined;
  const [yes, no] = side.answerKind === 'credit' ? ['APPROVED', 'REJECTED'] : ['SUCCESSFUL', 'FAILED'];
  return { outcome: decided.approved ? yes : no, reasonCode: decided.reasonCode ?? null };
}

/** The completion callback: a PaymentStatusReport about the CreditTransfer the integrator was asked about. */
function completionJson(context: KindContext, word: FinalWord, id: string, now: number): string {
  return creditReportJson(context, word.settled, word, id.replaceAll('-', ''), now);
}

/** A PaymentStatusReport about the CreditTransfer the integrator was asked about: APPROVED, or REJECTED with the reason. */
function creditReportJson(context: KindContext, approved: boolean, reason: { readonly reasonCode?: string; readonly reasonText?: string }, messageIdentification: string, now: number): string {
  return paymentStatusReportJson({
    original: context.message as CreditTransfer,
    verdict: {
      outcome: approved ? 'APPROVED' : 'REJECTED',
      ...(reason.reasonCode === undefined ? {} : { reasonCode: reason.reasonCode }),
      ...(reason.reasonText === undefined ? {} : { reasonText: reason.reasonText }),
    },
    messageIdentification,
    createdAt: now,
  });
}

function answerBase(context: KindContext, data: InboundTransactionData) {
  return { transactionId: context.transaction.id, answerKey: context.transaction.id, original: data.origin, traceparent: context.transaction.traceparent };
}

function reason(verdict: Verdict): { reasonCode?: string; reasonText?: string } {
  return {
    ...(verdict.reasonCode === undefined ? {} : { reasonCode: verdict.reasonCode }),
    ...(verdict.reasonText === undefined ? {} : { reasonText: verdict.reasonText }),
  };
}

/** The account and names of a SUCCESSFUL lookup answer, as the acmt.024 carries them. */
function accountOf(answerJson: string | undefined): ResolvedAccount | undefined {
  if (answerJson === undefined) return undefined;
  const parsed = parseJson(answerJson);
  if (!parsed.ok) return undefined;
  const information = (parsed.value as IdentifierDeterminationResponse).report.reportInformation;
  const { accountInformation: account, accountOwner: owner } = information;
  return {
    ...(account.traditionalIdentifier === undefined ? {} : { traditionalIdentifier: account.traditionalIdentifier }),
    ...(account.proxy === undefined ? {} : { proxy: account.proxy }),
    ...(account.creationDate === undefined ? {} : { creationDate: account.creationDate }),
    ...(owner.knownAsName === undefined ? {} : { knownAsName: owner.knownAsName }),
    ...(owner.legalName === undefined ? {} : { legalName: owner.legalName }),
    ...(information.accountAgent?.bicfi === undefined ? {} : { accountAgentBicfi: information.accountAgent.bicfi }),
  };
}

export const INBOUND_CREDIT_TRANSFER_DRIVER: KindDriver = inboundDriver({
  profile: INBOUND_CREDIT_TRANSFER,
  machine: INBOUND_CREDIT_TRANSFER_MACHINE,
  answerKind: 'credit',
  paths: { sync: INBOUND_PATHS.creditTransferAuthorisationSync, async: INBOUND_PATHS.creditTransferAuthorisation },
  answerScheme(context, data, verdict) {
    return context.connector.answerCredit({ ...answerBase(context, data), status: verdict.approved ? 'ACSP' : 'RJCT', ...reason(verdict) });
  },
  answerOf(context, verdict, messageIdentification, now) {
    return creditReportJson(context, verdict.approved, verdict, messageIdentification, now);
  },
});

export const INBOUND_IDENTIFIER_DETERMINATION_DRIVER: KindDriver = inboundDriver({
  profile: INBOUND_IDENTIFIER_DETERMINATION,
  machine: INBOUND_IDENTIFIER_DETERMINATION_MACHINE,
  answerKind: 'lookup',
  paths: { sync: INBOUND_PATHS.identifierDeterminationSync, async: INBOUND_PATHS.identifierDetermination },
  answerScheme(context, data, verdict) {
    const account = verdict.approved ? accountOf(verdict.answerJson) : undefined;
    return context.connector.answerLookup({
      ...answerBase(context, data),
      outcome: verdict.approved ? 'SUCCESSFUL' : 'FAILED',
      ...(account === undefined ? {} : { account }),
      ...reason(verdict),
      request: context.message as IdentifierDeterminationRequest,
    });
  },
  answerOf(context, verdict, messageIdentification, now) {
    return identifierDeterminationResponseJson({
      request: context.message as IdentifierDeterminationRequest,
      scheme: context.transaction.scheme,
      messageIdentification,
      createdAt: now,
      outcome: verdict.approved ? 'SUCCESSFUL' : 'FAILED',
      ...reason(verdict),
    });
  },
});
