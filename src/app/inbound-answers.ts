import type { IntegratorConfig } from '../config/types.js';
import type { AuthorisationReport } from '../domain/messages/inbound-answers.js';
import type { IdentifierDeterminationResponse } from '../domain/messages/identifier-determination.js';
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
  | { readonly about: 'lookup'; readonly report: IdentifierDeterminationResponse };

export async function reportInboundAnswer(deps: MachineRequestDeps, input: InboundAnswer & { integrator: IntegratorConfig; rawBody: string; trace: TraceContext }): Promise<void> {
  const named =
    input.about === 'credit'
      ? ({ kind: 'INBOUND_CREDIT_TRANSFER', what: 'inbound credit transfer', uetrField: '/transactionIdentifiers/uetr', uetr: input.report.transactionIdentifiers.uetr } as const)
      : ({ kind: 'INBOUND_IDENTIFIER_DETERMINATION', what: 'inbound identifier determination', uetrField: '/uetr', uetr: input.report.uetr } as const);
  await askMachine(deps, {
    ...input,
    ...named,
    uetr: named.uetr.toLowerCase(),
    messageId: input.report.messageIdentifiers.messageIdentification,
    message: input.report,
    ask: { type: 'report', answerJson: input.rawBody, answer: input.report, trace: input.trace },
  });
}
