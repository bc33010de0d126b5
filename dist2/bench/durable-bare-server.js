/**
 * The floor of the intake benchmark: the bare Fastify server (bare-server.ts) that also stores
 * every request body durably before it answers 202, the way regpay does and with nothing else:
 * bodies go through regpay's group-commit queue (WriteQueue, two batches in flight as in its SQLite
 * store) to a SQLite writer thread (the same connection settings), one transaction per batch and
 * one row per body, and the answers wait for its COMMIT. No authentication, validation,
 * duplicate detection, transaction, state or event. Measured in the same run, it shows how much
 * of the baseline durability alone takes on this machine, and so what is left for everything
 * regpay does on top of it.
 */
import Fastify from 'fastify';
import { Worker } from 'node:worker_threads';
import { WriteQueue } from '../src/adapters/write-queue.js';
const worker = new Worker(new URL('./durable-bare-writer.js', import.meta.url), { workerData: { filename: process.env.DATABASE_FILE } });
const committed = new Map();
let nextBatch = 1;
worker.on('message', (id) => {
    committed.get(id)?.();
    committed.delete(id);
});
const queue = new WriteQueue((batch) => new Promise((resolve) => {
    const id = nextBatch;
    nextBatch += 1;
    committed.set(id, () => {
        for (const item of batch)
            item.resolve(undefined);
        resolve();
    });
    worker.postMessage({ id, bodies: batch.map((item) => item.body) });
}), { batchMax: 1024, queueMax: 10_000, concurrency: 2 });
const app = Fastify({ logger: false, bodyLimit: 1024 * 1024 });
app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
        done(null, { raw: body, value: JSON.parse(body) });
    }
    catch (error) {
        done(error, undefined);
    }
});
app.post('/api/v1/transactions/outbound/credit-transfer', async (request, reply) => {
    await new Promise((resolve, reject) => queue.push({ body: request.body.raw, resolve, reject }));
    return reply.code(202).send();
});
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
//# sourceMappingURL=durable-bare-server.js.map