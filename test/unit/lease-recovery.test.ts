import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { goneOwners, instanceIdOf, processExists, releaseLeasesOfGoneProcesses, type Self } from '../../src/engine/lease-recovery.js';

const self: Self = { hostname: 'node-a', pid: 4242, instanceId: instanceIdOf('node-a', 4242, 'cafe0001') };
const alive = new Set([4242, 100]);
const exists = (pid: number): boolean => alive.has(pid);

void describe('releasing the leases of gone processes at start', () => {
  void it('judges only holders of this host: gone when no process has their pid, or when their pid is this process\'s own', () => {
    const owners = [
      self.instanceId, // this very process
      instanceIdOf('node-a', 100, 'beef0001'), // alive on this host
      instanceIdOf('node-a', 7, 'dead0001'), // no such process here
      instanceIdOf('node-a', 4242, 'old00001'), // this pid before a restart (a container's pid 1 again)
      instanceIdOf('node-b', 7, 'beef0002'), // another host: never judged
      instanceIdOf('node-a.example', 7, 'beef0003'), // another hostname
      'admin-test', // not a process name
    ];
    assert.deepEqual(goneOwners(owners, self, exists), [instanceIdOf('node-a', 7, 'dead0001'), instanceIdOf('node-a', 4242, 'old00001')]);
  });

  void it('asks the store to release the gone holders\' leases only, and nothing when none is gone', async () => {
    const released: (readonly string[])[] = [];
    const store = (owners: string[]) => ({
      leaseOwners: () => Promise.resolve(owners),
      releaseLeases: (gone: readonly string[]) => {
        released.push(gone);
        return Promise.resolve(gone.length * 3);
      },
    });
    const gone = instanceIdOf('node-a', 7, 'dead0001');
    assert.deepEqual(await releaseLeasesOfGoneProcesses(store([gone, self.instanceId]), self, 0, exists), { owners: [gone], released: 3 });
    assert.deepEqual(await releaseLeasesOfGoneProcesses(store([self.instanceId]), self, 0, exists), { owners: [], released: 0 });
    assert.deepEqual(released, [[gone]]);
  });

  void it('knows whether a pid is a live process on this host', () => {
    assert.equal(processExists(process.pid), true);
    assert.equal(processExists(2 ** 22 + 12_345), false, 'beyond the largest pid Linux hands out');
  });
});
