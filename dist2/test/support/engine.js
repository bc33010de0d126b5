import { answersOnly } from './inbound.js';
import { pino } from 'pino';
import { systemClock, systemIds } from '../../src/adapters/system/system.js';
import { createIsoConnector } from '../../src/connectors/iso20022/connector.js';
import { ZA_RPP } from '../../src/connectors/za-rpp/family.js';
import { Engine } from '../../src/engine/engine.js';
import { integratorConfig } from './delivery.js';
/** The demo integrator's institution, as the credit-transfer fixtures name it. */
export const DEMO_INSTITUTION = { institution: { bicfi: 'DEMOZAJJ', memberId: '210001' } };
/**
 * An engine on `store` as instance `instanceId`, for integrator `bank-a` (the demo institution),
 * whose one scheme, ZA_RPP, speaks through `transport`; its connector is started, the engine not.
 */
export async function zaRppEngine(store, transport, instanceId, options = {}, log = pino({ level: 'silent' })) {
    const integrator = await integratorConfig('bank-a', 'http://127.0.0.1:9', DEMO_INSTITUTION);
    const connector = createIsoConnector(ZA_RPP, { scheme: 'ZA_RPP', transport, clock: systemClock });
    const engine = new Engine({
        store,
        clock: systemClock,
        ids: systemIds,
        connectors: new Map([['ZA_RPP', connector]]),
        integrators: new Map([[integrator.id, integrator]]),
        schemes: {},
        instanceId,
        log,
        options: { pollIntervalMs: 10, ...options },
    });
    await connector.start(answersOnly(engine));
    return { engine, connector };
}
//# sourceMappingURL=engine.js.map