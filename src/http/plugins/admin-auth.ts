import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AdminConfig } from '../../config/types.js';
import { ApiError } from '../../domain/errors.js';
import { verifySecretAsync } from '../../lib/password-hash.js';
import { AddressSet, holdRequest } from './allowlist.js';
import { decodeBasic } from './auth.js';
import { tooManyFailures, type FailedAuthentications } from './failed-auth.js';

/**
 * The admin API's guard: the operator's address must be in `admin.allowlist` (otherwise the
 * connection is held unanswered, as for integrators), then Basic credentials are checked against
 * the configured scrypt hash. The username is compared through digests of equal length and the
 * password is always hashed, whether or not the username matched, so neither part can be found
 * by timing. Failed checks count against the address (failed-auth.ts).
 */
export const ADMIN_REALM = 'regpay-admin';
const CHALLENGE = `Basic realm="${ADMIN_REALM}", charset="UTF-8"`;

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

function unauthenticated(detail: string): ApiError {
  return new ApiError('UNAUTHENTICATED', detail, [], { 'WWW-Authenticate': CHALLENGE });
}

/** An onRequest hook for the admin scope. */
export function adminGuard(admin: AdminConfig, failures: FailedAuthentications): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  const allowed = new AddressSet(admin.allowlist);
  const username = digest(admin.username);
  return async (request, reply) => {
    if (!allowed.contains(request.clientAddress)) {
      holdRequest(request, reply);
      return;
    }
    const match = /^Basic +([A-Za-z0-9+/]+={0,2}) *$/i.exec(request.headers.authorization ?? '');
    if (match === null) throw unauthenticated('Send Authorization: Basic with the operator credentials');
    const credentials = decodeBasic(match[1] ?? '');
    if (credentials === undefined) throw unauthenticated('The Basic credentials are not base64 of username:password');
    const admitted = failures.attempt(request.clientAddress);
    if (!admitted.ok) throw tooManyFailures(admitted.retryAfterS);
    const passwordOk = await verifySecretAsync(credentials.password, admin.passwordHash.reveal());
    const usernameOk = timingSafeEqual(digest(credentials.username), username);
    if (!passwordOk || !usernameOk) throw unauthenticated('Unknown username or wrong password');
    failures.succeeded(request.clientAddress);
  };
}
