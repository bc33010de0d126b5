import { randomUUID } from 'node:crypto';
import type { CreditTransfer } from '../../src/domain/messages/credit-transfer.js';
import { moneyOf } from '../../src/domain/messages/validate.js';
import type { SchemeName } from '../../src/domain/schemes.js';
import type { Money } from '../../src/lib/money.js';
import type { SchemeTransport } from '../../src/connectors/transport.js';
import type { OutboundTransfer, SchemeInbound, SchemeReport, SubmitOutcome } from '../../src/ports/scheme.js';
import { creditTransfer, type CreditTransferFixture } from '../fixtures/credit-transfer.js';
import { ReportRecorder } from './inbound.js';

/** Test helpers for connectors: transfers as the engine hands them over, and an inbound side that records reports. */

/** A valid transfer for `scheme` (its fixture), as the engine builds it: key = a transaction id, amount from the message. */
export function outboundTransfer(scheme: SchemeName, change: (message: CreditTransfer) => void = () => undefined): OutboundTransfer {
  const message = creditTransfer(scheme as CreditTransferFixture);
  change(message);
  const amount: Money = moneyOf(message.amounts.bankSettlementAmount);
  return {
    transactionId: randomUUID(),
    integratorId: 'demo-bank',
    scheme,
    uetr: message.transactionIdentifiers.uetr.toLowerCase(),
    idempotencyKey: randomUUID(),
    message,
    amount,
    traceparent: null,
  };
}

/** The same transfer with the creditor account number set to `value` (a simulator test value). */
export function toAccount(scheme: SchemeName, value: string): OutboundTransfer {
  return outboundTransfer(scheme, (message) => {
    message.creditorAccount = { ...message.creditorAccount, identification: { schema: 'GENERIC', value } };
  });
}

export function withAmount(transfer: OutboundTransfer, minor: bigint, currency = transfer.amount.currency): OutboundTransfer {
  return { ...transfer, amount: { currency, minor } };
}

/** Records every report; `next()` waits for the next one (or fails after a bounded wait). */
export class RecordingInbound extends ReportRecorder<SchemeReport> implements SchemeInbound {
  /** When set, receive() rejects this many times first (a receiver that cannot record yet). */
  failuresLeft = 0;

  override receive(report: SchemeReport): Promise<void> {
    if (this.failuresLeft > 0) {
      this.failuresLeft -= 1;
      return Promise.reject(new Error('not recorded'));
    }
    return super.receive(report);
  }

  /** Resolves once `count` reports have arrived; rejects after `timeoutMs`. */
  async waitFor(count: number, timeoutMs = 2_000): Promise<SchemeReport[]> {
    await this.until(() => this.reports.length >= count, () => `expected ${count} scheme report(s) within ${timeoutMs} ms, got ${this.reports.length}`, timeoutMs);
    return this.reports.slice(0, count);
  }

  /** The reports about one transfer. */
  about(transfer: OutboundTransfer): SchemeReport[] {
    return this.reports.filter((report) => report.idempotencyKey === transfer.idempotencyKey);
  }

  /** Waits until `count` reports about `transfer` have arrived. */
  async waitForTransfer(transfer: OutboundTransfer, count = 1, timeoutMs = 2_000): Promise<SchemeReport[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.about(transfer).length < count) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`expected ${count} report(s) about ${transfer.uetr} within ${timeoutMs} ms, got ${this.about(transfer).length}`);
      await this.waitFor(this.reports.length + 1, left).catch(() => undefined);
    }
    return this.about(transfer).slice(0, count);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

const RELEASED: SubmitOutcome = { kind: 'failed', retryable: true, error: 'test over' };

/** A scheme that takes messages and never says so until `release()`: every send stays in flight, holding its engine slot. */
export class HangingScheme implements SchemeTransport {
  readonly #waiting: ((outcome: SubmitOutcome) => void)[] = [];
  #released = false;

  send(): Promise<SubmitOutcome> {
    if (this.#released) return Promise.resolve(RELEASED);
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  start(): Promise<void> {
    return Promise.resolve();
  }

  stop(): Promise<void> {
    return Promise.resolve();
  }

  get hanging(): number {
    return this.#waiting.length;
  }

  release(): void {
    this.#released = true;
    for (const resolve of this.#waiting.splice(0)) resolve(RELEASED);
  }
}
