import fp from 'fastify-plugin';
import { StoreOverloadedError } from '../../adapters/write-queue.js';
import { ApiError } from '../../domain/errors.js';
const FASTIFY_CODES = {
    FST_ERR_CTP_BODY_TOO_LARGE: 'BODY_TOO_LARGE',
    FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
    FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'MALFORMED_JSON',
    FST_ERR_CTP_EMPTY_JSON_BODY: 'MALFORMED_JSON',
    FST_ERR_CTP_EMPTY_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
    FST_ERR_CTP_INVALID_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
    FST_ERR_VALIDATION: 'VALIDATION_FAILED',
};
const STATUS_CODES = {
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
export function errorBody(error) {
    return {
        schema: 'ErrorDetail',
        message: error.message,
        ...(error.detail === undefined ? {} : { detail: error.detail }),
        errors: error.errors,
    };
}
/** Map any thrown value onto the catalogue. Exported for tests. */
export function toApiError(error) {
    if (error instanceof ApiError)
        return error;
    if (error instanceof StoreOverloadedError) {
        // Refused before anything was written: the identical request can simply come again.
        return new ApiError('OVERLOADED', 'too many writes are waiting for the database; retry the identical request', [], {
            'Retry-After': String(OVERLOADED_RETRY_AFTER_S),
        });
    }
    const fastifyError = error;
    const byCode = fastifyError.code === undefined ? undefined : FASTIFY_CODES[fastifyError.code];
    if (byCode === 'MALFORMED_JSON') {
        // An empty or truncated body: the document itself ("") is the field at fault.
        return new ApiError(byCode, fastifyError.message, [{ field: '', message: fastifyError.message ?? 'not valid JSON' }]);
    }
    if (byCode !== undefined)
        return new ApiError(byCode, fastifyError.message);
    const status = fastifyError.statusCode;
    if (status !== undefined && status >= 400 && status < 500) {
        return new ApiError(STATUS_CODES[status] ?? 'VALIDATION_FAILED', fastifyError.message);
    }
    return new ApiError('INTERNAL');
}
function send(reply, error) {
    for (const [name, value] of Object.entries(error.headers))
        void reply.header(name, value);
    return reply.code(error.status).type('application/json').send(errorBody(error));
}
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
export const errorsPlugin = fp((app) => {
    app.setErrorHandler((error, request, reply) => {
        const apiError = toApiError(error);
        if (apiError.status >= 500 && apiError.code === 'INTERNAL') {
            request.log.error({ err: error }, 'unhandled error');
        }
        return send(reply, apiError);
    });
    app.setNotFoundHandler((request, reply) => {
        const url = request.url.split('?')[0] ?? request.url;
        const allowed = METHODS.filter((method) => app.hasRoute({ url, method }));
        if (allowed.length > 0) {
            return send(reply, new ApiError('METHOD_NOT_ALLOWED', `${request.method} is not allowed on ${url}`, [], { allow: allowed.join(', ') }));
        }
        return send(reply, new ApiError('NOT_FOUND', `No resource at ${url}`));
    });
}, { name: 'regpay-errors' });
//# sourceMappingURL=errors.js.map