import { AddressSet, holdRequest } from './allowlist.js';
import { basicAuthenticator } from './basic-credentials.js';
/**
 * The admin API's guard: the operator's address must be in `admin.allowlist` (otherwise the
 * connection is held unanswered, as for integrators), then Basic credentials are checked against
 * the configured scrypt hash, as integrators' are (basic-credentials.ts: an unknown username
 * costs the same scrypt work, failed checks count against the address, and a success is
 * remembered so the console's polling does not run scrypt per request).
 */
export const ADMIN_REALM = 'regpay-admin';
const CHALLENGE = `Basic realm="${ADMIN_REALM}", charset="UTF-8"`;
/** An onRequest hook for the admin scope. */
export async function adminGuard(admin, clock, failures) {
    const allowed = new AddressSet(admin.allowlist);
    const authenticate = await basicAuthenticator([{ username: admin.username, passwordHash: admin.passwordHash.reveal(), value: admin.username }], CHALLENGE, clock, failures);
    return async (request, reply) => {
        if (!allowed.contains(request.clientAddress)) {
            holdRequest(request, reply);
            return;
        }
        await authenticate(request);
    };
}
//# sourceMappingURL=admin-auth.js.map