/**
 * The floor of the end-to-end benchmark: a service that makes exactly the HTTP exchanges regpay
 * makes per credit transfer and nothing else. It answers the intake POST with 202 (Fastify, its
 * default JSON parsing), then posts the outcome callback and the eight events to the receiver
 * (undici, as regpay's delivery does), each queue in order. No validation, no database, no
 * engine, no scheme. `E2E_SERVICE=hollow node dist/bench/e2e.js` measures it with the same load,
 * receiver and CPU accounting as regpay, so the two figures show what the HTTP alone costs on
 * this machine and what remains for everything else.
 */
import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { Agent, request } from 'undici';
const PATH = '/api/v1/transactions/outbound/credit-transfer';
const EVENT_TYPES = [
    'PAYMENT_AUTH_REQUEST_RECEIVED',
    'PAYMENT_AUTH_REQUEST_ACCEPTED',
    'PAYMENT_AUTH_REQUEST_PENDING',
    'PAYMENT_AUTH_REQUEST_DELIVERED',
    'PAYMENT_AUTH_RESPONSE_RECEIVED',
    'PAYMENT_AUTH_RESPONSE_ACCEPTED',
    'PAYMENT_AUTH_RESPONSE_PENDING',
    'PAYMENT_AUTH_RESPONSE_DELIVERED',
];
const receiverUrl = process.env.RECEIVER_URL;
if (receiverUrl === undefined)
    throw new Error('RECEIVER_URL is required');
// regpay's delivery defaults: 64 connections per origin.
const agent = new Agent({ connections: 64, keepAliveTimeout: 60_000 });
async function post(path, body) {
    const response = await request(`${receiverUrl}${path}`, {
        dispatcher: agent,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'webhook-id': randomUUID(), 'webhook-timestamp': String(Math.floor(Date.now() / 1000)) },
        body,
    });
    await response.body.dump();
}
/** The events in order; each the size of regpay's (the envelope and the message that caused the state). */
async function events(transfer) {
    for (const type of EVENT_TYPES) {
        const event = {
            class: 'TRANSACTION_STATE',
            name: `TRANSACTION_STATE_${type}`,
            type,
            apiVersion: '1.0.0',
            stageVersion: 1,
            tranInfo: { tranUetr: transfer.transactionIdentifiers.uetr, direction: 'OUTBOUND', paymentScheme: transfer.paymentScheme, service: 'CREDIT_TRANSFER' },
            messageInfo: { messageIdentification: randomUUID(), creationDateTime: new Date().toISOString() },
            payload: { schema: 'CreditTransfer', message: transfer },
        };
        await post('/events-api/v1/events', JSON.stringify(event));
    }
}
async function callback(transfer) {
    const report = {
        messageIdentifiers: { messageIdentification: randomUUID(), creationDateTime: new Date().toISOString() },
        originalMessageIdentifiers: transfer.messageIdentifiers,
        transactionIdentifiers: transfer.transactionIdentifiers,
        status: { outcome: 'APPROVED', reasonInfo: [] },
    };
    await post('/partner-api/v1/transactions/outbound/credit-transfer-response', JSON.stringify(report));
}
const app = Fastify({ logger: false, bodyLimit: 1024 * 1024 });
app.get('/health/ready', (_request, reply) => reply.send({ status: 'ready' }));
app.post(PATH, (request, reply) => {
    const transfer = request.body;
    void reply.code(202).send({ transactionIdentifiers: transfer.transactionIdentifiers });
    setImmediate(() => {
        void events(transfer).catch((error) => process.stderr.write(`events: ${String(error)}\n`));
        void callback(transfer).catch((error) => process.stderr.write(`callback: ${String(error)}\n`));
    });
});
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
//# sourceMappingURL=hollow-service.js.map