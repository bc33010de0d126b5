/** The lease holder name of a process. */
export function instanceIdOf(hostname, pid, random) {
    return `${hostname}:${pid}:${random}`;
}
/** The host and pid an instanceIdOf name carries; undefined for names of another form. */
function holderOf(instanceId) {
    const match = /^(.+):(\d+):[^:]+$/.exec(instanceId);
    return match === null ? undefined : { hostname: match[1] ?? '', pid: Number(match[2]) };
}
/** Whether a process with this pid exists on this host (EPERM: it does, under another user). */
export function processExists(pid) {
    try {
        process.kill(pid, 0);
        return true;
    }
    catch (error) {
        return error.code === 'EPERM';
    }
}
/** The holders among `owners` that are certainly gone, as judged by the instance `self` (see above). */
export function goneOwners(owners, self, exists = processExists) {
    const me = holderOf(self);
    if (me === undefined)
        return [];
    return owners.filter((owner) => {
        const holder = owner === self ? undefined : holderOf(owner);
        return holder !== undefined && holder.hostname === me.hostname && (holder.pid === me.pid || !exists(holder.pid));
    });
}
/** Run by an instance with processing on, before its engine and dispatcher start. */
export async function recoverAtStart(store, self, now, exists = processExists) {
    const owners = goneOwners(await store.leaseOwners(now), self, exists);
    const leasesReleased = owners.length === 0 ? 0 : await store.releaseLeases(owners, now);
    return { owners, leasesReleased, woken: await store.wakeDeliveredCallbacks(now) };
}
//# sourceMappingURL=crash-recovery.js.map