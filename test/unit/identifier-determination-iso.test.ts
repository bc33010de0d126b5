import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { readAcmt023 } from '../../src/connectors/iso20022/acmt023.js';
import { acmt024Document, readAcmt024, type Acmt024Report } from '../../src/connectors/iso20022/acmt024.js';
import { createIsoConnector, identificationReport, type SchemeFamily } from '../../src/connectors/iso20022/connector.js';
import { schemeMessageId } from '../../src/connectors/iso20022/ids.js';
import { MESSAGE_SUPPLEMENT } from '../../src/connectors/iso20022/supplement.js';
import { child, children, readDocument, text } from '../../src/connectors/iso20022/xml.js';
import { defaultDirectoryPath, loadDirectory, parseDirectory, type Directory } from '../../src/connectors/simulator/directory.js';
import { SchemeSimulator, simulatorSettings, type SimulatorOptions } from '../../src/connectors/simulator/simulator.js';
import { threadedSimulatorTransport } from '../../src/connectors/simulator/threaded-simulator.js';
import type { SchemeTransport } from '../../src/connectors/transport.js';
import { ZA_RPP } from '../../src/connectors/za-rpp/family.js';
import { ZA_RTC } from '../../src/connectors/za-rtc/family.js';
import { IDENTIFIER_REASON_CODES, type ResolvedAccount } from '../../src/domain/messages/identifier-determination.js';
import type { OutboundLookup, SchemeConnector } from '../../src/ports/scheme.js';
import { account, IdentificationInbound, mobile, outboundLookup, shapId } from '../support/lookup.js';
import { sleep } from '../support/scheme.js';
import { CapturingTransport, DELIVERED, transportOutcome } from '../support/transport.js';
import { assertValid, XSD_SKIP } from '../support/xsd.js';

const clock = { now: () => Date.now() };
const LATENCY_MS = 2;
const LATE_ANSWER_MS = 200;
const CREATED_AT = '2026-03-02T07:15:27.482+00:00';

function simulatorOf(options: Partial<SimulatorOptions> = {}): SchemeSimulator {
  return new SchemeSimulator({ scheme: 'ZA_RPP', clock, latencyMs: LATENCY_MS, lateAnswerMs: LATE_ANSWER_MS, entriesMax: 1_000, deliveryAttemptsMax: 3, ...options });
}

function rppConnector(transport: SchemeTransport, family: SchemeFamily = ZA_RPP, log?: { warn: (details: Record<string, unknown>, message: string) => void }): SchemeConnector {
  return createIsoConnector(family, { scheme: family.schemes[0] ?? 'ZA_RPP', transport, clock, ...(log === undefined ? {} : { log }) });
}

/** The acmt.023 the ZA_RPP connector writes for a lookup. */
async function acmt023Of(lookup: OutboundLookup): Promise<string> {
  const transport = new CapturingTransport();
  assert.deepEqual(transportOutcome(await rppConnector(transport).resolve(lookup)), DELIVERED);
  const [message] = transport.sent;
  assert.ok(message);
  assert.equal(message.messageName, 'acmt.023.001.03');
  return message.document;
}

function shippedDirectory(): Directory {
  const loaded = loadDirectory(defaultDirectoryPath());
  assert.ok(loaded.ok, loaded.ok ? '' : loaded.error);
  return loaded.directory;
}

const THANDI: ResolvedAccount = {
  traditionalIdentifier: '62845123907',
  accountAgentBicfi: 'FIRNZAJJ',
  knownAsName: 'Thandi D',
  legalName: 'Thandiwe Nomvula Dlamini',
  creationDate: '2016-04-12',
  transactionLimit: { value: '50000.00', currency: 'ZAR' },
};

void describe('acmt.023 written for a lookup', () => {
  void it('names the proxy with its schema and namespace, the requesting bank as assigner and the clearing system as assignee', async () => {
    const lookup = outboundLookup(mobile('0821234567'));
    const read = readAcmt023(await acmt023Of(lookup));
    assert.ok(read.ok, read.ok ? '' : read.error);
    const request = read.value;
    assert.equal(request.messageId, schemeMessageId(lookup.idempotencyKey));
    assert.deepEqual(request.identifier, { schema: 'MOBILE', namespace: 'ZA_MOBILE', value: '0821234567' });
    assert.equal(request.verificationId, lookup.message.request.verificationIdentification);
    assert.equal(request.uetr, lookup.uetr);
    assert.equal(text(request.assigner, 'Agt', 'FinInstnId', 'BICFI'), 'DEMOZAJJ');
    assert.equal(text(request.assigner, 'Agt', 'FinInstnId', 'ClrSysMmbId', 'MmbId'), '210001');
    assert.equal(text(request.assigner, 'Agt', 'FinInstnId', 'ClrSysMmbId', 'ClrSysId', 'Cd'), 'ZANCC');
    assert.equal(text(request.assignee, 'Agt', 'FinInstnId', 'Othr', 'Id'), 'RPP', 'no instructed agent: the clearing system');
  });

  void it('names an account by its number at the bank given as account agent, addressed to the instructed agent', async () => {
    const lookup = outboundLookup(account('62845123907', 'FIRNZAJJ'));
    const read = readAcmt023(await acmt023Of(lookup));
    assert.ok(read.ok);
    assert.deepEqual(read.value.identifier, { schema: 'GENERIC', value: '62845123907' });
    assert.equal(read.value.accountAgentBicfi, 'FIRNZAJJ');
    assert.equal(text(read.value.assignee, 'Agt', 'FinInstnId', 'BICFI'), 'FIRNZAJJ');
  });

  void it('carries the same MsgId on every resend of one lookup, another on another lookup', async () => {
    const lookup = outboundLookup(shapId('thandi@shap'));
    const transport = new CapturingTransport();
    const connector = rppConnector(transport);
    await connector.resolve(lookup);
    await connector.resolve({ ...lookup, transactionId: 'another-attempt' });
    await connector.resolve(outboundLookup(shapId('thandi@shap')));
    const [first, resend, other] = transport.sent.map((message) => message.messageId);
    assert.equal(first, schemeMessageId(lookup.idempotencyKey));
    assert.equal(resend, first);
    assert.notEqual(other, first);
    assert.equal(transport.sent[0]?.idempotencyKey, lookup.idempotencyKey);
  });

  void it('uses the message id as Vrfctn/Id when the verificationIdentification is longer than the 35 characters ISO carries', async () => {
    const lookup = outboundLookup(shapId('thandi@shap'), (request) => {
      request.verificationIdentification = 'V'.repeat(36);
    });
    const read = readAcmt023(await acmt023Of(lookup));
    assert.ok(read.ok);
    assert.equal(read.value.verificationId, schemeMessageId(lookup.idempotencyKey));
  });

  void it('carries an agent the assignment does not write in the supplement as an agent element holds it: address parts and branch cut to ISO lengths, members the interface does not name left out', async () => {
    const address = { addressType: 'X'.repeat(50), streetName: 'S'.repeat(100), buildingNumber: 1234567890123, townName: 'T'.repeat(50), country: 'C'.repeat(80), addressLine: ['L'.repeat(90)] };
    const lookup = outboundLookup(shapId('thandi@shap'), (request) => {
      request.instructingAgent = {
        bicfi: 'FIRNZAJJ',
        address,
        branch: { identification: 'B'.repeat(40), name: 'N'.repeat(200), address: { postCode: 'P'.repeat(20) } },
        companyRegistration: 'R'.repeat(35),
        unnamed: 'U'.repeat(40),
      } as typeof request.instructingAgent;
    });
    const read = readDocument(await acmt023Of(lookup));
    assert.ok(read.ok, read.ok ? '' : read.error);
    const items = new Map<string, string>();
    for (const supplementary of children(read.body, 'SplmtryData')) {
      for (const item of children(child(supplementary, 'Envlp', MESSAGE_SUPPLEMENT), 'Itm')) items.set(text(item, 'Ptr') ?? '', text(item, 'Val') ?? '');
    }
    const agent = [...items].filter(([pointer]) => pointer.startsWith('/request/instructingAgent/'));
    assert.deepEqual(new Map(agent), new Map([
      ['/request/instructingAgent/bicfi', 'FIRNZAJJ'],
      ['/request/instructingAgent/address/streetName', 'S'.repeat(70)],
      ['/request/instructingAgent/address/buildingNumber', '1234567890123'],
      ['/request/instructingAgent/address/townName', 'T'.repeat(35)],
      ['/request/instructingAgent/address/country', 'C'.repeat(70)],
      ['/request/instructingAgent/address/addressLine/0', 'L'.repeat(70)],
      ['/request/instructingAgent/branch/identification', 'B'.repeat(35)],
      ['/request/instructingAgent/branch/name', 'N'.repeat(140)],
      ['/request/instructingAgent/branch/address/postCode', 'P'.repeat(16)],
      ['/request/instructingAgent/companyRegistration', 'R'.repeat(35)],
    ]));
  });

  void it('refuses, not retryable and without sending, a lookup the message cannot carry', async () => {
    const transport = new CapturingTransport();
    const connector = rppConnector(transport);
    const tooLong = await connector.resolve(outboundLookup(account('1'.repeat(35))));
    assert.deepEqual(tooLong.kind === 'failed' && [tooLong.retryable, tooLong.error.slice(0, 5)], [false, 'AC01:']);
    const nobody = await connector.resolve(
      outboundLookup(shapId('thandi@shap'), (request) => {
        request.requestor = { schema: 'INSTITUTION_IDENTIFICATION', name: 'Nobody' };
        delete request.instructingAgent;
      }),
    );
    assert.deepEqual(nobody.kind === 'failed' && [nobody.retryable, nobody.error.slice(0, 5)], [false, 'RC05:']);
    assert.equal(transport.sent.length, 0);
  });

  void it('is refused, not retryable and without sending, by a family without identifier determination', async () => {
    const transport = new CapturingTransport();
    const outcome = await rppConnector(transport, ZA_RTC).resolve({ ...outboundLookup(mobile('0821234567')), scheme: 'ZA_RTC' });
    assert.equal(outcome.kind, 'failed');
    assert.equal(outcome.kind === 'failed' && outcome.retryable, false);
    assert.equal(transport.sent.length, 0);
  });

  void it('refuses to build a family that declares the capability without the message, or the reverse', () => {
    const half: SchemeFamily = { ...ZA_RPP, capabilities: { ...ZA_RPP.capabilities, identifierDetermination: false } };
    assert.throws(() => rppConnector(new CapturingTransport(), half), RangeError);
  });
});

void describe('acmt.024 written and read', () => {
  const answerTo = {
    messageName: 'acmt.024.001.03',
    messageId: 'SIMZARPP1',
    createdAt: CREATED_AT,
    assigner: { Agt: { FinInstnId: { Othr: { Id: 'RPP' } } } },
    assignee: { Agt: { FinInstnId: { BICFI: 'DEMOZAJJ' } } },
    original: { messageId: 'Uabc', createdAt: CREATED_AT },
    originalId: 'VRF1',
  };

  void it('reads back every value of a resolved account as the text written, the proxy included', () => {
    const resolved: ResolvedAccount = { ...THANDI, proxy: { value: '+27-821234567', schema: 'MOBILE' } };
    const read = readAcmt024(acmt024Document({ ...answerTo, outcome: { verified: true, account: resolved } }));
    assert.ok(read.ok, read.ok ? '' : read.error);
    assert.equal(read.value.verified, true);
    assert.equal(read.value.originalMessageId, 'Uabc');
    assert.equal(read.value.messageId, 'SIMZARPP1');
    assert.deepEqual(read.value.account, resolved);
    assert.equal(read.value.reasonCode, undefined);
    assert.equal(read.value.json.schema, 'acmt.024.001.03');
    assert.equal(typeof read.value.json.IdVrfctnRpt, 'object', 'the whole document as JSON');
  });

  void it('reads a failure with its reason code and description, the description cut to 105 characters when written', () => {
    const long = 'x'.repeat(200);
    const read = readAcmt024(acmt024Document({ ...answerTo, outcome: { verified: false, reasonCode: 'AC04', reasonText: long } }));
    assert.ok(read.ok);
    assert.equal(read.value.verified, false);
    assert.equal(read.value.reasonCode, 'AC04');
    assert.equal(read.value.reasonText, long.slice(0, 105));
  });

  void it('refuses a document that is no acmt.024, or whose Vrfctn is not a boolean', () => {
    const document = acmt024Document({ ...answerTo, outcome: { verified: false, reasonCode: 'AC04' } });
    assert.equal(readAcmt024(document.replace('<Vrfctn>false</Vrfctn>', '<Vrfctn>maybe</Vrfctn>')).ok, false);
    assert.equal(readAcmt024(document.replaceAll('acmt.024.001.03', 'acmt.023.001.03')).ok, false);
  });
});

/** What the simulator answers to each of `requests` (acmt.023 documents), in order. */
async function simulatorAnswers(requests: readonly string[]): Promise<string[]> {
  const simulator = simulatorOf({ latencyMs: 0 });
  const answers: string[] = [];
  await simulator.start(({ document }) => {
    answers.push(document);
    return Promise.resolve();
  });
  for (const document of requests) {
    assert.deepEqual(transportOutcome(await simulator.send({ scheme: 'ZA_RPP', messageName: 'acmt.023.001.03', messageId: 'M', idempotencyKey: 'K', document, traceparent: null })), DELIVERED);
    const expected = answers.length + 1;
    while (answers.length < expected) await sleep(1);
  }
  await simulator.stop();
  return answers;
}

void describe('acmt.023 and acmt.024 against the ISO 20022 XSDs', { skip: XSD_SKIP }, () => {
  void it('writes schema-valid acmt.023 for proxies and accounts, and the simulator answers with schema-valid acmt.024', async () => {
    const lookups = [
      outboundLookup(mobile('+27-0821234567')),
      outboundLookup(shapId('thandi@shap'), (request) => {
        request.instructedAgent = { bicfi: 'RPPOZAJJ', clearingSystemMemberId: { memberId: '999999' } };
        request.accountAgent = { bicfi: 'FIRNZAJJXXX' };
      }),
      outboundLookup(account('62845123907')),
      outboundLookup(shapId('no-known-as@shap')),
      outboundLookup(shapId('fail-rr12@shap')),
      outboundLookup(account('0000000000')),
    ];
    const requests = await Promise.all(lookups.map(acmt023Of));
    await assertValid('acmt.023.001.03', requests);
    const answers = await simulatorAnswers(requests);
    await assertValid('acmt.024.001.03', answers);
    assert.deepEqual(
      answers.map((answer) => {
        const read = readAcmt024(answer);
        assert.ok(read.ok);
        return read.value.verified ? 'true' : read.value.reasonCode;
      }),
      ['true', 'true', 'true', 'true', 'RR12', 'AC01'],
    );
  });
});

void describe('identifier determination through the ZA_RPP connector and the simulated operator', () => {
  const simulator = simulatorOf();
  const connector = rppConnector(simulator);
  const inbound = new IdentificationInbound();
  before(async () => {
    await connector.start(inbound);
  });
  after(async () => {
    await connector.stop();
  });

  async function resolved(identifier: Parameters<typeof outboundLookup>[0]) {
    const lookup = outboundLookup(identifier);
    assert.deepEqual(transportOutcome(await connector.resolve(lookup)), DELIVERED);
    const [report] = await inbound.waitFor(lookup);
    assert.ok(report);
    return report;
  }

  void it('resolves a mobile number to the account with both names, answering later through the inbound side', async () => {
    const lookup = outboundLookup(mobile('0821234567'));
    assert.deepEqual(transportOutcome(await connector.resolve(lookup)), DELIVERED);
    assert.equal(inbound.about(lookup).length, 0, 'the answer comes asynchronously, not during resolve');
    const [report] = await inbound.waitFor(lookup);
    assert.equal(report?.kind, 'identification');
    assert.equal(report?.scheme, 'ZA_RPP');
    assert.equal(report?.outcome, 'SUCCESSFUL');
    assert.equal(report?.reasonCode, undefined);
    assert.deepEqual(report?.account, { ...THANDI, proxy: { value: '+27-821234567', schema: 'MOBILE' } });
    assert.equal(report?.message.schema, 'acmt.024.001.03');
  });

  void it('resolves an account number at its bank, also when the bank is named with a branch BIC', async () => {
    assert.deepEqual((await resolved(account('62845123907', 'FIRNZAJJXXX'))).account, THANDI);
    const elsewhere = await resolved(account('62845123907', 'ABSAZAJJ'));
    assert.deepEqual([elsewhere.outcome, elsewhere.reasonCode], ['FAILED', 'AC01']);
  });

  void it('answers every failing value of the directory with its reason code, by mobile number, ShapID and account number', async () => {
    const cases = shippedDirectory().entries.flatMap((entry) => {
      if (entry.answer !== 'FAILED') return [];
      const identifiers = [...entry.proxies.map((proxy) => (proxy.schema === 'MOBILE' ? mobile(proxy.value) : shapId(proxy.value.toUpperCase())))];
      if (entry.accountNumber !== undefined) identifiers.push(account(entry.accountNumber, 'NEDSZAJJ'));
      return identifiers.map((identifier) => ({ code: entry.reasonCode, lookup: outboundLookup(identifier) }));
    });
    assert.ok(cases.length >= 33 * 2, `${cases.length} failing values`);
    for (const { lookup } of cases) assert.deepEqual(transportOutcome(await connector.resolve(lookup)), DELIVERED);
    for (const { code, lookup } of cases) {
      const [report] = await inbound.waitFor(lookup);
      assert.equal(report?.outcome, 'FAILED', lookup.message.request.identifier.value);
      assert.equal(report?.reasonCode, code, lookup.message.request.identifier.value);
      assert.equal(report?.account, undefined);
      const description = report?.reasonText ?? '';
      assert.ok(description.length > 0 && [...description].length <= 35, `${code}: ${description}`);
    }
  });

  void it('reports a resolution without the known-as name ZA_RPP requires as FAILED CH21', async () => {
    const report = await resolved(shapId('no-known-as@shap'));
    assert.deepEqual([report.outcome, report.reasonCode, report.reasonText, report.account], ['FAILED', 'CH21', 'Mandatory element missing', undefined]);
  });

  void it('answers an unknown proxy, and a known one asked in another namespace, with PX03, and an unknown account with AC01', async () => {
    const unknown = await resolved(shapId('nobody@shap'));
    assert.deepEqual([unknown.outcome, unknown.reasonCode], ['FAILED', 'PX03']);
    const otherNamespace = await resolved(mobile('0731234567', 'ZA_MOBILE'));
    assert.deepEqual([otherNamespace.outcome, otherNamespace.reasonCode], ['FAILED', 'PX03']);
    const unknownAccount = await resolved(account('5555555555'));
    assert.deepEqual([unknownAccount.outcome, unknownAccount.reasonCode], ['FAILED', 'AC01']);
  });

  void it('resolves one mobile number to the account registered in the namespace asked', async () => {
    assert.equal((await resolved(mobile('+27731234567', 'ZA_PERSONAL'))).account?.legalName, 'Sipho Mandla Mokoena');
    assert.equal((await resolved(mobile('+27731234567', 'ZA_BUSINESS'))).account?.legalName, 'Mokoena Plumbing (Pty) Ltd');
  });

  void it('answers a resend still on its way once, and one already answered with the same report again', async () => {
    const lookup = outboundLookup(shapId('lerato@shap'));
    await connector.resolve(lookup);
    assert.deepEqual(transportOutcome(await connector.resolve({ ...lookup, transactionId: 'resend' })), DELIVERED);
    const [first] = await inbound.waitFor(lookup);
    await sleep(LATENCY_MS * 10 + 20);
    assert.equal(inbound.about(lookup).length, 1, 'one answer for two sends while it was on its way');
    await connector.resolve(lookup);
    const [, again] = await inbound.waitFor(lookup, 2);
    assert.deepEqual(again?.message, first?.message, 'the same acmt.024 again');
  });

  void it('never answers the AB06 value, nor a resend of it', async () => {
    const lookup = outboundLookup(mobile('0600000001'));
    assert.deepEqual(transportOutcome(await connector.resolve(lookup)), DELIVERED);
    assert.deepEqual(transportOutcome(await connector.resolve(lookup)), DELIVERED);
    await sleep(LATENCY_MS * 10 + 100);
    assert.equal(inbound.about(lookup).length, 0);
  });

  void it('answers the late value successfully, but only after the time budget', async () => {
    const lookup = outboundLookup(shapId('late@shap'));
    const sentAt = Date.now();
    await connector.resolve(lookup);
    const [report] = await inbound.waitFor(lookup, 1, LATE_ANSWER_MS + 2_000);
    assert.ok(Date.now() - sentAt >= LATE_ANSWER_MS - 5, 'not before the late answer time');
    assert.equal(report?.outcome, 'SUCCESSFUL');
  });
});

void describe('identification reports: the scheme rules on an answer', () => {
  const about = { scheme: 'ZA_RPP', idempotencyKey: 'key', receivedAt: 1 } as const;
  const answer = (overrides: Partial<Acmt024Report>): Acmt024Report => ({
    messageName: 'acmt.024.001.03',
    messageId: 'M',
    originalMessageId: 'O',
    verified: true,
    account: THANDI,
    json: { schema: 'acmt.024.001.03' },
    ...overrides,
  });

  void it('reports a resolution without the legal name as FAILED CH21, and one with both names as SUCCESSFUL', () => {
    const { legalName: _legalName, ...withoutLegalName } = THANDI;
    const failed = identificationReport(answer({ account: withoutLegalName }), about);
    assert.deepEqual([failed.outcome, failed.reasonCode, failed.account], ['FAILED', 'CH21', undefined]);
    const passed = identificationReport(answer({}), about);
    assert.deepEqual([passed.outcome, passed.reasonCode, passed.account], ['SUCCESSFUL', undefined, THANDI]);
  });

  void it("cuts the scheme's description to 35 characters at a word boundary, and gives the code's own text when the scheme gives none", () => {
    const long = identificationReport(answer({ verified: false, reasonCode: 'AC04', reasonText: 'Account closed on 2026-01-01 at the request of its holder' }), about);
    assert.equal(long.reasonText, 'Account closed on 2026-01-01 at the');
    const standard = identificationReport(answer({ verified: false, reasonCode: 'AC04' }), about);
    assert.equal(standard.reasonText, 'Account closed');
    const longStandard = identificationReport(answer({ verified: false, reasonCode: 'RR12' }), about);
    assert.equal(longStandard.reasonText, 'Identification required for the', 'cut before the word that would pass 35 characters');
  });

  void it('discards, with a warning, an acmt.024 about a lookup it cannot identify', async () => {
    const warnings: string[] = [];
    const transport = new CapturingTransport();
    const connector = rppConnector(transport, ZA_RPP, { warn: (_details, message) => warnings.push(message) });
    const inbound = new IdentificationInbound();
    await connector.start(inbound);
    const document = acmt024Document({
      messageName: 'acmt.024.001.03',
      messageId: 'SIM1',
      createdAt: CREATED_AT,
      assigner: { Agt: { FinInstnId: { BICFI: 'RPPOZAJJ' } } },
      assignee: { Agt: { FinInstnId: { BICFI: 'DEMOZAJJ' } } },
      original: { messageId: 'HNOTREMEMBEREDANDNOTREVERSIBLE' },
      originalId: 'V',
      outcome: { verified: false, reasonCode: 'AC04' },
    });
    await transport.answer(document);
    await connector.stop();
    assert.equal(inbound.reports.length, 0);
    assert.equal(warnings.length, 1);
  });
});

/** One entry resolving to a fixed account, found by the mobile number `+27-<national>`. */
function directoryWithMobile(national: string): Directory {
  const parsed = parseDirectory(
    JSON.stringify({
      entries: [{ name: 'one', answer: 'SUCCESSFUL', proxies: [{ schema: 'MOBILE', value: `+27-${national}` }], account: { traditionalIdentifier: '1', accountAgentBicfi: 'FIRNZAJJ' } }],
    }),
    'test',
    'json',
  );
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
  return parsed.directory;
}

void describe('the simulator directory', () => {
  void it('finds one entry for every published spelling of one mobile number', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[1-9]\d{8}$/), fc.constantFrom('', ' ', '  '), (national, space) => {
        const directory = directoryWithMobile(national);
        for (const spelling of [`0${national}`, `+27${national}`, `+27-${national}`, `+27-0${national}`, `27${national}`]) {
          const answer = directory.lookup({ schema: 'MOBILE', namespace: 'ZA_MOBILE', value: `${space}${spelling}${space}` });
          assert.equal(answer.kind, 'resolved', spelling);
          assert.deepEqual(answer.kind === 'resolved' && answer.account.proxy, { value: `+27-${national}`, schema: 'MOBILE' });
        }
      }),
    );
  });

  void it('answers a mobile value that is no South African mobile number with PX04, and an unknown proxy type too', () => {
    const directory = shippedDirectory();
    assert.deepEqual(directory.lookup({ schema: 'MOBILE', value: '+44-7911123456' }), { kind: 'failed', reasonCode: 'PX04' });
    assert.deepEqual(directory.lookup({ schema: 'EMAIL', value: 'thandi@shap' }), { kind: 'failed', reasonCode: 'PX04' });
  });

  void it('compares ShapIDs trimmed and without regard to letter case', () => {
    const answer = shippedDirectory().lookup({ schema: 'CUSTOM', namespace: 'ZA_CUSTOM', value: '  Thandi@SHAP ' });
    assert.equal(answer.kind === 'resolved' && answer.account.legalName, 'Thandiwe Nomvula Dlamini');
  });

  void it('has a failing value for every reason code of the interface, AB06 by never answering, each as mobile number and ShapID', () => {
    const codes = new Set<string>();
    for (const entry of shippedDirectory().entries) {
      if (entry.answer !== 'FAILED' && entry.answer !== 'NEVER') continue;
      const code = entry.answer === 'FAILED' ? entry.reasonCode : 'AB06';
      codes.add(code);
      assert.deepEqual(
        entry.proxies.map((proxy) => proxy.schema),
        ['MOBILE', 'CUSTOM'],
        code,
      );
      assert.equal(entry.accountNumber === undefined, ['BE23', 'PX03', 'PX04'].includes(code), `${code}: an account number unless a proxy code`);
    }
    assert.deepEqual([...codes].sort(), Object.keys(IDENTIFIER_REASON_CODES).sort());
  });

  void it('refuses a file breaking its rules, naming each bad entry by index and name', () => {
    const parsed = parseDirectory(
      JSON.stringify({
        entries: [
          { name: 'good', answer: 'FAILED', reasonCode: 'AC04', proxies: [{ schema: 'CUSTOM', value: 'a@shap' }] },
          { name: 'float', answer: 'SUCCESSFUL', account: { traditionalIdentifier: '1', accountAgentBicfi: 'FIRNZAJJ', transactionLimit: { value: 5000.5, currency: 'ZAR' } } },
          { name: 'badbic', answer: 'SUCCESSFUL', account: { traditionalIdentifier: '2', accountAgentBicfi: 'firn' } },
          { name: 'twin', answer: 'FAILED', reasonCode: 'AC06', proxies: [{ schema: 'CUSTOM', value: ' A@SHAP' }] },
          { name: 'typo', answer: 'NEVER', acountNumber: '3' },
        ],
      }),
      'mine.json',
      'json',
    );
    assert.equal(parsed.ok, false);
    const error = parsed.ok ? '' : parsed.error;
    assert.match(error, /mine\.json/);
    assert.match(error, /entries\[1\] \(float\): account: transactionLimit: .*quoted/);
    assert.match(error, /entries\[2\] \(badbic\): account: accountAgentBicfi "firn" is not a BIC/);
    assert.match(error, /entries good and twin: both list CUSTOM a@shap without namespace/);
    assert.match(error, /entries\[4\] \(typo\): unknown key "acountNumber"/);
  });

  void it('reads YAML as well as JSON, and says which file it cannot read', () => {
    const folder = mkdtempSync(join(tmpdir(), 'regpay-directory-'));
    const path = join(folder, 'directory.yaml');
    writeFileSync(path, 'entries:\n  - name: zodwa\n    answer: FAILED\n    reasonCode: MD07\n    proxies: [{ schema: CUSTOM, value: zodwa@shap }]\n');
    const loaded = loadDirectory(path);
    assert.ok(loaded.ok, loaded.ok ? '' : loaded.error);
    assert.deepEqual(loaded.directory.lookup({ schema: 'CUSTOM', value: 'zodwa@shap' }), { kind: 'failed', reasonCode: 'MD07' });
    const missing = loadDirectory(join(folder, 'absent.json'));
    assert.equal(missing.ok, false);
    assert.match(missing.ok ? '' : missing.error, /absent\.json/);
  });

  void it('is documented entry by entry in docs/simulator.md, each value in the row of its reason code', () => {
    const doc = readFileSync(fileURLToPath(new URL('../../../docs/simulator.md', import.meta.url)), 'utf8');
    const rows = doc.split('\n').filter((line) => line.startsWith('|'));
    const raw = JSON.parse(readFileSync(defaultDirectoryPath(), 'utf8')) as { entries: { name: string; answer: string; reasonCode?: string; accountNumber?: string; proxies?: { value: string }[]; account?: { traditionalIdentifier: string } }[] };
    for (const entry of raw.entries) {
      const values = [...(entry.proxies ?? []).map((proxy) => proxy.value), entry.accountNumber ?? entry.account?.traditionalIdentifier].filter((value) => value !== undefined);
      const code = entry.answer === 'NEVER' ? 'AB06' : entry.reasonCode;
      const row = rows.find((line) => values.every((value) => line.includes(`\`${value}\``)));
      assert.ok(row, `docs/simulator.md has a row with every value of ${entry.name}: ${values.join(', ')}`);
      if (code !== undefined) assert.ok(row.includes(`\`${code}\``), `the row of ${entry.name} names ${code}`);
    }
  });
});

void describe('the simulator directory setting', () => {
  void it("takes the directory from the scheme's simulatorDirectory, else from the override, else the shipped one", () => {
    const context = { scheme: 'ZA_RPP', timeBudgetMs: 1_000, clock } as const;
    assert.equal(simulatorSettings({ ...context, config: { connector: 'simulator', timeBudgetMs: 1_000, inbound: { answerTimeoutMs: 5_000 }, simulatorDirectory: 'operator.yaml' } }, { directoryPath: 'override.json' }).directoryPath, 'operator.yaml');
    assert.equal(simulatorSettings({ ...context, config: undefined }, { directoryPath: 'override.json' }).directoryPath, 'override.json');
    assert.equal(simulatorSettings({ ...context, config: undefined }).directoryPath, undefined);
  });

  void it("answers from an operator's own directory file", async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'regpay-directory-')), 'directory.json');
    writeFileSync(path, JSON.stringify({ entries: [{ name: 'sole', answer: 'FAILED', reasonCode: 'NOCM', proxies: [{ schema: 'CUSTOM', value: 'thandi@shap' }] }] }));
    const connector = rppConnector(simulatorOf({ directoryPath: path }));
    const inbound = new IdentificationInbound();
    await connector.start(inbound);
    const lookup = outboundLookup(shapId('thandi@shap'));
    await connector.resolve(lookup);
    const [report] = await inbound.waitFor(lookup);
    await connector.stop();
    assert.deepEqual([report?.outcome, report?.reasonCode], ['FAILED', 'NOCM']);
  });

  void it('refuses every lookup, not retryable, when the directory file is broken, naming the file', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'regpay-directory-')), 'broken.json');
    writeFileSync(path, '{"entries": [');
    const outcome = await rppConnector(simulatorOf({ directoryPath: path })).resolve(outboundLookup(shapId('thandi@shap')));
    assert.equal(outcome.kind, 'failed');
    assert.equal(outcome.kind === 'failed' && outcome.retryable, false);
    assert.match(outcome.kind === 'failed' ? outcome.error : '', /broken\.json/);
  });

  void it('answers identifier determination from the simulator thread as well', async () => {
    const transport = threadedSimulatorTransport({ latencyMs: 1 })({ scheme: 'ZA_RPP', timeBudgetMs: 1_000, config: undefined, clock });
    const connector = rppConnector(transport);
    const inbound = new IdentificationInbound();
    await connector.start(inbound);
    try {
      const lookup = outboundLookup(mobile('27821234567'));
      assert.deepEqual(transportOutcome(await connector.resolve(lookup)), DELIVERED);
      const [report] = await inbound.waitFor(lookup, 1, 5_000);
      assert.equal(report?.outcome, 'SUCCESSFUL');
      assert.equal(report?.account?.knownAsName, 'Thandi D');
    } finally {
      await connector.stop();
    }
  });
});
