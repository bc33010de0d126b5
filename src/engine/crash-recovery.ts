import type { Store } from '../ports/store.js';

/**
 * What a starting instance does so that the work of a process that crashed resumes at once.
 *
 * Leases: work a crashed process had leased waits for its leases to lapse (engine 30 s, delivery
 * 90 s by default) before anyone else may take it; a PayShap transfer in flight has a 10 s time
 * budget. So an instance ends the leases of the earlier processes of its own host that are
 * certainly gone. A lease names its holder `hostname:pid:random` (instanceIdOf). A holder is
 * certainly gone when it ran on this host (same hostname) and is not this process, and either its
 * pid is this process's own (a container restarted: pid 1 again) or no process with its pid
 * exists. Holders on other hosts are never judged: they may be alive, and their leases simply
 * lapse. So instances that share a PostgreSQL database must not share a hostname (containers and
 * Kubernetes pods each have their own by default).
 *
 * Callback notices: the dispatcher tells the engine a callback was delivered after recording it;
 * a process that died between the two leaves the transaction waiting for the engine's callback
 * check (a minute). Every transaction in that position is made due at once.
 */
export interface Recovered {
  /** Holders found gone, whose leases were ended. */
  readonly owners: readonly string[];
  readonly leasesReleased: number;
  /** Transactions made due because their delivered callback was never noticed. */
  readonly woken: number;
}

/** The lease holder name of a process. */
export function instanceIdOf(hostname: string, pid: number, random: string): string {
  return `${hostname}:${pid}:${random}`;
}

/** The host and pid an instanceIdOf name carries; undefined for names of another form. */
function holderOf(instanceId: string): { readonly hostname: string; readonly pid: number } | undefined {
  const match = /^(.+):(\d+):[^:]+$/.exec(instanceId);
  return match === null ? undefined : { hostname: match[1] ?? '', pid: Number(match[2]) };
}

/** Whether a process with this pid exists on this host (EPERM: it does, under another user). */
export function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The holders among `owners` that are certainly gone, as judged by the instance `self` (see above). */
export function goneOwners(owners: readonly string[], self: string, exists: (pid: number) => boolean = processExists): string[] {
  const me = holderOf(self);
  if (me === undefined) return [];
  return owners.filter((owner) => {
    const holder = owner === self ? undefined : holderOf(owner);
    return holder !== undefined && holder.hostname === me.hostname && (holder.pid === me.pid || !exists(holder.pid));
  });
}

/** Run by an instance with processing on, before its engine and dispatcher start. */
export async function recoverAtStart(
  store: Pick<Store, 'leaseOwners' | 'releaseLeases' | 'wakeDeliveredCallbacks'>,
  self: string,
  now: number,
  exists: (pid: number) => boolean = processExists,
): Promise<Recovered> {
  const owners = goneOwners(await store.leaseOwners(now), self, exists);
  const leasesReleased = owners.length === 0 ? 0 : await store.releaseLeases(owners, now);
  return { owners, leasesReleased, woken: await store.wakeDeliveredCallbacks(now) };
}
