#!/usr/bin/env node
// An integrator's receiver for regpay's callbacks and events, in plain Node (20 or later), no
// dependencies, no build step. It verifies each message's Standard Webhooks signature
// (https://www.standardwebhooks.com), answers, and prints one JSON line per message.
//
//   REGPAY_WEBHOOK_SECRET=whsec_... node examples/receiver.mjs        # listens on 127.0.0.1:9090
//
// Environment:
//   REGPAY_WEBHOOK_SECRET  the integrator's webhookSecret (the demo prints it). Without it nothing
//                          can be verified: every message is taken and printed as "unsigned".
//   RECEIVER_PORT          port to listen on (default 9090, where the demo sends; 0 = any free port)
//   RECEIVER_HOST          address to listen on (default 127.0.0.1)
//   RECEIVER_DECLINE_ACCOUNTS  account numbers whose credits this bank declines, comma-separated,
//                          each optionally with its ISO 20022 reason: "4071001004,4071001006:AC06"
//                          (AC04, account closed, when none is given)
//   RECEIVER_PROXY_ACCOUNT the account a proxy (mobile number, ShapID) resolves to (default 4071000001)
//
// Answers: 204 to a message whose signature verifies (any 2xx is regpay's acknowledgement);
// 401 to one whose signature is missing, wrong, or more than five minutes away from our clock
// (regpay then retries it on its schedule); 405 to anything but POST; 413 to a body over 1 MiB.
//
// As the receiving bank (docs/api.md, "Receiving"), it answers regpay's two sync calls, once
// their signature verifies, 200 with the decision:
//   POST .../identifiers/inbound/identifier-determination-sync  -> IdentifierDeterminationResponse:
//        SUCCESSFUL, the account (the one asked about, or RECEIVER_PROXY_ACCOUNT for a proxy) and
//        the names "Demo Customer"; FAILED with the reason for a declined account
//   POST .../transactions/inbound/credit-transfer-authorisation-sync  -> PaymentStatusReport:
//        APPROVED, or REJECTED with the reason for a declined account
// and acknowledges the completion (.../credit-transfer-completion: APPROVED means settled, credit
// the customer now) with 204, as any other callback. A real bank decides from its own accounts.
//
// What a real receiver must add: store the message before answering 2xx, and de-duplicate on
// webhook-id (delivery is at least once; this one only marks a repeat it has seen), and answer a
// repeated sync call as it answered it the first time. The printed line is {"result",
// "webhookId", "path", "kind", "summary", "body"}, and "answer" when it answered a sync call:
// kind is "callback" (under /partner-api/v1) or "event" (/events-api/v1/events).
import { Buffer } from 'node:buffer';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import process from 'node:process';

const BODY_BYTES_MAX = 1024 * 1024;
/** Standard Webhooks: refuse a timestamp this far from our clock, so a captured message cannot be replayed later. */
const TIMESTAMP_TOLERANCE_S = 5 * 60;
/** Webhook ids remembered to mark repeats; the oldest is forgotten first. */
const SEEN_IDS_MAX = 10_000;

const secret = process.env.REGPAY_WEBHOOK_SECRET ?? '';
const port = Number(process.env.RECEIVER_PORT ?? '9090');
const host = process.env.RECEIVER_HOST ?? '127.0.0.1';

if (secret !== '' && !/^whsec_[A-Za-z0-9+/]+={0,2}$/.test(secret)) {
  process.stderr.write('receiver: REGPAY_WEBHOOK_SECRET is not a Standard Webhooks secret (whsec_ followed by base64)\n');
  process.exit(2);
}
const key = secret === '' ? undefined : Buffer.from(secret.slice('whsec_'.length), 'base64');

/** Account number -> ISO 20022 reason of the decline. */
const declined = new Map();
for (const entry of (process.env.RECEIVER_DECLINE_ACCOUNTS ?? '').split(',').map((text) => text.trim()).filter((text) => text !== '')) {
  const [account, reason = 'AC04'] = entry.split(':');
  if (!/^[A-Za-z0-9]{1,34}$/.test(account) || !/^[A-Z0-9]{4}$/.test(reason)) {
    process.stderr.write(`receiver: RECEIVER_DECLINE_ACCOUNTS: "${entry}" is not <account>[:<ISO reason code>]\n`);
    process.exit(2);
  }
  declined.set(account, reason);
}
const proxyAccount = process.env.RECEIVER_PROXY_ACCOUNT ?? '4071000001';
const CUSTOMER_NAMES = { knownAsName: 'Demo Customer', legalName: 'Demo Customer' };
let answers = 0;

/** The answer's own message identifiers: a new id (at most 35 characters) and the time. */
function ownIdentifiers() {
  answers += 1;
  return { messageIdentification: `RCV${process.pid}T${Date.now()}N${answers}`, creationDateTime: new Date().toISOString() };
}

/** The bank's decision on a credit (a CreditTransfer): a PaymentStatusReport naming the credit. */
function authorisationAnswer(transfer) {
  const account = transfer.creditorAccount?.identification?.value ?? proxyAccount;
  const reason = declined.get(account);
  return {
    schema: 'PaymentStatusReport',
    messageIdentifiers: ownIdentifiers(),
    originalMessageIdentifiers: transfer.messageIdentifiers,
    transactionIdentifiers: transfer.transactionIdentifiers,
    status: reason === undefined ? { outcome: 'APPROVED', reasonInfo: [] } : { outcome: 'REJECTED', reasonInfo: [{ reason: { schema: 'CODE', value: reason } }] },
  };
}

/** The bank's answer to a lookup of its customer (an IdentifierDeterminationRequest). */
function lookupAnswer(lookup) {
  const { identifier } = lookup.request;
  const isProxy = identifier.schema === 'MOBILE' || identifier.schema === 'CUSTOM';
  const account = isProxy ? proxyAccount : identifier.value;
  const reason = declined.get(account);
  const proxy = isProxy ? { proxy: { value: identifier.value, schema: identifier.schema } } : {};
  return {
    schema: 'IdentifierDeterminationResponse',
    messageIdentifiers: ownIdentifiers(),
    originalMessageIdentifiers: lookup.messageIdentifiers,
    scheme: lookup.request.schema,
    uetr: lookup.request.uetr,
    verificationIdentification: lookup.request.verificationIdentification,
    report: {
      reportInformation:
        reason === undefined
          ? { outcome: 'SUCCESSFUL', accountInformation: { ...proxy, traditionalIdentifier: account }, accountOwner: CUSTOMER_NAMES }
          : { outcome: 'FAILED', reasonCode: reason, accountInformation: { ...proxy }, accountOwner: {} },
    },
  };
}

/** The 200 answer of a sync call regpay makes to the receiving bank, or undefined for anything else. */
function syncAnswer(path, body) {
  if (body === null || typeof body !== 'object') return undefined;
  if (path.endsWith('/transactions/inbound/credit-transfer-authorisation-sync')) return authorisationAnswer(body);
  if (path.endsWith('/identifiers/inbound/identifier-determination-sync') && typeof body.request?.identifier === 'object') return lookupAnswer(body);
  return undefined;
}

/**
 * The Standard Webhooks check: HMAC-SHA256 under the secret's key bytes over
 * `{webhook-id}.{webhook-timestamp}.{raw body}`, base64, compared in constant time with every
 * `v1,` entry of the space-separated webhook-signature header (a sender rotating its secret may
 * send several). Answers undefined when the message is genuine, else why not.
 */
function signatureProblem(signingKey, headers, rawBody, nowS) {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signatures !== 'string') {
    return 'missing webhook-id, webhook-timestamp or webhook-signature';
  }
  if (!/^[0-9]{1,12}$/.test(timestamp)) return 'webhook-timestamp is not Unix seconds';
  if (Math.abs(nowS - Number(timestamp)) > TIMESTAMP_TOLERANCE_S) return 'webhook-timestamp is more than five minutes from our clock';
  const expected = createHmac('sha256', signingKey).update(`${id}.${timestamp}.`).update(rawBody).digest();
  for (const entry of signatures.split(' ')) {
    const [version, encoded] = entry.split(',', 2);
    if (version !== 'v1' || encoded === undefined) continue;
    const given = Buffer.from(encoded, 'base64');
    if (given.length === expected.length && timingSafeEqual(given, expected)) return undefined;
  }
  return 'no webhook-signature matches';
}

/** A few fields that say what the message is, whatever its kind. */
function summarise(body) {
  if (body === null || typeof body !== 'object') return {};
  if (typeof body.name === 'string') return { event: body.name, uetr: body.tranInfo?.tranUetr, scheme: body.tranInfo?.paymentScheme };
  return {
    schema: body.schema,
    uetr: body.transactionIdentifiers?.uetr ?? body.originalTransactionIdentifiers?.uetr ?? body.uetr ?? body.request?.uetr,
    outcome: body.status?.outcome ?? body.status?.status ?? body.cancellationStatus?.status ?? body.report?.reportInformation?.outcome,
  };
}

const seen = new Set();
function firstTime(id) {
  if (typeof id !== 'string' || seen.has(id)) return false;
  seen.add(id);
  if (seen.size > SEEN_IDS_MAX) seen.delete(seen.values().next().value);
  return true;
}

function print(line) {
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

const server = createServer((request, response) => {
  const path = (request.url ?? '/').split('?')[0];
  if (request.method !== 'POST') {
    response.writeHead(405, { allow: 'POST' }).end();
    return;
  }
  const chunks = [];
  let size = 0;
  request.on('data', (chunk) => {
    size += chunk.length;
    if (size <= BODY_BYTES_MAX) chunks.push(chunk);
  });
  request.on('end', () => {
    const webhookId = request.headers['webhook-id'];
    const kind = path.endsWith('/events') ? 'event' : 'callback';
    if (size > BODY_BYTES_MAX) {
      print({ result: 'rejected', reason: 'body over 1 MiB', webhookId, path, kind });
      response.writeHead(413).end();
      return;
    }
    const rawBody = Buffer.concat(chunks);
    // Verify the bytes as received, before parsing: re-serialised JSON would not match the signature.
    const problem = key === undefined ? undefined : signatureProblem(key, request.headers, rawBody, Math.floor(Date.now() / 1000));
    if (problem !== undefined) {
      print({ result: 'rejected', reason: problem, webhookId, path, kind });
      response.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: problem }));
      return;
    }
    let body;
    try {
      body = JSON.parse(rawBody.toString('utf8'));
    } catch {
      body = rawBody.toString('utf8');
    }
    const result = key === undefined ? 'unsigned' : firstTime(webhookId) ? 'verified' : 'verified-repeat';
    const answer = kind === 'callback' ? syncAnswer(path, body) : undefined;
    print({ result, webhookId, path, kind, summary: summarise(body), body, ...(answer === undefined ? {} : { answer }) });
    if (answer === undefined) response.writeHead(204).end();
    else response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
  });
});

server.listen(port, host, () => {
  const address = server.address();
  process.stderr.write(
    `receiver: listening on http://${host}:${address.port} (${key === undefined ? 'REGPAY_WEBHOOK_SECRET not set: nothing is verified' : 'verifying Standard Webhooks signatures'})\n`,
  );
});

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    server.close(() => process.exit(0));
    // regpay keeps its connections alive between deliveries: close them too, or close() waits for them.
    server.closeAllConnections();
  });
}
