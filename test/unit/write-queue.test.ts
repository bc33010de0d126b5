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
function recordingQueue(batchMax: number, queueMax = 1_000) {
  const batches: string[][] = [];
  const finish: (() => void)[] = [];
  const queue = new WriteQueue<Item>(
    (batch) =>
      new Promise<void>((resolve) => {
        batches.push(batch.map((entry) => entry.name));
        finish.push(resolve);
      }),
    { batchMax, queueMax, concurrency: 1 },
  );
  const turn = () => new Promise((resolve) => setImmediate(resolve));
  return { queue, batches, finish, turn };
}

void describe('group-commit write queue', () => {
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
    assert.equal(pendingWrite({ kind: 'useRefreshToken', tokenHash: 'h', now: 0 }).item.urgent, true);
    assert.equal(pendingWrite({ kind: 'applyChange', change: tx }).item.urgent, false);
    assert.equal(pendingWrite({ kind: 'claimOutbox', options: tx }).item.urgent, false);
  });

  void it('settles every item of a large batch in order, letting the event loop turn between chunks', async () => {
    const settled: number[] = [];
    let turns = 0;
    const ticking = setInterval(() => (turns += 1), 0);
    await settleInTurns(Array.from({ length: 1_000 }, (_, index) => index), (item) => settled.push(item));
    clearInterval(ticking);
    assert.deepEqual(settled, Array.from({ length: 1_000 }, (_, index) => index));
    assert.ok(turns > 0, 'the event loop ran timers while the batch was being settled');
  });
});
