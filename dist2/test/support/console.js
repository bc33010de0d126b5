import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { creditTransfer } from '../fixtures/credit-transfer.js';
import { clickText, fillLabelled, waitForText } from './browser.js';
import { basicAuth, startServer, testConfigObject } from './server.js';
/**
 * The service as the console's browser test and its screenshots see it: a real process with the
 * simulator on ZA_RPP and ZA_RTC, an operator (admin section), and integrators whose callback and
 * event endpoints nobody listens on, with one delivery attempt each, so every callback and event
 * ends UNDELIVERED at once and can be replayed.
 */
export const OPERATOR = { username: 'ops', password: 'ops-password-for-console-tests' };
export async function startConsoleService() {
    const dir = mkdtempSync(join(tmpdir(), 'regpay-console-'));
    const configPath = join(dir, 'regpay.json');
    const config = testConfigObject({
        database: `sqlite:${join(dir, 'regpay.db')}`,
        extra: {
            server: { host: '127.0.0.1', port: 0, logLevel: 'warn' },
            admin: { ...OPERATOR, allowlist: ['127.0.0.1/32', '::1/128'] },
            delivery: { retryScheduleMs: { callback: [0], event: [0] } },
        },
    });
    writeFileSync(configPath, JSON.stringify(config, null, 2));
    return startServer({ configPath });
}
/**
 * A credit transfer sent by demo-bank through the integrator API; `account` is the creditor
 * account number, which chooses what the simulated scheme does (docs/simulator.md).
 */
export async function sendTransfer(server, options = {}) {
    const transfer = creditTransfer(options.scheme ?? 'ZA_RTC');
    if (options.account !== undefined) {
        const creditorAccount = transfer.creditorAccount;
        if (creditorAccount?.identification === undefined)
            throw new Error('the fixture has no creditor account number to set');
        creditorAccount.identification.value = options.account;
    }
    const response = await fetch(`${server.url}/api/v1/transactions/outbound/credit-transfer`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: basicAuth() },
        body: JSON.stringify(transfer),
    });
    if (response.status !== 202)
        throw new Error(`the transfer was answered ${response.status}: ${await response.text()}`);
    return { uetr: transfer.transactionIdentifiers.uetr, messageId: transfer.messageIdentifiers.messageIdentification };
}
/** Waits until the admin API shows the transaction with an outcome, and returns its summary. */
export async function outcomeOf(server, uetr, timeoutMs = 20_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
        const response = await fetch(`${server.url}/admin/v1/transactions?uetr=${uetr}`, { headers: { authorization: basicAuth(OPERATOR) } });
        const [found] = (await response.json()).transactions;
        if (found?.outcome != null)
            return { id: found.id, outcome: found.outcome };
        if (Date.now() > deadline)
            throw new Error(`no outcome for ${uetr} within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 100));
    }
}
/** Opens the console and signs in as the operator. */
export async function signIn(page, server, password = OPERATOR.password) {
    await page.goto(`${server.url}/console/`);
    await waitForText(page, 'Sign in with the operator credentials');
    await fillLabelled(page, 'Username', OPERATOR.username);
    await fillLabelled(page, 'Password', password);
    await clickText(page, 'Sign in');
}
//# sourceMappingURL=console.js.map