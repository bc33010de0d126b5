import type { IntegratorConfig } from '../config/types.js';
import type { AuthorisationReport } from '../domain/messages/inbound-answers.js';
import type { IdentifierDeterminationResponse } from '../domain/messages/identifier-determination.js';
import type { RequestToPayResponse } from '../domain/messages/request-to-pay.js';
import type { TraceContext } from '../lib/trace.js';
import { askMachine, type MachineRequestDeps } from './ask-machine.js';

/**
 * The integrator's async answers as the receiving bank (CONTRACT §11): its decision on a credit
 * and its report on a lookup of its customer, each handed to the machine of the transaction it
 * names by uetr (of this integrator only: another's is 404), which takes it while the answer is
 * awaited and its budget lasts (409 ANSWER_NOT_AWAITED otherwise: the scheme was, or is about to
 * be, answered without it). A retry of the same message is 202 again; another message after the
 * answer is 409.
 */
export type InboundAnswer =
  | { readonly about: 'credit'; readonly report: AuthorisationReport }
  | { readonly about: 'lookup'; readonly report: IdentifierDeterminationResponse }
  /**
   * The debtor's decision on a request-to-pay the scheme brought (PRESENTED, ACCEPTED, or REJECTED
   * with a reason), each forwarded to the scheme as a pain.014; taken while the request is open and
   * the decision moves it forward (going back, or after it ended: 409). The same decision again
   * under a new message id is taken and changes nothing.
   */
  | { readonly about: 'request_to_pay'; readonly report: RequestToPayResponse };

export async function reportInboundAnswer(deps: MachineRequestDeps, input: InboundAnswer & { integrator: IntegratorConfig; rawBody: string; trace: TraceContext }): Promise<void> {
  const named = namedBy(input);
  await askMachine(deps, {
    ...input,
    ...named,
    uetr: named.uetr.toLowerCase(),
    messageId: input.report.messageIdentifiers.messageIdentification,
    message: input.report,
    ask: { type: 'report', answerJson: input.rawBody, answer: input.report, trace: input.trace },
  });
}

/** The transaction an answer names, in the words its errors use. */
function namedBy(answer: InboundAnswer) {
  switch (answer.about) {
    case 'credit':
      return { kind: 'INBOUND_CREDIT_TRANSFER', what: 'inbound credit transfer', uetrField: '/transactionIdentifiers/uetr', uetr: answer.report.transactionIdentifiers.uetr } as const;
    case 'lookup':
      return { kind: 'INBOUND_IDENTIFIER_DETERMINATION', what: 'inbound identifier determination', uetrField: '/uetr', uetr: answer.report.uetr } as const;
    case 'request_to_pay':
      return { kind: 'INBOUND_REQUEST_TO_PAY', what: 'inbound request-to-pay', uetrField: '/transactionIdentifiers/uetr', uetr: answer.report.transactionIdentifiers.uetr } as const;
  }
}
