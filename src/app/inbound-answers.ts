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
export async function reportAuthorisation(
  deps: MachineRequestDeps,
  input: { integrator: IntegratorConfig; report: AuthorisationReport; rawBody: string; trace: TraceContext },
): Promise<void> {
  const { report } = input;
  await askMachine(deps, {
    ...input,
    kind: 'INBOUND_CREDIT_TRANSFER',
    what: 'inbound credit transfer',
    uetrField: '/transactionIdentifiers/uetr',
    uetr: report.transactionIdentifiers.uetr.toLowerCase(),
    messageId: report.messageIdentifiers.messageIdentification,
    message: report,
    ask: { type: 'report', answerJson: input.rawBody, answer: report, trace: input.trace },
  });
}

export async function reportLookup(
  deps: MachineRequestDeps,
  input: { integrator: IntegratorConfig; report: IdentifierDeterminationResponse; rawBody: string; trace: TraceContext },
): Promise<void> {
  const { report } = input;
  await askMachine(deps, {
    ...input,
    kind: 'INBOUND_IDENTIFIER_DETERMINATION',
    what: 'inbound identifier determination',
    uetrField: '/uetr',
    uetr: report.uetr.toLowerCase(),
    messageId: report.messageIdentifiers.messageIdentification,
    message: report,
    ask: { type: 'report', answerJson: input.rawBody, answer: report, trace: input.trace },
  });
}

/**
 * The integrator's decision on a request-to-pay the scheme brought to its customer (PRESENTED,
 * ACCEPTED, or REJECTED with a reason), each forwarded to the scheme as a pain.014. Taken while the
 * request is open and the decision moves it forward; after PAID, REJECTED, CANCELLED or EXPIRED,
 * or going back (PRESENTED after ACCEPTED), 409 ANSWER_NOT_AWAITED. The same decision again under
 * a new message id is taken and changes nothing.
 */
export async function reportRequestToPayDecision(
  deps: MachineRequestDeps,
  input: { integrator: IntegratorConfig; report: RequestToPayResponse; rawBody: string; trace: TraceContext },
): Promise<void> {
  const { report } = input;
  await askMachine(deps, {
    ...input,
    kind: 'INBOUND_REQUEST_TO_PAY',
    what: 'inbound request-to-pay',
    uetrField: '/transactionIdentifiers/uetr',
    uetr: report.transactionIdentifiers.uetr.toLowerCase(),
    messageId: report.messageIdentifiers.messageIdentification,
    message: report,
    ask: { type: 'report', answerJson: input.rawBody, answer: report, trace: input.trace },
  });
}
