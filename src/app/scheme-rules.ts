import { schemeLimits } from '../config/limits.js';
import type { IntegratorConfig } from '../config/types.js';
import { ApiError } from '../domain/errors.js';
import type { ValidIdentifierDetermination } from '../domain/messages/identifier-determination.js';
import type { ValidRequestToPay } from '../domain/messages/request-to-pay.js';
import type { ValidCreditTransfer } from '../domain/messages/validate.js';
import type { SchemeName } from '../domain/schemes.js';
import type { SchemeRuleOutcome, SchemeRules } from '../ports/scheme.js';
import type { Store } from '../ports/store.js';

/**
 * Intake asks the scheme before it accepts a message: every rule that depends on the message alone
 * (and the integrator's configured limits) — the scheme's currency, amount maximum, required BICs
 * and names, what its ISO 20022 message can carry — is the scheme connector's (`SchemeRules`), and
 * a message one of them refuses is answered 422 SCHEME_REFUSES naming the field and the scheme,
 * never accepted and then rejected for its own content. What depends on the scheme's own state
 * (an account closed, a proxy unknown, no answer in time) stays an asynchronous outcome.
 */
export interface SchemeRulesDeps {
  /** The rules of a scheme's connector; none for a scheme no connector serves (nothing is asked). */
  readonly schemeRules: (scheme: SchemeName) => SchemeRules | undefined;
  readonly store: Store;
}

/** The ids a message is judged with before it has any: neither changes whether it can be written. */
const UNACCEPTED = { transactionId: 'intake', idempotencyKey: 'intake', traceparent: null } as const;

export async function checkCreditTransferAtIntake(deps: SchemeRulesDeps, integrator: IntegratorConfig, transfer: ValidCreditTransfer): Promise<void> {
  const rules = deps.schemeRules(transfer.scheme);
  if (rules === undefined) return;
  const outcome = rules.check(
    { ...UNACCEPTED, integratorId: integrator.id, scheme: transfer.scheme, uetr: transfer.uetr, message: transfer.message, amount: transfer.settlementAmount },
    schemeLimits(integrator, transfer.scheme, transfer.settlementAmount.currency),
  );
  await refuseUnlessOkOrRetry(deps, integrator, transfer.messageId, outcome, transfer.scheme, 'CreditTransfer');
}

export async function checkLookupAtIntake(deps: SchemeRulesDeps, integrator: IntegratorConfig, request: ValidIdentifierDetermination): Promise<void> {
  const rules = deps.schemeRules(request.scheme);
  if (rules === undefined) return;
  const outcome = rules.checkLookup({ ...UNACCEPTED, integratorId: integrator.id, scheme: request.scheme, uetr: request.uetr, message: request.message });
  await refuseUnlessOkOrRetry(deps, integrator, request.messageId, outcome, request.scheme, 'IdentifierDeterminationRequest');
}

export async function checkRequestToPayAtIntake(deps: SchemeRulesDeps, integrator: IntegratorConfig, request: ValidRequestToPay): Promise<void> {
  const rules = deps.schemeRules(request.scheme);
  if (rules === undefined) return;
  const outcome = rules.checkRequestToPay({
    ...UNACCEPTED,
    integratorId: integrator.id,
    scheme: request.scheme,
    uetr: request.uetr,
    message: request.message,
    amount: request.amount,
    expiresAt: request.expiresAt,
  });
  await refuseUnlessOkOrRetry(deps, integrator, request.messageId, outcome, request.scheme, 'RequestToPay');
}

/**
 * A refusal stands unless the message id was accepted before: a retry is answered as the first
 * time (CONTRACT §6), even if a rule or a configured limit changed since, and admit() tells a
 * retry from a different message under the same id.
 */
async function refuseUnlessOkOrRetry(
  deps: SchemeRulesDeps,
  integrator: IntegratorConfig,
  messageId: string,
  outcome: SchemeRuleOutcome,
  scheme: SchemeName,
  messageName: string,
): Promise<void> {
  if (outcome.ok) return;
  if ((await deps.store.findMessage(integrator.id, messageId)) !== undefined) return;
  throw new ApiError('SCHEME_REFUSES', `${scheme} refuses this ${messageName}: ${outcome.reasonText} (${outcome.reasonCode})`, [
    { field: outcome.field ?? '', message: `${scheme} refuses it: ${outcome.reasonText} (${outcome.reasonCode})` },
  ]);
}
