import type { OriginalMessage } from '../domain/messages/credit-transfer.js';
import type { Lease, TransactionRecord } from './store.js';

/** A transfer this instance has just committed, with its message as received and as parsed. */
export interface AcceptedTransfer extends OriginalMessage {
  readonly transactionId: string;
  /** The transaction as written, when it was written leased to this instance (TransferProcessing.leaseForNew). */
  readonly leased?: TransactionRecord;
}

/**
 * This instance's processing of transfers (the Engine), as the intake sees it: a transfer it can
 * take up at once is written leased to it and handed over in memory, without a claim.
 */
export interface TransferProcessing {
  /** The lease to write a new transfer with (NewTransaction.leaseTransaction), or undefined to leave it to claims. */
  leaseForNew(): Lease | undefined;
  /** A transfer was committed: taken up at once when it was written leased to this instance, else looked for. */
  accepted(transfer: AcceptedTransfer): void;
}
