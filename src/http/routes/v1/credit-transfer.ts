import type { FastifyInstance } from 'fastify';
import { acceptCreditTransfer, type AcceptCreditTransferDeps } from '../../../app/accept-credit-transfer.js';
import { CreditTransferSchema } from '../../../domain/messages/credit-transfer.js';
import { validateCreditTransfer, type ValidCreditTransfer } from '../../../domain/messages/validate.js';
import { assert } from '../../../lib/assert.js';
import { traceFromHeaders } from '../../../lib/trace.js';
import { commonErrorResponses } from '../../schemas.js';
import { domainValidator } from '../../validation.js';

/** POST /transactions/outbound/credit-transfer: 202 once the transfer is durably accepted. */
export function creditTransferRoutes(app: FastifyInstance, deps: AcceptCreditTransferDeps): void {
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
      validatorCompiler: domainValidator(validateCreditTransfer, 'CreditTransfer'),
    },
    async (request, reply) => {
      assert(request.integrator !== undefined && request.rawBody !== undefined, 'auth and body parsing ran');
      await acceptCreditTransfer(deps, {
        integrator: request.integrator,
        transfer: request.body,
        rawBody: request.rawBody,
        trace: traceFromHeaders(request.headers.traceparent, request.headers.tracestate),
      });
      return reply.code(202).send();
    },
  );
}
