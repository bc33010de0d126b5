import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { goneOwners, instanceIdOf, processExists, recoverAtStart } from '../../src/engine/crash-recovery.js';
const self = instanceIdOf('node-a', 4242, 'cafe0001');
const alive = new Set([4242, 100]);
const exists = (pid) => alive.has(pid);
void describe('recovering the work of crashed processes at start', () => {
    void it('judges only holders of this host: gone when no process has their pid, or when their pid is this process\'s own', () => {
        const owners = [
            self, // this very process
            instanceIdOf('node-a', 100, 'beef0001'), // alive on this host
            instanceIdOf('node-a', 7, 'dead0001'), // no such process here
            instanceIdOf('node-a', 4242, 'old00001'), // this pid before a restart (a container's pid 1 again)
            instanceIdOf('node-b', 7, 'beef0002'), // another host: never judged
            instanceIdOf('node-a.example', 7, 'beef0003'), // another hostname
            'admin-test', // not a process name
        ];
        assert.deepEqual(goneOwners(owners, self, exists), [instanceIdOf('node-a', 7, 'dead0001'), instanceIdOf('node-a', 4242, 'old00001')]);
        assert.deepEqual(goneOwners(owners, 'not-a-process-name', exists), [], 'an instance not named by instanceIdOf judges nobody');
    });
    void it('asks the store to release the gone holders\' leases only, and always to wake transactions whose delivered callback went unnoticed', async () => {
        const released = [];
        const store = (owners) => ({
            leaseOwners: () => Promise.resolve(owners),
            releaseLeases: (gone) => {
                released.push(gone);
                return Promise.resolve(gone.length * 3);
            },
            wakeDeliveredCallbacks: () => Promise.resolve(2),
        });
        const gone = instanceIdOf('node-a', 7, 'dead0001');
        assert.deepEqual(await recoverAtStart(store([gone, self]), self, 0, exists), { owners: [gone], leasesReleased: 3, woken: 2 });
        assert.deepEqual(await recoverAtStart(store([self]), self, 0, exists), { owners: [], leasesReleased: 0, woken: 2 });
        assert.deepEqual(released, [[gone]]);
    });
    void it('knows whether a pid is a live process on this host', () => {
        assert.equal(processExists(process.pid), true);
        assert.equal(processExists(2 ** 22 + 12_345), false, 'beyond the largest pid Linux hands out');
    });
});
//# sourceMappingURL=crash-recovery.test.js.map