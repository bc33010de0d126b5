import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { systemClock, systemIds } from '../../src/adapters/system/system.js';
import type { IntegratorConfig } from '../../src/config/types.js';
import { createIsoConnector } from '../../src/connectors/iso20022/connector.js';
import { ZA_RPP } from '../../src/connectors/za-rpp/family.js';
import { ZA_RTC } from '../../src/connectors/za-rtc/family.js';
import type { SchemeTransport } from '../../src/connectors/transport.js';
import { directionOf } from '../../src/domain/events.js';
import type { TransactionKind } from '../../src/domain/kinds.js';
import { REQUEST_TO_PAY_LINK } from '../../src/domain/machines/inbound-request-to-pay.js';
import { MACHINES } from '../../src/domain/machines/registry.js';
import { identifierDeterminationResponseJson } from '../../src/domain/messages/identifier-determination.js';
import { paymentStatusReportJson } from '../../src/domain/messages/payment-status-report.js';
import type { KindContext, DriverEnv, EngineInput, CommandOutcome } from '../../src/engine/kinds/kind.js';
import { DRIVERS } from '../../src/engine/kinds/registry.js';
import type { InboundReport, SchemeConnector } from '../../src/ports/scheme.js';
import type { OutboxRecord, TransactionRecord } from '../../src/ports/store.js';
import type { TransactionRequest } from '../../src/ports/processing.js';
import { creditTransfer } from '../fixtures/credit-transfer.js';
import { identifierDetermination } from '../fixtures/identifier-determination.js';
import { requestToPay } from '../fixtures/request-to-pay.js';
import { integratorConfig } from '../support/delivery.js';
import { apiTables, cells, documentedName, schemasIn } from '../support/event-payloads.js';

/**
 * docs/api.md's "Event payloads" tables (and docs/state-machine.md's per kind) against the
 * service: every kind's real driver and machine are run over random inputs (timers, transport
 * outcomes, scheme reports, the integrator's requests and answers, callback outcomes), and the
 * payload of every state entered — the message the engine posts as its event — names a schema
 * the table lists for that direction and type; every schema the table lists is seen.
 */

/** state-machine.md: each kind's section, its tables with an "event payload" column. */
const SECTIONS: ReadonlyArray<readonly [string, readonly TransactionKind[]]> = [
  ['## Credit transfer', ['CREDIT_TRANSFER']],
  ['## Identifier determination', ['IDENTIFIER_DETERMINATION']],
  ['## Request-to-pay', ['REQUEST_TO_PAY']],
  ['## Inbound lookup and credit', ['INBOUND_CREDIT_TRANSFER', 'INBOUND_IDENTIFIER_DETERMINATION']],
  ['## Inbound request-to-pay', ['INBOUND_REQUEST_TO_PAY']],
];

function stateMachineTables(): ReadonlyMap<TransactionKind, ReadonlyMap<string, ReadonlySet<string>>> {
  const text = readFileSync('docs/state-machine.md', 'utf8');
  const byKind = new Map<TransactionKind, Map<string, Set<string>>>();
  for (const [heading, kinds] of SECTIONS) {
    const start = text.indexOf(`\n${heading}\n`);
    assert.ok(start >= 0, `state-machine.md has the section ${heading}`);
    const section = text.slice(start + 1, text.indexOf('\n## ', start + 1));
    let column = -1;
    for (const line of section.split('\n')) {
      if (!line.startsWith('|')) {
        column = -1;
        continue;
      }
      const row = cells(line);
      if (column < 0) {
        column = row.indexOf('event payload');
        continue;
      }
      const state = /^`([A-Z_]+)`$/.exec(row[0] ?? '')?.[1];
      if (state === undefined) continue;
      const kind = kinds.find((candidate) => MACHINES.get(candidate)?.transitions[state] !== undefined);
      assert.ok(kind !== undefined, `${heading}: ${state} is a state of ${kinds.join(' or ')}`);
      const table = byKind.get(kind) ?? new Map<string, Set<string>>();
      table.set(state, schemasIn(row[column] ?? ''));
      byKind.set(kind, table);
    }
  }
  return byKind;
}

function statesOf(kind: TransactionKind): string[] {
  const machine = MACHINES.get(kind);
  assert.ok(machine !== undefined);
  return Object.keys(machine.transitions);
}

const KINDS: readonly TransactionKind[] = ['CREDIT_TRANSFER', 'IDENTIFIER_DETERMINATION', 'REQUEST_TO_PAY', 'INBOUND_CREDIT_TRANSFER', 'INBOUND_IDENTIFIER_DETERMINATION', 'INBOUND_REQUEST_TO_PAY'];

const START = Date.parse('2026-03-02T07:00:00Z');
const TRACE = { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', tracestate: null };
const NOT_SENDING: SchemeTransport = {
  start: () => Promise.resolve(),
  stop: () => Promise.resolve(),
  send: () => Promise.resolve({ kind: 'failed', retryable: true, error: 'not sending' }),
} as unknown as SchemeTransport;

/** What one random step of a transaction's life is: the engine's inputs, told apart by what the test must set up around them. */
type Step =
  | { readonly t: 'tick'; readonly advanceMs: number }
  | { readonly t: 'sent'; readonly pick: number; readonly outcome: 'ok' | 'retry' | 'permanent'; readonly reply: number }
  | { readonly t: 'scheme'; readonly pick: number }
  | { readonly t: 'request'; readonly pick: number }
  | { readonly t: 'callback'; readonly delivered: boolean }
  | { readonly t: 'payment'; readonly outcome: 'APPROVED' | 'REJECTED' | 'PENDING' };

const steps = fc.array(
  fc.oneof(
    { weight: 3, arbitrary: fc.record({ t: fc.constant('tick' as const), advanceMs: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 3_000 }), fc.integer({ min: 3_000, max: 4_000_000 })) }) },
    { weight: 3, arbitrary: fc.record({ t: fc.constant('sent' as const), pick: fc.nat(9), outcome: fc.constantFrom('ok' as const, 'retry' as const, 'permanent' as const), reply: fc.nat(5) }) },
    { weight: 2, arbitrary: fc.record({ t: fc.constant('scheme' as const), pick: fc.nat(9) }) },
    { weight: 2, arbitrary: fc.record({ t: fc.constant('request' as const), pick: fc.nat(9) }) },
    { weight: 2, arbitrary: fc.record({ t: fc.constant('callback' as const), delivered: fc.boolean() }) },
    { weight: 1, arbitrary: fc.record({ t: fc.constant('payment' as const), outcome: fc.constantFrom('APPROVED' as const, 'REJECTED' as const, 'PENDING' as const) }) },
  ),
  { maxLength: 30 },
);

const setup = fc.record({ variant: fc.nat(5), capable: fc.boolean() });

interface Integrators {
  readonly plain: IntegratorConfig;
  /** A maximum every fixture transfer is above: the scheme rule AM02 is broken. */
  readonly limited: IntegratorConfig;
}

void describe('event payloads as docs/api.md and docs/state-machine.md say', () => {
  const documented = apiTables();
  let integrators: Integrators;
  const rpp = createIsoConnector(ZA_RPP, { scheme: 'ZA_RPP', transport: NOT_SENDING, clock: systemClock });
  // A connector that resolves no identifiers and carries no request-to-pay (real: ZA_RTC's).
  const rtc = createIsoConnector(ZA_RTC, { scheme: 'ZA_RTC', transport: NOT_SENDING, clock: systemClock });

  before(async () => {
    integrators = {
      plain: await integratorConfig('bank-a', 'http://127.0.0.1:9'),
      limited: await integratorConfig('bank-a', 'http://127.0.0.1:9', { limits: { amountMax: { ZA_RPP: '0.01' } } }),
    };
  });

  void it('lists every event type of each direction once, and nothing else', () => {
    for (const direction of ['OUTBOUND', 'INBOUND'] as const) {
      const types = new Set(KINDS.filter((kind) => directionOf(kind) === direction).flatMap(statesOf));
      assert.deepEqual([...(documented.get(direction)?.keys() ?? [])].sort(), [...types].sort(), `${direction} types`);
      for (const [type, schemas] of documented.get(direction) ?? []) assert.ok(schemas.size > 0, `${direction} ${type} names its payload's schema`);
    }
  });

  void it("has state-machine.md's payload column name the same schemas as api.md for every state of every kind", () => {
    const tables = stateMachineTables();
    for (const kind of KINDS) {
      const table = tables.get(kind);
      assert.ok(table !== undefined, `state-machine.md has a payload table for ${kind}`);
      assert.deepEqual([...table.keys()].sort(), statesOf(kind).sort(), `state-machine.md lists every ${kind} state`);
      for (const [state, schemas] of table) {
        assert.deepEqual([...schemas].sort(), [...(documented.get(directionOf(kind))?.get(state) ?? [])].sort(), `${kind} ${state}: state-machine.md and api.md agree`);
      }
    }
  });

  void it('gives every event of every kind, over random inputs, a payload whose schema the table lists, and shows every schema listed', async () => {
    const seen = new Map<string, Set<string>>();
    for (const kind of KINDS) {
      await fc.assert(
        fc.asyncProperty(setup, steps, async (options, walk) => {
          for (const [state, schema] of await run(kind, options, walk)) {
            const allowed = documented.get(directionOf(kind))?.get(state);
            assert.ok(allowed?.has(documentedName(schema)), `${kind} ${state} carried ${schema}; the table lists ${[...(allowed ?? [])].join(', ')}`);
            const key = `${directionOf(kind)} ${state}`;
            seen.set(key, (seen.get(key) ?? new Set()).add(documentedName(schema)));
          }
        }),
        { numRuns: 400 },
      );
    }
    const unseen = [...documented].flatMap(([direction, table]) => [...table].flatMap(([type, schemas]) => [...schemas].filter((schema) => !seen.get(`${direction} ${type}`)?.has(schema)).map((schema) => `${direction} ${type}: ${schema}`)));
    assert.deepEqual(unseen, [], 'every payload the tables list is one the service gives');
  });

  /** One transaction of `kind` through `walk`: the (state, payload schema) of every state entered. */
  async function run(kind: TransactionKind, options: { readonly variant: number; readonly capable: boolean }, walk: readonly Step[]): Promise<Array<[string, string]>> {
    const driver = DRIVERS.get(kind);
    assert.ok(driver !== undefined);
    const world = worldOf(kind, options);
    const entered: Array<[string, string]> = [];
    let transaction = world.transaction;
    let now = START;
    const outbox = new Map<string, OutboxRecord>();
    let payment: 'APPROVED' | 'REJECTED' | 'PENDING' | undefined;
    const env = (): DriverEnv => ({
      now,
      ids: systemIds,
      timeBudgetMs: 10_000,
      delays: { resendDelayMs: (n) => 1_000 * 2 ** Math.min(n - 1, 5), enquiryDelayMs: (n) => 5_000 * 2 ** Math.min(n - 1, 6), callbackCheckMs: 60_000 },
      store: {
        outbox: (id: string) => Promise.resolve([...outbox.values()].filter((row) => row.transactionId === id)),
        findTransaction: () =>
          Promise.resolve(
            payment === undefined
              ? undefined
              : { ...transaction, id: 'transfer-1', kind: 'CREDIT_TRANSFER' as const, data: { [REQUEST_TO_PAY_LINK]: transaction.id, ...(payment === 'PENDING' ? {} : { verdict: { outcome: payment } }) } },
          ),
      },
    });
    const decideOn = async (input: EngineInput): Promise<void> => {
      const context: KindContext = { transaction, integrator: world.integrator, connector: world.connector, rawBody: world.rawBody, message: JSON.parse(world.rawBody) as unknown };
      const decision = await driver.decide(context, input, env());
      if (decision === undefined) return;
      for (const step of decision.steps) {
        const payload = JSON.parse(step.payloadJson ?? world.rawBody) as { schema?: unknown };
        entered.push([step.state, typeof payload.schema === 'string' ? payload.schema : `(no schema: ${JSON.stringify(payload).slice(0, 80)})`]);
      }
      for (const message of decision.outbox) {
        outbox.set(message.id, { ...message, transactionId: transaction.id, integratorId: transaction.integratorId, status: 'PENDING', attempts: 0, nextAttemptAt: now, createdAt: now } as unknown as OutboxRecord);
      }
      const last = decision.steps.at(-1);
      transaction = { ...transaction, state: last?.state ?? transaction.state, version: transaction.version + decision.steps.length, data: decision.data, dueAt: decision.dueAt };
    };
    // The intake commit enters the first state with the request as its cause; the engine takes it up on its first tick, whatever comes first.
    entered.push([transaction.state, String((JSON.parse(world.rawBody) as { schema?: unknown }).schema)]);
    for (const step of walk) {
      switch (step.t) {
        case 'tick':
          now += step.advanceMs;
          await decideOn({ type: 'tick' });
          break;
        case 'sent': {
          const command = world.commands[step.pick % world.commands.length] ?? 'none';
          await decideOn({ type: 'sent', command, outcome: outcomeOf(world, command, step) });
          break;
        }
        case 'scheme': {
          const report = world.reports(transaction)[step.pick % world.reports(transaction).length];
          if (report !== undefined) await decideOn({ type: 'scheme', report });
          break;
        }
        case 'request': {
          const request = world.requests[step.pick % world.requests.length];
          if (request !== undefined) await decideOn({ type: 'request', request });
          break;
        }
        case 'callback': {
          const id = transaction.data.callbackId;
          const row = typeof id === 'string' ? outbox.get(id) : undefined;
          if (row === undefined) break;
          outbox.set(row.id, { ...row, status: step.delivered ? 'DELIVERED' : 'PENDING', attempts: row.attempts + 1 });
          await decideOn({ type: 'callback', outboxId: row.id, delivered: step.delivered, body: row.body });
          break;
        }
        case 'payment':
          payment = step.outcome;
          await decideOn({ type: 'tick' });
          break;
      }
    }
    return entered;
  }

  interface World {
    readonly transaction: TransactionRecord;
    readonly integrator: IntegratorConfig;
    readonly connector: SchemeConnector;
    readonly rawBody: string;
    readonly commands: readonly string[];
    /** The integrator's answers to a call (the 200 of a sync call). */
    readonly replies: readonly string[];
    reports(transaction: TransactionRecord): readonly InboundReport[];
    readonly requests: readonly TransactionRequest[];
  }

  function worldOf(kind: TransactionKind, options: { readonly variant: number; readonly capable: boolean }): World {
    const base = {
      id: `${kind.toLowerCase()}-1`,
      integratorId: 'bank-a',
      kind,
      scheme: 'ZA_RPP' as const,
      version: 1,
      createdAt: START,
      updatedAt: START,
      dueAt: START,
      traceparent: TRACE.traceparent,
      tracestate: null,
    };
    const connector = options.capable ? rpp : rtc;
    const about = { scheme: 'ZA_RPP' as const, idempotencyKey: base.id, receivedAt: START };
    const transfer = creditTransfer('ZA_RPP');
    const lookup = identifierDetermination('MOBILE');
    const rtp = requestToPay('MOBILE', START);
    const approved = paymentStatusReportJson({ original: transfer, verdict: { outcome: 'APPROVED' }, messageIdentification: 'ANSWER1', createdAt: START });
    const declined = paymentStatusReportJson({ original: transfer, verdict: { outcome: 'REJECTED', reasonCode: 'AC04', reasonText: 'Account closed' }, messageIdentification: 'ANSWER2', createdAt: START });
    const found = identifierDeterminationResponseJson({
      request: lookup,
      scheme: 'ZA_RPP',
      messageIdentification: 'ANSWER3',
      createdAt: START,
      outcome: 'SUCCESSFUL',
      account: { traditionalIdentifier: '62845123907', knownAsName: 'Thandi D', legalName: 'Thandiwe Dlamini' },
    });
    const nameless = identifierDeterminationResponseJson({ request: lookup, scheme: 'ZA_RPP', messageIdentification: 'ANSWER4', createdAt: START, outcome: 'SUCCESSFUL', account: { traditionalIdentifier: '62845123907' } });
    const broken = ['not JSON at all', '[]', '{"schema":"SomethingElse"}'];
    const origin = { messageId: 'OPMSG1', messageName: 'pacs.008.001.08', creationDateTime: '2026-03-02T07:00:00Z', instructingAgent: { bicfi: 'FIRNZAJJ' } };
    const transactionOf = (data: Record<string, unknown>, amount: boolean, uetr: string): TransactionRecord => ({
      ...base,
      uetr,
      messageId: 'MSG1',
      state: statesOf(kind)[0] ?? '',
      amountMinor: amount ? 15025n : null,
      currency: amount ? 'ZAR' : null,
      data,
    });
    const deadline = START + 5_000;
    const scheme = (message: string, report: Record<string, unknown>): InboundReport => ({ ...about, ...report, message: { schema: message } }) as unknown as InboundReport;
    const pacs002 = (status: string, extra: Record<string, unknown> = {}): InboundReport =>
      scheme('pacs.002.001.10', { kind: 'status', status, uetr: transfer.transactionIdentifiers.uetr, ...extra });
    switch (kind) {
      case 'CREDIT_TRANSFER':
        return {
          transaction: transactionOf({}, true, transfer.transactionIdentifiers.uetr),
          integrator: options.variant === 0 ? integrators.limited : integrators.plain,
          connector: rpp,
          rawBody: JSON.stringify(transfer),
          commands: ['submit', 'enquire'],
          replies: [],
          reports: () => [pacs002('ACCEPTED'), pacs002('REJECTED', { reasonCode: 'AC04', reasonText: 'Account closed' }), pacs002('PENDING'), { ...pacs002('PENDING'), kind: 'not_found' } as InboundReport],
          requests: [],
        };
      case 'IDENTIFIER_DETERMINATION':
        return {
          transaction: transactionOf({ mode: options.variant % 2 === 0 ? 'sync' : 'async', deadlineAt: START + 10_000 }, false, lookup.request.uetr),
          integrator: integrators.plain,
          connector,
          rawBody: JSON.stringify(lookup),
          commands: ['resolve'],
          replies: [],
          reports: () => [
            scheme('acmt.024.001.03', { kind: 'identification', outcome: 'SUCCESSFUL', account: { traditionalIdentifier: '62845123907', knownAsName: 'Thandi D', legalName: 'Thandiwe Dlamini' } }),
            scheme('acmt.024.001.03', { kind: 'identification', outcome: 'FAILED', reasonCode: 'PX03', reasonText: 'Proxy not found in central repository' }),
          ],
          requests: [],
        };
      case 'REQUEST_TO_PAY':
        return {
          transaction: transactionOf({ expiresAt: START + 60 * 60_000 }, true, rtp.transactionIdentifiers.uetr),
          integrator: integrators.plain,
          connector,
          rawBody: JSON.stringify(rtp),
          commands: ['request', 'cancel', 'expire'],
          replies: [],
          reports: () =>
            (['PENDING', 'PRESENTED', 'ACCEPTED', 'PAID', 'REJECTED'] as const).map((status) =>
              scheme('pain.014.001.09', { kind: 'request_to_pay', status, ...(status === 'REJECTED' ? { reasonCode: 'AC04' } : {}) }),
            ),
          requests: [
            { type: 'cancel', messageId: 'CANCEL1', messageIdentifiers: { messageIdentification: 'CANCEL1', creationDateTime: '2026-03-02T07:00:00Z' }, reasonCode: 'CUST', trace: TRACE },
            { type: 'status', trace: TRACE },
          ],
        };
      case 'INBOUND_CREDIT_TRANSFER':
      case 'INBOUND_IDENTIFIER_DETERMINATION': {
        const credit = kind === 'INBOUND_CREDIT_TRANSFER';
        const modes = credit ? ['sync', 'async', 'auto'] : ['sync', 'async'];
        const answers = credit ? [approved, declined, '{"schema":"PaymentStatusReport"}', ...broken] : [found, nameless, '{"schema":"IdentifierDeterminationResponse"}', ...broken];
        return {
          transaction: transactionOf({ mode: modes[options.variant % modes.length], deadlineAt: deadline, origin }, credit, credit ? transfer.transactionIdentifiers.uetr : lookup.request.uetr),
          integrator: integrators.plain,
          connector: rpp,
          rawBody: JSON.stringify(credit ? transfer : lookup),
          commands: ['ask', 'answer'],
          replies: answers,
          reports: () => (credit ? [pacs002('ACCEPTED'), pacs002('REJECTED', { reasonCode: 'AB05' })] : []),
          requests: [
            ...answers.map((answerJson): TransactionRequest => ({ type: 'report', answerJson, answer: parsedOrText(answerJson), trace: TRACE })),
            { type: 'resend', trace: TRACE },
          ],
        };
      }
      case 'INBOUND_REQUEST_TO_PAY': {
        const report = (status: string, reason?: string): TransactionRequest => {
          const answer = { schema: 'RequestToPayResponse', status: { status, reasonInfo: reason === undefined ? [] : [{ reason: { schema: 'CODE', value: reason } }] } };
          return { type: 'report', answerJson: JSON.stringify(answer), answer, trace: TRACE };
        };
        return {
          transaction: transactionOf({ expiresAt: START + 60 * 60_000, origin }, true, rtp.transactionIdentifiers.uetr),
          integrator: integrators.plain,
          connector: rpp,
          rawBody: JSON.stringify(rtp),
          commands: ['report:PRES', 'report:ACCP', 'report:RJCT', 'report:ACSC', 'withdrawal'],
          replies: [],
          reports: () =>
            ['CUST', 'EXPIRED'].map((reasonCode, index) =>
              scheme('camt.056.001.08', { kind: 'withdrawal', caseId: `CASE${index}`, original: { ...origin, messageId: `CXL${index}`, messageName: 'camt.056.001.08' }, reasonCode }),
            ),
          requests: [report('PRESENTED'), report('ACCEPTED'), report('REJECTED', 'AC04')],
        };
      }
    }
  }

  function outcomeOf(world: World, command: string, step: Extract<Step, { t: 'sent' }>): CommandOutcome {
    if (step.outcome === 'retry') return { kind: 'failed', retryable: true, error: 'connect ECONNREFUSED' };
    if (step.outcome === 'permanent') return { kind: 'failed', retryable: false, error: 'Permanent transport failure (simulated: test value PERMANENT-FAILURE)' };
    if (command === 'ask' && world.replies.length > 0) return { kind: 'delivered', reply: { httpStatus: 200, body: world.replies[step.reply % world.replies.length] ?? '' } };
    return { kind: 'delivered' };
  }
});

function parsedOrText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

