import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { copiedFrames, SqliteCounters } from '../../src/adapters/store-sqlite/sqlite-counters.js';

void describe('SQLite durable counters', () => {
  void it('counts a checkpoint as two fsyncs only when it copied frames: more than last time, or any after the WAL started again', () => {
    assert.equal(copiedFrames(undefined, { busy: 0, log: 0, checkpointed: 0 }), false, 'an empty WAL: nothing copied');
    assert.equal(copiedFrames(undefined, { busy: 0, log: 10, checkpointed: 10 }), true);
    assert.equal(copiedFrames({ busy: 0, log: 10, checkpointed: 10 }, { busy: 0, log: 12, checkpointed: 10 }), false, 'the same frames copied: no sync');
    assert.equal(copiedFrames({ busy: 0, log: 10, checkpointed: 10 }, { busy: 0, log: 12, checkpointed: 12 }), true);
    assert.equal(copiedFrames({ busy: 0, log: 10, checkpointed: 10 }, { busy: 0, log: 3, checkpointed: 3 }), true, 'the WAL restarted and 3 new frames were copied');
    assert.equal(copiedFrames({ busy: 0, log: 10, checkpointed: 10 }, { busy: 0, log: 3, checkpointed: 0 }), false);
  });

  void it('shares its counts with another view of the same buffer (the writer and checkpointer threads)', () => {
    const counters = new SqliteCounters();
    const other = new SqliteCounters(counters.buffer);
    other.committed('transactions');
    other.committed('transactions');
    other.committed('deliveries');
    other.checkpointed();
    assert.deepEqual(counters.commitsHolding, { transactions: 2, deliveries: 1, other: 0 });
    assert.equal(counters.checkpointFsyncs, 2);
  });
});
