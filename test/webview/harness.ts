/**
 * Runs the engagement view in a real browser (Debian's Chromium through playwright-core), the way
 * VS Code runs it: the page is the host's own `renderWebviewHtml` output with its CSP, the script
 * and style sheet are the esbuild bundle, and `acquireVsCodeApi` is a stand-in that records posted
 * messages and keeps state in sessionStorage (VS Code keeps it across reloads of the panel too).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import * as esbuild from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { renderWebviewHtml } from '../../client/webview/engagement/html';
import type { HostMessage, ViewMessage } from '../../client/webview/engagement/messages';
import { launchChromium } from '../chromium';

export const ROOT = resolve(__dirname, '..', '..');
export const OUTPUT = join(ROOT, 'test-output', 'webview');
const BUILD = join(OUTPUT, 'build');

export { CHROMIUM_ARGS, chromiumPath } from '../chromium';

/**
 * Bundles the view with the same esbuild options as esbuild.mjs's webview entry, into test-output,
 * so the test does not depend on (or disturb) whatever is in dist/ right now.
 */
export async function buildView(): Promise<{ js: string; css: string }> {
  mkdirSync(BUILD, { recursive: true });
  await esbuild.build({
    entryPoints: [join(ROOT, 'client/webview/engagement/main.ts')],
    outfile: join(BUILD, 'engagement.js'),
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    minify: true,
    sourcemap: false,
    logLevel: 'warning',
    legalComments: 'none',
  });
  return { js: join(BUILD, 'engagement.js'), css: join(BUILD, 'engagement.css') };
}

export interface ViewServer {
  origin: string;
  nonce: string;
  html: string;
  /** Every path the page asked for, to prove nothing is fetched from elsewhere. */
  requests: string[];
  close(): Promise<void>;
}

/** Serves the page on 127.0.0.1 with a random port; the origin stands in for the webview's cspSource. */
export async function serveView(files: { js: string; css: string }): Promise<ViewServer> {
  const nonce = randomBytes(16).toString('base64');
  const requests: string[] = [];
  let html = '';
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    requests.push(path);
    const send = (type: string, body: string | Buffer) => {
      res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(body);
    };
    if (path === '/') send('text/html; charset=utf-8', html);
    else if (path === '/engagement.js') send('text/javascript; charset=utf-8', readFileSync(files.js));
    else if (path === '/engagement.css') send('text/css; charset=utf-8', readFileSync(files.css));
    else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  html = renderWebviewHtml(origin, nonce, `${origin}/engagement.js`, `${origin}/engagement.css`);
  return {
    origin,
    nonce,
    html,
    requests,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

export function launch(): Promise<Browser> {
  return launchChromium();
}

/**
 * The stand-in for VS Code's webview API, installed before the page's own script runs. It also
 * records CSP violations and dialogs, so tests can prove nothing ran that should not have.
 */
const VSCODE_STUB = `(() => {
  const KEY = '__fabledViewState';
  window.__posted = [];
  window.__csp = [];
  window.__acquired = 0;
  document.addEventListener('securitypolicyviolation', (e) => {
    window.__csp.push({ directive: e.violatedDirective, blocked: e.blockedURI, sample: e.sample });
  });
  window.acquireVsCodeApi = () => {
    window.__acquired += 1;
    if (window.__acquired > 1) throw new Error('acquireVsCodeApi may only be called once');
    return {
      postMessage: (m) => window.__posted.push(JSON.parse(JSON.stringify(m))),
      getState: () => { const s = sessionStorage.getItem(KEY); return s === null ? undefined : JSON.parse(s); },
      setState: (s) => { sessionStorage.setItem(KEY, JSON.stringify(s)); return s; },
    };
  };
})();`;

export interface ViewPage {
  page: Page;
  dialogs: string[];
  pageErrors: string[];
  /** Sends a message as the extension host would (any value, to test malformed ones too). */
  send(message: HostMessage | unknown): Promise<void>;
  posted(): Promise<ViewMessage[]>;
  /** Waits until the view has posted a message matching `type`, and returns the newest such. */
  waitForPosted(type: ViewMessage['type'], count?: number): Promise<ViewMessage>;
  text(id: string): Promise<string>;
  cspViolations(): Promise<{ directive: string; blocked: string; sample: string }[]>;
}

export async function openView(browser: Browser, server: ViewServer, theme: Theme): Promise<ViewPage> {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const dialogs: string[] = [];
  const pageErrors: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.addInitScript(VSCODE_STUB);
  await page.addInitScript(themeScript(theme));
  await page.goto(`${server.origin}/`);
  const view: ViewPage = {
    page,
    dialogs,
    pageErrors,
    send: (message) => page.evaluate((m) => window.postMessage(m, '*'), message as object),
    posted: () => page.evaluate(() => (window as unknown as { __posted: ViewMessage[] }).__posted),
    async waitForPosted(type, count = 1) {
      const handle = await page.waitForFunction(
        ([t, n]) => {
          const all = (window as unknown as { __posted: { type: string }[] }).__posted.filter((m) => m.type === t);
          return all.length >= n ? all[all.length - 1] : undefined;
        },
        [type, count] as const,
      );
      return (await handle.jsonValue()) as ViewMessage;
    },
    // Text as a reader meets it, with line breaks and runs of spaces read as one space.
    text: async (id) => (await page.locator(`#${id}`).innerText()).replace(/\s+/g, ' ').trim(),
    cspViolations: () => page.evaluate(() => (window as unknown as { __csp: [] }).__csp),
  };
  return view;
}

/** A describe block's browser and view server (see viewSuite). */
export interface ViewSuite {
  readonly server: ViewServer;
  /** Opens the view in `theme`, waits for its 'ready' message, and keeps it for the checks after the test. */
  view(theme?: Theme): Promise<ViewPage>;
}

/**
 * One browser and one view server for a describe block (its before and after hooks): pages opened
 * with `view` are checked with `checks` after each test, then closed. Call it in the describe body.
 */
export function viewSuite(serve: () => Promise<ViewServer>, checks: (v: ViewPage) => void | Promise<void>): ViewSuite {
  let browser: Browser | undefined;
  let server: ViewServer | undefined;
  const open: ViewPage[] = [];
  before(async () => {
    server = await serve();
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });
  afterEach(async () => {
    for (const v of open.splice(0)) {
      await checks(v);
      await v.page.context().close();
    }
  });
  return {
    get server() {
      return server!;
    },
    async view(theme = THEMES.dark) {
      const v = await openView(browser!, server!, theme);
      open.push(v);
      await v.waitForPosted('ready');
      return v;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Themes: a subset of the variables VS Code sets on a webview's <html>, with the values of its
// Light Modern, Dark Modern and High Contrast themes, and the body class it adds.

export interface Theme {
  name: string;
  bodyClass: string;
  vars: Record<string, string>;
}

const FONT = '-apple-system, BlinkMacSystemFont, "Segoe WPC", "Segoe UI", "Ubuntu", "Droid Sans", sans-serif';

export const THEMES: Record<'light' | 'dark' | 'highContrast', Theme> = {
  light: {
    name: 'light',
    bodyClass: 'vscode-light',
    vars: {
      'font-family': FONT,
      'font-size': '13px',
      'editor-background': '#ffffff',
      'editor-foreground': '#3b3b3b',
      'sideBar-background': '#f8f8f8',
      'panel-border': '#e5e5e5',
      'widget-border': '#e5e5e5',
      focusBorder: '#005fb8',
      descriptionForeground: '#3b3b3b',
      errorForeground: '#f85149',
      'button-background': '#005fb8',
      'button-foreground': '#ffffff',
      'button-hoverBackground': '#0258a8',
      'input-background': '#ffffff',
      'input-border': '#cecece',
      'input-foreground': '#3b3b3b',
      'dropdown-background': '#ffffff',
      'dropdown-border': '#cecece',
      'dropdown-foreground': '#3b3b3b',
      'badge-background': '#cccccc',
      'badge-foreground': '#3b3b3b',
      'textLink-foreground': '#005fb8',
      'inputValidation-errorBackground': '#f2dede',
      'inputValidation-errorBorder': '#be1100',
      'charts-foreground': '#616161',
      'charts-lines': 'rgba(97, 97, 97, 0.5)',
      'charts-red': '#e51400',
      'charts-blue': '#1a85ff',
      'charts-yellow': '#bf8803',
      'charts-green': '#388a34',
    },
  },
  dark: {
    name: 'dark',
    bodyClass: 'vscode-dark',
    vars: {
      'font-family': FONT,
      'font-size': '13px',
      'editor-background': '#1f1f1f',
      'editor-foreground': '#cccccc',
      'sideBar-background': '#181818',
      'panel-border': '#2b2b2b',
      'widget-border': '#313131',
      focusBorder: '#0078d4',
      descriptionForeground: '#9d9d9d',
      errorForeground: '#f85149',
      'button-background': '#0078d4',
      'button-foreground': '#ffffff',
      'button-hoverBackground': '#026ec1',
      'input-background': '#313131',
      'input-border': '#3c3c3c',
      'input-foreground': '#cccccc',
      'dropdown-background': '#313131',
      'dropdown-border': '#3c3c3c',
      'dropdown-foreground': '#cccccc',
      'badge-background': '#616161',
      'badge-foreground': '#f8f8f8',
      'textLink-foreground': '#4daafc',
      'inputValidation-errorBackground': '#5a1d1d',
      'inputValidation-errorBorder': '#be1100',
      'charts-foreground': '#cccccc',
      'charts-lines': 'rgba(204, 204, 204, 0.5)',
      'charts-red': '#f14c4c',
      'charts-blue': '#3794ff',
      'charts-yellow': '#cca700',
      'charts-green': '#89d185',
    },
  },
  highContrast: {
    name: 'high-contrast',
    bodyClass: 'vscode-high-contrast',
    vars: {
      'font-family': FONT,
      'font-size': '13px',
      'editor-background': '#000000',
      'editor-foreground': '#ffffff',
      'sideBar-background': '#000000',
      'panel-border': '#6fc3df',
      'widget-border': '#6fc3df',
      contrastBorder: '#6fc3df',
      focusBorder: '#f38518',
      descriptionForeground: '#ffffff',
      errorForeground: '#f48771',
      'button-background': '#000000',
      'button-foreground': '#ffffff',
      'button-border': '#6fc3df',
      'input-background': '#000000',
      'input-border': '#6fc3df',
      'input-foreground': '#ffffff',
      'dropdown-background': '#000000',
      'dropdown-border': '#6fc3df',
      'dropdown-foreground': '#ffffff',
      'badge-background': '#000000',
      'badge-foreground': '#ffffff',
      'textLink-foreground': '#21a6ff',
      'inputValidation-errorBackground': '#000000',
      'inputValidation-errorBorder': '#6fc3df',
      'charts-foreground': '#ffffff',
      'charts-lines': 'rgba(255, 255, 255, 0.5)',
      'charts-red': '#f14c4c',
      'charts-blue': '#3794ff',
      'charts-yellow': '#cca700',
      'charts-green': '#89d185',
    },
  },
};

/**
 * Sets a theme the way VS Code does: variables on <html> through the CSSOM (which the CSP allows)
 * and a class on <body>. Runs before the page's script, and again on demand to switch themes.
 */
export function themeScript(theme: Theme): string {
  return `(() => {
    const theme = ${JSON.stringify(theme)};
    const setVars = () => {
      const root = document.documentElement;
      for (const name of Array.from(root.style)) if (name.startsWith('--vscode-')) root.style.removeProperty(name);
      for (const [k, v] of Object.entries(theme.vars)) root.style.setProperty('--vscode-' + k, v);
    };
    // An init script may run before <html> exists; set the variables the moment it does.
    if (document.documentElement) setVars();
    else new MutationObserver((_, o) => { if (document.documentElement) { o.disconnect(); setVars(); } }).observe(document, { childList: true });
    const mark = () => {
      document.body.classList.remove('vscode-light', 'vscode-dark', 'vscode-high-contrast');
      document.body.classList.add(theme.bodyClass);
    };
    if (document.body) mark(); else document.addEventListener('DOMContentLoaded', mark, { once: true });
  })();`;
}

export async function setTheme(page: Page, theme: Theme): Promise<void> {
  await page.evaluate(themeScript(theme));
}

/** Any view's bundle (client/webview/<name>/main.ts), built as esbuild.mjs builds it, into test-output. */
export async function buildNamedView(name: string): Promise<{ js: string; css: string }> {
  const dir = join(OUTPUT, `${name}-build`);
  mkdirSync(dir, { recursive: true });
  await esbuild.build({
    entryPoints: [join(ROOT, `client/webview/${name}/main.ts`)],
    outfile: join(dir, `${name}.js`),
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    minify: true,
    logLevel: 'warning',
    legalComments: 'none',
  });
  return { js: join(dir, `${name}.js`), css: join(dir, `${name}.css`) };
}

/** Serves any view's page (its `render`, the host's own) and bundle on 127.0.0.1 with a random port. */
export async function serveNamedView(
  name: string,
  files: { js: string; css: string },
  render: (cspSource: string, nonce: string, scriptUri: string, styleUri: string) => string,
): Promise<ViewServer> {
  const nonce = randomBytes(16).toString('base64');
  const requests: string[] = [];
  let html = '';
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    requests.push(path);
    const send = (type: string, body: string | Buffer) => {
      res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(body);
    };
    if (path === '/') send('text/html; charset=utf-8', html);
    else if (path === `/${name}.js`) send('text/javascript; charset=utf-8', readFileSync(files.js));
    else if (path === `/${name}.css`) send('text/css; charset=utf-8', readFileSync(files.css));
    else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  html = render(origin, nonce, `${origin}/${name}.js`, `${origin}/${name}.css`);
  return { origin, nonce, html, requests, close: () => new Promise((r) => server.close(() => r())) };
}
