import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer from 'puppeteer-core';
/**
 * A real browser for the console's tests and screenshots: Debian's Chromium (`apt-get install
 * chromium`), driven by puppeteer-core, which never downloads a browser of its own. Each launch
 * gets a fresh profile in a temporary directory, removed on close, and talks to nothing but the
 * service under test (no sync, updates, QUIC or background requests).
 */
export const CHROMIUM_PATH = '/usr/bin/chromium';
const VIEWPORT = { width: 1360, height: 900 };
export async function launchChromium() {
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
            return page;
        },
        close: async () => {
            await browser.close();
            rmSync(profile, { recursive: true, force: true });
        },
    };
}
/** What a person reads on the page (rendered text, not markup). */
export async function pageText(page) {
    return page.evaluate(() => document.body.innerText);
}
/** The page's address after the `#`, where the console keeps its page and filters. */
export async function pageHash(page) {
    return page.evaluate(() => location.hash);
}
/** The rendered text of the first element matching the selector; fails when there is none. */
export async function textOf(page, selector) {
    const text = await page.evaluate((within) => [...document.querySelectorAll(within)][0]?.innerText, selector);
    if (text === undefined)
        throw new Error(`nothing on the page matches ${selector}; it shows:\n${await pageText(page)}`);
    return text;
}
/** Waits until the page shows this text; fails with what it shows instead. */
export async function waitForText(page, text, timeoutMs = 15_000) {
    try {
        await page.waitForFunction((wanted) => document.body.innerText.includes(wanted), { timeout: timeoutMs, polling: 100 }, text);
    }
    catch {
        throw new Error(`the page did not show ${JSON.stringify(text)} within ${timeoutMs} ms; it shows:\n${await pageText(page)}`);
    }
}
/** Clicks the first button or link whose visible text is exactly this (as a person picks it). */
export async function clickText(page, text, selector = 'button, a, summary') {
    const clicked = await page.evaluate((wanted, within) => {
        const element = [...document.querySelectorAll(within)].find((each) => each.innerText.trim() === wanted && each.disabled !== true);
        element?.click();
        return element !== undefined;
    }, text, selector);
    if (!clicked)
        throw new Error(`nothing to click shows ${JSON.stringify(text)}; the page shows:\n${await pageText(page)}`);
}
/** Opens the first folded part (`<details>`) whose summary line contains this text. */
export async function openDetails(page, containing) {
    const opened = await page.evaluate((wanted) => {
        const summary = [...document.querySelectorAll('details > summary')].find((each) => each.innerText.includes(wanted));
        summary?.click();
        return summary !== undefined;
    }, containing);
    if (!opened)
        throw new Error(`no folded part is about ${JSON.stringify(containing)}; the page shows:\n${await pageText(page)}`);
}
/** Types into (or, for a list, chooses in) the form field whose label reads this, replacing what it held. */
export async function fillLabelled(page, label, value) {
    const handle = await page.evaluateHandle((wanted) => {
        const found = [...document.querySelectorAll('label')].find((each) => each.firstChild?.textContent?.trim() === wanted);
        return found?.querySelector('input, select') ?? null;
    }, label);
    const field = handle.asElement();
    if (field === null)
        throw new Error(`no field labelled ${JSON.stringify(label)}`);
    if ((await field.evaluate((element) => element.tagName)) === 'SELECT') {
        await field.select(value);
        return;
    }
    await field.click({ count: 3 });
    await page.keyboard.press('Backspace');
    await field.type(value);
}
//# sourceMappingURL=browser.js.map