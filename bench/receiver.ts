/**
 * The benchmark's integrator: acknowledges every callback and event at once and keeps, in
 * memory, when each transfer's outcome callback arrived and how many events each transfer got.
 * GET /_stats returns them, GET /_counts only how many. Request-to-pay status pushes
 * (RequestToPayResponse) are kept apart, by status: each request's statuses in order of arrival,
 * when each first arrived, and its events' count and last arrival (GET /_rtp; their counts by
 * status in /_counts). Runs as its own process so it does not share the service's CPU.
 *
 * As the receiving bank (bench/inbound.ts) it answers the sync authorisation of a scheme-originated
 * credit APPROVED, RECEIVER_ANSWER_DELAY_MS (default 0) after the call arrived (an integrator slower
 * than its budget when long), and keeps each credit's completion apart from outbound callbacks:
 * when it arrived, its outcome and reason (GET /_inbound; counts in /_counts).
 */
import { createServer } from 'node:http';

const port = Number(process.env.PORT);
const answerDelayMs = Number(process.env.RECEIVER_ANSWER_DELAY_MS ?? 0);
const AUTHORISATION_PATH = '/transactions/inbound/credit-transfer-authorisation-sync';
const COMPLETION_PATH = '/transactions/inbound/credit-transfer-completion';
const callbacks = new Map<string, number>();
const events = new Map<string, number>();
let eventCount = 0;
let duplicateCallbacks = 0;

/** A request-to-pay as pushed: its statuses in order of arrival, when each first came, its events. */
interface RtpSeen {
  statuses: string[];
  at: Record<string, number>;
  events: number;
  lastEventAt: number;
}
const rtp = new Map<string, RtpSeen>();
const rtpPushCounts: Record<string, number> = {};
let rtpEventCount = 0;
let rtpDuplicatePushes = 0;

/** Inbound credits: authorisation calls taken, answers written (a call the service gave up on may be answered to a closed socket), completions by uetr. */
let authorisationCalls = 0;
let authorisationAnswers = 0;
const completions = new Map<string, { at: number; outcome: string; reason?: string }>();
let duplicateCompletions = 0;
let answerCount = 0;

/** The receiving bank's APPROVED answer to a CreditTransfer it is asked to authorise. */
function approval(body: string): string {
  const transfer = JSON.parse(body) as { messageIdentifiers: unknown; transactionIdentifiers: unknown };
  answerCount += 1;
  return JSON.stringify({
    schema: 'PaymentStatusReport',
    messageIdentifiers: { messageIdentification: `BENCHRCV${process.pid}x${answerCount}`, creationDateTime: new Date().toISOString() },
    originalMessageIdentifiers: transfer.messageIdentifiers,
    transactionIdentifiers: transfer.transactionIdentifiers,
    status: { outcome: 'APPROVED' },
  });
}
const rtpSeen = (uetr: string): RtpSeen => {
  let seen = rtp.get(uetr);
  if (seen === undefined) rtp.set(uetr, (seen = { statuses: [], at: {}, events: 0, lastEventAt: 0 }));
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
    response.end(JSON.stringify({ callbackCount: callbacks.size, eventCount, rtpPushCounts, rtpEventCount, authorisationCalls, authorisationAnswers, completionCount: completions.size, duplicateCompletions }));
    return;
  }
  if (request.method === 'GET' && request.url === '/_inbound') {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ completions: Object.fromEntries(completions), duplicateCompletions, authorisationCalls, authorisationAnswers }));
    return;
  }
  if (request.method === 'GET' && request.url === '/_rtp') {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ requests: Object.fromEntries(rtp), rtpPushCounts, rtpEventCount, rtpDuplicatePushes }));
    return;
  }
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const at = Date.now();
    const path = request.url ?? '';
    if (path.endsWith(AUTHORISATION_PATH)) {
      authorisationCalls += 1;
      const answer = approval(Buffer.concat(chunks).toString('utf8'));
      const send = (): void => {
        if (response.destroyed) return;
        authorisationAnswers += 1;
        response.writeHead(200, { 'content-type': 'application/json' }).end(answer);
      };
      if (answerDelayMs === 0) send();
      else setTimeout(send, answerDelayMs);
      return;
    }
    if (path.endsWith(COMPLETION_PATH)) {
      const report = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { transactionIdentifiers: { uetr: string }; status: { outcome: string; reasonInfo?: { reason?: { value?: string } }[] } };
      const uetr = report.transactionIdentifiers.uetr.toLowerCase();
      if (completions.has(uetr)) duplicateCompletions += 1;
      else {
        const reason = report.status.reasonInfo?.[0]?.reason?.value;
        completions.set(uetr, { at, outcome: report.status.outcome, ...(reason === undefined ? {} : { reason }) });
      }
      response.writeHead(204).end();
      return;
    }
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
      schema?: string;
      type?: string;
      status?: { status: string };
      transactionIdentifiers?: { uetr: string };
      tranInfo?: { tranUetr: string };
    };
    if (body.tranInfo !== undefined) {
      eventCount += 1;
      events.set(body.tranInfo.tranUetr, (events.get(body.tranInfo.tranUetr) ?? 0) + 1);
      if (body.type?.startsWith('REQUEST_TO_PAY_') === true) {
        rtpEventCount += 1;
        const seen = rtpSeen(body.tranInfo.tranUetr);
        seen.events += 1;
        seen.lastEventAt = at;
      }
    } else if (body.schema === 'RequestToPayResponse' && body.transactionIdentifiers !== undefined && body.status !== undefined) {
      const seen = rtpSeen(body.transactionIdentifiers.uetr);
      const status = body.status.status;
      seen.statuses.push(status);
      if (seen.at[status] === undefined) {
        seen.at[status] = at;
        rtpPushCounts[status] = (rtpPushCounts[status] ?? 0) + 1;
      } else rtpDuplicatePushes += 1;
    } else if (body.transactionIdentifiers !== undefined) {
      if (callbacks.has(body.transactionIdentifiers.uetr)) duplicateCallbacks += 1;
      else callbacks.set(body.transactionIdentifiers.uetr, at);
    }
    response.writeHead(204).end();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(port, '127.0.0.1', () => process.stdout.write(`bench receiver on ${port}\n`));
process.on('SIGTERM', () => process.exit(0));
