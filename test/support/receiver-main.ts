/**
 * A stand-in integrator, run as its own process: it answers every POST (callbacks and events)
 * and appends each one, as a JSON line with its path, headers and body, to the file named by
 * RECEIVER_FILE before acknowledging it, so what it acknowledged survives its own restarts.
 * RECEIVER_FAIL_FIRST=N answers the first N requests of each path 503 (a flaky integrator).
 */
import { appendFileSync } from 'node:fs';
import { createServer } from 'node:http';

const file = process.env.RECEIVER_FILE;
const port = Number(process.env.PORT);
if (file === undefined || !Number.isInteger(port)) throw new Error('RECEIVER_FILE and PORT are required');
const failFirst = Number(process.env.RECEIVER_FAIL_FIRST ?? 0);
const failures = new Map<string, number>();

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    // A sender killed mid-request leaves a truncated body behind: an integrator would refuse it too.
    if (!request.complete) return;
    const path = request.url ?? '';
    const failed = failures.get(path) ?? 0;
    if (failed < failFirst) {
      failures.set(path, failed + 1);
      response.writeHead(503).end();
      return;
    }
    const body = Buffer.concat(chunks).toString('utf8');
    appendFileSync(file, `${JSON.stringify({ at: Date.now(), path, headers: request.headers, body })}\n`);
    response.writeHead(path.endsWith('/events') ? 200 : 202).end();
  });
});
server.listen(port, '127.0.0.1', () => process.stdout.write(`receiver listening on ${port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
