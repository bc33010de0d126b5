import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'puppeteer-core';
import { configFromObject } from '../../src/config/load.js';
import { buildApp } from '../../src/http/app.js';
import { creditTransfer } from '../fixtures/credit-transfer.js';
import { ManualClock, httpGet, rawRequest, sequentialIds } from '../support/auth-app.js';
import { clickText, fillLabelled, launchChromium, openDetails, pageHash, pageText, textOf, waitForText, type RunningBrowser } from '../support/browser.js';
import { OPERATOR, outcomeOf, sendSample, sendTransfer, signIn, startConsoleService, stateOf } from '../support/console.js';
import { memoryStore } from '../support/delivery.js';
import { demoAccessToken, startDemo, type RunningServer } from '../support/server.js';

/**
 * The operator console (docs/console.md) in Debian's Chromium, against the real service: what an
 * operator sees and does, from signing in to signing out. The service runs with the simulator on
 * ZA_RPP and ZA_RTC and integrator endpoints nobody listens on, so every callback and event ends
 * UNDELIVERED at once (test/support/console.ts).
 */
const STEP_TIMEOUT_MS = 60_000;

void describe('the operator console in a real browser', () => {
  let server: RunningServer;
  let chromium: RunningBrowser;
  let page: Page;
  const pageErrors: string[] = [];

  before(async () => {
    server = await startConsoleService();
    chromium = await launchChromium();
    page = await chromium.newPage();
    page.on('pageerror', (error) => pageErrors.push(String(error)));
    // A CSP violation is reported on the console; every other console error is a failed request the test provokes.
    page.on('console', (message) => {
      if (message.text().includes('Content Security Policy')) pageErrors.push(message.text());
    });
  });
  after(async () => {
    await chromium?.close();
    await server?.stop();
  });

  void it('serves the page at /console/ under a strict Content-Security-Policy, never cached, and redirects /console there', async () => {
    const redirect = await fetch(`${server.url}/console`, { redirect: 'manual' });
    assert.equal(redirect.status, 301);
    assert.equal(redirect.headers.get('location'), '/console/');
    const index = await fetch(`${server.url}/console/`);
    assert.equal(index.status, 200);
    assert.match(index.headers.get('content-type') ?? '', /^text\/html/);
    assert.equal(
      index.headers.get('content-security-policy'),
      "default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    );
    assert.equal(index.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(index.headers.get('referrer-policy'), 'no-referrer');
    assert.equal(index.headers.get('cache-control'), 'no-store');
    const html = await index.text();
    assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/, 'no inline script');
    assert.doesNotMatch(html, /<style|style=/, 'no inline style');
    const script = /src="(\/console\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    assert.ok(script, html);
    const asset = await fetch(`${server.url}${script}`);
    assert.equal(asset.status, 200);
    assert.equal(asset.headers.get('cache-control'), 'public, max-age=31536000, immutable', 'hashed assets may be kept');
  });

  void it('refuses a wrong password with the reason, signs in with the right one, and stays signed in across a reload', { timeout: STEP_TIMEOUT_MS }, async () => {
    await signIn(page, server, 'not-the-password');
    await waitForText(page, 'Sign-in refused: Unknown username or wrong password');
    await fillLabelled(page, 'Password', OPERATOR.password);
    await clickText(page, 'Sign in');
    await waitForText(page, 'Live (refreshes every 2 s)');
    assert.equal(await textOf(page, 'h1'), 'Transactions');
    await page.waitForFunction('/updated \\d\\d:\\d\\d:\\d\\d UTC/.test(document.querySelector("p.live").innerText)');
    // The page keeps Kathmandu's clock (test/support/browser.ts): the stamp is UTC all the same.
    const stamp = /updated (\d\d):(\d\d):(\d\d) UTC/.exec(await textOf(page, 'p.live'));
    const now = new Date();
    const stampedAt = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), Number(stamp?.[1]), Number(stamp?.[2]), Number(stamp?.[3]));
    const DAY_MS = 86_400_000;
    const apart = Math.min(...[-DAY_MS, 0, DAY_MS].map((day) => Math.abs(now.getTime() - stampedAt + day)));
    assert.ok(apart < 10_000, `the "updated" stamp is the UTC time, not the browser's zone (${stamp?.[0]} at ${now.toISOString()})`);
    await page.reload();
    await waitForText(page, 'Live (refreshes every 2 s)');
    assert.ok((await pageText(page)).includes('Sign out'), 'still signed in after a reload');
  });

  void it('shows a transfer sent through the integrator API in the live list, without a reload', { timeout: STEP_TIMEOUT_MS }, async () => {
    await page.goto(`${server.url}/console/#/transactions`);
    await waitForText(page, 'Live (refreshes every 2 s)');
    await page.evaluate('window.loadedOnce = true');
    const { uetr } = await sendTransfer(server, { scheme: 'ZA_RTC' });
    await waitForText(page, uetr);
    assert.equal(await page.evaluate('window.loadedOnce'), true, 'the same page, not reloaded');
    await outcomeOf(server, uetr);
    await page.waitForFunction('document.querySelector("table.transactions tbody").innerText.includes("APPROVED")');
    const row = await textOf(page, 'table.transactions tbody');
    assert.match(row, /15000\.00 ZAR/, 'the amount as the API gives it');
  });

  void it('narrows the list by scheme and finds a transfer by its UETR', { timeout: STEP_TIMEOUT_MS }, async () => {
    const rpp = await sendTransfer(server, { scheme: 'ZA_RPP' });
    const rtc = await sendTransfer(server, { scheme: 'ZA_RTC' });
    await page.goto(`${server.url}/console/#/transactions`);
    await waitForText(page, rtc.uetr);
    await fillLabelled(page, 'Scheme', 'ZA_RPP');
    await clickText(page, 'Apply filters');
    await waitForText(page, rpp.uetr);
    await page.waitForFunction('location.hash.includes("scheme=")');
    let listed = await textOf(page, 'table.transactions tbody');
    assert.ok(!listed.includes(rtc.uetr), 'the ZA_RTC transfer is filtered out');
    assert.ok(!listed.includes('ZA_RTC'));
    assert.match(await pageHash(page), /scheme=ZA_RPP/, 'the filter is in the URL, to share');

    // The scheme filter lists the configured schemes that carry an operation (GET /admin/v1/schemes): ZA_AC is configured but carries none; ZA_RMS is not configured.
    const schemes = await page.evaluate('[...document.querySelectorAll("form.filters select")].find((select) => select.parentElement.firstChild.textContent.trim() === "Scheme").innerText');
    assert.deepEqual(String(schemes).split('\n'), ['any', 'ZA_RTC', 'ZA_RPP', 'ZA_EFT', 'CBPR_PLUS', 'TCIB']);

    await clickText(page, 'Clear');
    await waitForText(page, rtc.uetr);
    // The state filter is the list the API serves from the machines, not free text: it offers states no transaction is in yet.
    const offered = await page.evaluate('[...document.querySelectorAll("form.filters select")].find((select) => select.parentElement.firstChild.textContent.trim() === "State").innerText');
    for (const state of ['PAYMENT_AUTH_TIMEOUT', 'IDENTIFIER_DETERMINATION_TIMEOUT', 'REQUEST_TO_PAY_STATUS_EXPIRED', 'PAYMENT_AUTH_RESPONSE_DELIVERED (final)']) {
      assert.ok(String(offered).includes(state), `${state} offered`);
    }
    await fillLabelled(page, 'State', 'PAYMENT_AUTH_RESPONSE_DELIVERED');
    await clickText(page, 'Apply filters');
    await page.waitForFunction('location.hash.includes("state=PAYMENT_AUTH_RESPONSE_DELIVERED")');
    await clickText(page, 'Clear');
    await waitForText(page, rtc.uetr);
    await fillLabelled(page, 'Search', rtc.uetr);
    await clickText(page, 'Apply filters');
    await page.waitForFunction('location.hash.includes("uetr=")');
    await waitForText(page, rtc.uetr);
    listed = await textOf(page, 'table.transactions tbody');
    assert.ok(!listed.includes(rpp.uetr), 'only the transfer searched for');
    assert.equal((await page.$$('table.transactions tbody tr')).length, 1);
  });

  void it("opens a transaction's timeline: its states, each delivery attempt, and a scheme message's XML shown as text", { timeout: STEP_TIMEOUT_MS }, async () => {
    const { uetr } = await sendTransfer(server, { scheme: 'ZA_RTC', account: 'REJECT-AC04' });
    await outcomeOf(server, uetr);
    await page.goto(`${server.url}/console/#/transactions`);
    await waitForText(page, uetr);
    await clickText(page, uetr);
    await waitForText(page, 'Scheme messages');
    assert.match(await pageHash(page), /^#\/transactions\/[^/]+$/, 'the timeline has its own address');
    const timeline = await pageText(page);
    for (const state of ['PAYMENT_AUTH_REQUEST_RECEIVED', 'PAYMENT_AUTH_REQUEST_DELIVERED', 'PAYMENT_AUTH_RESPONSE_RECEIVED']) assert.ok(timeline.includes(state), `${state} in the states`);
    assert.match(timeline, /REJECTED\s+reason AC04 Account closed/, "the reason code's text beside it");
    await waitForText(page, 'ECONNREFUSED');
    assert.match(await textOf(page, 'table.deliveries'), /Callback credit-transfer-response/);
    assert.match(await textOf(page, 'table.deliveries'), /UNDELIVERED/);

    assert.match(timeline, /\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} UTC Sent pacs\.008/, 'a scheme message says when, in UTC');
    await openDetails(page, 'Sent pacs.008');
    await waitForText(page, '<FIToFICstmrCdtTrf>');
    assert.ok((await textOf(page, 'pre.xml')).includes(`<UETR>${uetr}</UETR>`), 'the document, indented, with its UETR');
    assert.equal(await page.evaluate('document.querySelector("pre.xml").children.length'), 0, 'the XML is text, never markup in the page');
    await openDetails(page, 'Received pacs.002');
    await waitForText(page, 'AC04</Cd>');

    await page.reload();
    await waitForText(page, 'Scheme messages');
    assert.ok((await pageText(page)).includes(uetr), 'the same timeline after a reload');
  });

  void it('lists undelivered callbacks and events, and replays one and then all of an integrator written since a time given in UTC', { timeout: STEP_TIMEOUT_MS }, async () => {
    await page.goto(`${server.url}/console/#/transactions`);
    await clickText(page, 'Undelivered');
    await waitForText(page, 'Undelivered callbacks and events');
    await waitForText(page, 'connect ECONNREFUSED');
    const listed = await textOf(page, 'table.deliveries tbody');
    assert.match(listed, /demo-bank/);
    assert.match(listed, /http:\/\/127\.0\.0\.1:9\/events-api\/v1\/events/);
    await clickText(page, 'Replay');
    await waitForText(page, 'Replayed 1 message by id: they are being delivered again.');
    await fillLabelled(page, 'Integrator', 'demo-bank');
    // An hour back in UTC: read in the page's own zone (5 h 45 min ahead), it would be in the future and replay nothing.
    const since = new Date(Date.now() - 3_600_000).toISOString().slice(0, 19);
    await fillLabelled(page, 'Replay only those written since (UTC, optional)', since);
    await clickText(page, 'Replay all undelivered for demo-bank');
    await waitForText(page, `of demo-bank written since ${since.replace('T', ' ')} UTC: they are being delivered again.`);
    assert.match(await pageText(page), /Replayed [1-9][0-9]* messages? of demo-bank written since/);
  });

  void it("shows each scheme's health: in flight, outcomes, rejections by reason code with their texts, latency, and charts over the window", { timeout: STEP_TIMEOUT_MS }, async () => {
    const { uetr } = await sendTransfer(server, { scheme: 'ZA_RTC', account: 'REJECT-AC01' });
    await outcomeOf(server, uetr);
    await page.goto(`${server.url}/console/#/transactions`);
    await clickText(page, 'Scheme health');
    await waitForText(page, 'Latency p50');
    const card = await textOf(page, 'article[aria-labelledby="scheme-ZA_RTC"]');
    assert.match(card, /In flight\s+\d+/);
    assert.match(card, /Timeouts\s+\d+/);
    assert.match(card, /APPROVED\s+[1-9]/, 'approved transfers counted');
    assert.match(card, /AC01 Format of the account number incorrect\s+1/, 'the AC01 rejection by its reason code, with its text');
    assert.match(card, /AC04 Account closed\s+1/);
    assert.match(card, /Latency p50\s+\d+ ms/);
    const charts = (await page.evaluate('[...document.querySelectorAll(\'article[aria-labelledby="scheme-ZA_RTC"] svg[role="img"]\')].map((chart) => chart.getAttribute("aria-label"))')) as string[];
    assert.equal(charts.length, 3, 'accepted per minute, outcomes and p95 latency');
    assert.match(charts[0] ?? '', /^ZA_RTC: accepted per minute, peak [1-9][0-9.]*\/min/);
    assert.match(charts[1] ?? '', /^ZA_RTC: outcomes, [1-9]\d* succeeded, [1-9]\d* failed$/);
    assert.match(charts[2] ?? '', /^ZA_RTC: p95 latency, peak \d+/);
    assert.ok(((await page.$$('article[aria-labelledby="scheme-ZA_RTC"] rect.chart-bad')).length) > 0, 'the rejections drawn');
    assert.ok((await pageText(page)).includes('ZA_RPP'), 'a card for every configured scheme');
    assert.equal(await page.$('article[aria-labelledby="scheme-ZA_AC"]'), null, 'ZA_AC carries no operation: not a scheme to watch');
  });

  void it('finds a stuck NEVER-ANSWER transfer from scheme health in two clicks, and shows the budget its timeout ran out of', { timeout: STEP_TIMEOUT_MS }, async () => {
    const stuck = await sendSample(server, 'ZA_RPP', 'NEVER-ANSWER');
    // ZA_RPP's time budget is 10 s here; the scheme never answers, so enquiries go on with no outcome.
    await stateOf(server, stuck.transactionId, 'PAYMENT_AUTH_TIMEOUT');
    await page.goto(`${server.url}/console/#/health`);
    await page.waitForSelector('article[aria-labelledby="scheme-ZA_RPP"] a.in-flight');
    const inFlight = Number(/In flight\s+(\d+)/.exec(await textOf(page, 'article[aria-labelledby="scheme-ZA_RPP"]'))?.[1]);
    assert.ok(inFlight >= 1, 'the stuck transfer is in flight');

    await page.click('article[aria-labelledby="scheme-ZA_RPP"] a.in-flight');
    await waitForText(page, stuck.uetr);
    assert.equal(await pageHash(page), '#/waiting?scheme=ZA_RPP&decided=false', 'the waiting view, narrowed to the scheme and to what has no outcome yet');
    assert.equal(await textOf(page, 'h1'), 'Waiting');
    const schemeChoice = (await page.evaluate(
      '(() => { const select = [...document.querySelectorAll("form.filters select")].find((each) => each.parentElement.firstChild.textContent.trim() === "Scheme"); return select.value + " of " + select.innerText.split("\\n").join(", "); })()',
    )) as string;
    assert.equal(schemeChoice, 'ZA_RPP of any, ZA_RTC, ZA_RPP, ZA_EFT, CBPR_PLUS, TCIB', 'the filter shows the scheme it is narrowed to, among the configured ones');
    const row = (await page.evaluate(`[...document.querySelectorAll('table.waiting tbody tr')].find((each) => each.innerText.includes('${stuck.uetr}')).innerText`)) as string;
    assert.match(row, /^(\d+ min )?\d+ s\s/, 'how long it has waited first');
    assert.match(row, /PAYMENT_AUTH_TIMEOUT/);
    assert.match(row, /\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}\s+(in|overdue by) \d+/, 'its next timer, in UTC and from now');
    const listed = await textOf(page, 'table.waiting tbody');
    assert.ok(!listed.includes('ZA_RTC'), 'only ZA_RPP');
    assert.equal((await page.$$('table.waiting tbody tr')).length, inFlight, 'as many as the health page counted in flight');

    await page.click(`table.waiting a[href$="${stuck.transactionId}"]`);
    await waitForText(page, 'Scheme messages');
    assert.match(await pageHash(page), /^#\/transactions\/[^/]+$/);
    const timeline = await textOf(page, 'table.timeline');
    assert.match(
      timeline,
      /PAYMENT_AUTH_TIMEOUT[\s\S]*Timed out: the scheme's time budget of 10 s ran out at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} UTC, counted from the first submission to the scheme\. Set by schemes\.ZA_RPP\.timeBudgetMs\./,
    );
  });

  void it('sends a sample of a simulator test value and leads to the transaction it created', { timeout: STEP_TIMEOUT_MS }, async () => {
    await page.goto(`${server.url}/console/#/transactions`);
    await clickText(page, 'Simulator');
    // The table, not the words "Send sample", which the view's introduction has before it loads.
    await page.waitForSelector('table.test-values', { timeout: 15_000 });
    const table = await textOf(page, 'table.test-values');
    assert.match(table, /ZA_RTC\s+CREDIT_TRANSFER\s+REJECT-AC01\s+9990000101/, 'each test value with the value that goes into the request');
    await page.click('button[aria-label="Send sample: ZA_RTC CREDIT_TRANSFER REJECT-AC01"]');
    await waitForText(page, 'Sample REJECT-AC01 (ZA_RTC, CREDIT_TRANSFER) sent as demo-bank: the integrator API answered HTTP 202.');
    await clickText(page, 'Open the transaction');
    await waitForText(page, 'Scheme messages');
    assert.match(await pageHash(page), /^#\/transactions\/[^/]+$/);
    await waitForText(page, 'reason AC01');
  });

  void it('receives a payment from the form, lists it INBOUND, and shows its timeline: the call to the integrator, the scheme messages and the completion callback', { timeout: STEP_TIMEOUT_MS }, async () => {
    const sent = await sendTransfer(server, { scheme: 'ZA_RPP' });
    await page.goto(`${server.url}/console/#/simulator`);
    await waitForText(page, 'Receive a payment');
    await fillLabelled(page, 'Scenario', 'CREDIT');
    await fillLabelled(page, 'Account number', '4071000001');
    await fillLabelled(page, 'Amount (ZAR)', '150.25');
    await clickText(page, 'Send the payment');
    await waitForText(page, 'Open the inbound credit');
    const uetr = /UETR ([0-9a-f-]{36})/.exec(await textOf(page, '[role="status"]'))?.[1];
    assert.ok(uetr, 'the answer names the UETR the scheme sent');
    await clickText(page, 'Open the inbound credit');
    await waitForText(page, 'Scheme messages');
    assert.match(await pageHash(page), /^#\/transactions\/[^/]+$/);
    assert.match(await textOf(page, 'dl.summary'), /Direction\s+↓ INBOUND[\s\S]*Kind\s+inbound credit INBOUND_CREDIT_TRANSFER/);
    // Nobody listens at the integrator's address: the call fails, the scheme is answered AB06, and the completion says so.
    await waitForText(page, 'call to the integrator failed: ', 30_000);
    await waitForText(page, 'completion: the scheme\'s final word', 30_000);
    const states = await textOf(page, 'table.timeline');
    assert.match(states, /PAYMENT_AUTH_REQUEST_RECEIVED\s+the scheme's message received/);
    assert.match(states, /PAYMENT_AUTH_REQUEST_PENDING\s+call to the integrator due/);
    assert.match(states, /answer sent to the scheme/);
    assert.match(await pageText(page), /Sent pacs\.002\S*\s+\S+\s+\(answer to the scheme\)/);
    await openDetails(page, 'Sent pacs.002');
    await waitForText(page, 'AB06</Cd>');
    await waitForText(page, 'ECONNREFUSED');
    const deliveries = await textOf(page, 'table.deliveries');
    assert.match(deliveries, /Callback credit-transfer-completion/);
    assert.match(deliveries, /UNDELIVERED/, 'its one attempt failed');
    assert.match(await textOf(page, 'dl.summary'), /REJECTED\s+reason AB06/);

    await page.goto(`${server.url}/console/#/transactions`);
    await waitForText(page, uetr);
    await fillLabelled(page, 'Direction', 'INBOUND');
    await clickText(page, 'Apply filters');
    await page.waitForFunction('location.hash.includes("direction=INBOUND")');
    await waitForText(page, uetr);
    const listed = await textOf(page, 'table.transactions tbody');
    assert.ok(!listed.includes(sent.uetr), 'the transfer sent by the integrator is filtered out');
    assert.ok(!listed.includes('OUTBOUND'));
    assert.match(listed, new RegExp(`${uetr}[\\s\\S]*↓ INBOUND\\s+inbound credit`));
  });

  void it('returns to the sign-in form with the reason when the credentials stop working', { timeout: STEP_TIMEOUT_MS }, async () => {
    await page.goto(`${server.url}/console/#/transactions`);
    await waitForText(page, 'Sign out');
    await page.evaluate(`sessionStorage.setItem('regpay-console-credentials', JSON.stringify({ username: '${OPERATOR.username}', password: 'changed-since' }))`);
    await page.reload();
    await waitForText(page, 'Signed out: Unknown username or wrong password');
    await waitForText(page, 'Sign in with the operator credentials');
    await signIn(page, server);
    await waitForText(page, 'Sign out');
  });

  void it('signs out, forgets the credentials, and asks for them again after a reload', { timeout: STEP_TIMEOUT_MS }, async () => {
    await page.goto(`${server.url}/console/#/transactions`);
    await waitForText(page, 'Sign out');
    await clickText(page, 'Sign out');
    await waitForText(page, 'Signed out.');
    assert.equal(await page.evaluate('sessionStorage.length'), 0, 'nothing kept in the tab');
    assert.equal(await page.evaluate('localStorage.length'), 0, 'nothing kept beyond it');
    await page.reload();
    await waitForText(page, 'Sign in with the operator credentials');
    assert.deepEqual(pageErrors, [], 'no script error and no Content-Security-Policy violation');
  });
});

void describe('the operator console of the zero-config demo', () => {
  let server: RunningServer;
  let chromium: RunningBrowser;
  let variables: Record<string, string>;

  before(async () => {
    ({ server, variables } = await startDemo(mkdtempSync(join(tmpdir(), 'regpay-console-demo-'))));
    chromium = await launchChromium();
  });
  after(async () => {
    await chromium?.close();
    await server?.stop();
  });

  void it('says in the start banner where the console is', () => {
    assert.match(server.output(), new RegExp(`console:\\s+${server.url}/console/`));
  });

  void it("shows the demo inbox: the demo integrator's callback and events as they arrive", { timeout: STEP_TIMEOUT_MS }, async () => {
    const page = await chromium.newPage();
    await page.goto(`${server.url}/console/`);
    await waitForText(page, 'Sign in with the operator credentials');
    await fillLabelled(page, 'Username', variables['REGPAY_ADMIN_USERNAME'] ?? '');
    await fillLabelled(page, 'Password', variables['REGPAY_ADMIN_PASSWORD'] ?? '');
    await clickText(page, 'Sign in');
    await waitForText(page, 'Demo inbox');
    await clickText(page, 'Demo inbox');
    await waitForText(page, 'Nothing received yet');

    const accessToken = await demoAccessToken(server, variables);
    const accepted = await fetch(`${server.url}/api/v1/transactions/outbound/credit-transfer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
      body: JSON.stringify(creditTransfer('ZA_RTC')),
    });
    assert.equal(accepted.status, 202, await accepted.text());

    await waitForText(page, 'PAYMENT_AUTH_RESPONSE_DELIVERED');
    const inbox = await textOf(page, 'table.inbox tbody');
    assert.match(inbox, /callback\s+credit-transfer-response\s+\/transactions\/outbound\/credit-transfer-response\s+body\s+raw body and signature headers\s+APPROVED\s+—\s+valid/);
    // The outcome's events carry the callback they announce (its PaymentStatusReport), so they show its status too.
    assert.match(inbox, /event\s+PAYMENT_AUTH_RESPONSE_DELIVERED\s+\/events\s+body\s+raw body and signature headers\s+APPROVED\s+—\s+valid/);
  });

  void it('says on each row the outcome and reason, and shows the raw body and signature headers, which verify with the webhook secret', { timeout: STEP_TIMEOUT_MS }, async () => {
    const page = await chromium.newPage();
    await page.goto(`${server.url}/console/`);
    await waitForText(page, 'Sign in with the operator credentials');
    await fillLabelled(page, 'Username', variables['REGPAY_ADMIN_USERNAME'] ?? '');
    await fillLabelled(page, 'Password', variables['REGPAY_ADMIN_PASSWORD'] ?? '');
    await clickText(page, 'Sign in');
    await waitForText(page, 'Demo inbox');
    await clickText(page, 'Demo inbox');

    const declined = creditTransfer('ZA_RTC');
    declined.creditorAccount = { ...declined.creditorAccount, identification: { schema: 'GENERIC', value: 'REJECT-AC04' } };
    const accepted = await fetch(`${server.url}/api/v1/transactions/outbound/credit-transfer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${await demoAccessToken(server, variables)}` },
      body: JSON.stringify(declined),
    });
    assert.equal(accepted.status, 202, await accepted.text());
    // The outcome callback's row: found by the uetr in its (folded) body.
    const findRow = `[...document.querySelectorAll('table.inbox tbody tr')].find((each) => each.innerText.includes('credit-transfer-response') && each.textContent.includes(${JSON.stringify(declined.transactionIdentifiers.uetr)}))`;
    await page.waitForFunction(`${findRow} !== undefined`, { timeout: 30_000, polling: 100 });
    const row = (await page.evaluate(`(() => {
      const found = ${findRow};
      found.querySelector('details.raw > summary').click();
      return { text: found.innerText, headers: found.querySelector('pre.signature-headers').textContent, raw: found.querySelector('pre.raw-body').textContent };
    })()`)) as { text: string; headers: string; raw: string } | undefined;
    assert.ok(row, 'the outcome callback has a row');
    assert.match(row.text, /REJECTED\s+AC04 \S/, 'the outcome, the reason code and its text');

    // What a developer copies from the page, checked as a Standard Webhooks library checks it.
    const header = (name: string) => new RegExp(`^${name}: (.+)$`, 'm').exec(row.headers)?.[1] ?? '';
    const secret = variables['REGPAY_WEBHOOK_SECRET'] ?? '';
    const expected = `v1,${createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64')).update(`${header('webhook-id')}.${header('webhook-timestamp')}.${row.raw}`).digest('base64')}`;
    assert.ok(header('webhook-signature').split(' ').includes(expected), `${row.headers}\n${row.raw}`);
    assert.equal(JSON.parse(row.raw).transactionIdentifiers.uetr, declined.transactionIdentifiers.uetr);
  });

  void it('says how long to wait once the address has spent its failed sign-ins', { timeout: STEP_TIMEOUT_MS }, async () => {
    const wrong = `Basic ${Buffer.from(`${variables['REGPAY_ADMIN_USERNAME']}:wrong`).toString('base64')}`;
    let status = 0;
    for (let attempt = 0; attempt < 100 && status !== 429; attempt++) {
      status = (await fetch(`${server.url}/admin/v1/transactions?limit=1`, { headers: { authorization: wrong } })).status;
    }
    assert.equal(status, 429, 'the failed-authentication limit is reached');
    const page = await chromium.newPage();
    await page.goto(`${server.url}/console/`);
    await waitForText(page, 'Sign in with the operator credentials');
    await fillLabelled(page, 'Username', variables['REGPAY_ADMIN_USERNAME'] ?? '');
    // A password not checked before: a success already remembered would still be let in.
    await fillLabelled(page, 'Password', 'guessing-again');
    await clickText(page, 'Sign in');
    await page.waitForFunction('/Too many failed sign-ins from this address. Try again in [0-9]+ s./.test(document.body.innerText)');
  });
});

void describe('the console behind the admin allowlist', () => {
  void it('holds a request for /console/ from outside admin.allowlist without a byte of answer, though an integrator may connect from there', async () => {
    const config = await configFromObject({
      server: { heldConnectionMs: 300, heldConnectionsMax: 10, logLevel: 'silent' },
      database: 'sqlite::memory:',
      auth: { mode: 'basic' },
      integrators: [
        {
          id: 'bank-a',
          institution: { bicfi: 'DEMOZAJJ' },
          allowlist: ['127.0.0.1/32'],
          credentials: { username: 'alice', password: 'alice-password' },
          partnerApiUrl: 'http://127.0.0.1:9/partner-api/v1',
          eventsApiUrl: 'http://127.0.0.1:9/events-api/v1',
          schemes: ['ZA_RPP'],
        },
      ],
      admin: { ...OPERATOR, allowlist: ['10.0.0.0/8'] },
    });
    const store = await memoryStore();
    const app = await buildApp({ config, store, clock: new ManualClock(Date.now()), ids: sequentialIds, readiness: { accepting: () => true } });
    try {
      await app.listen({ host: '127.0.0.1', port: 0 });
      const address = app.server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      for (const path of ['/console/', '/console']) {
        const exchange = await rawRequest({ host: '127.0.0.1', port, request: httpGet(path), timeoutMs: 5_000 });
        assert.equal(exchange.received, '', `${path}: nothing answered`);
        assert.ok(exchange.closedAfterMs >= 250, `${path}: held, closed after ${exchange.closedAfterMs} ms`);
      }
    } finally {
      await app.close();
      await store.close();
    }
  });
});
