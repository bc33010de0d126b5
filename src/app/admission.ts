import { ApiError } from '../domain/errors.js';
import type { Processing } from '../ports/processing.js';
import type { Store } from '../ports/store.js';

/** The bounds past which intake refuses new work (configuration `processing`, docs/configuration.md). */
export interface AdmissionLimits {
  /** Work this instance's engine has taken on and not finished (Engine.backlog). */
  readonly backlogMax: number;
  /**
   * Writes queued for the database and not yet in a batch (Store.writesWaiting), together with the
   * intakes admitted and not yet finished: each of them is about to queue its write.
   */
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
  #intakes = 0;

  constructor(limits: AdmissionLimits, store: Store, processing?: Processing) {
    this.#limits = limits;
    this.#store = store;
    this.#processing = processing;
  }

  /** Sync lookups held now. */
  get held(): number {
    return this.#held;
  }

  /** Intakes admitted and not yet finished (their body still arriving, their checks or their write under way). */
  get intakes(): number {
    return this.#intakes;
  }

  /**
   * Throws 503 OVERLOADED when the engine's backlog is at its bound, when the writes waiting for
   * the database and the intakes under way (each about to queue one) together are at theirs, or,
   * for a held lookup, when too many are held.
   */
  refuseWhenOverloaded(work: AdmissionWork): void {
    const backlog = this.#processing?.backlog?.() ?? 0;
    const writes = this.#store.writesWaiting();
    let why: string | undefined;
    if (backlog >= this.#limits.backlogMax) why = `the engine has ${backlog} pieces of work under way (processing.backlogMax ${this.#limits.backlogMax})`;
    else if (writes + this.#intakes >= this.#limits.writeBacklogMax) {
      why = `${writes} writes wait for the database and ${this.#intakes} intakes are under way (processing.writeBacklogMax ${this.#limits.writeBacklogMax})`;
    } else if (work === 'held lookup' && this.#held >= this.#limits.heldLookupsMax) why = `${this.#held} sync lookups are held (processing.heldLookupsMax ${this.#limits.heldLookupsMax})`;
    if (why === undefined) return;
    throw new ApiError('OVERLOADED', `not taken: ${why}; nothing was stored, retry the identical request`, [], { 'Retry-After': String(RETRY_AFTER_S) });
  }

  /**
   * Admit one piece of work: refused (503 OVERLOADED) beyond a bound, else taken and counted
   * (checked and counted in one step: a burst arriving together cannot all pass before any is
   * counted), an intake as under way, a sync lookup as held, until the returned function is
   * called (once counts; later calls do nothing).
   */
  admit(work: AdmissionWork): () => void {
    this.refuseWhenOverloaded(work);
    const intake = work === 'intake';
    if (intake) this.#intakes += 1;
    else this.#held += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (intake) this.#intakes -= 1;
      else this.#held -= 1;
    };
  }
}
