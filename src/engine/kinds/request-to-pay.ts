import {
  decide,
  REQUEST_TO_PAY_MACHINE,
  RTP,
  STATE_OF_STATUS,
  type RtpCommand,
  type RtpData,
  type RtpInput,
  type RtpState,
} from '../../domain/machines/request-to-pay.js';
import { requestToPayCancellationResponseJson, requestToPayResponseJson, type RequestToPay, type RequestToPayCancellation } from '../../domain/messages/request-to-pay.js';
import { createHash } from 'node:crypto';
import { CALLBACK_PATHS } from '../../domain/callback-paths.js';
import { AssertionError } from '../../lib/assert.js';
import type { Step } from '../../domain/machines/machine.js';
import type { OutboundRequestToPay } from '../../ports/scheme.js';
import type { NewOutboxMessage } from '../../ports/store.js';
import { amountOf, callbackMessage, outboundOf, sentInput, stateIn, type EngineInput, type KindContext, type KindDecision, type KindDriver } from './kind.js';

const FINAL_STATUSES: ReadonlySet<string> = new Set(['PAID', 'REJECTED', 'EXPIRED', 'CANCELLED']);

/** Reason the scheme is given when a request-to-pay expires unpaid (camt.056 Rsn/Prtry). */
export const EXPIRY_REASON = 'EXPIRED';

/**
 * The engine's side of a request-to-pay: the machine of domain/machines/request-to-pay.ts. Every
 * status it enters is pushed to the integrator as a RequestToPayResponse callback, and every
 * cancellation it answers as a RequestToPayCancellationResponse, in the same commit as the state:
 * callbacks of one transaction go out in order (CONTRACT §3).
 */
export const REQUEST_TO_PAY_DRIVER: KindDriver = {
  machine: REQUEST_TO_PAY_MACHINE,

  answers(_transaction, report) {
    return report.kind === 'request_to_pay' || report.kind === 'cancellation';
  },

  decide(context, input, env) {
    const { transaction } = context;
    const state = stateIn(REQUEST_TO_PAY_MACHINE, transaction);
    const data = transaction.data as unknown as RtpData;
    const rtpInput = machineInput(context, state, data, input);
    if (rtpInput === undefined) return Promise.resolve(undefined);
    const decision = decide({ state, data, dueAt: transaction.dueAt }, rtpInput, { now: env.now, resendDelayMs: env.delays.resendDelayMs });
    const original = context.message as RequestToPay;
    // Callbacks a request of the integrator causes continue its trace; the others, the request-to-pay's.
    const requestTrace = input.type === 'request' ? input.request.trace : undefined;
    const outbox: NewOutboxMessage[] = [];
    const pushed: string[] = [];
    for (const push of decision.pushes) {
      const id = env.ids.uuid();
      const body = requestToPayResponseJson({ original, ...push, messageIdentification: id.replaceAll('-', ''), createdAt: env.now });
      outbox.push(callbackMessage(context, id, CALLBACK_PATHS.requestToPayResponse, body, env.now, requestTrace));
      pushed.push(body);
    }
    for (const answer of decision.cancellationAnswers) {
      const id = env.ids.uuid();
      const body = requestToPayCancellationResponseJson({
        cancellation: { messageIdentifiers: answer.messageIdentifiers as RequestToPayCancellation['messageIdentifiers'] },
        original,
        accepted: answer.accepted,
        ...(answer.reasonCode === undefined ? {} : { reasonCode: answer.reasonCode }),
        ...(answer.reasonText === undefined ? {} : { reasonText: answer.reasonText }),
        requestToPayStatus: answer.status,
        messageIdentification: id.replaceAll('-', ''),
        createdAt: env.now,
      });
      outbox.push(callbackMessage(context, id, CALLBACK_PATHS.requestToPayCancellationResponse, body, env.now, traceOf(answer.trace)));
    }
    // A status entered that is final is the request's outcome (a status request's answer enters none).
    const final = decision.steps.length === 0 ? undefined : decision.pushes.findLast((push) => FINAL_STATUSES.has(push.status));
    return Promise.resolve({
      ...(final === undefined ? {} : { outcome: { outcome: final.status, reasonCode: final.reasonCode ?? null } }),
      steps: decision.steps.length === 0 ? [] : carryingPushes(decision.steps, pushed),
      data: decision.data as unknown as Record<string, unknown>,
      dueAt: decision.dueAt,
      commands: decision.commands,
      outbox,
      ...(decision.refused === undefined ? {} : { refused: decision.refused }),
    } satisfies KindDecision);
  },

  execute(context, command) {
    const request = outboundRequest(context);
    const data = context.transaction.data as unknown as RtpData;
    switch (command as RtpCommand) {
      case 'request':
        return context.connector.requestToPay(request);
      case 'cancel': {
        if (data.cancelling === undefined) throw new AssertionError('a cancel command without a cancellation');
        return context.connector.cancelRequestToPay({ request, cancellationKey: cancellationKeyOf(context, data.cancelling.messageId), reasonCode: data.cancelling.reasonCode });
      }
      case 'expire':
        return context.connector.cancelRequestToPay({ request, cancellationKey: expiryKeyOf(context), reasonCode: EXPIRY_REASON });
    }
  },
};

/** The status states, each of whose events carries the RequestToPayResponse that pushes it. */
const STATUS_STATES: ReadonlySet<string> = new Set(Object.values(STATE_OF_STATUS));

/** Each status state entered carries its push: the machine's pushes are exactly its status states, in order. */
function carryingPushes(steps: readonly Step[], pushed: readonly string[]): Step[] {
  const statuses = steps.filter((step) => STATUS_STATES.has(step.state)).length;
  if (statuses !== pushed.length) throw new AssertionError(`a request-to-pay decision entered ${statuses} status states with ${pushed.length} pushes`);
  let next = 0;
  return steps.map((step) => (STATUS_STATES.has(step.state) ? { state: step.state, payloadJson: pushed[next++] ?? null } : step));
}

function machineInput(context: KindContext, state: RtpState, data: RtpData, input: EngineInput): RtpInput | undefined {
  switch (input.type) {
    case 'tick':
      return state === RTP.RECEIVED ? { type: 'tick', supported: context.connector.capabilities.requestToPay === true } : { type: 'tick' };
    case 'sent':
      return { type: 'sent', what: input.command as RtpCommand, ...sentInput(input.outcome) };
    case 'scheme': {
      const { report } = input;
      if (report.kind !== 'request_to_pay' && report.kind !== 'cancellation') return undefined;
      const reason = { ...(report.reasonCode === undefined ? {} : { reasonCode: report.reasonCode }), ...(report.reasonText === undefined ? {} : { reasonText: report.reasonText }) };
      if (report.kind === 'request_to_pay') return { type: 'status', status: report.status, ...reason, payloadJson: JSON.stringify(report.message) };
      // An answer to the expiry notice, or to a cancellation no longer in flight, decides nothing.
      if (data.cancelling === undefined || report.cancellationKey !== cancellationKeyOf(context, data.cancelling.messageId)) return undefined;
      return { type: 'cancellation_answer', accepted: report.accepted, ...reason };
    }
    case 'request': {
      const { request } = input;
      if (request.type === 'status') return { type: 'status_request' };
      if (request.type !== 'cancel') return undefined;
      return { type: 'cancel', cancellation: { messageId: request.messageId, messageIdentifiers: request.messageIdentifiers, reasonCode: request.reasonCode, trace: traceRecord(request.trace) } };
    }
    case 'callback':
      // Status pushes are must-deliver messages of the outbox; their acknowledgement moves nothing.
      return undefined;
  }
}

/** A trace context as kept in the working data (plain strings), and back. */
function traceRecord(trace: { readonly traceparent: string; readonly tracestate: string | null }): Record<string, string> {
  return trace.tracestate === null ? { traceparent: trace.traceparent } : { traceparent: trace.traceparent, tracestate: trace.tracestate };
}

function traceOf(record: Readonly<Record<string, string>> | undefined): { traceparent: string | null; tracestate: string | null } | undefined {
  return record?.traceparent === undefined ? undefined : { traceparent: record.traceparent, tracestate: record.tracestate ?? null };
}

/**
 * The cancellation's own idempotency key, one per cancellation message of this request (or its
 * expiry notice), derived, never random: a UUID made from the transaction id and the
 * cancellation's id, so schemes' message ids made from it lead back to it.
 */
function cancellationKeyOf(context: KindContext, messageId: string): string {
  return derivedUuid(`${context.transaction.id}\u0000cancellation\u0000${messageId}`);
}

/** The expiry notice's key: of its own kind, so no cancellation's message id can share it. */
function expiryKeyOf(context: KindContext): string {
  return derivedUuid(`${context.transaction.id}\u0000expiry`);
}

function derivedUuid(text: string): string {
  const hex = createHash('sha256').update(text).digest('hex');
  // RFC 9562 version 8 (custom) layout: the version nibble 8 and the variant bits 10.
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${((parseInt(hex.slice(16, 17), 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function outboundRequest(context: KindContext): OutboundRequestToPay {
  const { transaction } = context;
  return {
    ...outboundOf(transaction),
    message: context.message as RequestToPay,
    amount: amountOf(transaction),
    expiresAt: (transaction.data as unknown as RtpData).expiresAt,
  };
}
