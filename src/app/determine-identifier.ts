import type { IntegratorConfig } from '../config/types.js';
import { ApiError } from '../domain/errors.js';
import { ID, type AnswerMode, type IdData } from '../domain/machines/identifier-determination.js';
import type { ValidIdentifierDetermination } from '../domain/messages/identifier-determination.js';
import { supports, type SchemeName } from '../domain/schemes.js';
import type { TraceContext } from '../lib/trace.js';
import { systemTimers, type Timers } from '../ports/clock.js';
import type { TransactionRecord } from '../ports/store.js';
import { admit, type AdmitDeps } from './admit.js';
import { checkLookupAtIntake, type SchemeRulesDeps } from './scheme-rules.js';
import { checkOwnInstitution } from './institution.js';
import { retryOfStoredMessage } from './stored-message.js';

export interface DetermineIdentifierDeps extends AdmitDeps, SchemeRulesDeps {
  /** The scheme's time budget: how long a held request waits for the scheme's report. */
  readonly timeBudgetMs: (scheme: SchemeName) => number;
  /**
   * How long before the end of its budget a sync lookup's timeout is decided (configuration
   * `processing.heldLookupMarginMs`; at most a tenth of the budget): the decision, its commit and
   * the answer then leave within the budget, however many fall due at once. None: at the end.
   */
  readonly heldLookupMarginMs?: number;
  /** How often a held request reads its transaction when no notice of a change came (notices can be lost). */
  readonly pollIntervalMs: number;
  /** The held request's waits (the system's timers by default). */
  readonly timers?: Timers;
}

export interface DetermineIdentifierInput {
  readonly integrator: IntegratorConfig;
  readonly request: ValidIdentifierDetermination;
  /** The body exactly as received; stored as the raw message. */
  readonly rawBody: string;
  readonly trace: TraceContext;
  /** The request said `Prefer: respond-async` (RFC 7240). */
  readonly respondAsync: boolean;
  /** When the request arrived (ms since epoch, fractions dropped; now by default): the time budget counts from it. */
  readonly receivedAt?: number;
  /**
   * Aborted when the integrator's client has gone away: a held (sync) lookup then stops waiting
   * for its answer at once (DETERMINATION_PENDING, heard by nobody; a retry of the identical
   * request waits for the same answer). Its intake, once begun, still commits, and the engine
   * still decides the transaction and stores its answer: nothing accepted is lost.
   */
  readonly signal?: AbortSignal;
}

export type DetermineIdentifierResult =
  /** Sync mode: the IdentifierDeterminationResponse as decided and stored (JSON text), for the 200. */
  | { readonly kind: 'answered'; readonly response: string }
  /** Async mode: 202; the response follows as a callback. */
  | { readonly kind: 'accepted' };

/**
 * Outbound identifier determination (CONTRACT §2): stored like any transaction, then, in sync
 * mode, the HTTP request is held until the answer is decided and stored (whichever instance's
 * engine decides it: every instance hears of the change) and answered with exactly that stored
 * text. A retry of the same message waits for, or repeats, the same answer; no second scheme
 * lookup is made. In async mode (the integrator's configuration, or `Prefer: respond-async`) the
 * answer is a callback and the request gets 202.
 */
export async function determineIdentifier(deps: DetermineIdentifierDeps, input: DetermineIdentifierInput): Promise<DetermineIdentifierResult> {
  const { integrator, request } = input;
  const { message } = request;
  if (!supports(request.scheme, 'identifierDetermination')) {
    throw new ApiError('OPERATION_NOT_SUPPORTED', `${request.scheme} does not carry identifier determination (ZA_RPP does)`, [
      { field: '/request/schema', message: `${request.scheme} does not support identifier determination` },
    ]);
  }
  if (!integrator.schemes.includes(request.scheme)) throw new ApiError('SCHEME_NOT_ENABLED', `${request.scheme} is not enabled for this integrator`);
  checkOwnInstitution(integrator, [
    { agent: message.request.requestor, pointer: '/request/requestor' },
    ...(message.request.instructingAgent === undefined ? [] : [{ agent: message.request.instructingAgent, pointer: '/request/instructingAgent' }]),
  ]);
  await checkLookupAtIntake(deps, integrator, request);

  const mode = answerMode(integrator, input.respondAsync);
  // Whole milliseconds: the deadline becomes the transaction's timer, an integer column.
  const receivedAt = Math.floor(input.receivedAt ?? deps.clock.now());
  // Refused before anything is stored when its answer could not be kept in time; a sync lookup
  // counts as held from here until it is answered. (The integrator API admits earlier, before the
  // body is read: http/plugins/admission.ts; its use cases come without `admission`.)
  const release = deps.admission?.admit(mode === 'sync' ? 'held lookup' : 'intake');
  try {
    return await intakeAndAnswer(deps, input, mode, receivedAt);
  } finally {
    release?.();
  }
}

/** Sync unless the integrator's configuration or the request (`Prefer: respond-async`) asks for async. */
export function answerMode(integrator: IntegratorConfig, respondAsync: boolean): AnswerMode {
  return respondAsync || integrator.identifierDetermination === 'async' ? 'async' : 'sync';
}

/**
 * When a determination's timeout is decided (its `deadlineAt`): the end of the budget, counted
 * from the request's arrival; for a held (sync) lookup a margin before it, so that the answer is
 * out within the budget and not a commit queue later. The margin is at most a tenth of the budget.
 */
export function timeoutDecidedAt(receivedAt: number, budgetMs: number, mode: AnswerMode, marginMs = 0): number {
  return receivedAt + budgetMs - (mode === 'sync' ? Math.min(marginMs, Math.floor(budgetMs / 10)) : 0);
}

async function intakeAndAnswer(deps: DetermineIdentifierDeps, input: DetermineIdentifierInput, mode: AnswerMode, receivedAt: number): Promise<DetermineIdentifierResult> {
  const { integrator, request } = input;
  const { message } = request;
  const outcome = await admit(deps, {
    integrator,
    kind: 'IDENTIFIER_DETERMINATION',
    state: ID.RECEIVED,
    scheme: request.scheme,
    uetr: request.uetr,
    messageId: request.messageId,
    rawBody: input.rawBody,
    message,
    trace: input.trace,
    // The budget counts from the integrator's request's arrival: the held request is answered within it.
    data: { mode, deadlineAt: timeoutDecidedAt(receivedAt, deps.timeBudgetMs(request.scheme), mode, deps.heldLookupMarginMs) } satisfies IdData,
    lookupKey: request.lookupKey,
  });
  let transactionId: string;
  switch (outcome.kind) {
    case 'accepted':
      if (mode === 'async') return { kind: 'accepted' };
      transactionId = outcome.transactionId;
      break;
    case 'duplicate':
    case 'message_differs':
      transactionId = retryOfStoredMessage(outcome, message, request.messageId).transactionId;
      break;
    case 'uetr_conflict':
      throw new ApiError('UETR_CONFLICT', `uetr ${request.uetr} already identifies another identifier determination`, [
        { field: '/request/uetr', message: 'already identifies another identifier determination' },
      ]);
  }
  return answerOf(deps, transactionId, input.signal);
}

/**
 * The stored answer of a determination, waited for while it is still undecided. At the deadline
 * the held request has the engine decide now (the timeout, unless the report came first) instead
 * of waiting for the engine's timer and its next claim. Should the answer still be undecided (no engine took the
 * request in time), the caller is told to retry the identical request: the retry waits for the
 * same answer, never for a second lookup.
 */
async function answerOf(deps: DetermineIdentifierDeps, transactionId: string, signal: AbortSignal | undefined): Promise<DetermineIdentifierResult> {
  const first = await deps.store.getTransaction(transactionId);
  if (first === undefined) throw new Error(`determination ${transactionId} vanished`);
  if (dataOf(first).mode === 'async') return { kind: 'accepted' };
  const budgetMs = deps.timeBudgetMs(first.scheme);
  const waiter = new ChangeWaiter(deps, transactionId, signal);
  try {
    let decidedNow = false;
    // A retry that comes long after the first request (say, after a restart) still waits one budget.
    const giveUpAt = Math.max(dataOf(first).deadlineAt ?? first.createdAt + budgetMs, deps.clock.now()) + budgetMs;
    for (;;) {
      if (signal?.aborted === true) {
        throw new ApiError('DETERMINATION_PENDING', 'the client went away before the answer; the engine still decides it: retry the identical request to hear it', [], {
          'retry-after': '1',
        });
      }
      const transaction = await deps.store.getTransaction(transactionId);
      const data = transaction === undefined ? undefined : dataOf(transaction);
      if (data?.response !== undefined) return { kind: 'answered', response: data.response };
      const now = deps.clock.now();
      const decideAt = data?.deadlineAt ?? first.createdAt + budgetMs;
      if (now >= decideAt && !decidedNow) {
        decidedNow = true;
        await deps.processing?.decideNow(transactionId);
        continue;
      }
      if (now >= giveUpAt) {
        throw new ApiError('DETERMINATION_PENDING', 'the scheme has not answered and no engine has decided the timeout yet; retry the identical request', [], {
          'retry-after': '1',
        });
      }
      await waiter.next(Math.min(deps.pollIntervalMs, Math.max(1, (decidedNow ? giveUpAt : decideAt) - now)));
    }
  } finally {
    waiter.close();
  }
}

function dataOf(transaction: TransactionRecord): IdData {
  return transaction.data as unknown as IdData;
}

/**
 * Notices of changes to one transaction: `next` resolves at the next notice (or one that came
 * since the last call), once `signal` is aborted (the client went away), or after `timeoutMs`.
 */
class ChangeWaiter {
  readonly #stop: () => void;
  readonly #timers: Timers;
  #noticed = false;
  #wake: (() => void) | undefined;

  constructor(deps: DetermineIdentifierDeps, transactionId: string, signal: AbortSignal | undefined) {
    this.#timers = deps.timers ?? systemTimers;
    const notice = (): void => {
      this.#noticed = true;
      this.#wake?.();
    };
    const stopListening = deps.store.onChange((changed) => {
      if (changed === transactionId) notice();
    });
    signal?.addEventListener('abort', notice);
    this.#stop = () => {
      stopListening();
      signal?.removeEventListener('abort', notice);
    };
  }

  async next(timeoutMs: number): Promise<void> {
    if (!this.#noticed) {
      await new Promise<void>((resolve) => {
        const timer = this.#timers.setTimeout(resolve, timeoutMs);
        this.#wake = () => {
          this.#timers.clearTimeout(timer);
          resolve();
        };
      });
    }
    this.#wake = undefined;
    this.#noticed = false;
  }

  close(): void {
    this.#stop();
    this.#wake?.();
  }
}
