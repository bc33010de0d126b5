import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import { againstParts, againstRef, alternation, compare, comparisonRows, cpuFigures, e2eFigures, verdict, type Figure } from '../../bench/against.js';
import { serviceMain } from '../../bench/build-root.js';
import { durableCountsOf } from '../../bench/durable-counts.js';
import type { E2eFigures } from '../../bench/e2e.js';

/**
 * `npm run bench -- --against <ref>` (bench/against.ts): what it parses, the order it runs the
 * builds in, and how it pairs their figures. The benchmarks themselves are not run here.
 */
describe('bench --against: arguments', () => {
  it('takes the ref of --against <ref> and of --against=<ref>, and nothing without the flag', () => {
    assert.equal(againstRef(['--against', 'HEAD~1']), 'HEAD~1');
    assert.equal(againstRef(['--against=main']), 'main');
    assert.equal(againstRef([]), undefined);
  });

  it('refuses a missing ref, a flag in its place, a second --against and any other argument', () => {
    assert.throws(() => againstRef(['--against']), /needs a git ref/);
    assert.throws(() => againstRef(['--against=']), /needs a git ref/);
    assert.throws(() => againstRef(['--against', '--verbose']), /needs a git ref/);
    assert.throws(() => againstRef(['--against', 'a', '--against', 'b']), /given twice/);
    assert.throws(() => againstRef(['--againts', 'HEAD~1']), /unknown argument --againts/);
  });

  it('compares every part that supports it unless BENCH_ONLY chooses, and refuses a part that does not', () => {
    assert.deepEqual(againstParts(undefined), ['cpu', 'identifiers', 'e2e']);
    assert.deepEqual(againstParts(['identifiers']), ['identifiers']);
    assert.deepEqual(againstParts(['e2e']), ['e2e']);
    assert.throws(() => againstParts(['cpu', 'rtp']), /compares only cpu, identifiers, e2e; BENCH_ONLY names rtp/);
  });
});

describe('bench --against: the order of the runs', () => {
  it('alternates the builds, this one first, one run of each per round', () => {
    assert.deepEqual(alternation(3), ['A', 'B', 'A', 'B', 'A', 'B']);
    assert.deepEqual(alternation(1), ['A', 'B']);
  });

  it('refuses a number of rounds that is not a whole number of at least 1', () => {
    assert.throws(() => alternation(0), /BENCH_ROUNDS/);
    assert.throws(() => alternation(Number.NaN), /BENCH_ROUNDS/);
  });
});

const cpu = (value: number): Figure => ({ name: 'CPU per transfer', unit: 'µs', better: 'lower', value });
const rate = (value: number): Figure => ({ name: 'accepted', unit: '/s', better: 'higher', value });

describe('bench --against: pairing the figures', () => {
  it('pairs each B run with the A run before it and takes the median round as the ratio', () => {
    const [compared] = compare([
      { build: 'A', figures: [cpu(100)] },
      { build: 'B', figures: [cpu(50)] },
      { build: 'A', figures: [cpu(200)] },
      { build: 'B', figures: [cpu(120)] },
      { build: 'A', figures: [cpu(100)] },
      { build: 'B', figures: [cpu(40)] },
    ]);
    assert.deepEqual(compared?.a, [100, 200, 100]);
    assert.deepEqual(compared?.b, [50, 120, 40]);
    assert.deepEqual(compared?.roundRatios, [0.5, 0.6, 0.4]);
    assert.equal(compared?.ratio, 0.5);
  });

  it('says which build a ratio favours by the figure direction, and in how many rounds', () => {
    const [lower] = compare([
      { build: 'A', figures: [cpu(100)] },
      { build: 'B', figures: [cpu(50)] },
      { build: 'A', figures: [cpu(100)] },
      { build: 'B', figures: [cpu(110)] },
      { build: 'A', figures: [cpu(100)] },
      { build: 'B', figures: [cpu(90)] },
    ]);
    assert.equal(verdict(lower!), 'B better (2 of 3 rounds)');
    const [higher] = compare([
      { build: 'A', figures: [rate(100)] },
      { build: 'B', figures: [rate(50)] },
    ]);
    assert.equal(verdict(higher!), 'A better (1 of 1 rounds)');
    const [zero] = compare([
      { build: 'A', figures: [cpu(0)] },
      { build: 'B', figures: [cpu(0)] },
    ]);
    assert.equal(verdict(zero!), '—');
  });

  it('leaves out a figure that one of the runs lacks, and refuses runs that do not pair', () => {
    const compared = compare([
      { build: 'A', figures: [cpu(100), rate(10)] },
      { build: 'B', figures: [cpu(50)] },
    ]);
    assert.deepEqual(
      compared.map((figure) => figure.name),
      ['CPU per transfer'],
    );
    assert.throws(() => compare([{ build: 'A', figures: [cpu(1)] }]), /must pair: 1 and 0/);
  });

  it('prints each figure for A and B, the ratio B/A with its rounds, and the better direction', () => {
    const rows = comparisonRows(
      'cpu',
      compare([
        { build: 'A', figures: [cpu(2800)] },
        { build: 'B', figures: [cpu(1400)] },
      ]),
    );
    assert.match(rows[0]!, /^cpu: 1 rounds/);
    assert.match(rows[2]!, /CPU per transfer\s+2800 µs\s+1400 µs\s+0\.50\s+\(0\.50\)\s+lower is better: B better \(1 of 1 rounds\)/);
  });

  it("reads cpu-cost's figures: the service's CPU in all and on its main thread, over the bare server's", () => {
    const figures = cpuFigures({
      ratePerS: 1000,
      durationS: 5,
      regpay: {
        acceptedPerS: 990,
        latency: { p50: 2, average: 3, p99: 9 },
        non2xx: 0,
        server: { totalUs: 300, byThread: [['main', 200], ['thread 7', 100]] },
        generatorUs: 40,
      },
      bareServerUs: 100,
      bareGeneratorUs: 40,
      projected: 0.4,
    });
    const value = (name: string) => figures.find((figure) => figure.name === name)?.value;
    assert.equal(value('intake CPU per accepted transfer, service'), 300);
    assert.equal(value('intake CPU per accepted transfer, main thread'), 200);
    assert.equal(value("intake CPU per transfer over the bare server's per request"), 3);
    assert.equal(value('intake p99 at 1000/s offered'), 9);
  });
});

/** e2e.ts's figures of one run, as against.ts reads them back from BENCH_FIGURES_OUT (JSON: NaN becomes null). */
function e2eRun(overrides: Partial<E2eFigures>): E2eFigures {
  const figures: E2eFigures = {
    offeredPerS: 300,
    startedAt: 0,
    durationS: 20,
    accepted: 6000,
    warmUpAccepted: 3000,
    completed: 5994,
    completedPerS: 299,
    completedDuringLoadPerS: 297,
    eventsDuringLoadPerS: 296,
    p50Ms: 12,
    p99Ms: 80,
    intakeP99Ms: 9,
    eventsExpected: 48000,
    eventsDelivered: 48000,
    backlogSamples: [3, 4, 2],
    drainMs: 400,
    duplicateCallbacks: 0,
    serviceCpuUsPerTransfer: 1300,
    mainThreadCpuUsPerTransfer: 650,
    databaseCpuUsPerTransfer: 0,
    cpuUsPerTransferByThread: ['main: 650', 'thread 7: 650'],
    latencyBySecond: [],
    ackRecordP50Ms: 2,
    ackRecordP99Ms: 9,
    commitP50Ms: 1,
    commitP99Ms: 4,
    commitsPerTransfer: 3.1,
    transactionCommitsPerTransfer: 1.2,
    fsyncsPerTransfer: 3.4,
    checkpointFsyncsPerTransfer: 0.3,
    ...overrides,
  };
  return JSON.parse(JSON.stringify(figures)) as E2eFigures;
}

describe('bench --against: the end-to-end part', () => {
  it("reads e2e's figures: CPU per transfer in all and on the main thread, p50/p99 to the final callback, the rate carried, what was delivered, commits and fsyncs per transfer", () => {
    const figures = e2eFigures(e2eRun({}));
    const value = (name: string) => figures.find((figure) => figure.name === name)?.value;
    assert.equal(value('service CPU per transfer'), 1300);
    assert.equal(value('service CPU per transfer, main thread'), 650);
    assert.equal(value('request to final callback p50 at 300/s offered'), 12);
    assert.equal(value('request to final callback p99 at 300/s offered'), 80);
    assert.equal(value('carried: final callbacks while offered at 300/s offered'), 297);
    assert.equal(value('final callbacks of transfers accepted'), 99.9);
    assert.equal(value('events delivered of expected'), 100);
    assert.equal(value('store commits per transfer'), 3.1);
    assert.equal(value("store commits holding the transaction's state per transfer"), 1.2);
    assert.equal(value('store fsyncs per transfer'), 3.4);
  });

  it('shows "-" for the commits and fsyncs of a build that does not report them, and the rest of its figures as usual', () => {
    const unreported = { commitsPerTransfer: Number.NaN, transactionCommitsPerTransfer: Number.NaN, fsyncsPerTransfer: Number.NaN, checkpointFsyncsPerTransfer: Number.NaN };
    const compared = compare([
      { build: 'A', figures: e2eFigures(e2eRun({})) },
      { build: 'B', figures: e2eFigures(e2eRun({ ...unreported, serviceCpuUsPerTransfer: 2600 })) },
    ]);
    const rows = comparisonRows('e2e', compared);
    const row = (name: string) => rows.find((line) => line.trimStart().startsWith(`${name}  `));
    assert.match(row('store commits per transfer') ?? '', /store commits per transfer\s+3\.10\s+-\s+-\s+\(-\)\s+lower is better: — \(not reported by B\)$/);
    assert.match(row('store fsyncs per transfer') ?? '', /3\.40\s+-\s+-\s+\(-\)\s+lower is better: — \(not reported by B\)$/);
    assert.match(row('service CPU per transfer') ?? '', /1300 µs\s+2600 µs\s+2\.00\s+\(2\.00\)\s+lower is better: A better \(1 of 1 rounds\)$/);
  });
});

describe("bench: the store's commits and fsyncs a build reports", () => {
  it('counts a counter the service declares, 0 when it has no samples, and NaN for one it does not declare', () => {
    const declared = [
      '# HELP regpay_store_commits_total c',
      '# TYPE regpay_store_commits_total counter',
      'regpay_store_commits_total{holding="transactions"} 10',
      'regpay_store_commits_total{holding="deliveries"} 5',
      '# HELP regpay_store_fsyncs_total f',
      '# TYPE regpay_store_fsyncs_total counter',
    ].join('\n');
    assert.deepEqual(durableCountsOf(declared), { commits: 15, transactionCommits: 10, fsyncs: 0, checkpointFsyncs: 0 });
    const before = durableCountsOf('# HELP regpay_http_requests_total r\n# TYPE regpay_http_requests_total counter\nregpay_http_requests_total 3\n');
    assert.ok([before.commits, before.transactionCommits, before.fsyncs, before.checkpointFsyncs].every((count) => Number.isNaN(count)));
  });
});

describe('bench: the build a part measures', () => {
  it("starts BENCH_BUILD_ROOT's compiled service when it is set, and this build's otherwise", () => {
    const before = process.env.BENCH_BUILD_ROOT;
    try {
      process.env.BENCH_BUILD_ROOT = '/tmp/regpay-against-x/tree';
      assert.equal(serviceMain(), join(resolve('/tmp/regpay-against-x/tree'), 'dist', 'src', 'main.js'));
      delete process.env.BENCH_BUILD_ROOT;
      assert.equal(serviceMain(), undefined);
    } finally {
      if (before === undefined) delete process.env.BENCH_BUILD_ROOT;
      else process.env.BENCH_BUILD_ROOT = before;
    }
  });
});
