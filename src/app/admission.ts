import { ApiError } from '../domain/errors.js';
import type { Processing } from '../ports/processing.js';
import type { Store } from '../ports/store.js';

/** The bounds past which intake refuses new work (configuration `processing`, docs/configuration.md). */
export interface AdmissionLimits {
  /** Work this instance's engine has taken on and not finished (Engine.backlog). */
  readonly backlogMax: number;
  /** Writes queued for the database and not yet in a batch (Store.writesWaiting). */
  readonly writeBacklogMax: number;
  /** Sync identifier determinations held open at once in this instance. */
  readonly heldLookupsMax: number;
}

/** What a request asks of this instance: a new transaction, or a sync lookup held open until it is answered. */
export type AdmissionWork = 'intake' | 'held lookup';

/** Retry-After of a refused intake: the backlogs drain in about a commit or two. */
const RETRY_AFTER_S = 1;

/**
 * Admission control (docs/architecture.md, "Overload"): a new transaction is taken only while this
 * instance can still keep its promises for it (a held lookup answered within its budget, a 202
 * without minutes of queueing). Beyond a bound it is refused at once with 503 OVERLOADED and
 * Retry-After, before anything is stored, so the identical request can simply come again.
 */
export class Admission {
  readonly #limits: AdmissionLimits;
  readonly #store: Store;
  readonly #processing: Processing | undefined;
  #held = 0;

  constructor(limits: AdmissionLimits, store: Store, processing?: Processing) {
    this.#limits = limits;
    this.#store = store;
    this.#processing = processing;
  }

  /** Sync lookups held now. */
  get held(): number {
    return this.#held;
  }

  /** Throws 503 OVERLOADED when the engine's or the writer's backlog is at its bound (and, for a held lookup, when too many are held). */
  refuseWhenOverloaded(work: AdmissionWork): void {
    const backlog = this.#processing?.backlog?.() ?? 0;
    const writes = this.#store.writesWaiting();
    let why: string | undefined;
    if (backlog >= this.#limits.backlogMax) why = `the engine has ${backlog} pieces of work under way (processing.backlogMax ${this.#limits.backlogMax})`;
    else if (writes >= this.#limits.writeBacklogMax) why = `${writes} writes wait for the database (processing.writeBacklogMax ${this.#limits.writeBacklogMax})`;
    else if (work === 'held lookup' && this.#held >= this.#limits.heldLookupsMax) why = `${this.#held} sync lookups are held (processing.heldLookupsMax ${this.#limits.heldLookupsMax})`;
    if (why === undefined) return;
    throw new ApiError('OVERLOADED', `not taken: ${why}; nothing was stored, retry the identical request`, [], { 'Retry-After': String(RETRY_AFTER_S) });
  }

  /**
   * Admit one piece of work: refused (503 OVERLOADED) beyond a bound, else taken, a held lookup
   * counted as held (checked and counted in one step) until the returned function is called.
   */
  admit(work: AdmissionWork): () => void {
    this.refuseWhenOverloaded(work);
    return work === 'held lookup' ? this.hold() : () => undefined;
  }

  /** Count a sync lookup as held until the returned function is called. */
  hold(): () => void {
    this.#held += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#held -= 1;
    };
  }
}
