/**
 * One code-server session per suite, set up once for every e2e file: the packaged extension
 * (FABLED_E2E_VSIX, or `npm run package`) installed into a fresh sandbox whose workspace is the
 * given folder or files, code-server started on it, a browser on the workbench; closed and removed
 * after the suite (kept with FABLED_E2E_KEEP=1), and a screenshot of each failed test in
 * test-output/e2e. Call it at the top of a `describe`; its fields are set once `before` has run.
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Browser } from 'playwright-core';
import { installVsix, makeSandbox, removeSandbox, requireCodeServer, startCodeServer, type CodeServer, type Sandbox } from './codeServer';
import { E2E_SETTINGS, workbenchUrl } from './fixture';
import { ROOT } from './oracle';
import { launchBrowser, Workbench } from './workbench';

/** Where screenshots go. */
export const OUT = join(ROOT, 'test-output', 'e2e');

export interface SessionOptions {
  /** The screenshots' prefix: failed-<name>-<test>.png. */
  name: string;
  /** The workspace: a folder copied into the sandbox, or files by path (written into an empty one). */
  workspace: string | Record<string, string>;
  /** The user settings (default: the e2e suites' own). */
  settings?: Record<string, unknown>;
  /** Runs once the extension is installed, before code-server starts (files outside the workspace, reading it). */
  prepare?: (sandbox: Sandbox, extensionDir: string) => void;
  /** Lets the page read and write the clipboard (Paste Roster as Fleet reads it; a test reads an editor through it). */
  clipboard?: boolean;
  /** Opens the workbench (default: `Workbench.open`, waiting for the explorer's rows). */
  open?: (browser: Browser, url: string) => Promise<Workbench>;
}

export interface Session {
  sandbox: Sandbox;
  server: CodeServer;
  browser: Browser;
  wb: Workbench;
  /** Where the extension was installed. */
  extensionDir: string;
}

/** The packaged extension to test: FABLED_E2E_VSIX, or one packaged now. */
function vsixPath(): string {
  let vsix = process.env.FABLED_E2E_VSIX;
  if (!vsix) {
    execFileSync('npm', ['run', 'package', '--silent'], { cwd: ROOT, stdio: 'inherit' });
    vsix = join(ROOT, 'fabled-star-tools.vsix');
  }
  assert.ok(existsSync(vsix), `${vsix} was not built`);
  return vsix;
}

/** The sandbox of a session: its workspace copied from a folder or written from files. */
function sandboxOf(opts: SessionOptions): Sandbox {
  const settings = opts.settings ?? E2E_SETTINGS;
  if (typeof opts.workspace === 'string') return makeSandbox(opts.workspace, settings);
  const source = mkdtempSync(join(tmpdir(), `fabled-${opts.name}-`));
  for (const [rel, text] of Object.entries(opts.workspace)) {
    mkdirSync(dirname(join(source, rel)), { recursive: true });
    writeFileSync(join(source, rel), text);
  }
  const sandbox = makeSandbox(source, settings);
  rmSync(source, { recursive: true, force: true });
  return sandbox;
}

export function codeServerSession(opts: SessionOptions): Session {
  const s = {} as Session;
  before(async function () {
    requireCodeServer();
    mkdirSync(OUT, { recursive: true });
    const vsix = vsixPath();
    s.sandbox = sandboxOf(opts);
    s.extensionDir = await installVsix(s.sandbox, vsix);
    opts.prepare?.(s.sandbox, s.extensionDir);
    s.server = await startCodeServer(s.sandbox);
    s.browser = await launchBrowser();
    const url = workbenchUrl(s.server);
    const origin = new URL(s.server.url).origin;
    // A machine under load loads the workbench slowly: more than the default 30 s to its load event.
    s.wb = opts.open
      ? await opts.open(s.browser, url)
      : await Workbench.open(s.browser, url, async (page) => {
          page.setDefaultNavigationTimeout(180_000);
          if (opts.clipboard) await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
        });
  });

  after(async function () {
    await s.browser?.close();
    await s.server?.stop();
    if (s.sandbox && !process.env.FABLED_E2E_KEEP) removeSandbox(s.sandbox);
  });

  afterEach(async function () {
    const test = this.currentTest;
    // A failed attempt that is run again has no state yet (the retry reporter names it).
    if (test && test.state !== 'passed' && s.wb) {
      const title = test.title.replace(/[^a-z0-9]+/gi, '-').slice(0, 60);
      await s.wb.screenshot(join(OUT, `failed-${opts.name}-${title}.png`)).catch(() => undefined);
    }
  });
  return s;
}
