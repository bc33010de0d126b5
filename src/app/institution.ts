import type { IntegratorConfig } from '../config/types.js';
import { ApiError } from '../domain/errors.js';

interface AgentIdentifiers {
  readonly bicfi?: unknown;
  readonly memberId?: unknown;
  readonly clearingSystemMemberId?: { readonly memberId?: unknown };
}

/**
 * An integrator may only send payments from its own institution. The agent must name it by BIC
 * (compared on the 8-character institution part, so a branch BIC of the same bank matches) or by
 * clearing-system member id; every identifier it gives must match, and it must give at least one.
 */
export function checkOwnInstitution(integrator: IntegratorConfig, agent: AgentIdentifiers | undefined, pointer: string): void {
  const own = integrator.institution;
  const bic = typeof agent?.bicfi === 'string' ? agent.bicfi : undefined;
  const memberIds = [agent?.clearingSystemMemberId?.memberId, agent?.memberId].filter((value): value is string => typeof value === 'string');

  const mismatches: string[] = [];
  if (bic !== undefined && (own.bicfi === undefined || bic.slice(0, 8) !== own.bicfi.slice(0, 8))) {
    mismatches.push(`bicfi ${bic}`);
  }
  for (const memberId of memberIds) {
    if (own.memberId === undefined || memberId !== own.memberId) mismatches.push(`memberId ${memberId}`);
  }
  if (bic === undefined && memberIds.length === 0) {
    throw new ApiError('INSTITUTION_NOT_ALLOWED', `${pointer} must identify the integrator's institution by bicfi or clearingSystemMemberId.memberId`);
  }
  if (mismatches.length > 0) {
    throw new ApiError('INSTITUTION_NOT_ALLOWED', `${pointer} (${mismatches.join(', ')}) is not the integrator's institution`);
  }
}
