import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createMetrics } from '../../src/adapters/metrics/prometheus.js';

/** docs/operations.md lists every metric the service defines, and docs/grafana-dashboard.json uses only those. */
const REPO = fileURLToPath(new URL('../../../', import.meta.url));

void describe('docs/operations.md and docs/grafana-dashboard.json', () => {
  const metrics = createMetrics({ backlog: () => Promise.resolve([]), backlogRefreshMs: 0, now: () => 0, knownReason: () => true, durable: () => ({ commits: 0, commitsHolding: { transactions: 0, deliveries: 0, other: 0 }, fsyncs: 0, checkpointFsyncs: 0 }) });
  const defined = metrics.registry.getMetricsAsArray().map((metric) => metric.name);
  // Node's default process metrics (regpay_process_*, regpay_nodejs_*) come with prom-client.
  const own = defined.filter((name) => !name.startsWith('regpay_process_') && !name.startsWith('regpay_nodejs_'));

  void it('documents every metric of the service', () => {
    const doc = readFileSync(`${REPO}docs/operations.md`, 'utf8');
    assert.deepEqual(own.filter((name) => !doc.includes(`\`${name}\``)), []);
  });

  void it('has a dashboard whose every query names a metric the service defines', () => {
    const dashboard = JSON.parse(readFileSync(`${REPO}docs/grafana-dashboard.json`, 'utf8')) as { panels: { targets: { expr: string }[] }[] };
    const used = new Set(dashboard.panels.flatMap((panel) => panel.targets.flatMap((target) => [...target.expr.matchAll(/regpay_[a-z_]+/g)].map((match) => match[0]))));
    const unknown = [...used].map((name) => name.replace(/_(bucket|count|sum)$/, '')).filter((name) => !defined.includes(name));
    assert.deepEqual(unknown, []);
    assert.ok(own.every((name) => [...used].some((usedName) => usedName.startsWith(name))), 'every metric of the service is on the dashboard');
  });
});
