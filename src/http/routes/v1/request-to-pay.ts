import type { FastifyInstance } from 'fastify';
import { cancelRequestToPay, requestToPay, requestToPayStatus, type MachineRequestDeps, type RequestToPayDeps } from '../../../app/request-to-pay.js';
import { ApiError } from '../../../domain/errors.js';
import {
  RequestToPayCancellationSchema,
  RequestToPaySchema,
  RequestToPayStatusRequestSchema,
  validateOutboundRequestToPay,
  validateRequestToPayCancellation,
  validateRequestToPayStatusRequest,
  type ValidRequestToPay,
  type ValidRequestToPayCancellation,
  type ValidRequestToPayStatusRequest,
} from '../../../domain/messages/request-to-pay.js';
import { assert } from '../../../lib/assert.js';
import { traceFromHeaders } from '../../../lib/trace.js';
import { commonErrorResponses, errorResponse } from '../../schemas.js';
import { domainValidator } from '../../validation.js';

const accepted = (description: string) => ({ 202: { description, type: 'null' } });
const notFound = { 404: errorResponse('No request-to-pay of this integrator has that uetr') };

/** PayShap request-to-pay: initiation, status request and cancellation, each 202 with its answer as a callback. */
export function requestToPayRoutes(app: FastifyInstance, deps: RequestToPayDeps): void {
  /** Requests about a request-to-pay are decided by its machine: an instance without one cannot take them. */
  const machine = (): MachineRequestDeps => {
    const processing = deps.processing;
    if (processing === undefined) throw new ApiError('NOT_READY', 'this instance takes no requests about a request-to-pay', [], { 'retry-after': '1' });
    return { ...deps, processing };
  };
  app.post<{ Body: ValidRequestToPay }>(
    '/transactions/outbound/request-to-pay',
    {
      schema: {
        operationId: 'outboundRequestToPay',
        summary: 'Outbound request-to-pay (PayShap)',
        description:
          "Asks a debtor, named by proxy or by account at another bank, to pay the integrator's customer (the creditor). 202 once stored; " +
          'every status change (PENDING, PRESENTED, ACCEPTED, PAID, REJECTED, EXPIRED, CANCELLED) is pushed as a RequestToPayResponse to ' +
          '{partnerApiUrl}/transactions/outbound/request-to-pay-response, in order. Unpaid at expiryDateTime, it expires.',
        tags: ['request-to-pay'],
        body: RequestToPaySchema,
        response: { ...accepted('Accepted; status pushes follow'), ...commonErrorResponses },
      },
      validatorCompiler: domainValidator(validateOutboundRequestToPay, 'RequestToPay'),
      config: { admission: 'intake' },
    },
    async (request, reply) => {
      assert(request.integrator !== null && request.rawBody !== undefined, 'auth and body parsing ran');
      await requestToPay(deps, { integrator: request.integrator, request: request.body, rawBody: request.rawBody, trace: traceFromHeaders(request.headers.traceparent, request.headers.tracestate) });
      return reply.code(202).send();
    },
  );

  app.post<{ Body: ValidRequestToPayStatusRequest }>(
    '/transactions/outbound/request-to-pay/status-request',
    {
      schema: {
        operationId: 'outboundRequestToPayStatusRequest',
        summary: 'Request-to-pay status request',
        description: 'Asks for the current status of a request-to-pay named by its uetr. 202; the status is re-sent as a RequestToPayResponse callback.',
        tags: ['request-to-pay'],
        body: RequestToPayStatusRequestSchema,
        response: { ...accepted('Accepted; the RequestToPayResponse follows'), ...notFound, ...commonErrorResponses },
      },
      validatorCompiler: domainValidator(validateRequestToPayStatusRequest, 'RequestToPayStatusRequest'),
    },
    async (request, reply) => {
      assert(request.integrator !== null && request.rawBody !== undefined, 'auth and body parsing ran');
      await requestToPayStatus(machine(), { integrator: request.integrator, request: request.body, rawBody: request.rawBody, trace: traceFromHeaders(request.headers.traceparent, request.headers.tracestate) });
      return reply.code(202).send();
    },
  );

  app.post<{ Body: ValidRequestToPayCancellation }>(
    '/transactions/outbound/request-to-pay/cancellation-request',
    {
      schema: {
        operationId: 'outboundRequestToPayCancellation',
        summary: 'Request-to-pay cancellation',
        description:
          'Asks to withdraw a request-to-pay named by its uetr. 202; a RequestToPayCancellationResponse follows at ' +
          '{partnerApiUrl}/transactions/outbound/request-to-pay/cancellation-response: ACCEPTED only if the request ends CANCELLED; ' +
          'REJECTED with the current status if it was already PAID, REJECTED or EXPIRED.',
        tags: ['request-to-pay'],
        body: RequestToPayCancellationSchema,
        response: { ...accepted('Accepted; the RequestToPayCancellationResponse follows'), ...notFound, ...commonErrorResponses },
      },
      validatorCompiler: domainValidator(validateRequestToPayCancellation, 'RequestToPayCancellation'),
    },
    async (request, reply) => {
      assert(request.integrator !== null && request.rawBody !== undefined, 'auth and body parsing ran');
      await cancelRequestToPay(machine(), {
        integrator: request.integrator,
        request: request.body,
        rawBody: request.rawBody,
        trace: traceFromHeaders(request.headers.traceparent, request.headers.tracestate),
      });
      return reply.code(202).send();
    },
  );
}
