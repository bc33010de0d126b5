import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createIsoConnector } from '../../src/connectors/iso20022/connector.js';
import { schemeMessageId } from '../../src/connectors/iso20022/ids.js';
import { pacs002Document } from '../../src/connectors/iso20022/pacs002.js';
import { ISO_STATUS_TABLE, statusOf } from '../../src/connectors/iso20022/status.js';
import { createConnectors, FAMILIES, familyOf } from '../../src/connectors/registry.js';
import { SCHEMES, supports } from '../../src/domain/schemes.js';
import { inboundTransactionId } from '../../src/lib/inbound-id.js';
import { outboundTransfer, RecordingInbound } from '../support/scheme.js';
import { transportOutcome } from '../support/transport.js';
/** A transport the test drives by hand: it records what is sent and lets the test play the operator. */
class ManualTransport {
    sent = [];
    handler;
    failWith;
    send(message) {
        if (this.failWith !== undefined)
            return Promise.reject(this.failWith);
        this.sent.push(message);
        return Promise.resolve({ kind: 'delivered' });
    }
    start(handler) {
        this.handler = handler;
        return Promise.resolve();
    }
    stop() {
        this.handler = undefined;
        return Promise.resolve();
    }
    async answer(document) {
        assert.ok(this.handler, 'started');
        await this.handler({ document });
    }
}
const clock = { now: () => 1_772_435_727_482 };
async function manual(scheme = 'ZA_RTC') {
    const family = familyOf(scheme);
    assert.ok(family);
    const transport = new ManualTransport();
    const warnings = [];
    const connector = createIsoConnector(family, { scheme, transport, clock, log: { warn: (_details, message) => warnings.push(message) } });
    const inbound = new RecordingInbound();
    await connector.start(inbound);
    return { transport, connector, inbound, warnings };
}
function statusReport(transfer, status, reasonCode) {
    return pacs002Document({
        messageName: 'pacs.002.001.10',
        messageId: 'OPERATOR-1',
        createdAt: '2026-03-02T07:15:28+02:00',
        original: { messageId: schemeMessageId(transfer.idempotencyKey), messageName: 'pacs.008.001.08', endToEndId: 'E2E', uetr: transfer.uetr },
        status,
        ...(reasonCode === undefined ? {} : { reasonCode }),
    });
}
void describe('ISO 20022 scheme connector', () => {
    void it('maps every status of its table, and anything else to PENDING', () => {
        assert.equal(statusOf(ISO_STATUS_TABLE, 'ACSC'), 'ACCEPTED');
        assert.equal(statusOf(ISO_STATUS_TABLE, 'ACCC'), 'ACCEPTED');
        for (const code of ['ACSP', 'ACCP', 'ACTC', 'ACFC', 'ACWP', 'ACWC', 'PDNG', 'RCVD', 'PART', 'PATC', 'BLCK'])
            assert.equal(statusOf(ISO_STATUS_TABLE, code), 'PENDING', code);
        assert.equal(statusOf(ISO_STATUS_TABLE, 'RJCT'), 'REJECTED');
        assert.equal(statusOf(ISO_STATUS_TABLE, 'CANC'), 'REJECTED');
        for (const code of ['XXXX', 'acsc', 'constructor', '', undefined])
            assert.equal(statusOf(ISO_STATUS_TABLE, code), 'PENDING', String(code));
    });
    void it('sends a pacs.008 whose MsgId comes from the idempotency key, the same on every attempt', async () => {
        const { transport, connector } = await manual();
        const transfer = outboundTransfer('ZA_RTC');
        await connector.submit(transfer);
        await connector.submit({ ...transfer, transactionId: 'retry' });
        assert.equal(transport.sent.length, 2);
        for (const message of transport.sent) {
            assert.equal(message.messageName, 'pacs.008.001.08');
            assert.equal(message.messageId, schemeMessageId(transfer.idempotencyKey));
            assert.equal(message.idempotencyKey, transfer.idempotencyKey);
        }
        assert.equal(transport.sent[0]?.document.replace(/<CreDtTm>[^<]*</, ''), transport.sent[1]?.document.replace(/<CreDtTm>[^<]*</, ''));
    });
    void it('sends a pacs.028 enquiry naming the original pacs.008', async () => {
        const { transport, connector } = await manual('ZA_RPP');
        const transfer = outboundTransfer('ZA_RPP');
        await connector.enquire(transfer);
        const [message] = transport.sent;
        assert.equal(message?.messageName, 'pacs.028.001.05');
        assert.match(message?.document ?? '', new RegExp(`<OrgnlMsgId>${schemeMessageId(transfer.idempotencyKey)}</OrgnlMsgId>`));
        assert.match(message?.document ?? '', /<OrgnlMsgNmId>pacs\.008\.001\.10<\/OrgnlMsgNmId>/);
    });
    void it('reports a rejection with its reason code and the pacs.002 as the message', async () => {
        const { transport, connector, inbound } = await manual();
        const transfer = outboundTransfer('ZA_RTC');
        await connector.submit(transfer);
        await transport.answer(statusReport(transfer, 'RJCT', 'AC04'));
        const [report] = inbound.reports;
        assert.equal(report?.status, 'REJECTED');
        assert.equal(report?.reasonCode, 'AC04');
        assert.equal(report?.reasonText, 'Account closed');
        assert.equal(report?.receivedAt, clock.now());
        assert.equal(report?.message.schema, 'pacs.002.001.10');
    });
    void it('reports RJCT with NOOR as not_found, so the engine may resubmit', async () => {
        const { transport, connector, inbound } = await manual();
        const transfer = outboundTransfer('ZA_RTC');
        await connector.enquire(transfer);
        await transport.answer(statusReport(transfer, 'RJCT', 'NOOR'));
        assert.equal(inbound.reports[0]?.kind, 'not_found');
        assert.equal(inbound.reports[0]?.status, 'PENDING');
    });
    void it("identifies a report about a whole message from the message id alone", async () => {
        const { transport, connector, inbound } = await manual();
        const transfer = outboundTransfer('ZA_RTC');
        await connector.submit(transfer);
        await transport.answer(`<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pacs.002.001.10"><FIToFIPmtStsRpt><GrpHdr><MsgId>OP</MsgId><CreDtTm>2026-03-02T07:15:28Z</CreDtTm></GrpHdr><OrgnlGrpInfAndSts><OrgnlMsgId>${schemeMessageId(transfer.idempotencyKey)}</OrgnlMsgId><OrgnlMsgNmId>pacs.008.001.08</OrgnlMsgNmId><GrpSts>RJCT</GrpSts><StsRsnInf><Rsn><Cd>FF01</Cd></Rsn></StsRsnInf></OrgnlGrpInfAndSts></FIToFIPmtStsRpt></Document>`);
        assert.equal(inbound.reports[0]?.uetr, transfer.uetr);
        assert.equal(inbound.reports[0]?.status, 'REJECTED');
        assert.equal(inbound.reports[0]?.reasonCode, 'FF01');
    });
    void it('still identifies an answer after a restart, from the MsgId derived from the key', async () => {
        const { transport, inbound } = await manual();
        const transfer = outboundTransfer('ZA_RTC');
        await transport.answer(statusReport(transfer, 'ACCC'));
        assert.equal(inbound.reports[0]?.idempotencyKey, transfer.idempotencyKey);
        assert.equal(inbound.reports[0]?.status, 'ACCEPTED');
    });
    void it('discards, with a warning, documents it cannot read and status reports naming no message', async () => {
        const { transport, inbound, warnings } = await manual();
        await transport.answer('<html>gateway error</html>');
        await transport.answer(statusReport(outboundTransfer('ZA_RTC'), 'ACSC').replace(/<OrgnlMsgId>[^<]*<\/OrgnlMsgId>/, ''));
        assert.equal(inbound.reports.length, 0);
        assert.equal(warnings.length, 2);
    });
    void it('takes a status about a MsgId it never wrote, and that does not reverse, for the inbound credit of that MsgId', async () => {
        const { transport, inbound } = await manual();
        const transfer = { ...outboundTransfer('ZA_RTC'), idempotencyKey: 'x'.repeat(60) };
        await transport.answer(statusReport(transfer, 'ACSC'));
        const [report] = inbound.reports;
        assert.equal(report?.idempotencyKey, inboundTransactionId('ZA_RTC', 'pacs.008.001.08', schemeMessageId(transfer.idempotencyKey)));
        assert.equal(report?.inboundKey, undefined);
        assert.equal(report?.status, 'ACCEPTED');
    });
    void it('turns a transport that throws into a retryable failure', async () => {
        const { transport, connector } = await manual();
        transport.failWith = new Error('connection reset');
        assert.deepEqual(transportOutcome(await connector.submit(outboundTransfer('ZA_RTC'))), { kind: 'failed', retryable: true, error: 'connection reset' });
    });
    void it('refuses to send what check() refuses, not retryable', async () => {
        const { transport, connector } = await manual();
        const nameless = outboundTransfer('ZA_RTC', (message) => {
            message.creditor = {};
        });
        const outcome = await connector.submit(nameless);
        assert.equal(outcome.kind === 'failed' && outcome.retryable, false);
        assert.equal(transport.sent.length, 0);
    });
});
void describe('connector registry', () => {
    void it('has one family per scheme that carries credit transfers, each in its own folder', () => {
        const served = FAMILIES.flatMap((family) => family.schemes);
        assert.equal(new Set(served).size, served.length, 'no scheme served twice');
        assert.deepEqual([...served].sort(), SCHEMES.filter((scheme) => supports(scheme, 'creditTransfer')).sort());
        assert.equal(new Set(FAMILIES.map((family) => family.family)).size, FAMILIES.length);
    });
    void it('creates a simulator-backed connector for every credit-transfer scheme when nothing is configured', async () => {
        const connectors = createConnectors({ schemes: {} });
        assert.deepEqual([...connectors.keys()], ['ZA_RTC', 'ZA_RPP', 'ZA_EFT', 'CBPR_PLUS', 'TCIB']);
        assert.equal(connectors.get('ZA_RPP')?.family, 'za-rpp');
        assert.equal(connectors.has('ZA_AC'), false);
        for (const connector of connectors.values())
            await connector.stop();
    });
    void it('uses the transport the configuration names and refuses an unknown one', async () => {
        const transports = [];
        const connectors = createConnectors({ schemes: { CBPR_PLUS: { connector: 'operator', timeBudgetMs: 1_000, inbound: { answerTimeoutMs: 5_000 } } } }, clock, {
            transports: {
                operator: () => {
                    const transport = new ManualTransport();
                    transports.push(transport);
                    return transport;
                },
            },
        });
        const connector = connectors.get('CBPR_PLUS');
        assert.ok(connector);
        await connector.submit(outboundTransfer('CBPR_PLUS'));
        assert.equal(transports.length, 1);
        assert.equal(transports[0]?.sent[0]?.messageName, 'pacs.008.001.08');
        assert.throws(() => createConnectors({ schemes: { ZA_RTC: { connector: 'nope', timeBudgetMs: 1, inbound: { answerTimeoutMs: 5_000 } } } }), /schemes\.ZA_RTC\.connector: unknown connector "nope"/);
        assert.throws(() => createConnectors({ schemes: { ZA_RTC: { connector: 'constructor', timeBudgetMs: 1, inbound: { answerTimeoutMs: 5_000 } } } }), /unknown connector/);
    });
});
//# sourceMappingURL=scheme-connectors.test.js.map