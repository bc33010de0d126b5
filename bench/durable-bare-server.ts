/**
 * The floor of the intake benchmark: the bare Fastify server (bare-server.ts) that also stores
 * every request body durably before it answers 202, the way regpay does and with nothing else:
 * bodies of one turn of the event loop go to a SQLite writer thread (WAL, synchronous=FULL, the
 * same connection settings) as one batch and one transaction, one row each, and the answers wait
 * for its COMMIT. No authentication, validation, duplicate detection, transaction, state or
 * event. Measured in the same run, it shows how much of the baseline durability alone takes on
 * this machine, and so what is left for everything regpay does on top of it.
 */
import Fastify from 'fastify';
import { Worker } from 'node:worker_threads';

const worker = new Worker(new URL('./durable-bare-writer.js', import.meta.url), { workerData: { filename: process.env.DATABASE_FILE } });
const waiting = new Map<number, (() => void)[]>();
let nextBatch = 1;
let pending: { body: string; done: () => void }[] = [];
let scheduled = false;
/** At most two batches in flight, as regpay's SQLite store: one committing, one queued behind it. */
let inFlight = 0;

worker.on('message', (id: number) => {
  inFlight -= 1;
  for (const done of waiting.get(id) ?? []) done();
  waiting.delete(id);
  schedule();
});

function schedule(): void {
  if (scheduled || pending.length === 0 || inFlight >= 2) return;
  scheduled = true;
  setImmediate(() => {
    scheduled = false;
    const batch = pending;
    pending = [];
    const id = nextBatch;
    nextBatch += 1;
    inFlight += 1;
    waiting.set(id, batch.map((item) => item.done));
    worker.postMessage({ id, bodies: batch.map((item) => item.body) });
  });
}

const app = Fastify({ logger: false, bodyLimit: 1024 * 1024 });
app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
  try {
    done(null, { raw: body, value: JSON.parse(body as string) as unknown });
  } catch (error) {
    done(error as Error, undefined);
  }
});
app.post('/api/v1/transactions/outbound/credit-transfer', async (request, reply) => {
  await new Promise<void>((resolve) => {
    pending.push({ body: (request.body as { raw: string }).raw, done: resolve });
    schedule();
  });
  return reply.code(202).send();
});
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
