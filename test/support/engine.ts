import assert from 'node:assert/strict';
import { answersOnly } from './inbound.js';
import { pino, type Logger } from 'pino';
import { systemClock, systemIds } from '../../src/adapters/system/system.js';
import { acceptCreditTransfer } from '../../src/app/accept-credit-transfer.js';
import { schemeRulesOf } from '../../src/connectors/registry.js';
import { validateCreditTransfer } from '../../src/domain/messages/validate.js';
import { newTraceparent } from '../../src/lib/trace.js';
import { creditTransfer } from '../fixtures/credit-transfer.js';
import { createIsoConnector } from '../../src/connectors/iso20022/connector.js';
import type { SchemeTransport } from '../../src/connectors/transport.js';
import { ZA_RPP } from '../../src/connectors/za-rpp/family.js';
import { Engine, type EngineOptions } from '../../src/engine/engine.js';
import type { SchemeConnector } from '../../src/ports/scheme.js';
import type { NewTransaction, StateChange, Store } from '../../src/ports/store.js';
import type { Config } from '../../src/config/types.js';
import { integratorConfig, withStoreMethods } from './delivery.js';

/** The demo integrator's institution, as the credit-transfer fixtures name it. */
export const DEMO_INSTITUTION = { institution: { bicfi: 'DEMOZAJJ', memberId: '210001' } };

/**
 * An engine on `store` as instance `instanceId`, for integrator `bank-a` (the demo institution),
 * whose one scheme, ZA_RPP, speaks through `transport`; its connector is started, the engine not.
 */
export async function zaRppEngine(
  store: Store,
  transport: SchemeTransport,
  instanceId: string,
  options: Partial<EngineOptions> = {},
  log: Logger = pino({ level: 'silent' }),
): Promise<{ engine: Engine; connector: SchemeConnector }> {
  const integrator = await integratorConfig('bank-a', 'http://127.0.0.1:9', DEMO_INSTITUTION);
  return startedZaRpp(store, transport, { integrators: [integrator], schemes: {} }, instanceId, options, log);
}

/**
 * An engine on `store` for the integrators and schemes of `config` (instance `instance-a`), whose
 * ZA_RPP connector speaks through `transport`; its connector is started with the engine's answers,
 * the engine not.
 */
export function configuredZaRppEngine(
  store: Store,
  config: Config,
  transport: SchemeTransport,
  options: Partial<EngineOptions> = {},
): Promise<{ engine: Engine; connector: SchemeConnector }> {
  return startedZaRpp(store, transport, config, 'instance-a', options, pino({ level: 'silent' }));
}

/** The engine of `integrators` and `schemes` with its one ZA_RPP connector over `transport`, the connector started. */
async function startedZaRpp(
  store: Store,
  transport: SchemeTransport,
  { integrators, schemes }: Pick<Config, 'integrators' | 'schemes'>,
  instanceId: string,
  options: Partial<EngineOptions>,
  log: Logger,
): Promise<{ engine: Engine; connector: SchemeConnector }> {
  const connector = createIsoConnector(ZA_RPP, { scheme: 'ZA_RPP', transport, clock: systemClock });
  const engine = new Engine({
    store,
    clock: systemClock,
    ids: systemIds,
    connectors: new Map([['ZA_RPP', connector]]),
    integrators: new Map(integrators.map((integrator) => [integrator.id, integrator])),
    schemes,
    instanceId,
    log,
    options: { pollIntervalMs: 10, ...options },
  });
  await connector.start(answersOnly(engine));
  return { engine, connector };
}

/**
 * A ZA_RPP credit transfer of `bank-a` (the fixture, shaped by `shape`) accepted as another
 * instance's intake would (committed, not handed to any engine): due at once, left to claims or
 * to the engine a test drives.
 */
export async function acceptedTransfer(store: Store, shape: (body: ReturnType<typeof creditTransfer>) => void = () => undefined): Promise<{ transactionId: string; uetr: string }> {
  const integrator = await integratorConfig('bank-a', 'http://127.0.0.1:9', DEMO_INSTITUTION);
  const body = creditTransfer('ZA_RPP');
  shape(body);
  const valid = validateCreditTransfer(JSON.parse(JSON.stringify(body)));
  assert.ok(valid.ok);
  await acceptCreditTransfer(
    { store, clock: systemClock, ids: systemIds, schemeRules: schemeRulesOf },
    { integrator, transfer: valid.value, rawBody: JSON.stringify(body), trace: { traceparent: newTraceparent(), tracestate: null } },
  );
  const transaction = await store.findTransaction('bank-a', body.transactionIdentifiers.uetr);
  assert.ok(transaction);
  return { transactionId: transaction.id, uetr: transaction.uetr };
}

/** `store` remembering every intake and state change written through it, in order. */
export function recordingWrites(store: Store): { store: Store; intakes: NewTransaction[]; changes: StateChange[] } {
  const intakes: NewTransaction[] = [];
  const changes: StateChange[] = [];
  const recording = withStoreMethods(store, {
    intake: (target) => (tx) => {
      intakes.push(tx);
      return target.intake(tx);
    },
    applyChange: (target) => (change) => {
      changes.push(change);
      return target.applyChange(change);
    },
  });
  return { store: recording, intakes, changes };
}
