/**
 * Calls to the admin API with the operator's Basic credentials. `credentials: 'omit'` keeps the
 * browser out of HTTP authentication: it sends only the Authorization header the page sets, keeps
 * nothing of it, and shows no password dialog of its own when an answer is 401.
 */
export interface Credentials {
  readonly username: string;
  readonly password: string;
}

export interface FieldError {
  readonly field: string;
  readonly message: string;
}

/** An answer other than 2xx (or no answer), with what the ErrorDetail body said. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors: readonly FieldError[] = [],
    /** Retry-After of a 429 or 503, in seconds. */
    readonly retryAfterS?: number,
  ) {
    super(message);
  }

  /** What to show a person: the message, then every field at fault. */
  describe(): string {
    const fields = this.errors.map((error) => `${error.field === '' ? 'request' : error.field} ${error.message}`);
    const wait = this.retryAfterS === undefined ? '' : ` Try again in ${this.retryAfterS} s.`;
    return [`${this.message}${wait}`, ...fields].join('; ');
  }
}

/** Basic credentials, UTF-8 encoded as RFC 7617 asks (btoa alone takes only Latin-1). */
export function basicAuthorization(credentials: Credentials): string {
  const bytes = new TextEncoder().encode(`${credentials.username}:${credentials.password}`);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `Basic ${btoa(binary)}`;
}

export interface RequestOptions {
  readonly method?: 'GET' | 'POST';
  readonly body?: unknown;
}

export async function adminRequest<T>(credentials: Credentials, path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { authorization: basicAuthorization(credentials), accept: 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path, {
      method: options.method ?? 'GET',
      headers,
      credentials: 'omit',
      cache: 'no-store',
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
  } catch {
    throw new ApiFailure(0, 'The service did not answer (is it running, and is this address in admin.allowlist?)');
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (response.ok) return body as T;
  throw failure(response, body);
}

function failure(response: Response, body: unknown): ApiFailure {
  const detail = typeof body === 'object' && body !== null ? (body as { message?: unknown; detail?: unknown; errors?: unknown }) : {};
  const message = typeof detail.detail === 'string' ? detail.detail : typeof detail.message === 'string' ? detail.message : `HTTP ${response.status}`;
  const errors = Array.isArray(detail.errors) ? (detail.errors as FieldError[]) : [];
  const retryAfter = Number(response.headers.get('retry-after') ?? Number.NaN);
  return new ApiFailure(response.status, message, errors, Number.isFinite(retryAfter) ? retryAfter : undefined);
}

/** A query string of the given parameters, leaving out empty ones. */
export function query(parameters: Readonly<Record<string, string | number | undefined>>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(parameters)) if (value !== undefined && value !== '') search.set(name, String(value));
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}
