/**
 * Scale-out on one PostgreSQL with the standalone operator simulator (one scheme operator shared
 * by every instance, over the operator link): the end-to-end figures of one instance at an offered
 * rate, then of three instances at the same rate, measured in one run. Each run has its own fresh
 * database and operator. Figures: the rate completed while offered, the 202-to-callback p50 and
 * p99, CPU per transfer (service and PostgreSQL), and PostgreSQL's deadlock count. Knobs:
 * SCALE_RATE (offered transfers/s, default 100), SCALE_DURATION_S (30), SCALE_INSTANCES (3),
 * SCALE_OPERATOR_LATENCY_MS (the operator's answer delay, default 0). The warm-up is e2e.ts's
 * (E2E_WARM_UP_S).
 */
import { fileURLToPath } from 'node:url';
import { OperatorProcess, operatorLinkSchemes } from '../test/support/operator.js';
import { databaseCounters, dropTestDatabase, freshPostgresUrl, withPostgres } from '../test/support/postgres.js';
import { freePort } from '../test/support/server.js';
import { runE2e, type E2eFigures } from './e2e.js';

export const TARGET_RATE_RATIO = 0.9;
export const TARGET_P99_RATIO = 2;
export const TARGET_CPU_RATIO = 1.3;

const RATE = Number(process.env.SCALE_RATE ?? 100);
const DURATION_S = Number(process.env.SCALE_DURATION_S ?? 30);
const INSTANCES = Number(process.env.SCALE_INSTANCES ?? 3);
const OPERATOR_LATENCY_MS = Number(process.env.SCALE_OPERATOR_LATENCY_MS ?? 0);

export interface ScaleOutRun {
  readonly instances: number;
  readonly figures: E2eFigures;
  readonly deadlocks: number;
  /** PostgreSQL transactions committed (every instance's batches, reads and claims) per transfer, warm-up included. */
  readonly commitsPerTransfer: number;
  readonly rollbacks: number;
}

export interface ScaleOutFigures {
  readonly offeredPerS: number;
  readonly one: ScaleOutRun;
  readonly many: ScaleOutRun;
}


/** `instances` service instances on a fresh database, linked to a fresh standalone operator, at `ratePerS`. */
async function runWith(instances: number, ratePerS: number, durationS: number): Promise<ScaleOutRun> {
  const database = await freshPostgresUrl();
  const inboundPorts = await Promise.all(Array.from({ length: instances }, () => freePort()));
  const operator = await OperatorProcess.start({
    bankUrls: inboundPorts.map((port) => `https://127.0.0.1:${port}`),
    schemes: { ZA_RPP: { latencyMs: OPERATOR_LATENCY_MS } },
  });
  try {
    const before = await databaseCounters(database);
    const figures = await runE2e({
      ratePerS,
      durationS,
      database,
      instances,
      schemes: (instance) => operatorLinkSchemes(operator.url, inboundPorts[instance] ?? 0, { ZA_RPP: 10_000 }),
    });
    // Statistics reach pg_stat_database when backends flush them, within a second.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const after = await databaseCounters(database);
    const transfers = figures.accepted + figures.warmUpAccepted;
    return {
      instances,
      figures,
      deadlocks: after.deadlocks - before.deadlocks,
      commitsPerTransfer: Math.round(((after.commits - before.commits) / Math.max(1, transfers)) * 10) / 10,
      rollbacks: after.rollbacks - before.rollbacks,
    };
  } finally {
    await operator.stop();
    await dropTestDatabase(database);
  }
}

export async function runScaleOut(ratePerS = RATE, durationS = DURATION_S, instances = INSTANCES): Promise<ScaleOutFigures> {
  const one = await runWith(1, ratePerS, durationS);
  const many = await runWith(instances, ratePerS, durationS);
  return { offeredPerS: ratePerS, one, many };
}

const ratio = (a: number, b: number): string => (b === 0 ? 'n/a' : (a / b).toFixed(2));

export function scaleOutRows(figures: ScaleOutFigures): string[] {
  const { one, many } = figures;
  const row = (run: ScaleOutRun): string => {
    const f = run.figures;
    return (
      `${run.instances} instance${run.instances === 1 ? '' : 's'} at ${figures.offeredPerS}/s: ${f.completedDuringLoadPerS.toFixed(1)}/s completed while offered ` +
      `(${f.completed}/${f.accepted}), p50 ${f.p50Ms} ms, p99 ${f.p99Ms} ms, CPU/transfer service ${f.serviceCpuUsPerTransfer} µs + PostgreSQL ${f.databaseCpuUsPerTransfer} µs, ` +
      `ack to DELIVERED recorded p50 ${f.ackRecordP50Ms} ms p99 ${f.ackRecordP99Ms} ms, group commit p50 ${f.commitP50Ms} ms p99 ${f.commitP99Ms} ms, PostgreSQL commits/transfer ${run.commitsPerTransfer} (rollbacks ${run.rollbacks}; of them the store's batch COMMITs ${f.commitsPerTransfer}, holding its state ${f.transactionCommitsPerTransfer}), ` +
      `duplicate callbacks ${f.duplicateCallbacks}, deadlocks ${run.deadlocks}`
    );
  };
  const cpu = (run: ScaleOutRun): number => run.figures.serviceCpuUsPerTransfer + run.figures.databaseCpuUsPerTransfer;
  return [
    row(one),
    row(many),
    `${many.instances} / 1: rate ${ratio(many.figures.completedDuringLoadPerS, one.figures.completedDuringLoadPerS)} (target >= ${TARGET_RATE_RATIO}), ` +
      `p99 ${ratio(many.figures.p99Ms, one.figures.p99Ms)} (target <= ${TARGET_P99_RATIO}), CPU/transfer ${ratio(cpu(many), cpu(one))} (target <= ${TARGET_CPU_RATIO}), ` +
      `deadlocks ${one.deadlocks + many.deadlocks} (target 0)`,
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const figures = await withPostgres(() => runScaleOut());
  for (const line of scaleOutRows(figures)) process.stdout.write(`${line}\n`);
}
