/**
 * The benchmark's integrator: acknowledges every callback and event at once and keeps, in
 * memory, when each transfer's outcome callback arrived and how many events each transfer got.
 * GET /_stats returns them, GET /_counts only how many. Request-to-pay status pushes
 * (RequestToPayResponse) are kept apart, by status: each request's statuses in order of arrival,
 * when each first arrived, and its events' count and last arrival (GET /_rtp; their counts by
 * status in /_counts). Runs as its own process so it does not share the service's CPU.
 */
import { createServer } from 'node:http';
const port = Number(process.env.PORT);
const callbacks = new Map();
const events = new Map();
let eventCount = 0;
let duplicateCallbacks = 0;
const rtp = new Map();
const rtpPushCounts = {};
let rtpEventCount = 0;
let rtpDuplicatePushes = 0;
const rtpSeen = (uetr) => {
    let seen = rtp.get(uetr);
    if (seen === undefined)
        rtp.set(uetr, (seen = { statuses: [], at: {}, events: 0, lastEventAt: 0 }));
    return seen;
};
const server = createServer((request, response) => {
    if (request.method === 'GET' && request.url === '/_stats') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ callbacks: Object.fromEntries(callbacks), events: Object.fromEntries(events), eventCount, duplicateCallbacks }));
        return;
    }
    // Counts only, for sampling while load runs: writing out every callback's time (megabytes at
    // tens of thousands of transfers) held this process for up to 100 ms at a time, and callbacks
    // arriving meanwhile were timed late, which the benchmark then counted as the service's latency.
    if (request.method === 'GET' && request.url === '/_counts') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ callbackCount: callbacks.size, eventCount, rtpPushCounts, rtpEventCount }));
        return;
    }
    if (request.method === 'GET' && request.url === '/_rtp') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ requests: Object.fromEntries(rtp), rtpPushCounts, rtpEventCount, rtpDuplicatePushes }));
        return;
    }
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
        const at = Date.now();
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        if (body.tranInfo !== undefined) {
            eventCount += 1;
            events.set(body.tranInfo.tranUetr, (events.get(body.tranInfo.tranUetr) ?? 0) + 1);
            if (body.type?.startsWith('REQUEST_TO_PAY_') === true) {
                rtpEventCount += 1;
                const seen = rtpSeen(body.tranInfo.tranUetr);
                seen.events += 1;
                seen.lastEventAt = at;
            }
        }
        else if (body.schema === 'RequestToPayResponse' && body.transactionIdentifiers !== undefined && body.status !== undefined) {
            const seen = rtpSeen(body.transactionIdentifiers.uetr);
            const status = body.status.status;
            seen.statuses.push(status);
            if (seen.at[status] === undefined) {
                seen.at[status] = at;
                rtpPushCounts[status] = (rtpPushCounts[status] ?? 0) + 1;
            }
            else
                rtpDuplicatePushes += 1;
        }
        else if (body.transactionIdentifiers !== undefined) {
            if (callbacks.has(body.transactionIdentifiers.uetr))
                duplicateCallbacks += 1;
            else
                callbacks.set(body.transactionIdentifiers.uetr, at);
        }
        response.writeHead(204).end();
    });
});
server.keepAliveTimeout = 60_000;
server.listen(port, '127.0.0.1', () => process.stdout.write(`bench receiver on ${port}\n`));
process.on('SIGTERM', () => process.exit(0));
//# sourceMappingURL=receiver.js.map