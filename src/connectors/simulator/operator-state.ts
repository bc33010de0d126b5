import { BoundedMap } from '../../lib/bounded-map.js';
import type { Acmt023Request } from '../iso20022/acmt023.js';
import type { Acmt024Outcome } from '../iso20022/acmt024.js';
import type { CancellationConfirmation } from '../iso20022/camt029.js';
import type { Camt056Request } from '../iso20022/camt056.js';
import type { OriginalTransfer } from '../iso20022/pacs002.js';
import type { OriginalRequestToPay } from '../iso20022/pain014.js';
import type { RequestToPayScenario } from './request-to-pay-values.js';
import type { SimulatedBehaviour } from './test-values.js';

/**
 * What a simulated scheme operator keeps about the messages it took (simulated-operator.ts). The
 * built-in simulator keeps it in memory, bounded (memoryOperatorState below); the standalone
 * operator simulator keeps it in SQLite (src/operator/store.ts), so a restart forgets nothing.
 * Every record is plain JSON data, and every method is synchronous, so a store can make one
 * message's changes and the answers it schedules a single transaction.
 */

/** A document the operator sends, with the message name and id a link's headers carry. */
export interface OperatorDocument {
  readonly messageName: string;
  /** GrpHdr/MsgId (Assgnmt/Id for a camt.029): the same on every resend of it. */
  readonly messageId: string;
  readonly document: string;
}

/** A transaction status answered (pacs.002 TxSts) and its reason. */
export interface Answer {
  readonly status: string;
  readonly reasonCode?: string;
}

export interface TransferRecord {
  readonly original: OriginalTransfer;
  readonly behaviour: SimulatedBehaviour;
  /** The pacs.002 version answering it. */
  readonly statusReport: string;
  submissions: number;
  /** The latest status answered; absent while the transfer is still being processed. */
  answered?: Answer;
  /** The last status report sent, sent again on resubmission. */
  lastReport?: OperatorDocument;
}

export interface LookupRecord {
  readonly request: Acmt023Request;
  readonly reportName: string;
  /** What the directory answers; absent when no answer ever comes (AB06 rehearsal). */
  readonly outcome?: Acmt024Outcome;
  /** The acmt.024 sent, sent again on a resend; absent while the answer is on its way, or when none comes. */
  report?: OperatorDocument;
}

export interface RequestToPayRecord {
  readonly original: OriginalRequestToPay;
  readonly scenario: RequestToPayScenario;
  readonly reportName: string;
  /** XpryDt in epoch ms: nothing is reported after it (the scheme has expired the request). */
  readonly expiresAt?: number;
  submissions: number;
  /** PAID or REJECTED once ACSC or RJCT was reported; CANCELLED once a cancellation was accepted (no report follows). */
  final?: 'PAID' | 'REJECTED' | 'CANCELLED';
  /** The last pain.014 sent, sent again on a resend. */
  lastReport?: OperatorDocument;
}

/** What the operator answers a cancellation. */
export interface CancellationDecision {
  readonly confirmation: CancellationConfirmation;
  readonly reasonCode?: string;
}

export interface CancellationRecord {
  readonly request: Camt056Request;
  /** The camt.029 version answering it. */
  readonly answerName: string;
  readonly decision: CancellationDecision;
  /** The camt.029 sent, sent again on a resend; absent while the answer is on its way. */
  answer?: OperatorDocument;
}

/** Records of one kind by message id (or case id); a record naming a UETR is found by it too. */
export interface RecordTable<T> {
  get(id: string): T | undefined;
  /** Keeps the record, again after a change (records are kept by value, not by reference). */
  put(id: string, record: T, uetr?: string): void;
  /** The id of the record kept with this UETR (any letter case). */
  idOf(uetr: string): string | undefined;
  readonly size: number;
}

export interface OperatorState {
  /** pacs.008 MsgId -> the transfer. */
  readonly transfers: RecordTable<TransferRecord>;
  /** pacs.008 MsgIds whose first submission already failed (TRANSIENT-FAILURE fails once, whichever instance sends). */
  readonly failedOnce: RecordTable<true>;
  /** acmt.023 MsgId -> the lookup. */
  readonly lookups: RecordTable<LookupRecord>;
  /** pain.013 MsgId -> the request-to-pay. */
  readonly requests: RecordTable<RequestToPayRecord>;
  /** camt.056 Case/Id -> the cancellation. */
  readonly cancellations: RecordTable<CancellationRecord>;
  /** A number never handed out before by this state: the operator's own message ids carry it. */
  nextSequence(): number;
}

class MemoryTable<T> implements RecordTable<T> {
  readonly #records: BoundedMap<string, T>;
  readonly #byUetr: BoundedMap<string, string>;

  constructor(entriesMax: number) {
    this.#records = new BoundedMap(entriesMax);
    this.#byUetr = new BoundedMap(entriesMax);
  }

  get size(): number {
    return this.#records.size;
  }

  get(id: string): T | undefined {
    return this.#records.get(id);
  }

  put(id: string, record: T, uetr?: string): void {
    this.#records.set(id, record);
    if (uetr !== undefined) this.#byUetr.set(uetr.toLowerCase(), id);
  }

  idOf(uetr: string): string | undefined {
    return this.#byUetr.get(uetr.toLowerCase());
  }
}

/** State in memory: the `entriesMax` most recent records of each kind; forgotten with the process. */
export function memoryOperatorState(entriesMax: number): OperatorState {
  let sequence = 0;
  return {
    transfers: new MemoryTable(entriesMax),
    failedOnce: new MemoryTable(entriesMax),
    lookups: new MemoryTable(entriesMax),
    requests: new MemoryTable(entriesMax),
    cancellations: new MemoryTable(entriesMax),
    nextSequence: () => (sequence += 1),
  };
}
