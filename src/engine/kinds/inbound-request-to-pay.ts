import { INBOUND_PATHS } from '../../domain/callback-paths.js';
import {
  decideIrtp,
  INBOUND_REQUEST_TO_PAY_MACHINE,
  IRTP,
  type IrtpData,
  type IrtpBaseInput,
  type IrtpState,
  type PaymentSeen,
  REQUEST_TO_PAY_LINK,
} from '../../domain/machines/inbound-request-to-pay.js';
import { CANCELLATION_REASON_CODES, type RequestToPay, type RequestToPayResponse } from '../../domain/messages/request-to-pay.js';
import type { SchemeOriginal } from '../../ports/scheme.js';
import type { NewOutboxMessage, TransactionRecord } from '../../ports/store.js';
import { callbackMessage, callbackRowInput, carrying, stateIn, type DriverEnv, type EngineInput, type KindDecision, type KindDriver } from './kind.js';

/**
 * The engine's side of a request-to-pay the scheme brought to an integrator's customer (the
 * machine of domain/machines/inbound-request-to-pay.ts): the inboundRequestToPay callback, the
 * integrator's decisions forwarded as pain.014s, the camt.029 answering a withdrawal, the
 * cancellation notice. Its payment is an outbound credit transfer of the integrator carrying the
 * request's uetr and linked to it at intake (`requestToPayId` in the transfer's working data):
 * every decision reads that transfer as the store holds it, so its outcome is seen whether it
 * arrives by the transfer's wake or by the request's own timer.
 */

/** The working data: the machine's, and the pain.013's identity that every pain.014 repeats. */
export type IrtpTransactionData = IrtpData & { readonly origin: SchemeOriginal };

const FINAL_OUTCOME: Readonly<Partial<Record<IrtpState, string>>> = {
  [IRTP.PAID]: 'PAID',
  [IRTP.REJECTED]: 'REJECTED',
  [IRTP.CANCELLED]: 'CANCELLED',
  [IRTP.EXPIRED]: 'EXPIRED',
};

/** The ends whose event carries the cancellation notice queued with them (a request not yet handed over gets none). */
const CARRYING_THE_NOTICE: ReadonlySet<string> = new Set([IRTP.CANCELLED, IRTP.EXPIRED]);

export const INBOUND_REQUEST_TO_PAY_DRIVER: KindDriver = {
  machine: INBOUND_REQUEST_TO_PAY_MACHINE,

  answers(_transaction, report) {
    return report.kind === 'withdrawal';
  },

  async decide(context, input, env) {
    const { transaction } = context;
    const state = stateIn(INBOUND_REQUEST_TO_PAY_MACHINE, transaction);
    const data = transaction.data as unknown as IrtpTransactionData;
    const machineInput = await inputOf(state, data, transaction, input, env);
    if (machineInput === undefined) return undefined;
    const payment = await paymentOf(transaction, env);
    const decision = decideIrtp({ state, data, dueAt: transaction.dueAt }, { ...machineInput, ...(payment === undefined ? {} : { payment }) }, {
      now: env.now,
      resendDelayMs: env.delays.resendDelayMs,
      checkMs: env.delays.callbackCheckMs,
    });
    if (decision === undefined) return undefined;
    const outbox: NewOutboxMessage[] = [];
    let next: IrtpTransactionData = { ...decision.data, origin: data.origin };
    if (decision.deliver === true) {
      const id = env.ids.uuid();
      outbox.push(callbackMessage(context, id, INBOUND_PATHS.requestToPay, context.rawBody, env.now));
      next = { ...next, callbackId: id };
    }
    let notice: string | undefined;
    if (decision.notice !== undefined) {
      const id = env.ids.uuid();
      notice = noticeJson(context.message as RequestToPay, decision.notice.reasonCode, id, env.now);
      outbox.push(callbackMessage(context, id, INBOUND_PATHS.requestToPayCancellation, notice, env.now));
      next = { ...next, noticeId: id };
    }
    const reached = decision.steps.at(-1)?.state;
    const final = reached === undefined ? undefined : FINAL_OUTCOME[reached];
    const rejection = final === 'REJECTED' ? decision.data.reports?.find((report) => report.code === 'RJCT')?.reasonCode : undefined;
    return {
      // An end told to the integrator carries the notice that tells it.
      steps: carrying(decision.steps, CARRYING_THE_NOTICE, notice),
      data: next as unknown as Record<string, unknown>,
      dueAt: decision.dueAt,
      commands: decision.commands,
      outbox,
      ...(decision.refused === undefined ? {} : { refused: decision.refused }),
      ...(final === undefined ? {} : { outcome: { outcome: final, reasonCode: rejection ?? null } }),
    } satisfies KindDecision;
  },

  async execute(context, command) {
    const { transaction } = context;
    const data = transaction.data as unknown as IrtpTransactionData;
    const base = { transactionId: transaction.id, traceparent: transaction.traceparent };
    if (command === 'withdrawal') {
      const withdrawal = data.withdrawal;
      if (withdrawal?.answer === undefined) return { kind: 'failed', retryable: false, error: 'no withdrawal answer decided to send' };
      return context.connector.answerWithdrawal({
        ...base,
        // One answer per camt.056 case, the same on every resend.
        answerKey: `${transaction.id}:withdrawal:${withdrawal.caseId}`,
        original: withdrawal.original as unknown as SchemeOriginal,
        caseId: withdrawal.caseId,
        accepted: withdrawal.answer.accepted,
        ...(withdrawal.answer.reasonCode === undefined ? {} : { reasonCode: withdrawal.answer.reasonCode }),
      });
    }
    const code = command.slice('report:'.length);
    const report = data.reports?.find((candidate) => candidate.code === code);
    if (report === undefined) return { kind: 'failed', retryable: false, error: `no ${code} report decided to send` };
    return context.connector.reportRequestToPay({
      ...base,
      // One pain.014 per status, the same on every resend.
      answerKey: `${transaction.id}:${report.code}`,
      original: data.origin,
      status: report.code,
      ...(report.reasonCode === undefined ? {} : { reasonCode: report.reasonCode }),
      ...(report.reasonText === undefined ? {} : { reasonText: report.reasonText }),
    });
  },
};

type BaseInput = IrtpBaseInput;

async function inputOf(state: IrtpState, data: IrtpTransactionData, transaction: TransactionRecord, input: EngineInput, env: DriverEnv): Promise<BaseInput | undefined> {
  switch (input.type) {
    case 'tick': {
      if ((state === IRTP.REQUEST_PENDING || state === IRTP.REQUEST_DELIVERY_FAILURE) && data.callbackId !== undefined) {
        const callback = await callbackRowInput(env, transaction.id, data.callbackId, state === IRTP.REQUEST_PENDING);
        if (callback?.type === 'callback') return { type: 'tick', callback: { delivered: callback.delivered } };
      }
      return { type: 'tick' };
    }
    case 'sent':
      return { type: 'sent', command: input.command, ok: input.outcome.kind === 'delivered', retryable: input.outcome.kind === 'failed' && input.outcome.retryable };
    case 'scheme': {
      const { report } = input;
      if (report.kind !== 'withdrawal') return undefined;
      return { type: 'withdrawal', caseId: report.caseId, original: report.original as unknown as Readonly<Record<string, unknown>>, reasonCode: report.reasonCode, payloadJson: JSON.stringify(report.message) };
    }
    case 'request': {
      const { request } = input;
      if (request.type !== 'report') return undefined;
      const { status } = (request.answer as RequestToPayResponse).status;
      if (status !== 'PRESENTED' && status !== 'ACCEPTED' && status !== 'REJECTED') return undefined;
      const reason = (request.answer as RequestToPayResponse).status.reasonInfo[0];
      const reasonText = reason?.additionalInformation?.[0];
      return {
        type: 'decision',
        status,
        ...(reason === undefined ? {} : { reasonCode: reason.reason.value }),
        ...(reasonText === undefined ? {} : { reasonText }),
        payloadJson: request.answerJson,
      };
    }
    case 'callback':
      return input.outboxId === data.callbackId ? { type: 'callback', delivered: input.delivered } : undefined;
  }
}

/** The integrator's transfer linked to this request (same uetr, linked at intake), as the store holds it now. */
async function paymentOf(transaction: TransactionRecord, env: DriverEnv): Promise<PaymentSeen | undefined> {
  const transfer = await env.store.findTransaction(transaction.integratorId, transaction.uetr, 'CREDIT_TRANSFER');
  if (transfer === undefined || transfer.data[REQUEST_TO_PAY_LINK] !== transaction.id) return undefined;
  const verdict = transfer.data.verdict as { readonly outcome?: string } | undefined;
  const outcome = verdict?.outcome === 'APPROVED' ? 'APPROVED' : verdict?.outcome === 'REJECTED' ? 'REJECTED' : 'PENDING';
  return { id: transfer.id, outcome };
}

/**
 * The cancellation notice: a RequestToPayCancellation about the request, its reasonCode the
 * scheme's when it is an ISO 20022 cancellation reason (an expiry is none: NARR), the scheme's
 * own reason always in supplementaryData.withdrawalReason.
 */
function noticeJson(request: RequestToPay, reason: string, id: string, now: number): string {
  return JSON.stringify({
    schema: 'RequestToPayCancellation',
    reasonCode: Object.prototype.hasOwnProperty.call(CANCELLATION_REASON_CODES, reason) ? reason : 'NARR',
    messageIdentifiers: { messageIdentification: id.replaceAll('-', ''), creationDateTime: new Date(now).toISOString() },
    originalMessageIdentifiers: request.messageIdentifiers,
    originalTransactionIdentifiers: request.transactionIdentifiers,
    supplementaryData: { withdrawalReason: reason },
  });
}
