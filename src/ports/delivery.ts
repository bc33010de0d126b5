import type { Lease, OutboxRecord } from './store.js';

/**
 * This instance's delivery of the outbox (the Dispatcher), as seen by whoever writes outbox
 * messages (intake, the engine, an operator's replay): messages due the moment they are written
 * are leased to it in the same commit and handed over, the rest are left to its claims.
 */
export interface OutboxDelivery {
  /** The lease to write new outbox messages with (leaseOutbox), or undefined to leave them to claims. */
  leaseForNew(): Lease | undefined;
  /** Messages leased to this instance as they were written: send them. */
  take(records: readonly OutboxRecord[]): void;
  /** Outbox messages were committed without a lease, or became due: look for them now. */
  wake(): void;
}
