/**
 * Composition root: the only file that wires config, store, HTTP and (later) the engine together.
 */
import { openStore } from './adapters/store.js';
import { randomIds, systemClock } from './adapters/system/system.js';
import { demoCredentialLines } from './config/demo.js';
import { loadConfig } from './config/load.js';
import { buildApp, createLogger } from './http/app.js';

async function main(): Promise<void> {
  const config = await loadConfig({ argv: process.argv.slice(2) });
  const store = await openStore(config.database);
  let accepting = false;
  const app = await buildApp(
    { config, store, clock: systemClock, ids: randomIds, readiness: { accepting: () => accepting } },
    { logger: createLogger(config.server.logLevel) },
  );

  let stopping = false;
  const shutdown = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    accepting = false;
    app.log.info({ signal }, 'shutting down: no new requests, finishing in-flight ones');
    const force = setTimeout(() => {
      app.log.error('shutdown grace period over; exiting with work in flight');
      process.exit(1);
    }, config.server.shutdownGraceMs);
    force.unref();
    try {
      // Stops accepting connections and waits for in-flight requests, whose 202s each wait for
      // their group commit; then the store flushes anything queued and closes.
      await app.close();
      await store.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ host: config.server.host, port: config.server.port });
  accepting = true;
  if (config.demo) printDemo(config, app.server.address());
}

function printDemo(config: Awaited<ReturnType<typeof loadConfig>>, address: unknown): void {
  const where = typeof address === 'object' && address !== null && 'port' in address ? `http://${config.server.host}:${String(address.port)}` : '';
  process.stdout.write(
    [
      '',
      'regpay demo is running (no config file given): SQLite under ./data, simulator for every scheme.',
      `  API:        ${where}/api/v1   docs: ${where}/docs`,
      ...(config.demoCredentials === undefined ? [] : demoCredentialLines(config.demoCredentials)),
      '',
    ].join('\n') + '\n',
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`regpay failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
