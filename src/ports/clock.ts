/** Time comes through a port (STYLE.md rule 7) so tests can run a day of retries in a second. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

/** Identifiers come through a port too: production uses time-ordered random UUIDs (v7), tests predictable ones. */
export interface Ids {
  uuid(): string;
}

/** A pending timer of a Timers port, opaque to its user. */
export type TimerHandle = unknown;

/**
 * Waiting comes through a port as well: the engine's and the dispatcher's polls and a held
 * request's wait are timers of this port, so a simulation (sim/, docs/simulation.md) runs them on
 * simulated time. The system's timers are the default.
 */
export interface Timers {
  setTimeout(callback: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

/** Node's own timers. */
export const systemTimers: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};
