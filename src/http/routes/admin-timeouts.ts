import type { Config } from '../../config/types.js';
import type { TransactionKind } from '../../domain/kinds.js';
import type { TransactionRecord } from '../../ports/store.js';
import { iso, isRecord } from './admin.js';

/**
 * Why a transaction entered a `*_TIMEOUT` state, for the operator's timeline: the time budget that
 * ran out, in words, with the configuration that sets it, its length, and when it ran out (the
 * deadline the transaction kept in its working data). The kinds without a timeout state (the
 * request-to-pay ones end by their expiry) have none.
 */
export interface TimeoutCause {
  readonly budget: string;
  /** The configuration that sets it. */
  readonly setting: string;
  readonly countedFrom: string;
  readonly budgetMs: number | null;
  readonly ranOutAt: string | null;
}

type Budget = Omit<TimeoutCause, 'ranOutAt'>;
type BudgetOf = (transaction: TransactionRecord, config: Pick<Config, 'schemes' | 'integrators'>) => Budget;

const schemeBudget =
  (countedFrom: string): BudgetOf =>
  (transaction, config) => ({
    budget: "the scheme's time budget",
    setting: `schemes.${transaction.scheme}.timeBudgetMs`,
    countedFrom,
    budgetMs: config.schemes[transaction.scheme]?.timeBudgetMs ?? null,
  });

const answerBudget: BudgetOf = (transaction, config) => {
  const index = config.integrators.findIndex((integrator) => integrator.id === transaction.integratorId);
  const own = config.integrators[index]?.inbound.answerTimeoutMs;
  return {
    budget: "the integrator's answer budget",
    setting: own === undefined ? `schemes.${transaction.scheme}.inbound.answerTimeoutMs` : `integrators[${index}].inbound.answerTimeoutMs (${transaction.integratorId})`,
    countedFrom: "the scheme's message",
    budgetMs: own ?? config.schemes[transaction.scheme]?.inbound.answerTimeoutMs ?? null,
  };
};

const BUDGETS: Readonly<Record<TransactionKind, BudgetOf | undefined>> = {
  CREDIT_TRANSFER: schemeBudget('the first submission to the scheme'),
  IDENTIFIER_DETERMINATION: schemeBudget("the integrator's request"),
  REQUEST_TO_PAY: undefined,
  INBOUND_CREDIT_TRANSFER: answerBudget,
  INBOUND_IDENTIFIER_DETERMINATION: answerBudget,
  INBOUND_REQUEST_TO_PAY: undefined,
};

/** The cause of entering `state`, when it is a timeout; undefined otherwise. */
export function timeoutCause(transaction: TransactionRecord, state: string, cause: unknown, config: Pick<Config, 'schemes' | 'integrators'>): TimeoutCause | undefined {
  const budgetOf = BUDGETS[transaction.kind];
  if (budgetOf === undefined || !state.endsWith('_TIMEOUT')) return undefined;
  const budget = budgetOf(transaction, config);
  // The event may carry the budget it ran out of (SchemeTimeout {timeBudgetMs}): that one, not today's configuration.
  const carried = isRecord(cause) && typeof cause['timeBudgetMs'] === 'number' ? cause['timeBudgetMs'] : undefined;
  const deadlineAt = transaction.data['deadlineAt'];
  return { ...budget, budgetMs: carried ?? budget.budgetMs, ranOutAt: typeof deadlineAt === 'number' ? iso(deadlineAt) : null };
}
