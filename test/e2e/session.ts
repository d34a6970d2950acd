/**
 * The sandbox every code-server suite runs in, set up once here: the packaged VSIX (FABLED_E2E_VSIX,
 * else `npm run package`), a fresh user-data dir with the given settings and a copy of a workspace
 * folder, the VSIX installed with code-server's own installer, code-server serving that folder,
 * Debian's Chromium, and the workbench opened on the folder. `close` ends what was started and
 * removes the sandbox (kept with FABLED_E2E_KEEP=1).
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { installVsix, makeSandbox, removeSandbox, requireCodeServer, startCodeServer, type CodeServer, type Sandbox } from './codeServer';
import { E2E_SETTINGS, workbenchUrl } from './fixture';
import { ROOT } from './oracle';
import { launchBrowser, Workbench } from './workbench';

/** Where the suites put their screenshots and figures. */
export const OUT = join(ROOT, 'test-output', 'e2e');

export interface SessionOptions {
  /** The folder copied as the workspace, or the files (relative path to text) it holds ({} for an empty folder). */
  workspace: string | Record<string, string>;
  /** The user settings; E2E_SETTINGS when not given. */
  settings?: Record<string, unknown>;
  /** Runs on the sandbox once the workspace is copied and the VSIX installed, before code-server starts. */
  prepare?: (sandbox: Sandbox) => void;
  /** Runs on the page before the workbench loads (permissions, say). */
  beforeLoad?: (page: Page, server: CodeServer) => Promise<unknown>;
}

export interface Session {
  sandbox: Sandbox;
  server: CodeServer;
  browser: Browser;
  wb: Workbench;
  /** The installed extension's folder. */
  extensionDir: string;
  close(): Promise<void>;
}

/** The VSIX under test: FABLED_E2E_VSIX, else the one `npm run package` builds. */
export function packagedVsix(): string {
  let vsix = process.env.FABLED_E2E_VSIX;
  if (!vsix) {
    execFileSync('npm', ['run', 'package', '--silent'], { cwd: ROOT, stdio: 'inherit' });
    vsix = join(ROOT, 'fabled-star-tools.vsix');
  }
  assert.ok(existsSync(vsix), `${vsix} was not built`);
  return vsix;
}

/** Writes `files` (relative path to text) under `dir`. */
export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
}

/** Sets up the sandbox, code-server and the browser, and opens the workbench on the workspace folder. */
export async function openSession(options: SessionOptions): Promise<Session> {
  requireCodeServer();
  mkdirSync(OUT, { recursive: true });
  const vsix = packagedVsix();
  let sandbox: Sandbox;
  if (typeof options.workspace === 'string') sandbox = makeSandbox(options.workspace, options.settings ?? E2E_SETTINGS);
  else {
    const source = mkdtempSync(join(tmpdir(), 'fabled-workspace-'));
    writeFiles(source, options.workspace);
    sandbox = makeSandbox(source, options.settings ?? E2E_SETTINGS);
    rmSync(source, { recursive: true, force: true });
  }
  let server: CodeServer | undefined;
  let browser: Browser | undefined;
  const close = async (): Promise<void> => {
    await browser?.close();
    await server?.stop();
    if (!process.env.FABLED_E2E_KEEP) removeSandbox(sandbox);
  };
  try {
    const extensionDir = await installVsix(sandbox, vsix);
    options.prepare?.(sandbox);
    server = await startCodeServer(sandbox);
    browser = await launchBrowser();
    const started = server;
    const empty = typeof options.workspace !== 'string' && Object.keys(options.workspace).length === 0;
    const wb = await Workbench.open(
      browser,
      workbenchUrl(server),
      async (page) => {
        // A machine under load loads the workbench slowly: more than the default 30 s to its load event.
        page.setDefaultNavigationTimeout(180_000);
        await options.beforeLoad?.(page, started);
      },
      empty,
    );
    return { sandbox, server, browser, wb, extensionDir, close };
  } catch (e) {
    await close().catch(() => undefined);
    throw e;
  }
}
