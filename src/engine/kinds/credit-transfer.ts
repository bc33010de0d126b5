import { REQUEST_TO_PAY_LINK } from '../../domain/machines/inbound-request-to-pay.js';
import { schemeLimits } from '../../config/limits.js';
import { CALLBACK_PATHS } from '../../domain/callback-paths.js';
import { CREDIT_TRANSFER_MACHINE, CT, decide, type Command, type CtData, type CtInput, type CtState } from '../../domain/machines/credit-transfer.js';
import type { CreditTransfer } from '../../domain/messages/credit-transfer.js';
import { paymentStatusReportJson } from '../../domain/messages/payment-status-report.js';
import type { OutboundTransfer } from '../../ports/scheme.js';
import type { NewOutboxMessage } from '../../ports/store.js';
import { amountOf, callbackMessage, callbackRowInput, carrying, outboundOf, sentInput, stateIn, type DriverEnv, type EngineInput, type KindContext, type KindDecision, type KindDriver } from './kind.js';

/** The engine's side of an outbound credit transfer: the machine of domain/machines/credit-transfer.ts. */
export const CREDIT_TRANSFER_DRIVER: KindDriver = {
  machine: CREDIT_TRANSFER_MACHINE,

  answers(transaction, report) {
    return (report.kind === 'status' || report.kind === 'not_found') && transaction.uetr === report.uetr;
  },

  async decide(context, input, env) {
    const { transaction } = context;
    const state = stateIn(CREDIT_TRANSFER_MACHINE, transaction);
    const data = transaction.data as CtData;
    const linked = transaction.data[REQUEST_TO_PAY_LINK];
    const settled = await settledCallback(context, state, data, input, env);
    const ctInput = machineInput(context, state, data, settled);
    if (ctInput === undefined) return undefined;
    const decision = decide({ state, data, dueAt: transaction.dueAt }, ctInput, {
      now: env.now,
      timeBudgetMs: env.timeBudgetMs,
      resubmitDelayMs: env.delays.resendDelayMs,
      enquiryDelayMs: env.delays.enquiryDelayMs,
      callbackCheckMs: env.delays.callbackCheckMs,
    });
    const outbox: NewOutboxMessage[] = [];
    let next: CtData = decision.data;
    // The outcome callback: rendered with the verdict, or the one whose delivery this input reports.
    let report = settled.type === 'callback' ? settled.body : undefined;
    if (decision.callback !== undefined) {
      const id = env.ids.uuid();
      report = paymentStatusReportJson({ original: messageOf(context), verdict: decision.callback, messageIdentification: id.replaceAll('-', ''), createdAt: env.now });
      outbox.push(callbackMessage(context, id, CALLBACK_PATHS.creditTransferResponse, report, env.now));
      next = { ...next, callbackId: id };
    }
    return {
      steps: carrying(decision.steps, CARRYING_THE_REPORT, report),
      data: next as Record<string, unknown>,
      dueAt: decision.dueAt,
      commands: decision.commands,
      outbox,
      ...(decision.callback === undefined ? {} : { outcome: { outcome: decision.callback.outcome, reasonCode: decision.callback.reasonCode ?? null } }),
      // The request-to-pay this transfer pays looks at it whenever it moves (its outcome above all).
      ...(typeof linked === 'string' && decision.steps.length > 0 ? { wake: [linked] } : {}),
    } satisfies KindDecision;
  },

  execute(context, command) {
    const transfer = outboundTransfer(context);
    return (command as Command) === 'submit' ? context.connector.submit(transfer) : context.connector.enquire(transfer);
  },
};

/** The states whose event carries the outcome callback, the PaymentStatusReport (queued, delivered, or failing). */
const CARRYING_THE_REPORT: ReadonlySet<string> = new Set([CT.RESPONSE_PENDING, CT.RESPONSE_DELIVERED, CT.RESPONSE_DELIVERY_FAILURE]);

/**
 * A tick while the outcome callback is awaited, as the callback input its outbox row says it is
 * (the dispatcher's notice may have died with a process); any other input as it is.
 */
async function settledCallback(context: KindContext, state: CtState, data: CtData, input: EngineInput, env: DriverEnv): Promise<EngineInput> {
  if (input.type !== 'tick' || (state !== CT.RESPONSE_PENDING && state !== CT.RESPONSE_DELIVERY_FAILURE) || data.callbackId === undefined) return input;
  return (await callbackRowInput(env, context.transaction.id, data.callbackId, state === CT.RESPONSE_PENDING)) ?? input;
}

/**
 * The engine's input as the credit-transfer machine's, completed with what the machine cannot look
 * up itself: the scheme's rules for a new transfer. Only the verdict's own callback moves the
 * transfer (a status request's re-sent status is a callback too).
 */
function machineInput(context: KindContext, state: CtState, data: CtData, input: EngineInput): CtInput | undefined {
  switch (input.type) {
    case 'tick': {
      if (state === CT.RECEIVED) {
        return { type: 'tick', rules: context.connector.check(outboundTransfer(context), schemeLimits(context.integrator, context.transaction.scheme, context.transaction.currency)) };
      }
      return { type: 'tick' };
    }
    case 'sent':
      return { type: 'sent', what: input.command as Command, ...sentInput(input.outcome) };
    case 'scheme': {
      const { report } = input;
      if (report.kind !== 'status' && report.kind !== 'not_found') return undefined;
      return {
        type: 'scheme',
        answer: {
          kind: report.kind,
          status: report.status,
          ...(report.reasonCode === undefined ? {} : { reasonCode: report.reasonCode }),
          ...(report.reasonText === undefined ? {} : { reasonText: report.reasonText }),
          payloadJson: JSON.stringify(report.message),
        },
      };
    }
    case 'callback':
      return input.outboxId === data.callbackId ? { type: 'callback', delivered: input.delivered } : undefined;
  }
}

function messageOf(context: KindContext): CreditTransfer {
  return context.message as CreditTransfer;
}

function outboundTransfer(context: KindContext): OutboundTransfer {
  const { transaction } = context;
  const data = transaction.data as CtData;
  return {
    ...outboundOf(transaction),
    message: messageOf(context),
    amount: amountOf(transaction),
    ...(data.determination === undefined ? {} : { resolvedAccount: data.determination.account }),
  };
}
