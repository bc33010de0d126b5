import type { Random } from './random.js';
import { ServiceProcess, StartFailed, type World } from './service.js';

/** One instance of the service: a host, and the process running on it now (none while it is down). */
interface Slot {
  readonly host: string;
  live: ServiceProcess | undefined;
}

/**
 * The service's instances: one on SQLite (host `sim`), two sharing a PostgreSQL database (hosts
 * `sim-a`, `sim-b`). Requests go to a live one, chosen by a seeded draw as a load balancer would;
 * a crash takes one down and a restart brings a new process up on its slot later. With one
 * instance nothing is drawn, so an SQLite run draws what it drew before there were two.
 */
export class Instances {
  readonly #world: World;
  readonly #slots: Slot[];
  readonly #balance: Random | undefined;
  readonly #trace: (line: string) => void;
  /** Every process that died, for bury() at the end. */
  readonly dead: ServiceProcess[] = [];
  readonly #slotOf = new Map<ServiceProcess, Slot>();
  #incarnation = 0;
  /** Told of each process that crashed (the PostgreSQL cluster closes its pool and notes its leases). */
  onCrash: ((process: ServiceProcess) => void) | undefined;
  /** Told of a restart that failed (the process exited at its start); its slot stays down until restart() is called again. */
  onStartFailed: ((process: ServiceProcess, sameHost: boolean) => void) | undefined;
  /** Wraps a process's start (the PostgreSQL cluster counts it as a store call in flight). */
  track: <T>(starting: Promise<T>) => Promise<T> = (starting) => starting;

  private constructor(world: World, hosts: readonly string[], balance: Random | undefined, trace: (line: string) => void) {
    this.#world = world;
    this.#slots = hosts.map((host) => ({ host, live: undefined }));
    this.#balance = balance;
    this.#trace = trace;
  }

  /** Starts one process per host (incarnations 1, 2, ...); `balance` draws the instance of each request when there are several. */
  static async start(world: World, hosts: readonly string[], balance: Random | undefined, trace: (line: string) => void): Promise<Instances> {
    const instances = new Instances(world, hosts, balance, trace);
    for (const slot of instances.#slots) {
      instances.#incarnation += 1;
      slot.live = await ServiceProcess.start(world, instances.#incarnation, true, slot.host);
      instances.#slotOf.set(slot.live, slot);
    }
    return instances;
  }

  get several(): boolean {
    return this.#slots.length > 1;
  }

  get anyLive(): boolean {
    return this.#slots.some((slot) => slot.live !== undefined);
  }

  live(): ServiceProcess[] {
    return this.#slots.flatMap((slot) => (slot.live === undefined ? [] : [slot.live]));
  }

  /** The live instance a request (or a scheme answer) reaches; undefined when all are down. */
  pick(): ServiceProcess | undefined {
    const live = this.live();
    if (live.length <= 1 || this.#balance === undefined) return live[0];
    return this.#balance.pick(live);
  }

  /** Whether a crash may strike now: the one instance is up, or (several) another stays up to take over the work of the one that dies. */
  get crashable(): boolean {
    return this.live().length > (this.several ? 1 : 0);
  }

  /** The process a crash takes down, drawn from `random` among the live ones (no draw when only one slot exists). */
  victim(random: Random): ServiceProcess | undefined {
    const live = this.live();
    return live.length <= 1 || !this.several ? live[0] : random.pick(live);
  }

  /** The process dies; its slot is down until restart(). False when it was not live (already dead, or still starting). */
  crash(process: ServiceProcess, why: string): boolean {
    const slot = this.#slotOf.get(process);
    if (slot === undefined || slot.live !== process) return false;
    this.#trace(`service crashes (incarnation ${process.incarnation}${this.several ? `, ${slot.host}` : ''}) ${why}`);
    process.crash();
    this.dead.push(process);
    slot.live = undefined;
    this.onCrash?.(process);
    return true;
  }

  /** A new process on the crashed process's slot after `delayMs`, on the same host (ends the dead one's leases) or another (they lapse). */
  restart(process: ServiceProcess, sameHost: boolean, delayMs: number): void {
    const slot = this.#slotOf.get(process);
    if (slot === undefined) return;
    this.#world.scheduler.after(delayMs, () => {
      this.#incarnation += 1;
      const number = this.#incarnation;
      this.#trace(`service restarts as incarnation ${number}${sameHost ? '' : ' on another host'}${this.several ? ` (${slot.host})` : ''}`);
      this.track(ServiceProcess.start(this.#world, number, sameHost, slot.host)).then(
        (started) => {
          slot.live = started;
          this.#slotOf.set(started, slot);
        },
        (error: unknown) => {
          if (!(error instanceof StartFailed)) throw error;
          this.#trace(error.message);
          this.dead.push(error.process);
          this.#slotOf.set(error.process, slot);
          this.onStartFailed?.(error.process, sameHost);
        },
      );
    });
  }

  /** The end of the run: the live processes end as a crash does (in-flight work waits on simulated time, which no longer passes), and every connection is closed. */
  async end(): Promise<void> {
    for (const slot of this.#slots) {
      if (slot.live === undefined) continue;
      slot.live.crash();
      this.dead.push(slot.live);
      slot.live = undefined;
    }
    for (const process of this.dead) await process.bury().catch(() => undefined);
  }
}
