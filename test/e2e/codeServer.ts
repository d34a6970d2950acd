/**
 * Runs the packaged extension in real VS Code: code-server (VS Code's workbench served to a
 * browser) from the cache that scripts/setup-code-server.sh fills. Nothing here is a fake of VS
 * Code: the VSIX is installed with code-server's own --install-extension, and the extension runs
 * in its Node extension host.
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync, readdirSync, statSync, cpSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const execFileP = promisify(execFile);

export const CACHE = process.env.FABLED_E2E_CACHE ?? join(homedir(), '.cache', 'fabled-star-e2e');
export const CODE_SERVER = join(CACHE, 'code-server');

/** Polls `probe` until it returns a value other than undefined/false, or fails with `what` after `timeoutMs`. */
export async function poll<T>(
  what: string,
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 30_000,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v !== undefined && v !== false) return v;
    } catch (e) {
      lastError = e;
    }
    if (Date.now() > deadline) {
      const why = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}${why}`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

export function requireCodeServer(): void {
  if (!existsSync(CODE_SERVER)) {
    throw new Error(`code-server is not installed in ${CACHE}: run scripts/setup-code-server.sh --apt first`);
  }
}

export interface CodeServer {
  url: string;
  port: number;
  userDataDir: string;
  extensionsDir: string;
  folder: string;
  /** Everything code-server printed, for failure messages. */
  output(): string;
  stop(): Promise<void>;
}

export interface Sandbox {
  root: string;
  userDataDir: string;
  extensionsDir: string;
  folder: string;
}

/** A fresh user-data dir, extensions dir and a copy of `workspaceSource`, in a temp dir. */
export function makeSandbox(workspaceSource: string, settings: Record<string, unknown>): Sandbox {
  const root = mkdtempSync(join(tmpdir(), 'fabled-e2e-'));
  const userDataDir = join(root, 'user-data');
  const extensionsDir = join(root, 'extensions');
  const folder = join(root, 'workspace');
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  cpSync(workspaceSource, folder, { recursive: true });
  writeFileSync(join(userDataDir, 'User', 'settings.json'), JSON.stringify(settings, null, 2));
  return { root, userDataDir, extensionsDir, folder };
}

export function removeSandbox(s: Sandbox): void {
  rmSync(s.root, { recursive: true, force: true });
}

/** Installs the VSIX with code-server's own installer and returns the installed extension's folder. */
export async function installVsix(s: Sandbox, vsix: string): Promise<string> {
  const { stdout, stderr } = await execFileP(
    CODE_SERVER,
    ['--user-data-dir', s.userDataDir, '--extensions-dir', s.extensionsDir, '--install-extension', vsix],
    { timeout: 120_000 },
  );
  const installed = readdirSync(s.extensionsDir).filter(
    (d) => d.startsWith('fabled-star.fabled-star-tools') && statSync(join(s.extensionsDir, d)).isDirectory(),
  );
  if (installed.length !== 1) {
    throw new Error(`Installing ${vsix} did not produce one extension folder:\n${stdout}\n${stderr}`);
  }
  return join(s.extensionsDir, installed[0]!);
}

/**
 * @param vscodeOptions flags passed straight to the VS Code server inside code-server
 *   (`--vscode-option`), e.g. `enable-smoke-test-driver`, without which a built workbench ignores
 *   the `payload` that loads an extension in development mode and runs extension tests.
 */
export async function startCodeServer(s: Sandbox, vscodeOptions: string[] = []): Promise<CodeServer> {
  const port = await freePort();
  let out = '';
  const child: ChildProcess = spawn(
    CODE_SERVER,
    [
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--auth',
      'none',
      '--user-data-dir',
      s.userDataDir,
      '--extensions-dir',
      s.extensionsDir,
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      ...vscodeOptions.flatMap((o) => ['--vscode-option', o]),
      s.folder,
    ],
    // Own process group, so that stopping it also ends the extension host and language server.
    { stdio: ['ignore', 'pipe', 'pipe'], detached: true, env: { ...process.env, NODE_OPTIONS: '' } },
  );
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  let exited = false;
  child.on('exit', () => (exited = true));
  const url = `http://127.0.0.1:${port}`;
  await poll(
    'code-server to answer /healthz',
    async () => {
      if (exited) throw new Error(`code-server exited:\n${out}`);
      const res = await fetch(`${url}/healthz`);
      return res.ok;
    },
    60_000,
    200,
  );
  return {
    url,
    port,
    ...s,
    output: () => out,
    stop: async () => {
      if (exited || child.pid === undefined) return;
      const gone = new Promise<void>((r) => child.once('exit', () => r()));
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        return;
      }
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          /* already gone */
        }
      }, 5000);
      await gone;
      clearTimeout(timer);
    },
  };
}

/** Finds files under `dir` (recursively) whose name matches. */
export function findFiles(dir: string, match: (name: string) => boolean): string[] {
  const out: string[] = [];
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...findFiles(p, match));
    else if (match(entry.name)) out.push(p);
  }
  return out;
}
