import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { creditTransfer, type CreditTransferFixture } from '../fixtures/credit-transfer.js';
import { clickText, fillLabelled, waitForText } from './browser.js';
import { basicAuth, startServer, testConfigObject, type RunningServer } from './server.js';

/**
 * The service as the console's browser test and its screenshots see it: a real process with the
 * simulator on ZA_RPP (a 10 s time budget) and ZA_RTC, ZA_AC configured too, an operator (admin section), and integrators whose callback and
 * event endpoints nobody listens on, with one delivery attempt each, so every callback and event
 * ends UNDELIVERED at once and can be replayed.
 */
export const OPERATOR = { username: 'ops', password: 'ops-password-for-console-tests' };

export async function startConsoleService(): Promise<RunningServer> {
  const dir = mkdtempSync(join(tmpdir(), 'regpay-console-'));
  const configPath = join(dir, 'regpay.json');
  const config = testConfigObject({
    database: `sqlite:${join(dir, 'regpay.db')}`,
    extra: {
      server: { host: '127.0.0.1', port: 0, logLevel: 'warn' },
      admin: { ...OPERATOR, allowlist: ['127.0.0.1/32', '::1/128'] },
      delivery: { retryScheduleMs: { callback: [0], event: [0] } },
      // ZA_AC carries no operation: configured, but no scheme to watch.
      schemes: { ZA_RPP: { connector: 'simulator', timeBudgetMs: 10_000 }, ZA_RTC: { connector: 'simulator', timeBudgetMs: 60_000 }, ZA_AC: { connector: 'simulator' } },
    },
  });
  writeFileSync(configPath, JSON.stringify(config, null, 2));
  return startServer({ configPath });
}

/**
 * A credit transfer sent by demo-bank through the integrator API; `account` is the creditor
 * account number, which chooses what the simulated scheme does (docs/simulator.md).
 */
export async function sendTransfer(server: RunningServer, options: { scheme?: CreditTransferFixture; account?: string } = {}): Promise<{ uetr: string; messageId: string }> {
  const transfer = creditTransfer(options.scheme ?? 'ZA_RTC');
  if (options.account !== undefined) {
    const creditorAccount = (transfer as { creditorAccount?: { identification?: { value?: string } } }).creditorAccount;
    if (creditorAccount?.identification === undefined) throw new Error('the fixture has no creditor account number to set');
    creditorAccount.identification.value = options.account;
  }
  const response = await fetch(`${server.url}/api/v1/transactions/outbound/credit-transfer`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: basicAuth() },
    body: JSON.stringify(transfer),
  });
  if (response.status !== 202) throw new Error(`the transfer was answered ${response.status}: ${await response.text()}`);
  return { uetr: transfer.transactionIdentifiers.uetr, messageId: transfer.messageIdentifiers.messageIdentification };
}

/** Waits until the admin API shows the transaction with an outcome, and returns its summary. */
export async function outcomeOf(server: RunningServer, uetr: string, timeoutMs = 20_000): Promise<{ id: string; outcome: string }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await fetch(`${server.url}/admin/v1/transactions?uetr=${uetr}`, { headers: { authorization: basicAuth(OPERATOR) } });
    const [found] = ((await response.json()) as { transactions: { id: string; outcome: string | null }[] }).transactions;
    if (found?.outcome != null) return { id: found.id, outcome: found.outcome };
    if (Date.now() > deadline) throw new Error(`no outcome for ${uetr} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Opens the console and signs in as the operator. */
export async function signIn(page: Page, server: RunningServer, password = OPERATOR.password): Promise<void> {
  await page.goto(`${server.url}/console/`);
  await waitForText(page, 'Sign in with the operator credentials');
  await fillLabelled(page, 'Username', OPERATOR.username);
  await fillLabelled(page, 'Password', password);
  await clickText(page, 'Sign in');
}

/** A sample of a simulator test value sent through the admin API (as the console's Send sample button does). */
export async function sendSample(server: RunningServer, scheme: string, label: string): Promise<{ transactionId: string; uetr: string }> {
  const headers = { authorization: basicAuth(OPERATOR), 'content-type': 'application/json' };
  const values = (await (await fetch(`${server.url}/admin/v1/simulator/test-values`, { headers })).json()) as { testValues: { id: string; scheme: string; kind: string; label: string }[] };
  const value = values.testValues.find((each) => each.scheme === scheme && each.kind === 'CREDIT_TRANSFER' && each.label === label);
  if (value === undefined) throw new Error(`no ${scheme} test value ${label}`);
  const response = await fetch(`${server.url}/admin/v1/simulator/samples`, { method: 'POST', headers, body: JSON.stringify({ testValueId: value.id }) });
  const sent = (await response.json()) as { status: number; transactionId: string | null; uetr: string | null };
  if (sent.status !== 202 || sent.transactionId === null || sent.uetr === null) throw new Error(`the sample was answered ${JSON.stringify(sent)}`);
  return { transactionId: sent.transactionId, uetr: sent.uetr };
}

/** Waits until the admin API shows the transaction in this state. */
export async function stateOf(server: RunningServer, transactionId: string, state: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await fetch(`${server.url}/admin/v1/transactions/${transactionId}`, { headers: { authorization: basicAuth(OPERATOR) } });
    if (((await response.json()) as { state?: string }).state === state) return;
    if (Date.now() > deadline) throw new Error(`${transactionId} not in ${state} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
