/**
 * `npm run console:screenshots`: starts the service (test/support/console.ts: the simulator, an
 * operator, callback endpoints nobody listens on), sends some traffic, and photographs each view
 * of the console in Debian's Chromium into docs/console/*.png, the pictures docs/console.md shows.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from 'puppeteer-core';
import { clickText, fillLabelled, launchChromium, openDetails, waitForText } from '../test/support/browser.js';
import { outcomeOf, sendTransfer, signIn, startConsoleService } from '../test/support/console.js';

const OUT_DIR = fileURLToPath(new URL('../../docs/console/', import.meta.url));
/** Test values of docs/simulator.md: what the simulated scheme answers. */
const ACCOUNTS = [undefined, 'REJECT-AC01', undefined, 'REJECT-AC04', 'REJECT-AM02', undefined, 'PENDING-THEN-ACCEPT', 'REJECT-AC01'];

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${OUT_DIR}${name}.png`, type: 'png' });
  process.stdout.write(`docs/console/${name}.png\n`);
}

async function main(): Promise<void> {
  mkdirSync(OUT_DIR, { recursive: true });
  const server = await startConsoleService();
  const browser = await launchChromium();
  try {
    const sent = [];
    for (const [index, account] of ACCOUNTS.entries()) sent.push(await sendTransfer(server, { scheme: index % 3 === 2 ? 'ZA_RPP' : 'ZA_RTC', ...(account === undefined ? {} : { account }) }));
    const outcomes = await Promise.all(sent.map((each) => outcomeOf(server, each.uetr)));
    // One the scheme never answers: it waits.
    const stuck = await sendTransfer(server, { scheme: 'ZA_RTC', account: 'NEVER-ANSWER' });
    const page = await browser.newPage();
    await signIn(page, server);
    await waitForText(page, sent[0]?.uetr ?? '');
    await shoot(page, 'transactions');

    await page.goto(`${server.url}/console/#/transactions/${outcomes[1]?.id ?? ''}`);
    await waitForText(page, 'Scheme messages');
    await openDetails(page, 'Sent pacs.008');
    await page.setViewport({ width: 1360, height: 1600 });
    await shoot(page, 'transaction');
    await page.setViewport({ width: 1360, height: 900 });

    await page.goto(`${server.url}/console/#/undelivered`);
    await waitForText(page, 'Replay all undelivered');
    await waitForText(page, 'Open');
    await shoot(page, 'undelivered');

    await page.goto(`${server.url}/console/#/waiting`);
    await waitForText(page, stuck.uetr);
    await shoot(page, 'waiting');

    await page.goto(`${server.url}/console/#/health`);
    await waitForText(page, 'Latency p50');
    await page.setViewport({ width: 1360, height: 1200 });
    await shoot(page, 'health');
    await page.setViewport({ width: 1360, height: 900 });

    await page.goto(`${server.url}/console/#/simulator`);
    await page.waitForSelector('table.test-values', { timeout: 15_000 });
    await page.click('button[aria-label="Send sample: ZA_RTC CREDIT_TRANSFER REJECT-AC01"]');
    await waitForText(page, 'Open the transaction');
    await fillLabelled(page, 'Scenario', 'CREDIT');
    await fillLabelled(page, 'Account number', '4071000001');
    await fillLabelled(page, 'Amount (ZAR)', '150.25');
    await clickText(page, 'Send the payment');
    await waitForText(page, 'Open the inbound credit');
    await shoot(page, 'simulator');

    await clickText(page, 'Open the inbound credit');
    await waitForText(page, 'completion: the scheme\'s final word', 30_000);
    await page.setViewport({ width: 1360, height: 1600 });
    await shoot(page, 'inbound');
    await page.setViewport({ width: 1360, height: 900 });
  } finally {
    await browser.close();
    await server.stop();
  }
}

// Exit explicitly: the service's child process and the browser are stopped above.
main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
