import type { FastifyInstance } from 'fastify';
import { acceptCreditTransfer, type AcceptCreditTransferDeps } from '../../../app/accept-credit-transfer.js';
import { requestCreditTransferStatus, type StatusRequestDeps } from '../../../app/request-credit-transfer-status.js';
import { PaymentStatusRequestSchema, validatePaymentStatusRequest, type ValidPaymentStatusRequest } from '../../../domain/messages/payment-status-request.js';
import { CreditTransferSchema } from '../../../domain/messages/credit-transfer.js';
import { validateOutboundCreditTransfer, type ValidCreditTransfer } from '../../../domain/messages/validate.js';
import { assert } from '../../../lib/assert.js';
import { traceFromHeaders } from '../../../lib/trace.js';
import { commonErrorResponses, errorResponse } from '../../schemas.js';
import { domainValidator } from '../../validation.js';

/** Credit-transfer operations: intake (202 once durably accepted) and status request (202, status re-sent as a callback). */
export function creditTransferRoutes(app: FastifyInstance, deps: AcceptCreditTransferDeps & StatusRequestDeps): void {
  app.post<{ Body: ValidCreditTransfer }>(
    '/transactions/outbound/credit-transfer',
    {
      schema: {
        operationId: 'outboundCreditTransfer',
        summary: 'Outbound credit transfer',
        description:
          'Accepts a credit transfer for asynchronous processing with its scheme. 202 means the message is durably stored; ' +
          'the outcome follows as a credit-transfer-response callback. Retries of the same message are answered 202 again.',
        tags: ['credit transfer'],
        body: CreditTransferSchema,
        response: { 202: { description: 'Accepted for processing', type: 'null' }, ...commonErrorResponses },
      },
      validatorCompiler: domainValidator(validateOutboundCreditTransfer, 'CreditTransfer'),
      config: { admission: 'intake' },
    },
    async (request, reply) => {
      assert(request.integrator !== null && request.rawBody !== undefined, 'auth and body parsing ran');
      await acceptCreditTransfer(deps, {
        integrator: request.integrator,
        transfer: request.body,
        rawBody: request.rawBody,
        trace: traceFromHeaders(request.headers.traceparent, request.headers.tracestate),
      });
      return reply.code(202).send();
    },
  );

  app.post<{ Body: ValidPaymentStatusRequest }>(
    '/transactions/outbound/credit-transfer/status-request',
    {
      schema: {
        operationId: 'outboundCreditTransferStatusRequest',
        summary: 'Credit-transfer status request',
        description:
          'Asks for the current status of a credit transfer named by its uetr. 202; the status (APPROVED, REJECTED or, until the scheme ' +
          'has given a verdict, PENDING) is re-sent as a credit-transfer-response callback. A retry of the same message re-sends nothing.',
        tags: ['credit transfer'],
        body: PaymentStatusRequestSchema,
        response: {
          202: { description: 'Accepted; the callback follows', type: 'null' },
          404: errorResponse('No credit transfer of this integrator has that uetr'),
          ...commonErrorResponses,
        },
      },
      validatorCompiler: domainValidator(validatePaymentStatusRequest, 'PaymentStatusRequest'),
    },
    async (request, reply) => {
      assert(request.integrator !== null && request.rawBody !== undefined, 'auth and body parsing ran');
      await requestCreditTransferStatus(deps, {
        integrator: request.integrator,
        request: request.body,
        rawBody: request.rawBody,
        trace: traceFromHeaders(request.headers.traceparent, request.headers.tracestate),
      });
      return reply.code(202).send();
    },
  );
}
