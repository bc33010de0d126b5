import assert from 'node:assert/strict';
import { assertTransition } from '../../src/domain/machines/credit-transfer.js';
import { creditTransfer } from '../fixtures/credit-transfer.js';
import { CALLBACK_PATH, EVENTS_PATH } from './delivery.js';
import { basicAuth } from './server.js';
/** What an integrator (a Receiver process) saw of credit transfers: callbacks and events folded by transfer, and the load that made them. */
export const HAPPY = ['REQUEST_RECEIVED', 'REQUEST_ACCEPTED', 'REQUEST_PENDING', 'REQUEST_DELIVERED', 'RESPONSE_RECEIVED', 'RESPONSE_ACCEPTED', 'RESPONSE_PENDING', 'RESPONSE_DELIVERED'].map((type) => `PAYMENT_AUTH_${type}`);
/** Rate limits no load test reaches. */
export const HIGH_LIMITS = { limits: { requestsPerSecond: 1_000_000, burst: 1_000_000 } };
/** Short delivery retries, so an outage of a few seconds is bridged within a test. */
export const FAST_RETRIES = {
    delivery: {
        timeoutMs: 2_000,
        leaseMs: 8_000,
        retryScheduleMs: { callback: [0, 300, 600, 1000, 1000, 1000, 1000, 1000, 2000, 2000, 2000, 2000], event: [0, 300, 600, 1000, 1000, 1000, 1000, 1000, 2000, 2000, 2000, 2000] },
    },
};
const bodyOf = (message) => JSON.parse(message.body);
/**
 * What the integrator saw of each transfer, with at-least-once redeliveries folded by their
 * stable webhook-id (a message counts where it arrived last). Every body is parsed once: the
 * tests poll this while thousands of messages arrive.
 */
export function seenByTransfer(received) {
    const byUetr = new Map();
    for (const message of received) {
        const isEvent = message.path === EVENTS_PATH;
        if (!isEvent && message.path !== CALLBACK_PATH)
            continue;
        const body = bodyOf(message);
        const uetr = (isEvent ? body.tranInfo.tranUetr : body.transactionIdentifiers.uetr);
        let transfer = byUetr.get(uetr);
        if (transfer === undefined) {
            transfer = { events: new Map(), callbacks: new Map() };
            byUetr.set(uetr, transfer);
        }
        const byId = isEvent ? transfer.events : transfer.callbacks;
        const id = String(message.headers['webhook-id']);
        byId.delete(id);
        byId.set(id, (isEvent ? body.type : body.status.outcome));
    }
    return new Map([...byUetr].map(([uetr, { events, callbacks }]) => [uetr, { eventTypes: [...events.values()], outcomes: [...callbacks.values()] }]));
}
const NOTHING_SEEN = { eventTypes: [], outcomes: [] };
/** What the integrator saw of one transfer. */
export function seen(byTransfer, uetr) {
    return byTransfer.get(uetr) ?? NOTHING_SEEN;
}
function unfinished(received, uetrs) {
    const byTransfer = seenByTransfer(received);
    return [...uetrs].filter((uetr) => !seen(byTransfer, uetr).eventTypes.includes(HAPPY.at(-1)));
}
/** Waits until every transfer's last event arrived; on timeout, says what one unfinished transfer got. */
export async function waitComplete(receiver, uetrs, timeoutMs) {
    const all = [...uetrs];
    try {
        return await receiver.waitFor((received) => unfinished(received, all).length === 0, timeoutMs);
    }
    catch (error) {
        const received = receiver.received();
        const left = unfinished(received, all);
        throw new Error(`${String(error)}; ${left.length} unfinished, e.g. ${JSON.stringify(seen(seenByTransfer(received), left[0]))}`);
    }
}
/**
 * A transfer seen whole: its first event and its last (RESPONSE_DELIVERED), each state entered
 * once, every step a legal transition. A path other than the happy one (an answer recovered
 * through TIMEOUT and an enquiry, a failed send retried) is still such a walk.
 */
export function assertLegalWalk(uetr, view) {
    assert.equal(view.eventTypes[0], HAPPY[0], `${uetr} starts with ${HAPPY[0]}`);
    assert.equal(view.eventTypes.at(-1), HAPPY.at(-1), `${uetr} ends with ${HAPPY.at(-1)}`);
    assert.equal(new Set(view.eventTypes).size, view.eventTypes.length, `each state of ${uetr} entered once: ${view.eventTypes.join(', ')}`);
    view.eventTypes.slice(1).forEach((state, i) => assertTransition(view.eventTypes[i], state));
}
export async function post(server, transfer) {
    const response = await fetch(`${server.url}/api/v1/transactions/outbound/credit-transfer`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: basicAuth() },
        body: JSON.stringify(transfer),
    });
    await response.arrayBuffer();
    return response.status;
}
/**
 * Waits at least `minMs`, and then until `count()` reaches `atLeast` (at most `maxMs` in all): load
 * tests kill or stop after enough work was accepted, however slow a loaded machine makes it.
 */
export async function untilLoaded(count, atLeast, minMs, maxMs = 60_000) {
    const start = Date.now();
    while (Date.now() - start < minMs || (count() < atLeast && Date.now() - start < maxMs)) {
        await new Promise((resolve) => setTimeout(resolve, 50));
    }
}
/**
 * Sends ZA_RPP transfers from `workers` parallel loops, each to the server `server(i)` names, until
 * `stop()` says so; returns the uetrs answered 202, gathered in `accepted` as they come.
 */
export async function load(server, workers, stop, accepted = new Set()) {
    let requests = 0;
    await Promise.all(Array.from({ length: workers }, async () => {
        while (!stop()) {
            const transfer = creditTransfer('ZA_RPP');
            try {
                if ((await post(server(requests++), transfer)) === 202)
                    accepted.add(transfer.transactionIdentifiers.uetr);
            }
            catch {
                // the server is being killed: the transfer may or may not have been accepted
            }
        }
    }));
    return accepted;
}
//# sourceMappingURL=transfers-seen.js.map