import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PartnerSender } from '../../src/ports/partner.js';
import type { DeliveryAttempt, Store, StateChange } from '../../src/ports/store.js';
import { simulate } from '../../sim/run.js';

/** A store whose applyChange is replaced (a known bug, injected through the port). */
function changing(rewrite: (change: StateChange) => StateChange): (store: Store) => Store {
  return (store) =>
    new Proxy(store, {
      get: (target, property, receiver) => {
        if (property === 'applyChange') return (change: StateChange) => target.applyChange(rewrite(change));
        const value: unknown = Reflect.get(target, property, receiver);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
}

/** A store whose recordDelivery records every attempt as delivered (a known bug, injected through the port). */
function failedAsDelivered(store: Store): Store {
  return new Proxy(store, {
    get: (target, property, receiver) => {
      if (property === 'recordDelivery') return (attempt: DeliveryAttempt) => target.recordDelivery({ ...attempt, delivered: true });
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** The first of `seeds` seeds whose run finds a violation, with its message. */
async function firstViolation(wrapStore: (store: Store) => Store, seeds: number, transactions: number): Promise<{ seed: number; message: string } | undefined> {
  for (let seed = 1; seed <= seeds; seed += 1) {
    const result = await simulate({ seed, transactions, wrapStore });
    if (result.violation !== undefined) return { seed, message: result.violation.message };
  }
  return undefined;
}

/**
 * Seeds that found a bug, each run again expecting no violation. A seed replays the same run only
 * as long as the simulation's model is unchanged; the unit or e2e test named beside each is the
 * regression that lasts.
 */
const REGRESSION_SEEDS: readonly { seed: number; transactions: number; found: string }[] = [
  {
    seed: 1,
    transactions: 300,
    found: 'a request whose write the store failed after committing it answered 500 INTERNAL, not 503 NOT_READY (unit/store-failure-answers)',
  },
];

describe('deterministic simulation', () => {
  for (const regression of REGRESSION_SEEDS) {
    it(`runs seed ${regression.seed} (${regression.transactions} transactions) clean; it found: ${regression.found}`, async () => {
      const result = await simulate({ seed: regression.seed, transactions: regression.transactions });
      assert.equal(result.violation, undefined, result.violation?.message);
    });
  }

  it('runs a seed the same way twice: the same trace hash, and no invariant broken', async () => {
    const first = await simulate({ seed: 7, transactions: 80 });
    const second = await simulate({ seed: 7, transactions: 80 });
    assert.equal(first.violation, undefined, first.violation?.message);
    assert.match(first.traceHash, /^[0-9a-f]{64}$/);
    assert.equal(second.traceHash, first.traceHash);
    assert.equal(second.steps, first.steps);
    const other = await simulate({ seed: 8, transactions: 80 });
    assert.notEqual(other.traceHash, first.traceHash);
  });

  it('finds a store that drops the outbox row of a final callback', async () => {
    const dropFinalCallback = changing((change) =>
      /RESPONSE_PENDING|STATUS_(PAID|REJECTED|EXPIRED|CANCELLED)/.test(change.toState) ? { ...change, outbox: change.outbox.filter((row) => row.channel !== 'callback') } : change,
    );
    const found = await firstViolation(dropFinalCallback, 3, 80);
    assert.ok(found !== undefined, 'no seed of 3 found the dropped callbacks');
  });

  it('finds a service that answers the scheme approved where the receiving integrator rejected the credit', async () => {
    // The bug: the integrator's sync answer is read as an approval whatever it says.
    const approveAll = (partner: PartnerSender): PartnerSender => ({
      ...partner,
      call: async (call, integrator) => {
        const result = await partner.call(call, integrator);
        return result.body === null ? result : { ...result, body: result.body.replace(/"status":\{"outcome":"REJECTED".*\}\}$/, '"status":{"outcome":"APPROVED","reasonInfo":[]}}') };
      },
    });
    let found: { seed: number; message: string } | undefined;
    for (let seed = 1; seed <= 3 && found === undefined; seed += 1) {
      const result = await simulate({ seed, transactions: 150, wrapPartner: approveAll });
      if (result.violation !== undefined) found = { seed, message: result.violation.message };
    }
    assert.ok(found !== undefined, 'no seed of 3 found the approvals the integrator never gave');
    assert.match(found.message, /answered approved, the integrator decided rejected/);
  });

  it('finds a store that commits a state without its event', async () => {
    let changes = 0;
    const dropAnEvent = changing((change) => {
      changes += 1;
      return changes % 7 === 0 ? { ...change, outbox: change.outbox.filter((row) => row.channel !== 'event') } : change;
    });
    const found = await firstViolation(dropAnEvent, 3, 80);
    assert.ok(found !== undefined, 'no seed of 3 found the missing events');
    assert.match(found.message, /events queued/);
  });

  it('finds a store that records a failed delivery as delivered', async () => {
    const found = await firstViolation(failedAsDelivered, 3, 80);
    assert.ok(found !== undefined, 'no seed of 3 found the failed deliveries recorded as delivered');
    assert.match(found.message, /DELIVERED but the integrator never had it/);
  });
});
