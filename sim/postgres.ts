import pg from 'pg';
import type { SchemeInbound } from '../src/ports/scheme.js';
import { dropPostgresDatabase, freshPostgresUrl } from '../test/support/postgres.js';
import type { Inspector } from './inspect.js';
import type { Instances } from './instances.js';
import type { SimOperator } from './operator.js';
import type { Scheduler } from './scheduler.js';
import type { PostgresWorld, ServiceProcess } from './service.js';

/**
 * Calls whose answer comes by real I/O (a PostgreSQL query), counted while in flight, so the run
 * can wait until none is (settle()): with a database over the network the service is idle only
 * when no store call is in flight and no callback is queued on the event loop.
 */
export class InFlight {
  #count = 0;
  #waiters: (() => void)[] = [];

  get count(): number {
    return this.#count;
  }

  track<T>(call: Promise<T>): Promise<T> {
    this.#count += 1;
    const done = (): void => {
      this.#count -= 1;
      if (this.#count > 0) return;
      const waiters = this.#waiters;
      this.#waiters = [];
      for (const wake of waiters) wake();
    };
    call.then(done, done);
    return call;
  }

  /** Resolves once no call is in flight (at once when none is). */
  idle(): Promise<void> {
    return this.#count === 0 ? Promise.resolve() : new Promise((resolve) => this.#waiters.push(resolve));
  }
}

/**
 * A database of its own for one seed, on the server DATABASE_URL names (so seeds run in parallel
 * never share rows). Its commits do not wait for the WAL to reach the disk (synchronous_commit
 * off): the simulation never crashes the server, only the service's processes, and a flush per
 * commit would be most of a step's wall time.
 */
export async function seedDatabase(): Promise<{ readonly url: string; drop(): Promise<void> }> {
  const url = await freshPostgresUrl();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`ALTER DATABASE ${client.escapeIdentifier(decodeURIComponent(new URL(url).pathname.slice(1)))} SET synchronous_commit = off`);
  } finally {
    await client.end();
  }
  return { url, drop: () => dropPostgresDatabase(url) };
}

/** The host of an instance id `host:pid:random`. */
function hostOf(instanceId: string): string {
  return instanceId.split(':')[0] ?? '';
}

/**
 * The PostgreSQL side of a run with several instances: counts every store call in flight (and
 * each process's start and burial), puts a load balancer between the scheme operator and the live
 * instances, closes a crashed process's pool once its queued writes have gone their way, and
 * counts the leases of a crashed process that another host's instance took over.
 */
export class PostgresCluster implements PostgresWorld {
  readonly url: string;
  readonly inFlight = new InFlight();
  /** Leases a crashed process held when it died (`t:` transaction, `o:` outbox row), by its host. */
  readonly #orphans = new Map<string, string>();
  readonly #inbounds = new Map<ServiceProcess, SchemeInbound>();
  readonly #operator: SimOperator;
  readonly #scheduler: Scheduler;
  #inspector: Inspector | undefined;
  #instances: Instances | undefined;
  #attached = false;
  /** Leases held by crashed processes and not lapsed when they died. */
  leasesOrphaned = 0;
  /** Of those, the ones an instance on another host claimed. */
  leasesTakenOver = 0;

  readonly #serialize: boolean;

  /** `serialize`: one store call at a time across all processes, so answers come back in the order asked (a run nearly replays; no two database transactions overlap). */
  constructor(url: string, operator: SimOperator, scheduler: Scheduler, serialize: boolean) {
    this.url = url;
    this.#serialize = serialize;
    this.#operator = operator;
    this.#scheduler = scheduler;
  }

  /** Once the instances are started and the inspector open: the cluster follows their starts and crashes. */
  bind(instances: Instances, inspector: Inspector): void {
    this.#instances = instances;
    this.#inspector = inspector;
    instances.track = (starting) => this.inFlight.track(starting);
    instances.onCrash = (process) => this.#crashed(process);
  }

  storeCall(process: ServiceProcess, method: string, _args: readonly unknown[], call: () => Promise<unknown>): Promise<unknown> {
    const result = this.inFlight.track(this.#serialize ? this.#serial(call) : call());
    if (method === 'claimDue' || method === 'claimOutbox') {
      const prefix = method === 'claimDue' ? 't:' : 'o:';
      const host = hostOf(process.instanceId);
      void result.then(
        (rows) => {
          for (const row of rows as { id: string }[]) {
            const from = this.#orphans.get(`${prefix}${row.id}`);
            if (from === undefined || from === host) continue;
            this.#orphans.delete(`${prefix}${row.id}`);
            this.leasesTakenOver += 1;
          }
        },
        () => undefined,
      );
    }
    return result;
  }

  attach(process: ServiceProcess, inbound: SchemeInbound): Promise<void> {
    this.#inbounds.set(process, inbound);
    if (this.#attached) return Promise.resolve();
    this.#attached = true;
    return this.#operator.start(this.#balancer);
  }

  /** What the operator sends reaches a live instance, drawn as a load balancer would; none live: refused (the operator sends it again). */
  readonly #balancer = new Proxy({} as SchemeInbound, {
    get: (_target, property) => {
      if (typeof property !== 'string' || property === 'then') return undefined;
      return (...args: unknown[]): Promise<unknown> => {
        const process = this.#instances?.pick();
        const inbound = process === undefined ? undefined : this.#inbounds.get(process);
        if (inbound === undefined) return Promise.reject(new Error('service down'));
        return (inbound[property as keyof SchemeInbound] as (...a: unknown[]) => Promise<unknown>)(...args);
      };
    },
  });

  /** The last store call queued (serialize mode): the next starts once it has answered. */
  #chain: Promise<unknown> = Promise.resolve();
  #serial(call: () => Promise<unknown>): Promise<unknown> {
    const next = this.#chain.then(call, call);
    this.#chain = next.catch(() => undefined);
    return next;
  }

  #crashed(process: ServiceProcess): void {
    this.#inbounds.delete(process);
    const at = this.#scheduler.now();
    const host = hostOf(process.instanceId);
    // Its queued writes commit or fail as the store has them; then its connections close, and the leases it still held are noted.
    const buried = process.bury().catch(() => undefined);
    const noted = buried.then(async () => {
      const leased = await this.#inspector?.leasedBy(process.instanceId, at);
      for (const id of leased?.transactions ?? []) this.#orphans.set(`t:${id}`, host);
      for (const id of leased?.outbox ?? []) this.#orphans.set(`o:${id}`, host);
      this.leasesOrphaned += (leased?.transactions.length ?? 0) + (leased?.outbox.length ?? 0);
    });
    this.inFlight.track(noted).catch(() => undefined);
  }
}
