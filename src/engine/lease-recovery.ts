import type { Store } from '../ports/store.js';

/**
 * Work a crashed process had leased waits for its leases to lapse (engine 30 s, delivery 90 s
 * by default) before anyone else may take it. At start, an instance ends the leases of the
 * earlier processes of its own host that are certainly gone, so a restart after kill -9 resumes
 * their work at once: a PayShap transfer in flight has a 10 s time budget.
 *
 * A lease names its holder `hostname:pid:random` (instanceIdOf). A holder is certainly gone when
 * it ran on this host (same hostname) and is not this process, and either its pid is this
 * process's own (a container restarted: pid 1 again) or no process with its pid exists. Holders
 * on other hosts are never judged: they may be alive, and their leases simply lapse. So
 * instances that share a PostgreSQL database must not share a hostname (containers and
 * Kubernetes pods each have their own by default).
 */
export interface Self {
  readonly hostname: string;
  readonly pid: number;
  readonly instanceId: string;
}

/** The lease holder name of a process. */
export function instanceIdOf(hostname: string, pid: number, random: string): string {
  return `${hostname}:${pid}:${random}`;
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

/** The holders among `owners` that are certainly gone (see above); names of another form are left alone. */
export function goneOwners(owners: readonly string[], self: Self, exists: (pid: number) => boolean = processExists): string[] {
  return owners.filter((owner) => {
    if (owner === self.instanceId) return false;
    const match = /^(.+):(\d+):[^:]+$/.exec(owner);
    if (match === null || match[1] !== self.hostname) return false;
    const pid = Number(match[2]);
    return pid === self.pid || !exists(pid);
  });
}

/** Ends the live leases of this host's gone processes; returns whose, and how many leases. */
export async function releaseLeasesOfGoneProcesses(
  store: Pick<Store, 'leaseOwners' | 'releaseLeases'>,
  self: Self,
  now: number,
  exists: (pid: number) => boolean = processExists,
): Promise<{ readonly owners: readonly string[]; readonly released: number }> {
  const owners = goneOwners(await store.leaseOwners(now), self, exists);
  if (owners.length === 0) return { owners, released: 0 };
  return { owners, released: await store.releaseLeases(owners, now) };
}
