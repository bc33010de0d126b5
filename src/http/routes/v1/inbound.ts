import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { reportInboundAnswer } from '../../../app/inbound-answers.js';
import type { MachineRequestDeps } from '../../../app/ask-machine.js';
import { ApiError } from '../../../domain/errors.js';
import { validateAuthorisationReport, validateInboundRequestToPayResponse, validateLookupAnswer, type AuthorisationReport } from '../../../domain/messages/inbound-answers.js';
import type { RequestToPayResponse } from '../../../domain/messages/request-to-pay.js';
import { type IdentifierDeterminationResponse } from '../../../domain/messages/identifier-determination.js';
import { assert } from '../../../lib/assert.js';
import { traceFromHeaders } from '../../../lib/trace.js';
import type { Processing } from '../../../ports/processing.js';
import { commonErrorResponses, errorResponse } from '../../schemas.js';
import { domainValidator } from '../../validation.js';

const accepted = (description: string) => ({ 202: { description, type: 'null' } });
const conflict = { 409: errorResponse('The scheme was already answered (the budget ran out, or another answer came first), or the message id was used for another body') };

/** The integrator's async answers as the receiving bank (CONTRACT §11), each handed to the machine of the transaction it names. */
export function inboundRoutes(app: FastifyInstance, deps: Omit<MachineRequestDeps, 'processing'> & { readonly processing?: Processing }): void {
  const machine = (): MachineRequestDeps => {
    const processing = deps.processing;
    if (processing === undefined) throw new ApiError('NOT_READY', 'this instance takes no answers about inbound transactions', [], { 'retry-after': '1' });
    return { ...deps, processing };
  };

  app.post<{ Body: AuthorisationReport }>(
    '/transactions/inbound/credit-transfer-authorisation-response',
    {
      schema: {
        operationId: 'inboundCreditTransferAuthorisationResponse',
        summary: 'Decision on an inbound credit (async authorisation)',
        description:
          'The receiving bank decides on a credit the scheme brought it (async authorisation by arrangement): APPROVED, or REJECTED with an ISO 20022 reason. ' +
          'Named by transactionIdentifiers.uetr; taken while the answer budget lasts, then sent to the scheme as a pacs.002.',
        tags: ['receiving'],
        body: Type.Ref('AuthorisationReport'),
        response: { ...accepted('Taken; the scheme is answered'), 404: errorResponse('No inbound credit of this integrator has that uetr'), ...conflict, ...commonErrorResponses },
      },
      validatorCompiler: domainValidator(validateAuthorisationReport, 'PaymentStatusReport'),
    },
    async (request, reply) => {
      assert(request.integrator !== null && request.rawBody !== undefined, 'auth and body parsing ran');
      await reportInboundAnswer(machine(), { about: 'credit', integrator: request.integrator, report: request.body, rawBody: request.rawBody, trace: traceFromHeaders(request.headers.traceparent, request.headers.tracestate) });
      return reply.code(202).send();
    },
  );

  app.post<{ Body: IdentifierDeterminationResponse }>(
    '/identifiers/inbound/identifier-determination-report',
    {
      schema: {
        operationId: 'inboundIdentifierDeterminationReport',
        summary: 'Answer to an inbound lookup (async)',
        description:
          "The receiving bank's answer to a lookup of its customer (async by arrangement): SUCCESSFUL with the account and both names, or FAILED with a reason code. " +
          'Named by uetr; taken while the answer budget lasts, then sent to the scheme as an acmt.024.',
        tags: ['receiving'],
        body: Type.Ref('IdentifierDeterminationResponse'),
        response: { ...accepted('Taken; the scheme is answered'), 404: errorResponse('No inbound lookup of this integrator has that uetr'), ...conflict, ...commonErrorResponses },
      },
      validatorCompiler: domainValidator(validateLookupAnswer, 'IdentifierDeterminationResponse'),
    },
    async (request, reply) => {
      assert(request.integrator !== null && request.rawBody !== undefined, 'auth and body parsing ran');
      await reportInboundAnswer(machine(), { about: 'lookup', integrator: request.integrator, report: request.body, rawBody: request.rawBody, trace: traceFromHeaders(request.headers.traceparent, request.headers.tracestate) });
      return reply.code(202).send();
    },
  );

  app.post<{ Body: RequestToPayResponse }>(
    '/transactions/inbound/request-to-pay-response',
    {
      schema: {
        operationId: 'inboundRequestToPayResponse',
        summary: "Decision on a request-to-pay to the bank's customer",
        description:
          "The paying bank reports its customer's decision on a request-to-pay the scheme brought it (the inboundRequestToPay callback): PRESENTED, ACCEPTED, " +
          'or REJECTED with an ISO 20022 reason; each is sent to the scheme as a pain.014. Named by transactionIdentifiers.uetr. PAID follows from the bank\'s own ' +
          "credit transfer carrying the request's uetr and end-to-end id; PENDING, PAID, EXPIRED and CANCELLED are never the bank's to report (400 at /status/status).",
        tags: ['receiving'],
        body: Type.Ref('RequestToPayResponse'),
        response: {
          ...accepted('Taken; the scheme is told'),
          404: errorResponse('No inbound request-to-pay of this integrator has that uetr'),
          ...commonErrorResponses,
          409: errorResponse('The request-to-pay has ended (PAID, REJECTED, CANCELLED, EXPIRED), or the decision goes back (PRESENTED after ACCEPTED), or the message id was used for another body'),
        },
      },
      validatorCompiler: domainValidator(validateInboundRequestToPayResponse, 'RequestToPayResponse'),
    },
    async (request, reply) => {
      assert(request.integrator !== null && request.rawBody !== undefined, 'auth and body parsing ran');
      await reportInboundAnswer(machine(), { about: 'request_to_pay', integrator: request.integrator, report: request.body, rawBody: request.rawBody, trace: traceFromHeaders(request.headers.traceparent, request.headers.tracestate) });
      return reply.code(202).send();
    },
  );
}
