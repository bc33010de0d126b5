import { schemeRulesOf } from '../../src/connectors/registry.js';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { Agent, request } from 'undici';
import { systemClock, systemIds } from '../../src/adapters/system/system.js';
import { acceptCreditTransfer } from '../../src/app/accept-credit-transfer.js';
import { configFromObject } from '../../src/config/load.js';
import type { OperatorLinkConfig } from '../../src/config/types.js';
import { schemeMessageId } from '../../src/connectors/iso20022/ids.js';
import { pacs002Document } from '../../src/connectors/iso20022/pacs002.js';
import { isoDateTime } from '../../src/connectors/iso20022/pacs008.js';
import { CONTENT_TYPE, HEADER, messagesUrl, signMessage } from '../../src/connectors/operator-link/protocol.js';
import { OperatorLinkTransport } from '../../src/connectors/operator-link/transport.js';
import { SchemeSimulator } from '../../src/connectors/simulator/simulator.js';
import { testValue } from '../../src/connectors/simulator/test-values.js';
import { CT } from '../../src/domain/machines/credit-transfer.js';
import { validateCreditTransfer } from '../../src/domain/messages/validate.js';
import { AnswerNotRecordedError, Engine } from '../../src/engine/engine.js';
import { parseLinkPrivateKey } from '../../src/lib/link-keys.js';
import { newTraceparent } from '../../src/lib/trace.js';
import type { SchemeTransport } from '../../src/connectors/transport.js';
import type { SchemeConnector } from '../../src/ports/scheme.js';
import type { Store } from '../../src/ports/store.js';
import { creditTransfer } from '../fixtures/credit-transfer.js';
import { DEMO_INSTITUTION, zaRppEngine } from '../support/engine.js';
import { eventually, integratorConfig, memoryStore, withStoreMethods } from '../support/delivery.js';
import { operatorLinkSchemes } from '../support/operator.js';
import { linkPki } from '../support/pki.js';
import { freePort, testConfigObject } from '../support/server.js';

const silentLog = pino({ level: 'silent' });

/** An engine on `store` whose ZA_RPP connector speaks through `transport`. */
function engineOn(store: Store, transport: SchemeTransport, instanceId: string): Promise<{ engine: Engine; connector: SchemeConnector }> {
  return zaRppEngine(store, transport, instanceId, {}, silentLog);
}

void describe('a scheme answer the engine could not record', () => {
  let store: Store;
  /** While true, every change the answering instance tries is refused as stale (another instance always got there first). */
  const refusing = { stale: true };
  let sender: Awaited<ReturnType<typeof engineOn>>;
  let answering: Awaited<ReturnType<typeof engineOn>>;
  let inboundUrl: string;
  let uetr: string;
  let transactionId: string;
  let endToEndId: string;

  before(async () => {
    store = await memoryStore();
    // The sending instance takes the transfer to the scheme, which never answers this account.
    const simulator = new SchemeSimulator({ scheme: 'ZA_RPP', clock: systemClock, latencyMs: 0, lateAnswerMs: 60_000, entriesMax: 100, deliveryAttemptsMax: 3 });
    sender = await engineOn(store, simulator, 'instance-a');
    const integrator = await integratorConfig('bank-a', 'http://127.0.0.1:9', DEMO_INSTITUTION);
    const body = creditTransfer('ZA_RPP');
    body.creditorAccount = { identification: { schema: 'GENERIC', value: testValue('silent').value }, name: 'Silent Scheme' };
    const valid = validateCreditTransfer(JSON.parse(JSON.stringify(body)));
    assert.ok(valid.ok);
    await acceptCreditTransfer(
      { store, clock: systemClock, ids: systemIds, schemeRules: schemeRulesOf },
      { integrator, transfer: valid.value, rawBody: JSON.stringify(body), trace: { traceparent: newTraceparent(), tracestate: null } },
    );
    uetr = body.transactionIdentifiers.uetr;
    endToEndId = body.transactionIdentifiers.endToEndIdentification;
    sender.engine.start();
    await eventually(async () => (await store.findTransaction('bank-a', uetr))?.state === CT.REQUEST_DELIVERED, 'the scheme took the transfer');
    await sender.engine.stop();
    transactionId = (await store.findTransaction('bank-a', uetr))?.id ?? '';

    // The answering instance receives the operator's answers over the link, on a store that may refuse its changes.
    const inboundPort = await freePort();
    inboundUrl = `https://127.0.0.1:${inboundPort}`;
    const config = await configFromObject(testConfigObject({ database: 'sqlite::memory:', extra: { schemes: operatorLinkSchemes('https://127.0.0.1:9', inboundPort, { ZA_RPP: 60_000 }) } }));
    const refusingStore = withStoreMethods(store, {
      applyChange: (target) => (change) => (refusing.stale ? Promise.resolve({ ok: false, reason: 'stale' }) : target.applyChange(change)),
    });
    answering = await engineOn(refusingStore, new OperatorLinkTransport('ZA_RPP', config.schemes.ZA_RPP?.operatorLink as OperatorLinkConfig, systemClock), 'instance-b');
  });

  after(async () => {
    for (const { engine, connector } of [sender, answering]) {
      await engine.stop();
      await connector.stop();
    }
    await store.close();
  });

  /** The scheme's approval, as the operator posts it to the answering instance's inbound listener: its status and Retry-After. */
  async function operatorPostsApproval(): Promise<{ status: number; retryAfter: string | undefined }> {
    const pki = linkPki();
    const messageId = 'APPROVAL000000000000000000000000001';
    const message = {
      scheme: 'ZA_RPP',
      messageName: 'pacs.002.001.10',
      idempotencyKey: messageId,
      document: pacs002Document({
        messageName: 'pacs.002.001.10',
        messageId,
        createdAt: isoDateTime(Date.now()),
        original: { messageId: schemeMessageId(transactionId), messageName: 'pacs.008.001.10', endToEndId, uetr },
        status: 'ACSC',
        acceptedAt: isoDateTime(Date.now()),
      }),
      traceparent: null,
    };
    const signingKey = parseLinkPrivateKey(readFileSync(pki.operator.signing.privateFile, 'utf8'));
    assert.ok(signingKey.ok);
    const body = Buffer.from(message.document, 'utf8');
    const agent = new Agent({ connect: { ca: readFileSync(pki.caFile, 'utf8'), cert: readFileSync(pki.operator.certFile, 'utf8'), key: readFileSync(pki.operator.keyFile, 'utf8') } });
    try {
      const answer = await request(messagesUrl(inboundUrl, 'ZA_RPP'), {
        method: 'POST',
        dispatcher: agent,
        headers: {
          'content-type': CONTENT_TYPE,
          [HEADER.idempotencyKey]: messageId,
          [HEADER.messageName]: message.messageName,
          [HEADER.signature]: await signMessage(message, body, signingKey.value, Date.now()),
        },
        body,
      });
      await answer.body.dump();
      const retryAfter = answer.headers['retry-after'];
      return { status: answer.statusCode, retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter };
    } finally {
      await agent.close();
    }
  }

  async function received(): Promise<number> {
    return (await store.schemeMessages(transactionId)).filter((row) => row.direction === 'received').length;
  }

  void it('is refused by the engine when its decision stayed stale through every retry, and nothing of it is kept', async () => {
    refusing.stale = true;
    const approval = { scheme: 'ZA_RPP', uetr, idempotencyKey: transactionId, kind: 'status', status: 'ACCEPTED', message: { schema: 'pacs.002.001.10' }, receivedAt: Date.now() } as const;
    const wire = { messageName: 'pacs.002.001.10', messageId: 'DIRECT00000000000000000000000000001', document: '<Document/>' };
    await assert.rejects(answering.engine.receive({ ...approval, received: wire }), AnswerNotRecordedError);
    assert.equal((await store.getTransaction(transactionId))?.state, CT.REQUEST_DELIVERED, 'the transfer did not move');
    assert.equal(await received(), 0, 'the answer was not kept');
  });

  void it('is answered 503 with Retry-After over the operator link, recording nothing; the same message sent again once it can be recorded is answered 204', async () => {
    refusing.stale = true;
    assert.deepEqual(await operatorPostsApproval(), { status: 503, retryAfter: '1' });
    assert.equal((await store.getTransaction(transactionId))?.state, CT.REQUEST_DELIVERED, 'the transfer did not move');
    assert.equal(await received(), 0, 'the answer was not kept');

    refusing.stale = false;
    assert.deepEqual(await operatorPostsApproval(), { status: 204, retryAfter: undefined });
    assert.equal((await store.getTransaction(transactionId))?.state, CT.RESPONSE_PENDING, 'the approval was recorded before the 204');
    assert.equal(await received(), 1, 'the answer is kept once');
  });
});
