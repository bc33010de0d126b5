import type { FastifyInstance } from 'fastify';
import { answerMode, determineIdentifier, type DetermineIdentifierDeps } from '../../../app/determine-identifier.js';
import {
  IdentifierDeterminationRequestSchema,
  validateOutboundIdentifierDeterminationRequest,
  type ValidIdentifierDetermination,
} from '../../../domain/messages/identifier-determination.js';
import { assert } from '../../../lib/assert.js';
import { traceFromHeaders } from '../../../lib/trace.js';
import { clientGone } from '../../client-gone.js';
import { commonErrorResponses } from '../../schemas.js';
import { domainValidator } from '../../validation.js';

/** The published path and the one the spec's descriptive text names (CONTRACT §2). */
const PATHS = ['/identifiers/outbound/identifier-determination', '/identifiers/identifier-determination'] as const;

/** `Prefer: respond-async` (RFC 7240), among other preferences or alone, in any letter case. */
export function prefersAsync(header: string | string[] | undefined): boolean {
  const values = Array.isArray(header) ? header : header === undefined ? [] : [header];
  return values.some((value) => value.split(',').some((preference) => preference.split(';')[0]?.trim().toLowerCase() === 'respond-async'));
}

/** PayShap identifier determination: sync (200 with the answer, after the scheme's report or its time budget) or async (202, then a callback). */
export function identifierDeterminationRoutes(app: FastifyInstance, deps: DetermineIdentifierDeps): void {
  PATHS.forEach((path, index) => {
    app.post<{ Body: ValidIdentifierDetermination }>(
      path,
      {
        schema: {
          operationId: index === 0 ? 'outboundSynchronousIdentifierDetermination' : 'outboundSynchronousIdentifierDeterminationAlias',
          summary: index === 0 ? 'Outbound identifier determination (PayShap proxy or account resolution)' : 'Outbound identifier determination (alias path)',
          description:
            'Resolves a PayShap proxy (MOBILE or CUSTOM, with its namespace) or an account number (GENERIC, with accountAgent.bicfi) through the ' +
            'ZA_RPP scheme. Sync (the default): the request is held until the scheme answers or its time budget (ZA_RPP 10 s) runs out, then ' +
            'answered 200 with an IdentifierDeterminationResponse; a FAILED outcome is still 200 (AB06 on timeout). Async (integrator ' +
            'configuration, or `Prefer: respond-async`): 202, and the response is POSTed to ' +
            '{partnerApiUrl}/identifiers/outbound/identifier-determination-report. A retry of the same message gets the same answer.',
          tags: ['identifier determination'],
          body: IdentifierDeterminationRequestSchema,
          response: {
            200: { description: 'The determination (SUCCESSFUL or FAILED)', content: { 'application/json': { schema: { $ref: 'IdentifierDeterminationResponse#' } } } },
            202: { description: 'Accepted (async); the response follows as a callback', type: 'null' },
            ...commonErrorResponses,
          },
        },
        validatorCompiler: domainValidator(validateOutboundIdentifierDeterminationRequest, 'IdentifierDeterminationRequest'),
        // A sync lookup is held (and bounded as such) from its arrival; an async one is intake.
        config: {
          admission: (request) => {
            assert(request.integrator !== null, 'admission runs after authentication');
            return answerMode(request.integrator, prefersAsync(request.headers.prefer)) === 'sync' ? 'held lookup' : 'intake';
          },
        },
      },
      async (request, reply) => {
        assert(request.integrator !== null && request.rawBody !== undefined, 'auth and body parsing ran');
        const respondAsync = prefersAsync(request.headers.prefer);
        const result = await determineIdentifier(deps, {
          integrator: request.integrator,
          request: request.body,
          rawBody: request.rawBody,
          trace: traceFromHeaders(request.headers.traceparent, request.headers.tracestate),
          respondAsync,
          // Its arrival, as Fastify timed it: the time budget counts from it, not from the end of parsing and checks.
          receivedAt: deps.clock.now() - reply.elapsedTime,
          // A held lookup whose client went away stops waiting (its place and timers freed); the engine still decides it.
          signal: clientGone(reply),
        });
        if (result.kind === 'accepted') {
          if (respondAsync) void reply.header('preference-applied', 'respond-async');
          return reply.code(202).send();
        }
        // The stored text itself, byte for byte: the answer given and the answer stored are one.
        return reply.code(200).type('application/json').send(result.response);
      },
    );
  });
}
