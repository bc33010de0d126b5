import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'undici';
import { openStore } from '../../src/adapters/store.js';
import { configFromObject } from '../../src/config/load.js';
import { createIsoConnector } from '../../src/connectors/iso20022/connector.js';
import { schemeMessageId } from '../../src/connectors/iso20022/ids.js';
import { pacs002Document } from '../../src/connectors/iso20022/pacs002.js';
import { isoDateTime } from '../../src/connectors/iso20022/pacs008.js';
import { LinkClient } from '../../src/connectors/operator-link/link-client.js';
import { CONTENT_TYPE, HEADER, messagesUrl, signMessage } from '../../src/connectors/operator-link/protocol.js';
import { OperatorLinkTransport } from '../../src/connectors/operator-link/transport.js';
import { familyOf } from '../../src/connectors/registry.js';
import { submissionsOf } from '../../src/connectors/simulator/simulated-operator.js';
import { testValue } from '../../src/connectors/simulator/test-values.js';
import { parseLinkPrivateKey } from '../../src/lib/link-keys.js';
import { OperatorStore } from '../../src/operator/store.js';
import { creditTransfer } from '../fixtures/credit-transfer.js';
import { CALLBACK_PATH, TestReceiver, eventually } from '../support/delivery.js';
import { OperatorProcess, operatorLinkSchemes } from '../support/operator.js';
import { linkPki } from '../support/pki.js';
import { dropTestDatabase, freshPostgresUrl } from '../support/postgres.js';
import { basicAuth, freePort, startServer, testConfigObject, writeTestConfig } from '../support/server.js';
import { RecordingInbound, toAccount } from '../support/scheme.js';
import { transportOutcome } from '../support/transport.js';
const clock = { now: () => Date.now() };
const pki = linkPki();
function tlsOf(identity, caFile = pki.caFile) {
    return { ca: readFileSync(caFile, 'utf8'), cert: readFileSync(identity.certFile, 'utf8'), key: readFileSync(identity.keyFile, 'utf8') };
}
function signingKey(file) {
    const parsed = parseLinkPrivateKey(readFileSync(file, 'utf8'));
    assert.ok(parsed.ok);
    return parsed.value;
}
/** A client of the service's inbound listener, as the operator (or an impostor) would be. */
function client(identity, signingFile, caFile) {
    return new LinkClient({ tls: tlsOf(identity, caFile), signingKey: signingKey(signingFile), timeoutMs: 5_000, connectionsMax: 1, clock });
}
/** Lines of the service's log with this message. */
function logged(server, message) {
    return server.output().split('\n').filter((line) => line.includes(message)).length;
}
void describe('the inbound endpoint of the operator link', () => {
    let database;
    let bank;
    let operator;
    let server;
    let store;
    let inboundUrl;
    let verdict;
    let transactionId;
    /** What the transfer went through at the service: its states, and the callbacks its integrator got. */
    async function recorded() {
        return {
            states: (await store.history(transactionId)).map((row) => row.toState),
            callbacks: bank.to(CALLBACK_PATH).length,
        };
    }
    before(async () => {
        database = await freshPostgresUrl();
        bank = await TestReceiver.start();
        const inboundPort = await freePort();
        inboundUrl = `https://127.0.0.1:${inboundPort}`;
        operator = await OperatorProcess.start({ bankUrls: [inboundUrl], schemes: { ZA_RTC: { latencyMs: 20 } } });
        const operatorCertificate = new X509Certificate(readFileSync(pki.operator.certFile));
        const configPath = writeTestConfig({
            database,
            integratorExtra: { partnerApiUrl: `${bank.url}/partner-api/v1`, eventsApiUrl: `${bank.url}/events-api/v1` },
            // The operator's client certificate is pinned: another one of the link CA is refused too.
            extra: { schemes: operatorLinkSchemes(operator.url, inboundPort, { ZA_RTC: 60_000 }, { operatorCertificateSha256: [operatorCertificate.fingerprint256] }) },
        });
        server = await startServer({ configPath });
        store = await openStore(database);
        // A transfer the operator takes and never answers (NEVER-ANSWER): it waits for a verdict.
        const transfer = creditTransfer('ZA_RTC');
        transfer.creditorAccount = { identification: { schema: 'GENERIC', value: testValue('silent').value } };
        const response = await fetch(`${server.url}/api/v1/transactions/outbound/credit-transfer`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: basicAuth() },
            body: JSON.stringify(transfer),
        });
        assert.equal(response.status, 202, await response.text());
        const { uetr } = transfer.transactionIdentifiers;
        await eventually(async () => (await store.findTransaction('demo-bank', uetr))?.state === 'PAYMENT_AUTH_REQUEST_DELIVERED', 'the operator took the transfer', 20_000);
        transactionId = (await store.findTransaction('demo-bank', uetr))?.id ?? '';
        // The verdict an impostor would like the service to believe.
        const messageId = 'FORGED0000000000000000000000000001';
        verdict = {
            scheme: 'ZA_RTC',
            messageName: 'pacs.002.001.10',
            idempotencyKey: messageId,
            document: pacs002Document({
                messageName: 'pacs.002.001.10',
                messageId,
                createdAt: isoDateTime(Date.now()),
                original: { messageId: schemeMessageId(transactionId), messageName: 'pacs.008.001.08', endToEndId: transfer.transactionIdentifiers.endToEndIdentification, uetr },
                status: 'ACSC',
                acceptedAt: isoDateTime(Date.now()),
            }),
            traceparent: null,
        };
    });
    after(async () => {
        await store.close();
        await server.stop();
        await operator.stop();
        await bank.down();
        await dropTestDatabase(database);
    });
    void it('refuses at the TLS handshake a client without a certificate, one another CA issued and one the pins do not name; logs each and records nothing', async () => {
        const noCertificate = new Agent({ connect: { ca: readFileSync(pki.caFile, 'utf8') } });
        await assert.rejects(request(messagesUrl(inboundUrl, 'ZA_RTC'), { method: 'POST', dispatcher: noCertificate, headers: { 'content-type': CONTENT_TYPE }, body: verdict.document }).then((answer) => answer.body.text()), 'a client without a certificate gets no answer');
        await noCertificate.close();
        for (const impostor of [client(pki.rogue, pki.operator.signing.privateFile), client(pki.stranger, pki.operator.signing.privateFile)]) {
            const outcome = await impostor.send(inboundUrl, verdict);
            assert.equal(outcome.kind, 'failed');
            assert.equal(outcome.kind === 'failed' ? outcome.status : 0, undefined, 'no HTTP answer at all');
            await impostor.close();
        }
        await eventually(() => logged(server, 'operator link (inbound): TLS connection refused') >= 2, 'both handshakes refused in the log', 5_000);
        await eventually(() => logged(server, 'client certificate not among the pinned ones') >= 1, 'the unpinned certificate refused in the log', 5_000);
        assert.doesNotMatch(server.output(), /BEGIN [A-Z ]*PRIVATE KEY/, 'no key in the log');
        // Whatever had been handed on would be recorded by now.
        await new Promise((resolve) => setTimeout(resolve, 500));
        const { states, callbacks } = await recorded();
        assert.equal(states.at(-1), 'PAYMENT_AUTH_REQUEST_DELIVERED', 'no verdict recorded');
        assert.equal(callbacks, 0);
    });
    void it('refuses (401) a message without a signature, one whose body changed after signing and one signed with a key it does not know; logs each and records nothing; takes it signed by the operator', async () => {
        const operatorTls = tlsOf(pki.operator);
        const asOperator = new Agent({ connect: { ca: operatorTls.ca, cert: operatorTls.cert, key: operatorTls.key } });
        const post = async (body, signature) => {
            const headers = { 'content-type': CONTENT_TYPE, [HEADER.messageName]: verdict.messageName, [HEADER.idempotencyKey]: verdict.idempotencyKey };
            if (signature !== undefined)
                headers[HEADER.signature] = signature;
            const answer = await request(messagesUrl(inboundUrl, 'ZA_RTC'), { method: 'POST', dispatcher: asOperator, headers, body });
            await answer.body.dump();
            return answer.statusCode;
        };
        const operatorKey = signingKey(pki.operator.signing.privateFile);
        assert.equal(await post(verdict.document, undefined), 401, 'no signature');
        // Signed as a rejection, sent as an approval.
        const rejection = verdict.document.replace('<TxSts>ACSC</TxSts>', '<TxSts>RJCT</TxSts>');
        assert.notEqual(rejection, verdict.document);
        assert.equal(await post(verdict.document, await signMessage(verdict, Buffer.from(rejection), operatorKey, Date.now())), 401, 'body changed after signing');
        const unknownKey = client(pki.operator, pki.unknownSigning.privateFile);
        const outcome = await unknownKey.send(inboundUrl, verdict);
        assert.equal(outcome.kind === 'failed' ? outcome.status : 0, 401, 'signed with a key nobody configured');
        await unknownKey.close();
        await eventually(() => logged(server, 'message refused, its signature does not hold') >= 3, 'each refusal in the log', 5_000);
        await new Promise((resolve) => setTimeout(resolve, 500));
        assert.deepEqual((await recorded()).callbacks, 0, 'nothing reached the integrator');
        assert.equal((await recorded()).states.at(-1), 'PAYMENT_AUTH_REQUEST_DELIVERED', 'no verdict recorded');
        // The same verdict, signed by the operator's key over this very body, is taken: the refusals were about the signature.
        const genuine = client(pki.operator, pki.operator.signing.privateFile);
        assert.deepEqual(transportOutcome(await genuine.send(inboundUrl, verdict)), { kind: 'delivered' });
        await genuine.close();
        await asOperator.close();
        assert.ok((await recorded()).states.includes('PAYMENT_AUTH_RESPONSE_RECEIVED'), 'recorded before the 2xx');
        await eventually(() => bank.to(CALLBACK_PATH).length === 1, 'the approval reaches the integrator', 10_000);
        assert.equal(JSON.parse(bank.to(CALLBACK_PATH)[0]?.body ?? '{}').status.outcome, 'APPROVED');
    });
});
void describe('the standalone operator simulator', () => {
    let operator;
    let store;
    const connectors = [];
    const inbound = new RecordingInbound();
    before(async () => {
        const ports = [await freePort(), await freePort()];
        operator = await OperatorProcess.start({ bankUrls: ports.map((port) => `https://127.0.0.1:${port}`), schemes: { ZA_RTC: { latencyMs: 20, lateAnswerMs: 1_500 } } });
        store = new OperatorStore(operator.storePath, { readonly: true });
        const family = familyOf('ZA_RTC');
        assert.ok(family);
        // Two instances of the service: each with its own inbound listener, both sending to the one operator.
        for (const port of ports) {
            const config = await configFromObject(testConfigObject({ database: 'sqlite::memory:', extra: { schemes: operatorLinkSchemes(operator.url, port, { ZA_RTC: 60_000 }) } }));
            const transport = new OperatorLinkTransport('ZA_RTC', config.schemes.ZA_RTC?.operatorLink, clock);
            const connector = createIsoConnector(family, { scheme: 'ZA_RTC', transport, clock });
            await connector.start(inbound);
            connectors.push(connector);
        }
    });
    after(async () => {
        for (const connector of connectors)
            await connector.stop();
        store.close();
        await operator.stop();
    });
    void it('remembers across a kill -9 every transfer it took: an enquiry after its restart gets the status it answered, not NOOR', async () => {
        const [first, second] = connectors;
        assert.ok(first && second);
        const transfer = toAccount('ZA_RTC', testValue('reject', 'AC06').value);
        assert.deepEqual(transportOutcome(await first.submit(transfer)), { kind: 'delivered' });
        const [answer] = await inbound.waitForTransfer(transfer, 1, 5_000);
        assert.equal(answer?.reasonCode, 'AC06');
        await operator.kill9();
        await operator.up();
        // Asked through the other instance, as after the first one died.
        assert.deepEqual(transportOutcome(await second.enquire(transfer)), { kind: 'delivered' });
        const [, enquired] = await inbound.waitForTransfer(transfer, 2, 5_000);
        assert.equal(enquired?.kind, 'status');
        assert.equal(enquired?.status, 'REJECTED');
        assert.equal(enquired?.reasonCode, 'AC06');
    });
    void it('delivers after a restart the answer it still owed when it was killed', async () => {
        const [first] = connectors;
        assert.ok(first);
        const transfer = toAccount('ZA_RTC', testValue('late').value);
        assert.deepEqual(transportOutcome(await first.submit(transfer)), { kind: 'delivered' });
        await operator.kill9();
        // Down past the answer's time: it is due at once when the operator is back.
        await new Promise((resolve) => setTimeout(resolve, 2_000));
        assert.equal(inbound.about(transfer).length, 0);
        const logBefore = operator.output().length;
        await operator.up();
        await eventually(() => operator.output().slice(logBefore).includes('resuming the answers its store holds'), 'the restarted operator resumes what its store holds', 5_000);
        const [answer] = await inbound.waitForTransfer(transfer, 1, 5_000);
        assert.equal(answer?.status, 'ACCEPTED');
    });
    void it('fails TRANSIENT-FAILURE once, whichever instance sends it: the other instance resubmits and the transfer is approved', async () => {
        const [first, second] = connectors;
        assert.ok(first && second);
        const transfer = toAccount('ZA_RTC', testValue('transient_failure').value);
        const failed = await first.submit(transfer);
        assert.equal(failed.kind === 'failed' && failed.retryable, true);
        assert.deepEqual(transportOutcome(await second.submit(transfer)), { kind: 'delivered' });
        const [answer] = await inbound.waitForTransfer(transfer, 1, 5_000);
        assert.equal(answer?.status, 'ACCEPTED');
        assert.equal(submissionsOf(store.state('ZA_RTC'), transfer.uetr), 1);
    });
});
//# sourceMappingURL=operator-link.test.js.map