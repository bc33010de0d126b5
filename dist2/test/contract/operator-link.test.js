import { after, before } from 'node:test';
import { configFromObject } from '../../src/config/load.js';
import { createIsoConnector } from '../../src/connectors/iso20022/connector.js';
import { OperatorLinkTransport } from '../../src/connectors/operator-link/transport.js';
import { FAMILIES } from '../../src/connectors/registry.js';
import { submissionsOf } from '../../src/connectors/simulator/simulated-operator.js';
import { supports } from '../../src/domain/schemes.js';
import { OperatorStore } from '../../src/operator/store.js';
import { OperatorProcess, operatorLinkSchemes } from '../support/operator.js';
import { freePort, testConfigObject } from '../support/server.js';
import { connectorContract } from './connector.contract.js';
/**
 * The connector contract once more, every family over the `operator-link` transport against the
 * standalone operator simulator in a process of its own: real HTTPS with mutual TLS and signed
 * messages both ways, the operator's state in its SQLite file (read here, read-only, for the
 * contract's counts). One inbound listener serves every scheme, as in a deployment.
 */
const LATENCY_MS = 20;
const LATE_ANSWER_MS = 400;
const clock = { now: () => Date.now() };
/** The schemes a service sends messages of (ZA_AC and ZA_RMS carry none). */
const schemes = FAMILIES.flatMap((family) => family.schemes).filter((scheme) => supports(scheme, 'creditTransfer'));
let operator;
let store;
let links;
before(async () => {
    const inboundPort = await freePort();
    operator = await OperatorProcess.start({
        bankUrls: [`https://127.0.0.1:${inboundPort}`],
        schemes: Object.fromEntries(schemes.map((scheme) => [scheme, { latencyMs: LATENCY_MS, lateAnswerMs: LATE_ANSWER_MS }])),
    });
    store = new OperatorStore(operator.storePath, { readonly: true });
    const config = await configFromObject(testConfigObject({
        database: 'sqlite::memory:',
        extra: { schemes: operatorLinkSchemes(operator.url, inboundPort, Object.fromEntries(schemes.map((scheme) => [scheme, 60_000]))) },
    }));
    links = new Map(schemes.map((scheme) => [scheme, config.schemes[scheme]?.operatorLink]));
});
after(async () => {
    store.close();
    await operator.stop();
});
for (const family of FAMILIES) {
    for (const scheme of family.schemes.filter((scheme) => schemes.includes(scheme))) {
        connectorContract({
            scheme,
            latencyMs: LATENCY_MS,
            lateAnswerMs: LATE_ANSWER_MS,
            foreignCurrency: scheme === 'CBPR_PLUS',
            over: 'the operator link',
            create: () => {
                const link = links.get(scheme);
                if (link === undefined)
                    throw new Error(`no operator link configured for ${scheme}`);
                return {
                    connector: createIsoConnector(family, { scheme, transport: new OperatorLinkTransport(scheme, link, clock), clock }),
                    submissionsOf: (uetr) => submissionsOf(store.state(scheme), uetr),
                    transferCount: () => store.state(scheme).transfers.size,
                };
            },
        });
    }
}
//# sourceMappingURL=operator-link.test.js.map