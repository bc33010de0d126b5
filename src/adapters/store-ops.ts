import type {
  ChangeOutcome,
  ClaimOptions,
  DeliveryAttempt,
  IntakeOutcome,
  NewTransaction,
  OutboxRecord,
  RefreshTokenRecord,
  RefreshTokenUse,
  StateChange,
  TransactionRecord,
} from '../ports/store.js';
import type { Settleable } from './write-queue.js';

/** Every write the stores group-commit, as data, so one batch can hold any mix of them. */
export type WriteOp =
  | { readonly kind: 'intake'; readonly tx: NewTransaction }
  | { readonly kind: 'setMessageResponse'; readonly integratorId: string; readonly messageId: string; readonly response: string }
  | { readonly kind: 'applyChange'; readonly change: StateChange }
  | { readonly kind: 'claimDue'; readonly options: ClaimOptions }
  | { readonly kind: 'releaseTransaction'; readonly id: string; readonly owner: string }
  | { readonly kind: 'claimOutbox'; readonly options: ClaimOptions }
  | { readonly kind: 'recordDelivery'; readonly attempt: DeliveryAttempt }
  | { readonly kind: 'replayUndelivered'; readonly filter: ReplayFilter; readonly now: number }
  | { readonly kind: 'saveRefreshToken'; readonly record: RefreshTokenRecord }
  | { readonly kind: 'useRefreshToken'; readonly tokenHash: string; readonly now: number }
  | { readonly kind: 'createSetting'; readonly name: string; readonly value: string };

export interface ReplayFilter {
  readonly integratorId?: string;
  readonly since?: number;
  readonly outboxId?: string;
}

export interface WriteResults {
  intake: IntakeOutcome;
  setMessageResponse: undefined;
  applyChange: ChangeOutcome;
  claimDue: TransactionRecord[];
  releaseTransaction: undefined;
  claimOutbox: OutboxRecord[];
  recordDelivery: undefined;
  replayUndelivered: number;
  saveRefreshToken: undefined;
  useRefreshToken: RefreshTokenUse;
  createSetting: string;
}

export type OpOf<K extends WriteOp['kind']> = Extract<WriteOp, { kind: K }>;

export interface PendingWrite extends Settleable {
  readonly op: WriteOp;
  /** How many times the adapter has put this write back for another batch. */
  retries: number;
}

/** A caller's error for a write the database refused as a bug (unknown id, duplicate key): only that caller sees it. */
export class StoreWriteError extends Error {
  override readonly name = 'StoreWriteError';
}

/** Wrap a write as a queue item whose promise resolves with the op's typed result. */
export function pendingWrite<K extends WriteOp['kind']>(op: OpOf<K>): { item: PendingWrite; promise: Promise<WriteResults[K]> } {
  let resolve!: (value: WriteResults[K]) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<WriteResults[K]>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  const item: PendingWrite = {
    op,
    retries: 0,
    resolve: (value: unknown) => resolve(value as WriteResults[K]),
    reject,
  };
  return { item, promise };
}

/** `last_error` text for a failed attempt: the transport error, else the HTTP status. */
export function attemptErrorText(attempt: DeliveryAttempt): string | null {
  if (attempt.error !== null) return attempt.error;
  if (attempt.httpStatus !== null) return `HTTP ${attempt.httpStatus}`;
  return null;
}
