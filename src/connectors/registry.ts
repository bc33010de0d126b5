import { TIME_BUDGET_MS_DEFAULTS } from '../config/schema.js';
import type { IntegratorConfig, SchemeConfig, SimulatorInboundConfig } from '../config/types.js';
import { SCHEMES, supports, type SchemeName } from '../domain/schemes.js';
import type { Clock } from '../ports/clock.js';
import type { SchemeConnector, SchemeRules } from '../ports/scheme.js';
import { CBPR_PLUS } from './cbpr-plus/family.js';
import { createIsoConnector, isoSchemeRules, type ConnectorLog, type SchemeFamily } from './iso20022/connector.js';
import { operatorLinkTransport } from './operator-link/transport.js';
import type { InboundRate, SimulatorOverrides } from './simulator/simulator.js';
import { threadedSimulatorTransport } from './simulator/threaded-simulator.js';
import { TCIB } from './tcib/family.js';
import type { TransportFactory } from './transport.js';
import { ZA_EFT } from './za-eft/family.js';
import { ZA_RPP } from './za-rpp/family.js';
import { ZA_RTC } from './za-rtc/family.js';

/** Every scheme family, one line each. Adding a scheme: docs/connectors.md. */
export const FAMILIES: readonly SchemeFamily[] = [
  ZA_RTC,
  ZA_RPP,
  ZA_EFT,
  CBPR_PLUS,
  TCIB,
];

/** The family serving a scheme, if any. */
export function familyOf(scheme: SchemeName): SchemeFamily | undefined {
  return FAMILIES.find((family) => family.schemes.includes(scheme));
}

const RULES = new Map<SchemeName, SchemeRules>(
  SCHEMES.flatMap((scheme) => {
    const family = familyOf(scheme);
    return family === undefined ? [] : [[scheme, isoSchemeRules(family, scheme)] as const];
  }),
);

/** The pure rules of the scheme's connector (none for a scheme no family serves), which intake asks before accepting a message. */
export function schemeRulesOf(scheme: SchemeName): SchemeRules | undefined {
  return RULES.get(scheme);
}

export interface CreateConnectorsOptions {
  /** Simulator settings for every simulated scheme (latency, late answer, memory bound). */
  readonly simulator?: SimulatorOverrides;
  /** A steady rate of originated traffic, by simulated scheme (steadyInbound). */
  readonly simulatorInbound?: Readonly<Partial<Record<SchemeName, InboundRate>>>;
  /** Transports by the name used in `schemes.<SCHEME>.connector`, beside the built-in `simulator` and `operator-link`. */
  readonly transports?: Readonly<Record<string, TransportFactory>>;
  readonly log?: ConnectorLog;
}

const systemClock: Clock = { now: () => Date.now() };

/**
 * One connector per scheme that carries credit transfers (ZA_AC and ZA_RMS carry none). The
 * family is fixed by the scheme; `schemes.<SCHEME>.connector` names the transport (`simulator`,
 * `operator-link` or one given in `options.transports`), `simulator` when the configuration does
 * not list the scheme. An unknown transport name is a configuration
 * error and throws at start.
 */
export function createConnectors(
  config: { readonly schemes: Readonly<Partial<Record<SchemeName, SchemeConfig>>> },
  clock: Clock = systemClock,
  options: CreateConnectorsOptions = {},
): Map<SchemeName, SchemeConnector> {
  const simulator: TransportFactory = (context) => {
    const inbound = options.simulatorInbound?.[context.scheme];
    return threadedSimulatorTransport({ ...options.simulator, ...(inbound === undefined ? {} : { inbound }) })(context);
  };
  const transports: Readonly<Record<string, TransportFactory>> = {
    simulator,
    'operator-link': operatorLinkTransport,
    ...options.transports,
  };
  const log = options.log === undefined ? {} : { log: options.log };
  const connectors = new Map<SchemeName, SchemeConnector>();
  for (const scheme of SCHEMES) {
    if (!supports(scheme, 'creditTransfer')) continue;
    const family = familyOf(scheme);
    if (family === undefined) throw new Error(`no connector family serves ${scheme}, which carries credit transfers`);
    const configured = config.schemes[scheme];
    const transportName = configured?.connector ?? 'simulator';
    const transport = Object.hasOwn(transports, transportName) ? transports[transportName] : undefined;
    if (transport === undefined) {
      throw new Error(`schemes.${scheme}.connector: unknown connector "${transportName}" (available: ${Object.keys(transports).join(', ')})`);
    }
    const timeBudgetMs = configured?.timeBudgetMs ?? TIME_BUDGET_MS_DEFAULTS[scheme];
    connectors.set(scheme, createIsoConnector(family, { scheme, transport: transport({ scheme, timeBudgetMs, config: configured, clock, ...log }), clock, ...log }));
  }
  return connectors;
}

/** The scheme the built-in simulator originates its steady rate on: PayShap, the one scheme with lookups before credits. */
export const STEADY_INBOUND_SCHEME: SchemeName = 'ZA_RPP';

/**
 * The configuration's steady rate (`simulator.inbound`) as the simulator takes it: on
 * STEADY_INBOUND_SCHEME when it runs on the built-in simulator, addressed in turn to every
 * integrator with that scheme, each with the configured customer account. None at rate 0.
 */
export function steadyInbound(config: {
  readonly simulator: { readonly inbound: SimulatorInboundConfig };
  readonly integrators: readonly Pick<IntegratorConfig, 'institution' | 'schemes'>[];
  readonly schemes: Readonly<Partial<Record<SchemeName, SchemeConfig>>>;
}): Partial<Record<SchemeName, InboundRate>> {
  const { ratePerSecond, outstandingMax, outstandingMs, amount, accountNumber } = config.simulator.inbound;
  if (ratePerSecond === 0 || (config.schemes[STEADY_INBOUND_SCHEME]?.connector ?? 'simulator') !== 'simulator') return {};
  const targets = config.integrators
    .filter((integrator) => integrator.schemes.includes(STEADY_INBOUND_SCHEME))
    .map((integrator) => ({ institution: { ...integrator.institution }, accountNumber }));
  return targets.length === 0 ? {} : { [STEADY_INBOUND_SCHEME]: { ratePerSecond, outstandingMax, outstandingMs, amount, targets } };
}
