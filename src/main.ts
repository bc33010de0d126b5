/**
 * Composition root: the only file that wires config, store, connectors, engine, delivery and HTTP
 * together, and the only one that decides the order of start and shutdown.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { countingSender, createMetrics } from './adapters/metrics/prometheus.js';
import { HttpPartnerSender } from './adapters/partner-http/http-sender.js';
import { openStore } from './adapters/store.js';
import { openFilesLimit, systemIds, systemClock } from './adapters/system/system.js';
import { demoCredentialLines } from './config/demo.js';
import { loadConfig } from './config/load.js';
import type { Config } from './config/types.js';
import { createConnectors } from './connectors/registry.js';
import { Dispatcher } from './engine/dispatcher.js';
import { Engine } from './engine/engine.js';
import { instanceIdOf, recoverAtStart } from './engine/crash-recovery.js';
import { buildApp, createLogger } from './http/app.js';
import { connectionBudgetProblem } from './http/connection-gate.js';

async function main(): Promise<void> {
  const config = await loadConfig({ argv: process.argv.slice(2) });
  const fileLimit = await openFilesLimit();
  const budgetProblem = fileLimit === undefined ? undefined : connectionBudgetProblem(config.server, fileLimit);
  if (budgetProblem !== undefined) throw new Error(budgetProblem);
  const log = createLogger(config.server.logLevel);
  // Held requests are answered when another instance decides them: listen for its notices from the start.
  const store = await openStore(config.database, { listenForChanges: true });
  const clock = systemClock;
  const ids = systemIds;
  // Leases name their holder, so an operator can tell which instance holds what (crash-recovery.ts).
  const instanceId = instanceIdOf(hostname(), process.pid, randomUUID().slice(0, 8));
  const integrators = new Map(config.integrators.map((integrator) => [integrator.id, integrator]));

  const connectors = createConnectors(config, clock, { log: log.child({ component: 'connector' }) });
  const { delivery } = config;
  const metrics = createMetrics();
  const sender = countingSender(
    new HttpPartnerSender({
      clock,
      timeoutMs: delivery.timeoutMs,
      connectionsPerOriginMax: delivery.connectionsPerOriginMax,
      responseBytesMax: delivery.responseBytesMax,
    }),
    metrics,
  );
  // Engine and dispatcher call each other (outbox written -> delivery; callback outcome -> engine); both exist before either starts.
  const dispatcher = new Dispatcher({
    store,
    sender,
    integrators,
    clock,
    instanceId,
    log: log.child({ component: 'delivery' }),
    retryScheduleMs: delivery.retryScheduleMs,
    retryJitterRatio: delivery.retryJitterRatio,
    claimBatchMax: delivery.claimBatchMax,
    inFlightMax: delivery.inFlightMax,
    endpointInFlightMax: delivery.endpointInFlightMax,
    leaseMs: delivery.leaseMs,
    pollIntervalMs: delivery.pollIntervalMs,
    // Delivery may use half the grace period; what it cannot finish is retried after restart.
    stopTimeoutMs: Math.floor(config.server.shutdownGraceMs / 2),
    onCallbackOutcome: (record, outcome) => engine.callbackOutcome(record, outcome.delivered),
  });

  const engine: Engine = new Engine({
    store,
    clock,
    ids,
    connectors,
    integrators,
    schemes: config.schemes,
    instanceId,
    log: log.child({ component: 'engine' }),
    delivery: dispatcher,
    stateEntered: (state) => metrics.statesEntered.inc({ state }),
    transitionRefused: (kind) => metrics.transitionsRefused.inc({ kind }),
    sendsToSchemes: config.processing.enabled,
  });
  let accepting = false;
  const app = await buildApp(
    {
      config,
      store,
      clock,
      ids,
      readiness: { accepting: () => accepting },
      metrics,
      processing: {
        leaseForNew: () => engine.leaseForNew(),
        accepted: (work) => {
          metrics.statesEntered.inc({ state: work.state });
          if (config.processing.enabled) engine.accepted(work);
        },
        // An instance with processing off never talks to a scheme; the instances that process decide by their timers.
        decideNow: (transactionId) => (config.processing.enabled ? engine.decideNow(transactionId) : Promise.resolve()),
        request: (transactionId, request) => engine.request(transactionId, request),
      },
      delivery: dispatcher,
    },
    { logger: log },
  );

  for (const connector of new Set(connectors.values())) await connector.start(engine);
  if (config.processing.enabled) {
    const recovered = await recoverAtStart(store, instanceId, clock.now());
    if (recovered.leasesReleased > 0) {
      log.info({ owners: recovered.owners, leases: recovered.leasesReleased }, 'resuming the work of earlier processes of this host that are gone: their leases are released');
    }
    if (recovered.woken > 0) log.info({ transactions: recovered.woken }, 'transactions whose delivered callback their engine was never told of are looked at now');
    engine.start();
    dispatcher.start();
  } else {
    log.warn('processing is off (processing.enabled: false): requests are accepted and stored, but nothing is sent to schemes or integrators from this instance');
  }

  let stopping = false;
  const shutdown = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    accepting = false;
    log.info({ signal }, 'shutting down: no new requests, finishing in-flight work');
    const force = setTimeout(() => {
      log.error('shutdown grace period over; exiting with work in flight (it resumes at the next start)');
      process.exit(1);
    }, config.server.shutdownGraceMs);
    force.unref();
    try {
      // New requests stop first; every in-flight 202 waits for its group commit. Then the engine
      // and delivery finish what they hold; anything unfinished is in the database and resumes
      // at the next start. The store flushes its queue and closes last.
      await app.close();
      await engine.stop();
      for (const connector of new Set(connectors.values())) await connector.stop();
      await dispatcher.stop();
      await sender.close();
      await store.close();
      process.exit(0);
    } catch (error) {
      log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ host: config.server.host, port: config.server.port });
  accepting = true;
  if (config.demo) printDemo(config, app.server.address());
}

function printDemo(config: Config, address: unknown): void {
  const where = typeof address === 'object' && address !== null && 'port' in address ? `http://${config.server.host}:${String(address.port)}` : '';
  process.stdout.write(
    [
      '',
      'regpay demo is running (no config file given): SQLite under ./data, simulator for every scheme.',
      `  API:        ${where}/api/v1   docs: ${where}/docs   token: ${where}/oauth/token`,
      ...(config.demoCredentials === undefined ? [] : demoCredentialLines(config.demoCredentials)),
      '',
    ].join('\n') + '\n',
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`regpay failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
