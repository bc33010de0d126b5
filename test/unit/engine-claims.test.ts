import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Engine } from '../../src/engine/engine.js';
import { jittered } from '../../src/engine/jitter.js';
import type { Store } from '../../src/ports/store.js';
import { acceptedTransfer, zaRppEngine } from '../support/engine.js';
import { eventually, memoryStore, withStoreMethods } from '../support/delivery.js';
import { HangingScheme } from '../support/scheme.js';

const IN_FLIGHT_MAX = 3;


/** An engine on `store` that runs at most IN_FLIGHT_MAX transactions at once and may claim 256 per poll. */
async function engineOn(store: Store, instanceId: string, scheme: HangingScheme): Promise<Engine> {
  return (await zaRppEngine(store, scheme, instanceId, { inFlightMax: IN_FLIGHT_MAX, claimBatchMax: 256 })).engine;
}

/** Transfers accepted as by another instance (not handed over): due at once, left to claims. */
async function acceptedForClaims(store: Store, count: number): Promise<void> {
  for (let i = 0; i < count; i += 1) await acceptedTransfer(store);
}

void describe('engine: claims sized to what it can run', () => {
  void it('never asks for more due transactions than its in-flight room, so two engines hold at most their capacity between them, each row once', async () => {
    const store = await memoryStore();
    const asked: { owner: string; limit: number }[] = [];
    const claimedBy = new Map<string, string>();
    const counting = withStoreMethods(store, {
      claimDue: (target) => async (options) => {
        asked.push({ owner: options.owner, limit: options.limit });
        const claimed = await target.claimDue(options);
        for (const record of claimed) {
          assert.equal(claimedBy.get(record.id), undefined, `${record.id} claimed twice`);
          claimedBy.set(record.id, options.owner);
        }
        return claimed;
      },
    });
    const schemes = [new HangingScheme(), new HangingScheme()];
    const engines = [await engineOn(counting, 'instance-a', schemes[0]!), await engineOn(counting, 'instance-b', schemes[1]!)];
    try {
      await acceptedForClaims(store, 10);
      for (const engine of engines) engine.start();
      await eventually(() => schemes.every((scheme) => scheme.hanging === IN_FLIGHT_MAX), 'each engine runs as many transfers as it can');
      // Full engines do not claim; had they claimed more, those leases would show below.
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.ok(asked.length >= 2, 'both engines claimed');
      assert.ok(
        asked.every(({ limit }) => limit >= 1 && limit <= IN_FLIGHT_MAX),
        `every claim asked for at most the room left: ${JSON.stringify(asked)}`,
      );
      const held = (owner: string) => [...claimedBy.values()].filter((by) => by === owner).length;
      assert.deepEqual([held('instance-a'), held('instance-b')], [IN_FLIGHT_MAX, IN_FLIGHT_MAX], 'each holds leases only on what it runs');
    } finally {
      for (const scheme of schemes) scheme.release();
      for (const engine of engines) await engine.stop();
      await store.close();
    }
  });

  void it('spreads its poll pauses between half and one and a half of the interval, averaging the interval', () => {
    assert.equal(jittered(200, () => 0), 100);
    assert.equal(jittered(200, () => 0.5), 200);
    assert.equal(jittered(200, () => 0.999_999), 300);
  });
});
