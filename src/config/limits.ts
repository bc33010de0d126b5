import type { SchemeName } from '../domain/schemes.js';
import { currencyDecimals, parseAmount } from '../lib/money.js';
import type { SchemeLimits } from '../ports/scheme.js';
import type { IntegratorConfig } from './types.js';

/**
 * The integrator's configured maximum for a scheme, in minor units of the transfer's currency:
 * what intake and the engine's check before sending both hand to the scheme's rules. None when
 * no maximum is configured or the currency has no known decimals (the rules refuse it then).
 */
export function schemeLimits(integrator: IntegratorConfig, scheme: SchemeName, currency: string | null): SchemeLimits {
  const max = integrator.limits.amountMax[scheme];
  if (max === undefined || currency === null || currencyDecimals(currency) === undefined) return {};
  const parsed = parseAmount(max, currency);
  return parsed.ok ? { amountMaxMinor: parsed.money.minor } : {};
}
