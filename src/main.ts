import type { Processing } from './ports/processing.js';
import { simulatedInbound } from './connectors/simulator/threaded-simulator.js';
import type { SchemeInbound } from './ports/scheme.js';
import { receiveFromScheme, type ReceiveDeps } from './app/receive-from-scheme.js';
/**
 * Composition root: the only file that wires config, store, connectors, engine, delivery and HTTP
 * together, and the only one that decides the order of start and shutdown.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { countingSender, createMetrics, type Metrics } from './adapters/metrics/prometheus.js';
import { transactionMilestones } from './adapters/observability/milestones.js';
import { otlpTracing, tracingSender } from './adapters/observability/otlp-tracing.js';
import { DemoInbox } from './app/demo-inbox.js';
import { REASON_TEXTS } from './connectors/iso20022/reason-codes.js';
import type { PartnerSender } from './ports/partner.js';
import type { Store } from './ports/store.js';
import { HttpPartnerSender } from './adapters/partner-http/http-sender.js';
import { openStore } from './adapters/store.js';
import { openFilesLimit, systemIds, systemClock } from './adapters/system/system.js';
import { startBanner } from './config/banner.js';
import { loadConfig } from './config/load.js';
import type { Config } from './config/types.js';
import { createConnectors, steadyInbound } from './connectors/registry.js';
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
  const clock = systemClock;
  const ids = systemIds;
  const knownReason = (code: string): boolean => REASON_TEXTS.has(code);
  const metrics: Metrics | undefined = config.metrics.enabled
    ? createMetrics({ backlog: () => store.outboxBacklog(), backlogRefreshMs: config.metrics.backlogRefreshMs, now: () => clock.now(), knownReason, durable: () => store.durableCounts() })
    : undefined;
  const storeLog = log.child({ component: 'store' });
  // Held requests are answered when another instance decides them: listen for its notices from the start.
  const store = await openStore(config.database, {
    poolMax: config.store.poolMax,
    groupCommitConcurrency: config.store.groupCommitConcurrency,
    listenForChanges: true,
    onBatchRetried: (reason, error) => {
      metrics?.storeBatchRetries.inc({ reason });
      storeLog.warn({ reason, err: error }, 'store: a write batch was aborted by the database and is run again');
    },
    ...(metrics === undefined
      ? {}
      : {
          onBatchCommitted: (writes: number, seconds: number) => {
            metrics.storeBatchWrites.observe(writes);
            metrics.storeCommitSeconds.observe(seconds);
          },
        }),
  });
  // Leases name their holder, so an operator can tell which instance holds what (crash-recovery.ts).
  const instanceId = instanceIdOf(hostname(), process.pid, randomUUID().slice(0, 8));
  const { otlpEndpoint } = config.telemetry;
  const tracing = otlpEndpoint === undefined ? undefined : otlpTracing({ endpoint: otlpEndpoint, serviceName: config.telemetry.serviceName, instanceId });
  const milestones = transactionMilestones(log.child({ component: 'transaction' }), metrics, knownReason);
  const integrators = new Map(config.integrators.map((integrator) => [integrator.id, integrator]));

  const connectors = createConnectors(config, clock, { log: log.child({ component: 'connector' }), simulatorInbound: steadyInbound(config) });
  const { delivery } = config;
  let sender: PartnerSender = new HttpPartnerSender({
    clock,
    timeoutMs: delivery.timeoutMs,
    connectionsPerOriginMax: delivery.connectionsPerOriginMax,
    responseBytesMax: delivery.responseBytesMax,
  });
  if (metrics !== undefined) sender = countingSender(sender, metrics);
  if (tracing !== undefined) sender = tracingSender(sender, tracing);
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
    recordCallbackAck: (record, attempt) => engine.callbackAcknowledged(record, attempt),
    ...(metrics === undefined ? {} : { onAckRecorded: (channel, seconds) => metrics.deliveryAckRecordSeconds.observe({ channel }, seconds) }),
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
    partner: sender,
    milestones,
    ...(tracing === undefined ? {} : { tracing }),
    sendsToSchemes: config.processing.enabled,
    options: { backlogMax: config.processing.backlogMax },
  });
  const processing: Processing = {
    leaseForNew: () => engine.leaseForNew(),
    firstDecision: (work) => engine.firstDecision(work),
    accepted: (work) => {
      milestones.accepted(work.transaction);
      if (config.processing.enabled) engine.accepted(work);
    },
    // An instance with processing off never talks to a scheme; the instances that process decide by their timers.
    decideNow: (transactionId) => (config.processing.enabled ? engine.decideNow(transactionId) : Promise.resolve()),
    request: (transactionId, request) => engine.request(transactionId, request),
    backlog: () => engine.backlog(),
  };
  let accepting = false;
  const app = await buildApp(
    {
      config,
      store,
      clock,
      ids,
      readiness: { accepting: () => accepting },
      ...(metrics === undefined ? {} : { metrics }),
      ...(tracing === undefined ? {} : { tracing }),
      // The inbox is the demo integrator's receiver unless REGPAY_DEMO_RECEIVER named another.
      ...(config.demoCredentials === undefined || config.demoReceiver !== undefined ? {} : { demoInbox: new DemoInbox(config.demoCredentials.webhookSecret, clock) }),
      processing,
      delivery: dispatcher,
      simulatedInbound,
    },
    { logger: log },
  );

  const receiving: ReceiveDeps = {
    store,
    clock,
    ids,
    integrators,
    schemes: config.schemes,
    log: log.child({ component: 'receiving' }),
    processing,
    delivery: dispatcher,
  };
  const inbound: SchemeInbound = { receive: (report) => engine.receive(report), originate: (request) => receiveFromScheme(receiving, request) };
  for (const connector of new Set(connectors.values())) await connector.start(inbound);
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

  const pruning = pruneSchemeMessages(store, clock, config.schemeMessages.retentionDays, log);
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
      clearInterval(pruning);
      await dispatcher.stop();
      await sender.close();
      await tracing?.shutdown();
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
  printBanner(config, app.server.address());
}

/** Scheme messages are kept `retentionDays` (docs/operations.md): forgotten hourly, oldest first, in bounded deletes. */
const PRUNE_INTERVAL_MS = 3_600_000;
const PRUNE_BATCH_MAX = 10_000;

function pruneSchemeMessages(store: Store, clock: { now(): number }, retentionDays: number, log: ReturnType<typeof createLogger>): NodeJS.Timeout {
  const prune = async (): Promise<void> => {
    const before = clock.now() - retentionDays * 86_400_000;
    let pruned = 0;
    for (let batch = PRUNE_BATCH_MAX; batch === PRUNE_BATCH_MAX; pruned += batch) batch = await store.pruneSchemeMessages(before, PRUNE_BATCH_MAX);
    if (pruned > 0) log.info({ pruned, retentionDays }, 'scheme messages past their retention forgotten');
  };
  const timer = setInterval(() => void prune().catch((error: unknown) => log.warn({ err: error }, 'forgetting old scheme messages failed; tried again in an hour')), PRUNE_INTERVAL_MS);
  timer.unref();
  return timer;
}

/** The start banner (config/banner.ts), printed once the port is open: for the demo and for a file alike. */
function printBanner(config: Config, address: unknown): void {
  const port = typeof address === 'object' && address !== null && 'port' in address ? String(address.port) : String(config.server.port);
  const host = config.server.host.includes(':') ? `[${config.server.host}]` : config.server.host;
  process.stdout.write(`${startBanner(config, `http://${host}:${port}`).join('\n')}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`regpay failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
