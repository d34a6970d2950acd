/**
 * Helpers for the language-server hardening tests and `npm run fuzz`: a server with a bounded heap,
 * requests at any position, and the edit property (incremental edits against a fresh open).
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import type { Diagnostic } from 'vscode-languageserver-protocol/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { startServer, type Client, type StartOptions } from '../protocol/harness';
import { anyDocument, edit, URIS, type Edit } from './arbitraries';
import { bound, describeBound } from './bounds';

/** A diagnostics answer (or any request) must come within this long, transfer of 50 MB included. */
export const SERVER_BOUND_MS = 5000;
export const SERVER_HEAP_MB = 512;
/** Edit sequences compared with a fresh open in `npm test` (`npm run fuzz` runs more). */
export const SERVER_CI_RUNS = 12;

/** Starts the server with a bounded heap (NODE_OPTIONS reaches the child the harness spawns). */
export async function startBounded(opts: StartOptions = {}): Promise<Client> {
  const before = process.env.NODE_OPTIONS;
  process.env.NODE_OPTIONS = `${before ? before + ' ' : ''}--max-old-space-size=${SERVER_HEAP_MB}`;
  try {
    return await startServer(opts);
  } finally {
    if (before === undefined) delete process.env.NODE_OPTIONS;
    else process.env.NODE_OPTIONS = before;
  }
}

export function alive(c: Client): void {
  assert.equal(c.child.exitCode, null, `the server exited; stderr:\n${c.stderr.slice(-2000)}`);
  assert.equal(c.child.signalCode, null, `the server was killed; stderr:\n${c.stderr.slice(-2000)}`);
}

/** Resolves with the request's answer, or fails the test after the bound. */
export async function within<T>(what: string, p: Promise<T>, nominal = SERVER_BOUND_MS): Promise<T> {
  const ms = bound(nominal);
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<T>((_, rej) => (timer = setTimeout(() => rej(new Error(`${what}: no answer within ${describeBound(nominal, ms)}`)), ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export const ZERO = { line: 0, character: 0 };
export const FAR = { line: 1e6, character: 1e6 };

/** Every request a document supports, at a position (possibly outside the document). */
export function requestsAt(uri: string, position: { line: number; character: number }): [string, unknown][] {
  const range = { start: ZERO, end: position };
  return [
    ['textDocument/hover', { textDocument: { uri }, position }],
    ['textDocument/completion', { textDocument: { uri }, position }],
    ['textDocument/definition', { textDocument: { uri }, position }],
    ['textDocument/references', { textDocument: { uri }, position, context: { includeDeclaration: true } }],
    ['textDocument/prepareRename', { textDocument: { uri }, position }],
    ['textDocument/codeAction', { textDocument: { uri }, range, context: { diagnostics: [] } }],
    ['textDocument/inlayHint', { textDocument: { uri }, range }],
  ];
}

export function wholeDocumentRequests(uri: string): [string, unknown][] {
  return [
    ['textDocument/documentSymbol', { textDocument: { uri } }],
    ['textDocument/codeLens', { textDocument: { uri } }],
    ['fabledStar/fleetSummary', { uri }],
  ];
}

/** What two diagnostics answers must agree on (related information names other documents). */
export function shape(ds: Diagnostic[]): string[] {
  return ds
    .map((d) => `${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character} ${d.severity} ${d.code} ${d.message}`)
    .sort();
}

/**
 * An edit as an editor sends it: positions counted the way LSP counts lines (\n, \r\n and a lone
 * \r all end one), never between the \r and \n of one line end (a position cannot say that).
 */
export function lspEdit(
  text: string,
  e: Edit,
): { text: string; range: { start: { line: number; character: number }; end: { line: number; character: number } } } {
  const doc = TextDocument.create('x', 'x', 0, text);
  const aligned = (o: number) => (o > 0 && text[o - 1] === '\r' && text[o] === '\n' ? o - 1 : o);
  const start = aligned(Math.min(text.length, Math.floor(e.at * (text.length + 1))));
  const end = Math.max(start, aligned(Math.min(text.length, start + e.del)));
  return { text: text.slice(0, start) + e.ins + text.slice(end), range: { start: doc.positionAt(start), end: doc.positionAt(end) } };
}

/**
 * The property: open a document, send a sequence of incremental changes (several per notification
 * at times, as editors batch them), and compare its final diagnostics with those of a second
 * server that opens the final text fresh.
 */
export async function runEditProperty(editor: Client, fresh: Client, budget: { seed?: number; numRuns: number }): Promise<void> {
  let n = 0;
  await fc.assert(
    fc.asyncProperty(anyDocument, fc.array(fc.array(edit, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 5 }), async ({ kind, text }, batches) => {
      n++;
      const rel = `edits/${n}${URIS[kind].slice(URIS[kind].lastIndexOf('/') + 2)}`;
      const uri = await editor.open(rel, text);
      let current = text;
      for (const batch of batches) {
        const changes = [];
        for (const e of batch) {
          const r = lspEdit(current, e);
          changes.push({ range: r.range, text: e.ins });
          current = r.text;
        }
        await editor.change(uri, changes, current);
      }
      const edited = await editor.diagnosticsWhere(uri, 'diagnostics of the edited document', () => true, bound(SERVER_BOUND_MS));
      const freshUri = await fresh.open(rel, current);
      const opened = await fresh.diagnosticsWhere(freshUri, 'diagnostics of the fresh document', () => true, bound(SERVER_BOUND_MS));
      await Promise.all([editor.close(uri), fresh.close(freshUri)]);
      assert.deepEqual(shape(edited), shape(opened));
    }),
    { ...budget, endOnFailure: true },
  );
  alive(editor);
  alive(fresh);
}
