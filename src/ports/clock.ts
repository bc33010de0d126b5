/** Time comes through a port (STYLE.md rule 7) so tests can run a day of retries in a second. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

/** Identifiers come through a port too: production uses time-ordered random UUIDs (v7), tests predictable ones. */
export interface Ids {
  uuid(): string;
}
