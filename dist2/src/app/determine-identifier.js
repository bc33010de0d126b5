import { ApiError } from '../domain/errors.js';
import { ID } from '../domain/machines/identifier-determination.js';
import { supports } from '../domain/schemes.js';
import { admit } from './admit.js';
import { checkOwnInstitution } from './institution.js';
import { retryOfStoredMessage } from './stored-message.js';
/** Beyond the time budget, how long a held request waits before deciding the timeout itself. */
const TIMEOUT_GRACE_MS = 500;
/**
 * Outbound identifier determination (CONTRACT §2): stored like any transaction, then, in sync
 * mode, the HTTP request is held until the answer is decided and stored (whichever instance's
 * engine decides it: every instance hears of the change) and answered with exactly that stored
 * text. A retry of the same message waits for, or repeats, the same answer; no second scheme
 * lookup is made. In async mode (the integrator's configuration, or `Prefer: respond-async`) the
 * answer is a callback and the request gets 202.
 */
export async function determineIdentifier(deps, input) {
    const { integrator, request } = input;
    const { message } = request;
    if (!supports(request.scheme, 'identifierDetermination')) {
        throw new ApiError('OPERATION_NOT_SUPPORTED', `${request.scheme} does not carry identifier determination (ZA_RPP does)`, [
            { field: '/request/schema', message: `${request.scheme} does not support identifier determination` },
        ]);
    }
    if (!integrator.schemes.includes(request.scheme))
        throw new ApiError('SCHEME_NOT_ENABLED', `${request.scheme} is not enabled for this integrator`);
    checkOwnInstitution(integrator, [
        { agent: message.request.requestor, pointer: '/request/requestor' },
        ...(message.request.instructingAgent === undefined ? [] : [{ agent: message.request.instructingAgent, pointer: '/request/instructingAgent' }]),
    ]);
    const mode = input.respondAsync || integrator.identifierDetermination === 'async' ? 'async' : 'sync';
    const outcome = await admit(deps, {
        integrator,
        kind: 'IDENTIFIER_DETERMINATION',
        state: ID.RECEIVED,
        scheme: request.scheme,
        uetr: request.uetr,
        messageId: request.messageId,
        rawBody: input.rawBody,
        message,
        trace: input.trace,
        // The budget counts from the integrator's request: the held request is answered within it.
        data: { mode, deadlineAt: deps.clock.now() + deps.timeBudgetMs(request.scheme) },
        lookupKey: request.lookupKey,
    });
    let transactionId;
    switch (outcome.kind) {
        case 'accepted':
            if (mode === 'async')
                return { kind: 'accepted' };
            transactionId = outcome.transactionId;
            break;
        case 'duplicate':
        case 'message_differs':
            transactionId = retryOfStoredMessage(outcome, message, request.messageId).transactionId;
            break;
        case 'uetr_conflict':
            throw new ApiError('UETR_CONFLICT', `uetr ${request.uetr} already identifies another identifier determination`, [
                { field: '/request/uetr', message: 'already identifies another identifier determination' },
            ]);
    }
    return answerOf(deps, transactionId);
}
/**
 * The stored answer of a determination, waited for while it is still undecided. Past the time
 * budget the held request has the engine decide now (the timeout, unless the report came first)
 * instead of waiting for a claim. Should the answer still be undecided (no engine took the
 * request in time), the caller is told to retry the identical request: the retry waits for the
 * same answer, never for a second lookup.
 */
async function answerOf(deps, transactionId) {
    const first = await deps.store.getTransaction(transactionId);
    if (first === undefined)
        throw new Error(`determination ${transactionId} vanished`);
    if (dataOf(first).mode === 'async')
        return { kind: 'accepted' };
    const budgetMs = deps.timeBudgetMs(first.scheme);
    const waiter = new ChangeWaiter(deps, transactionId);
    try {
        let decidedNow = false;
        // A retry that comes long after the first request (say, after a restart) still waits one budget.
        const giveUpAt = Math.max(first.createdAt + budgetMs, deps.clock.now()) + budgetMs + TIMEOUT_GRACE_MS;
        for (;;) {
            const transaction = await deps.store.getTransaction(transactionId);
            const data = transaction === undefined ? undefined : dataOf(transaction);
            if (data?.response !== undefined)
                return { kind: 'answered', response: data.response };
            const now = deps.clock.now();
            const decideAt = (data?.deadlineAt ?? first.createdAt + budgetMs) + TIMEOUT_GRACE_MS;
            if (now >= decideAt && !decidedNow) {
                decidedNow = true;
                await deps.processing?.decideNow(transactionId);
                continue;
            }
            if (now >= giveUpAt) {
                throw new ApiError('DETERMINATION_PENDING', 'the scheme has not answered and no engine has decided the timeout yet; retry the identical request', [], {
                    'retry-after': '1',
                });
            }
            await waiter.next(Math.min(deps.pollIntervalMs, Math.max(1, (decidedNow ? giveUpAt : decideAt) - now)));
        }
    }
    finally {
        waiter.close();
    }
}
function dataOf(transaction) {
    return transaction.data;
}
/** Notices of changes to one transaction: `next` resolves at the next notice (or one that came since the last call), or after `timeoutMs`. */
class ChangeWaiter {
    #stop;
    #noticed = false;
    #wake;
    constructor(deps, transactionId) {
        this.#stop = deps.store.onChange((changed) => {
            if (changed !== transactionId)
                return;
            this.#noticed = true;
            this.#wake?.();
        });
    }
    async next(timeoutMs) {
        if (!this.#noticed) {
            await new Promise((resolve) => {
                const timer = setTimeout(resolve, timeoutMs);
                this.#wake = () => {
                    clearTimeout(timer);
                    resolve();
                };
            });
        }
        this.#wake = undefined;
        this.#noticed = false;
    }
    close() {
        this.#stop();
        this.#wake?.();
    }
}
//# sourceMappingURL=determine-identifier.js.map