import { BoundedMap } from '../../lib/bounded-map.js';
import type { Acmt023Request } from '../iso20022/acmt023.js';
import type { Acmt024Outcome } from '../iso20022/acmt024.js';
import type { CancellationConfirmation } from '../iso20022/camt029.js';
import type { Camt056Request } from '../iso20022/camt056.js';
import type { OriginalTransfer } from '../iso20022/pacs002.js';
import type { OriginalRequestToPay } from '../iso20022/pain014.js';
import type { CheckedOrder, InboundScenario } from './inbound-values.js';
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

/** One document the operator originated for an integrator's institution. */
export interface OriginatedDocument extends OperatorDocument {
  readonly kind: 'lookup' | 'credit' | 'final_word' | 'request_to_pay' | 'withdrawal';
  /** When the operator wrote it (epoch ms). */
  readonly at: number;
}

/** One answer of the service to an originated message, as the operator read it. */
export interface InboundAnswer {
  readonly messageName: string;
  /** The answer's own MsgId (Assgnmt/Id of a camt.029): a resend carries it again and changes nothing. */
  readonly messageId: string;
  /** Which originated message it answers. */
  readonly about: 'lookup' | 'credit' | 'request_to_pay' | 'withdrawal';
  /** SUCCESSFUL/FAILED (acmt.024), the TxSts (pacs.002, pain.014), CNCL/RJCR (camt.029). */
  readonly status: string;
  readonly reasonCode?: string;
  /** When the operator took it (epoch ms). */
  readonly at: number;
}

/**
 * Where an originated transaction stands, from the operator's side:
 * - `lookup_sent`: the acmt.023 is out, the acmt.024 awaited;
 * - `lookup_failed`: the acmt.024 said FAILED; nothing follows;
 * - `credit_sent`: the pacs.008 is out, the service's pacs.002 awaited;
 * - `settled` / `cancelled`: the service approved and the operator's final word was ACSC / RJCT;
 * - `rejected`: the service rejected the credit; nothing follows;
 * - `requested`: the pain.013 is out, the service's pain.014 reports are recorded;
 * - `paid` / `refused`: the service reported ACSC / RJCT on the request-to-pay;
 * - `withdrawn`: the camt.056 is out (and answered once a camt.029 is recorded).
 */
export type InboundStage = 'lookup_sent' | 'lookup_failed' | 'credit_sent' | 'settled' | 'cancelled' | 'rejected' | 'requested' | 'paid' | 'refused' | 'withdrawn';

export interface InboundRecord {
  readonly scenario: InboundScenario;
  readonly order: CheckedOrder;
  /** Lowercase; the record's key. Lookup and credit share it (PayShap links them by UETR). */
  readonly uetr: string;
  readonly startedAt: number;
  stage: InboundStage;
  /** Every document originated, in order (a duplicate pacs.008 once per delivery). */
  readonly sent: OriginatedDocument[];
  /** Every distinct answer of the service, in the order taken. */
  readonly answers: InboundAnswer[];
  /** The credit's identity, as its final word names it. */
  credit?: OriginalTransfer & { readonly statusReport: string };
  /** The request-to-pay's identity, as its withdrawal names it; and its expiry (epoch ms). */
  request?: { readonly messageId: string; readonly messageName: string; readonly endToEndId: string; readonly instructionId: string; readonly expiresAt: number };
  /** The withdrawal's case id, once sent. */
  withdrawalCaseId?: string;
  /** The account the lookup resolved to. */
  resolvedAccount?: string;
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
  /** Originated transactions by UETR (lowercase). */
  readonly inbound: RecordTable<InboundRecord>;
  /** Every MsgId (and camt.056 case id) the operator originated -> the UETR of its transaction. */
  readonly inboundMessages: RecordTable<string>;
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
    inbound: new MemoryTable(entriesMax),
    inboundMessages: new MemoryTable(entriesMax),
    nextSequence: () => (sequence += 1),
  };
}
