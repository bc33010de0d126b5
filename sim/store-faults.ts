import Database from 'better-sqlite3';
import { StoreUnavailableError } from '../src/adapters/store-ops.js';
import type { Store } from '../src/ports/store.js';
import type { Random } from './random.js';

/**
 * Probabilities of the store's faults, per call through the port. The adapters retry what they
 * can themselves (a PostgreSQL deadlock or serialization failure runs the batch again; SQLite
 * waits out a busy lock for busy_timeout), so what reaches the service's code is what is left
 * after those retries: these faults.
 */
export interface StoreFaults {
  /** A write fails and nothing is written (SQLITE_BUSY past the busy timeout, an I/O error before the commit). */
  readonly writeFails: number;
  /** A write commits and its caller hears it failed (the writer died after the commit). */
  readonly writeLostAfterCommit: number;
  /** A read fails (an I/O error). */
  readonly readFails: number;
  /** The process dies just before a write reaches the database. */
  readonly crashBeforeWrite: number;
  /** The process dies just after a write committed, before its caller learns of it: between two commits of one decision. */
  readonly crashAfterWrite: number;
}

export const NO_STORE_FAULTS: StoreFaults = { writeFails: 0, writeLostAfterCommit: 0, readFails: 0, crashBeforeWrite: 0, crashAfterWrite: 0 };

export type StoreFault = 'writeFails' | 'writeLostAfterCommit' | 'readFails' | 'crashBeforeWrite' | 'crashAfterWrite';

/** The methods of the Store port that write. */
const WRITES: ReadonlySet<string> = new Set<keyof Store>([
  'intake',
  'recordRequest',
  'setMessageResponse',
  'applyChange',
  'claimDue',
  'releaseTransaction',
  'releaseLeases',
  'wakeDeliveredCallbacks',
  'claimOutbox',
  'recordDelivery',
  'recordDeliveries',
  'replayUndelivered',
  'recordSchemeMessages',
  'pruneSchemeMessages',
  'saveRefreshToken',
  'rotateRefreshToken',
  'getOrCreateSetting',
]);

/** Draws the fault of one store call, if any, from the store's own random source. */
export class StoreFaultSource {
  faults: StoreFaults;
  /** Faults drawn so far (the run's report). */
  drawn = 0;
  readonly #random: Random;

  constructor(random: Random, faults: StoreFaults) {
    this.#random = random;
    this.faults = faults;
  }

  draw(method: string): StoreFault | undefined {
    const faults = this.faults;
    if (!WRITES.has(method)) return this.#count(this.#random.chance(faults.readFails) ? 'readFails' : undefined);
    const draw = this.#random.next();
    let bound = 0;
    for (const fault of ['writeFails', 'writeLostAfterCommit', 'crashBeforeWrite', 'crashAfterWrite'] as const) {
      bound += faults[fault];
      if (draw < bound) return this.#count(fault);
    }
    return undefined;
  }

  #count(fault: StoreFault | undefined): StoreFault | undefined {
    if (fault !== undefined) this.drawn += 1;
    return fault;
  }
}

/** The error a failed call gets, as the SQLite adapter raises it. */
export function storeFaultError(fault: 'writeFails' | 'writeLostAfterCommit' | 'readFails', method: string): Error {
  switch (fault) {
    case 'writeFails':
      return new Database.SqliteError(`simulated: database is locked (${method})`, 'SQLITE_BUSY');
    case 'readFails':
      return new Database.SqliteError(`simulated: disk I/O error (${method})`, 'SQLITE_IOERR');
    case 'writeLostAfterCommit':
      return new StoreUnavailableError(`simulated: the store's writer died after committing ${method}`);
  }
}
