/**
 * The card sheet's HTML printed to PDF by Chromium (Debian's `chromium`, or the one CHROMIUM_PATH
 * names), driven through playwright-core: the browser and the library the tests use. Neither ships
 * with the tools; when one is missing, the message says how to get it (the HTML prints from any
 * browser as it is).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { chromium as Chromium } from 'playwright-core';

/** The flags TESTING.md gives: without the networking ones Chromium keeps trying the network. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const HOW =
  'install Chromium (Debian/Ubuntu: sudo apt-get install chromium; or set CHROMIUM_PATH to a Chromium or Chrome) and the playwright-core package (npm install -g playwright-core), or write --format html and print it from a browser';

/** The Chromium to print with, or undefined. */
export function findChromium(): string | undefined {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv && existsSync(fromEnv)) return fromEnv;
  for (const name of ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable']) {
    try {
      const found = execFileSync('which', [name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
      if (found) return found;
    } catch {
      // Not on PATH under this name; try the next.
    }
  }
  return undefined;
}

/** The PDF's bytes, or why there are none (a sentence saying how to get what is missing). */
export async function htmlToPdf(html: string): Promise<Uint8Array | string> {
  const executablePath = findChromium();
  if (!executablePath) return `no Chromium found to print the PDF: ${HOW}`;
  let chromium: typeof Chromium;
  try {
    // Not bundled (esbuild.mjs): found beside the tools, or globally, when installed.
    ({ chromium } = await import('playwright-core'));
  } catch {
    return `the playwright-core package is needed to print the PDF: ${HOW}`;
  }
  let browser;
  try {
    browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true });
  } catch (e) {
    return `Chromium (${executablePath}) did not start: ${String((e as Error).message).split('\n')[0]}`;
  }
  try {
    const page = await browser.newPage();
    await page.setContent(html, { waitUntil: 'load' });
    return await page.pdf({ preferCSSPageSize: true, printBackground: true });
  } finally {
    await browser.close();
  }
}
