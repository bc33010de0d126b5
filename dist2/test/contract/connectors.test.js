import { FAMILIES } from '../../src/connectors/registry.js';
import { createIsoConnector } from '../../src/connectors/iso20022/connector.js';
import { SchemeSimulator } from '../../src/connectors/simulator/simulator.js';
import { connectorContract } from './connector.contract.js';
/** The connector contract, run against every registered family, each with its own simulated scheme. */
const LATENCY_MS = 5;
const LATE_ANSWER_MS = 300;
const clock = { now: () => Date.now() };
for (const family of FAMILIES) {
    for (const scheme of family.schemes) {
        connectorContract({
            scheme,
            latencyMs: LATENCY_MS,
            lateAnswerMs: LATE_ANSWER_MS,
            foreignCurrency: scheme === 'CBPR_PLUS',
            create: () => {
                const simulator = new SchemeSimulator({ scheme, clock, latencyMs: LATENCY_MS, lateAnswerMs: LATE_ANSWER_MS, entriesMax: 1_000, deliveryAttemptsMax: 3 });
                return {
                    connector: createIsoConnector(family, { scheme, transport: simulator, clock }),
                    submissionsOf: (uetr) => simulator.submissionsOf(uetr),
                    transferCount: () => simulator.transferCount,
                };
            },
        });
    }
}
//# sourceMappingURL=connectors.test.js.map