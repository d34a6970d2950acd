/**
 * Debian's Chromium for every browser test (webview, code-server e2e, icon rendering), launched with
 * the flags of TESTING.md: without the networking ones it keeps trying the closed network.
 */
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_ARGS, findChromium } from '../server/src/cli/pdf';

export { CHROMIUM_ARGS };

/** The same Chromium the CLI prints PDFs with; a test that needs one fails saying how to get it. */
export function chromiumPath(): string {
  const found = findChromium();
  if (!found) throw new Error('Chromium not found: install it with `apt-get install -y chromium` (or set CHROMIUM_PATH)');
  return found;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS, headless: true });
}
