/**
 * The catalogue of every error a caller can see (STYLE.md rule 1). Each code has one HTTP status
 * and one message; the HTTP error plugin is the only place that turns them into ErrorDetail
 * bodies, and docs/errors.md is checked against this table by a test.
 */
export interface FieldError {
  /** JSON pointer into the request body, e.g. `/amounts/bankSettlementAmount/value`. */
  readonly field: string;
  readonly message: string;
}

export const ERROR_CATALOGUE = {
  MALFORMED_JSON: { status: 400, message: 'Request body is not valid JSON' },
  VALIDATION_FAILED: { status: 400, message: 'Request body failed validation' },
  MALFORMED_REQUEST: { status: 400, message: 'Request is not valid HTTP/1.1' },
  UNAUTHENTICATED: { status: 401, message: 'Missing or invalid credentials' },
  INSTITUTION_NOT_ALLOWED: { status: 403, message: "The agent named is not the integrator's own institution" },
  SCHEME_NOT_ENABLED: { status: 403, message: 'The scheme is not enabled for this integrator' },
  NOT_FOUND: { status: 404, message: 'No such resource' },
  TRANSACTION_NOT_FOUND: { status: 404, message: 'No such transaction' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'Method not allowed on this resource' },
  REQUEST_TIMEOUT: { status: 408, message: 'Request not received in time' },
  MESSAGE_ID_CONFLICT: { status: 409, message: 'messageIdentification was already used with a different payload' },
  UETR_CONFLICT: { status: 409, message: 'uetr already identifies another transaction' },
  ANSWER_NOT_AWAITED: { status: 409, message: 'The transaction awaits no such answer: the scheme was already answered' },
  BODY_TOO_LARGE: { status: 413, message: 'Request body is too large' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Content-Type must be application/json' },
  OPERATION_NOT_SUPPORTED: { status: 422, message: 'The scheme does not support this operation' },
  SCHEME_REFUSES: { status: 422, message: "The scheme's rules refuse the message, or its scheme message cannot carry a field" },
  REQUEST_TO_PAY_NOT_PAYABLE: { status: 422, message: 'The transfer cannot pay the request-to-pay its uetr names' },
  IDENTIFIER_NOT_DETERMINED: { status: 422, message: 'A PayShap payment to a proxy needs a successful identifier determination of that proxy first' },
  RATE_LIMITED: { status: 429, message: 'Rate limit exceeded for this integrator' },
  TOO_MANY_FAILED_AUTHENTICATIONS: { status: 429, message: 'Too many failed authentications from this address' },
  HEADERS_TOO_LARGE: { status: 431, message: 'Request headers are too large' },
  INTERNAL: { status: 500, message: 'Internal error' },
  NOT_READY: { status: 503, message: 'Service not ready; retry the identical request later' },
  OVERLOADED: { status: 503, message: 'Service overloaded; retry the identical request later' },
  DETERMINATION_PENDING: { status: 503, message: 'The identifier determination is not decided yet; retry the identical request' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** An expected, caller-visible failure: thrown by use cases and routes, rendered by the error plugin. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    readonly detail?: string,
    readonly errors: readonly FieldError[] = [],
    /** Extra response headers, e.g. Retry-After or WWW-Authenticate. */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(ERROR_CATALOGUE[code].message);
    this.status = ERROR_CATALOGUE[code].status;
  }
}
