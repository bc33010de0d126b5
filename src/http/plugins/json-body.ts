import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../domain/errors.js';
import { parseJson } from '../../lib/json.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request body exactly as received: stored as the raw message, hashed for nothing else. */
    rawBody?: string;
  }
}

/**
 * Replaces Fastify's JSON parsing so the exact text of every number survives (money is judged
 * from its literal, never from a float) and keeps the raw body for storage. Every other media
 * type is refused with 415 because every operation of the API takes application/json; routes
 * that need another type (the token endpoint) register their own parser in their own scope.
 */
export const jsonBodyPlugin = fp(
  (app: FastifyInstance, options: { bodyBytesMax: number }) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser(
      'application/json',
      { parseAs: 'string', bodyLimit: options.bodyBytesMax },
      (request, body, done) => {
        const text = body as string;
        const parsed = parseJson(text);
        if (!parsed.ok) {
          done(new ApiError('MALFORMED_JSON', parsed.message, [{ field: parsed.pointer, message: parsed.message }]), undefined);
          return;
        }
        request.rawBody = text;
        done(null, parsed.value);
      },
    );
  },
  { name: 'regpay-json-body' },
);
