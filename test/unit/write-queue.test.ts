import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { pendingWrite } from '../../src/adapters/store-ops.js';
import { settleInTurns, StoreOverloadedError, WriteQueue } from '../../src/adapters/write-queue.js';

interface Item {
  readonly name: string;
  readonly urgent: boolean;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

function item(name: string, urgent = false, rejected: unknown[] = []): Item {
  return { name, urgent, resolve: () => undefined, reject: (error: unknown) => rejected.push(error) };
}

/** A queue whose batches are recorded by name and complete when the test says so. */
function recordingQueue(batchMax: number, queueMax = 1_000, overlap: { concurrency: number; overlapMin?: number } = { concurrency: 1 }) {
  const batches: string[][] = [];
  const finish: (() => void)[] = [];
  const queue = new WriteQueue<Item>(
    (batch) =>
      new Promise<void>((resolve) => {
        batches.push(batch.map((entry) => entry.name));
        finish.push(resolve);
      }),
    { batchMax, queueMax, ...overlap },
  );
  const turn = () => new Promise((resolve) => setImmediate(resolve));
  return { queue, batches, finish, turn };
}

void describe('group-commit write queue', () => {
  void it('keeps a write on a row a batch in flight holds out of the concurrent batches, and runs it, in order, once that batch is done', async () => {
    const batches: string[][] = [];
    const finish: (() => void)[] = [];
    /** Items named `<row>:<n>` lock row `<row>`. */
    const queue = new WriteQueue<Item>(
      (batch) =>
        new Promise<void>((resolve) => {
          batches.push(batch.map((entry) => entry.name));
          finish.push(resolve);
        }),
      { batchMax: 8, queueMax: 100, concurrency: 4, keysOf: (entry) => [entry.name.split(':')[0] ?? ''] },
    );
    const turn = () => new Promise((resolve) => setImmediate(resolve));
    queue.push(item('t1:1'));
    queue.push(item('t2:1'));
    await turn();
    assert.deepEqual(batches, [['t1:1', 't2:1']]);
    // t1 is held by the batch in flight: its writes wait, those of other rows go at once.
    for (const name of ['t1:2', 't3:1', 't1:3', 't4:1']) queue.push(item(name));
    await turn();
    await turn();
    assert.deepEqual(batches, [['t1:1', 't2:1'], ['t3:1', 't4:1']]);
    finish.shift()!();
    await turn();
    await turn();
    assert.deepEqual(batches[2], ['t1:2', 't1:3'], 'once t1 is free, its writes in the order they came');
    for (const done of finish.splice(0)) done();
  });


  void it('puts urgent writes (an API caller waiting) ahead of background ones in the next batch', async () => {
    const { queue, batches, finish, turn } = recordingQueue(8);
    queue.push(item('blocker'));
    await turn();
    for (const name of ['b1', 'b2']) queue.push(item(name));
    queue.push(item('u1', true));
    queue.push(item('b3'));
    queue.push(item('u2', true));
    finish.shift()!();
    await turn();
    await turn();
    assert.deepEqual(batches[1], ['u1', 'u2', 'b1', 'b2', 'b3']);
  });

  void it('gives urgent writes at most half a batch while background writes wait, so processing is never starved', async () => {
    const { queue, batches, finish, turn } = recordingQueue(4);
    queue.push(item('blocker'));
    await turn();
    for (let i = 1; i <= 6; i += 1) queue.push(item(`u${i}`, true));
    for (let i = 1; i <= 3; i += 1) queue.push(item(`b${i}`));
    finish.shift()!();
    await turn();
    await turn();
    assert.deepEqual(batches[1], ['u1', 'u2', 'b1', 'b2']);
    finish.shift()!();
    await turn();
    await turn();
    assert.deepEqual(batches[2], ['u3', 'u4', 'b3', 'u5']);
    finish.shift()!();
    await turn();
    await turn();
    assert.deepEqual(batches[3], ['u6']);
  });

  void it('starts a second batch while one is in flight for an urgent write at once, for background writes only once overlapMin of them wait', async () => {
    const { queue, batches, finish, turn } = recordingQueue(8, 1_000, { concurrency: 2, overlapMin: 3 });
    queue.push(item('first'));
    await turn();
    queue.push(item('b1'));
    queue.push(item('b2'));
    await turn();
    assert.deepEqual(batches, [['first']], 'two background writes gather behind the batch in flight');
    queue.push(item('b3'));
    await turn();
    assert.deepEqual(batches[1], ['b1', 'b2', 'b3'], 'the third starts a batch beside it');
    queue.push(item('b4'));
    queue.push(item('u1', true));
    await turn();
    assert.equal(batches.length, 2, 'both slots are taken');
    finish.shift()!();
    await turn();
    await turn();
    assert.deepEqual(batches[2], ['u1', 'b4'], 'an urgent write starts a batch as soon as a slot frees');
    queue.push(item('b5'));
    finish.shift()!();
    await turn();
    await turn();
    assert.equal(batches.length, 3, 'one background write waits for the batch still in flight');
    finish.shift()!();
    await turn();
    await turn();
    assert.deepEqual(batches[3], ['b5'], 'and goes once nothing is in flight');
  });

  void it('bounds urgent and background writes together, refusing the one beyond queueMax', async () => {
    const rejected: unknown[] = [];
    const { queue, turn } = recordingQueue(2, 3);
    queue.push(item('blocker'));
    await turn();
    queue.push(item('b1', false, rejected));
    queue.push(item('u1', true, rejected));
    queue.push(item('u2', true, rejected));
    queue.push(item('u3', true, rejected));
    assert.equal(rejected.length, 1);
    assert.ok(rejected[0] instanceof StoreOverloadedError);
  });

  void it('marks the writes an API caller waits on as urgent, and the engine\'s and dispatcher\'s as not', () => {
    const tx = {} as never;
    assert.equal(pendingWrite({ kind: 'intake', tx }).item.urgent, true);
    assert.equal(pendingWrite({ kind: 'rotateRefreshToken', rotation: { tokenHash: 'h', now: 0, successor: { tokenHash: 's', familyId: 'f', integratorId: 'i', expiresAt: 1 }, sealedSuccessor: 'x', reuseIntervalMs: 0, forgetExpiredBefore: 0, forgetRevokedBefore: 0 } }).item.urgent, true);
    assert.equal(pendingWrite({ kind: 'applyChange', change: tx }).item.urgent, false);
    assert.equal(pendingWrite({ kind: 'claimOutbox', options: tx }).item.urgent, false);
  });

  void it('settles every item of a large batch in order, letting the event loop turn between chunks', async () => {
    const settled: number[] = [];
    // Another callback that takes every turn of the event loop (a timer could miss a settling faster than 1 ms).
    let turns = 0;
    let ticking = true;
    const tick = (): void => {
      turns += 1;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    await settleInTurns(Array.from({ length: 1_000 }, (_, index) => index), (item) => settled.push(item));
    ticking = false;
    assert.deepEqual(settled, Array.from({ length: 1_000 }, (_, index) => index));
    assert.ok(turns >= 10, `the event loop turned between the 16 chunks (${turns} turns)`);
  });
});
