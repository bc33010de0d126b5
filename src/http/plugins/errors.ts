import fp from 'fastify-plugin';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isTransientStoreError } from '../../adapters/store-ops.js';
import { StoreOverloadedError } from '../../adapters/write-queue.js';
import { ApiError, type ErrorCode, type FieldError } from '../../domain/errors.js';

/**
 * The one place that turns errors into `ErrorDetail` responses (CONTRACT §5). Use cases and
 * routes throw `ApiError` with a catalogue code; Fastify's own errors (body too large, wrong
 * media type, unparseable body) are mapped onto the same catalogue, a store too busy to
 * queue a write onto 503 OVERLOADED, and a database that failed for the moment (locked, an I/O
 * error, a lost connection) onto 503 NOT_READY; anything else is a bug and answers 500 without
 * leaking its message.
 */
export interface ErrorDetailBody {
  readonly schema: 'ErrorDetail';
  readonly message: string;
  readonly detail?: string;
  readonly errors: readonly FieldError[];
}

const FASTIFY_CODES: Readonly<Record<string, ErrorCode>> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'BODY_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'MALFORMED_JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'MALFORMED_JSON',
  FST_ERR_CTP_EMPTY_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_VALIDATION: 'VALIDATION_FAILED',
};

const STATUS_CODES: Readonly<Record<number, ErrorCode>> = {
  400: 'VALIDATION_FAILED',
  401: 'UNAUTHENTICATED',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  413: 'BODY_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
};

/** Retry-After of a write refused because the store's queue is full: it drains in about a commit. */
const OVERLOADED_RETRY_AFTER_S = 1;
/** Retry-After of a request the database failed: a lock or a connection comes back in about a second. */
const STORE_FAILED_RETRY_AFTER_S = 1;

export function errorBody(error: ApiError): ErrorDetailBody {
  return {
    schema: 'ErrorDetail',
    message: error.message,
    ...(error.detail === undefined ? {} : { detail: error.detail }),
    errors: error.errors,
  };
}

/** Map any thrown value onto the catalogue. Exported for tests. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof StoreOverloadedError) {
    // Refused before anything was written: the identical request can simply come again.
    return new ApiError('OVERLOADED', 'too many writes are waiting for the database; retry the identical request', [], {
      'Retry-After': String(OVERLOADED_RETRY_AFTER_S),
    });
  }
  if (isTransientStoreError(error)) {
    // Written or not, the identical request sent again is answered as the first one was.
    return new ApiError('NOT_READY', 'the database could not complete the request; retry the identical request', [], {
      'Retry-After': String(STORE_FAILED_RETRY_AFTER_S),
    });
  }
  const fastifyError = error as Partial<FastifyError>;
  const byCode = fastifyError.code === undefined ? undefined : FASTIFY_CODES[fastifyError.code];
  if (byCode === 'MALFORMED_JSON') {
    // An empty or truncated body: the document itself ("") is the field at fault.
    return new ApiError(byCode, fastifyError.message, [{ field: '', message: fastifyError.message ?? 'not valid JSON' }]);
  }
  if (byCode !== undefined) return new ApiError(byCode, fastifyError.message);
  const status = fastifyError.statusCode;
  if (status !== undefined && status >= 400 && status < 500) {
    return new ApiError(STATUS_CODES[status] ?? 'VALIDATION_FAILED', fastifyError.message);
  }
  return new ApiError('INTERNAL');
}

function send(reply: FastifyReply, error: ApiError): FastifyReply {
  for (const [name, value] of Object.entries(error.headers)) void reply.header(name, value);
  return reply.code(error.status).type('application/json').send(errorBody(error));
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

export const errorsPlugin = fp(
  (app: FastifyInstance) => {
    app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
      const apiError = toApiError(error);
      if (apiError.status >= 500 && apiError.code === 'INTERNAL') {
        request.log.error({ err: error }, 'unhandled error');
      } else if (isTransientStoreError(error)) {
        request.log.warn({ err: error }, 'the database failed the request; answered 503 for the integrator to retry it');
      }
      return send(reply, apiError);
    });

    app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
      const url = request.url.split('?')[0] ?? request.url;
      const allowed = METHODS.filter((method) => app.hasRoute({ url, method }));
      if (allowed.length > 0) {
        return send(reply, new ApiError('METHOD_NOT_ALLOWED', `${request.method} is not allowed on ${url}`, [], { allow: allowed.join(', ') }));
      }
      return send(reply, new ApiError('NOT_FOUND', `No resource at ${url}`));
    });
  },
  { name: 'regpay-errors' },
);
