import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type ElementHandle, type Page } from 'puppeteer-core';

/**
 * A real browser for the console's tests and screenshots: Debian's Chromium (`apt-get install
 * chromium`), driven by puppeteer-core, which never downloads a browser of its own. Each launch
 * gets a fresh profile in a temporary directory, removed on close, and talks to nothing but the
 * service under test (no sync, updates, QUIC or background requests). Its pages keep the clock of
 * Kathmandu (UTC+05:45, never the same hour and minute as UTC): the console shows every time in
 * UTC, so a time shown in the browser's own zone is caught even on a machine that runs in UTC.
 */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** The few parts of the page's DOM the functions run in it below touch (this Node project has no DOM library). */
interface PageElement {
  readonly innerText: string;
  readonly tagName: string;
  readonly disabled?: boolean;
  readonly firstChild: { readonly textContent: string | null } | null;
  click(): void;
  querySelector(selector: string): PageElement | null;
}
declare const document: { readonly body: PageElement; querySelectorAll(selector: string): Iterable<PageElement> };
declare const location: { readonly hash: string };
const VIEWPORT = { width: 1360, height: 900 };
/** The time zone of every page: far from UTC, with a quarter-hour offset no rounding hides. */
export const PAGE_TIME_ZONE = 'Asia/Kathmandu';

export interface RunningBrowser {
  readonly browser: Browser;
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

export async function launchChromium(): Promise<RunningBrowser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`No Chromium at ${CHROMIUM_PATH}: the console's browser tests need Debian's chromium package (apt-get install -y chromium)`);
  }
  const profile = mkdtempSync(join(tmpdir(), 'regpay-chromium-'));
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--user-data-dir=${profile}`,
    ],
    defaultViewport: VIEWPORT,
  });
  return {
    browser,
    newPage: async () => {
      const page = await browser.newPage();
      page.setDefaultTimeout(15_000);
      await page.emulateTimezone(PAGE_TIME_ZONE);
      return page;
    },
    close: async () => {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** What a person reads on the page (rendered text, not markup). */
export async function pageText(page: Page): Promise<string> {
  return page.evaluate(() => document.body.innerText);
}

/** The page's address after the `#`, where the console keeps its page and filters. */
export async function pageHash(page: Page): Promise<string> {
  return page.evaluate(() => location.hash);
}

/** The rendered text of the first element matching the selector; fails when there is none. */
export async function textOf(page: Page, selector: string): Promise<string> {
  const text = await page.evaluate((within: string) => [...document.querySelectorAll(within)][0]?.innerText, selector);
  if (text === undefined) throw new Error(`nothing on the page matches ${selector}; it shows:\n${await pageText(page)}`);
  return text;
}

/** Waits until the page shows this text; fails with what it shows instead. */
export async function waitForText(page: Page, text: string, timeoutMs = 15_000): Promise<void> {
  try {
    await page.waitForFunction((wanted: string) => document.body.innerText.includes(wanted), { timeout: timeoutMs, polling: 100 }, text);
  } catch {
    throw new Error(`the page did not show ${JSON.stringify(text)} within ${timeoutMs} ms; it shows:\n${await pageText(page)}`);
  }
}

/** Clicks the first button or link whose visible text is exactly this (as a person picks it). */
export async function clickText(page: Page, text: string, selector = 'button, a, summary'): Promise<void> {
  const clicked = await page.evaluate(
    (wanted: string, within: string) => {
      const element = [...document.querySelectorAll(within)].find((each) => each.innerText.trim() === wanted && each.disabled !== true);
      element?.click();
      return element !== undefined;
    },
    text,
    selector,
  );
  if (!clicked) throw new Error(`nothing to click shows ${JSON.stringify(text)}; the page shows:\n${await pageText(page)}`);
}

/** Opens the first folded part (`<details>`) whose summary line contains this text. */
export async function openDetails(page: Page, containing: string): Promise<void> {
  const opened = await page.evaluate((wanted: string) => {
    const summary = [...document.querySelectorAll('details > summary')].find((each) => each.innerText.includes(wanted));
    summary?.click();
    return summary !== undefined;
  }, containing);
  if (!opened) throw new Error(`no folded part is about ${JSON.stringify(containing)}; the page shows:\n${await pageText(page)}`);
}

/** Types into (or, for a list, chooses in) the form field whose label reads this, replacing what it held. */
export async function fillLabelled(page: Page, label: string, value: string): Promise<void> {
  const handle = await page.evaluateHandle((wanted: string) => {
    const found = [...document.querySelectorAll('label')].find((each) => each.firstChild?.textContent?.trim() === wanted);
    return found?.querySelector('input, select') ?? null;
  }, label);
  const field = handle.asElement() as ElementHandle | null;
  if (field === null) throw new Error(`no field labelled ${JSON.stringify(label)}`);
  if ((await field.evaluate((element) => element.tagName)) === 'SELECT') {
    await field.select(value);
    return;
  }
  // A date and time field types in the browser's locale, segment by segment: give it its value (`2026-01-15T12:00:00`) as a person's picker does.
  if ((await field.evaluate((element) => (element as unknown as { type: string }).type)) === 'datetime-local') {
    await field.evaluate((element, text) => {
      (element as unknown as { value: string }).value = text;
      (element as unknown as { dispatchEvent(event: unknown): void }).dispatchEvent(new (globalThis as unknown as { Event: new (type: string, init: object) => unknown }).Event('input', { bubbles: true }));
    }, value);
    return;
  }
  await field.click({ count: 3 });
  await page.keyboard.press('Backspace');
  await field.type(value);
}
