/** `fabled-star check PATHS... [--cards DIR] [--format text|json|sarif]` (FORMATS.md). */
import * as path from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { createFabledService, FabledService, LIMITS, type Problem } from '../core/service';
import { expandPaths, fileUri, type CliIO } from './io';
import { escapeControls } from './terminal';
import { CARDS_OPTION, command, type CommandSpec } from './args';

export const CHECK_HELP = `Usage: fabled-star check PATHS... [--cards DIR]... [--collection FILE] [--no-estimate] [--format text|json|sarif]

Checks Fabled Star unit cards (*.unit.yaml), Command Boards (*.faction.yaml), fleet lists
(*.fleet.yaml) and a collection (*.collection.yaml) against the rulebook. PATHS are files or
folders (searched recursively).

Options:
  --cards DIR      also read cards from DIR (file or folder; may repeat) to resolve fleet entries;
                   its files are not reported on
  --collection FILE  the models you own (*.collection.yaml): each fleet that fields more copies
                   of a card than owned gets FS-COLLECTION-SHORT; without it, a collection among
                   PATHS (the first by path) is used, and without any nothing is said about owning
  --no-estimate    leave out the FS-POINTS-ESTIMATE notes (a card's printed points far from the
                   points estimate, as the editor shows them; on by default)
  --format FMT     text (default, like a compiler), json (one object on stdout) or sarif (2.1.0)
  -h, --help       show this help

Exit status: 0 no errors, 1 at least one error, 2 usage or I/O problem.
`;

export interface JsonDiagnostic {
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  severity: 'error' | 'warning' | 'info';
  code: string;
  message: string;
  /** The link to the code's page in the manual. */
  href: string;
}

export interface CheckReport {
  diagnostics: JsonDiagnostic[];
  summary: { files: number; errors: number; warnings: number; infos: number };
}

/** Loads files into a workspace and checks the reported ones; shared by the CLI and the benchmark. */
export function checkFiles(
  io: CliIO,
  files: string[],
  cardFiles: string[] = [],
  opts: { estimateNotes?: boolean; collection?: string } = {},
): { report: CheckReport; unreadable: string[] } {
  // A faction without a card here is the bundled example one, as in the editor (a pasted example fleet resolves).
  // Each file is checked once: no diagnosis is kept.
  const service = createFabledService({ examplesFallback: true, diagnosesKept: 0 });
  // The editor's notes too (the language server adds them the same way), unless turned off.
  service.estimateNotes = opts.estimateNotes !== false;
  const ws = service.workspace;
  const texts = new Map<string, { file: string; uri: string; text: string }>();
  const unreadable: string[] = [];
  /** Files too large to check, by uri: reported without reading them (a 5 GB file would not fit in memory). */
  const tooLarge = new Map<string, { file: string; bytes: number; atLeast?: boolean }>();
  if (opts.collection !== undefined) ws.chosenCollection = fileUri(opts.collection);
  for (const file of [...files, ...cardFiles, ...(opts.collection !== undefined ? [opts.collection] : [])]) {
    const uri = fileUri(file);
    if (texts.has(uri) || tooLarge.has(uri)) continue;
    // UTF-8 takes at most 3 bytes per UTF-16 unit, so a file this large is over the limit for sure.
    const bytes = io.fileSize?.(file);
    if (bytes !== undefined && bytes > 3 * LIMITS.fileChars) {
      tooLarge.set(uri, { file, bytes });
      continue;
    }
    let text: string;
    try {
      text = io.readFile(file);
    } catch (e) {
      const err = e as NodeJS.ErrnoException & { bytes?: number };
      if (err.code === 'too-large') tooLarge.set(uri, { file, bytes: 3 * LIMITS.fileChars, atLeast: true });
      else unreadable.push(`${file}: ${err.code ?? err.message}`);
      continue;
    }
    texts.set(uri, { file, uri, text });
    ws.set(uri, text);
  }
  const reported = new Set(files.map(fileUri));
  const diagnostics: JsonDiagnostic[] = [];
  const summary = { files: 0, errors: 0, warnings: 0, infos: 0 };
  const relative = (file: string) => path.relative(io.cwd, path.resolve(io.cwd, file)).split(path.sep).join('/') || file;
  for (const [uri, { file, bytes, atLeast }] of tooLarge) {
    if (!reported.has(uri)) continue;
    summary.files++;
    summary.errors++;
    const p = FabledService.fileTooLarge(bytes, { start: 0, end: 0 }, atLeast);
    diagnostics.push({
      file: relative(file),
      line: 1,
      column: 1,
      endLine: 1,
      endColumn: 1,
      severity: p.severity,
      code: p.code,
      message: p.message,
      href: FabledService.codeHref(p.code),
    });
  }
  for (const { file, uri, text } of texts.values()) {
    if (!reported.has(uri)) continue;
    summary.files++;
    const doc = ws.get(uri);
    if (!doc) continue;
    const lines = TextDocument.create(uri, 'yaml', 0, text);
    const rel = relative(file);
    const d = service.diagnose(doc);
    if (d.failure !== undefined) throw d.failure;
    // In the file's order (a reader goes down the file; the checks and the estimate notes come in two runs), stable within a place.
    const inOrder = d.problems.map((p, i) => ({ p, i })).sort((a, b) => a.p.span.start - b.p.span.start || a.i - b.i);
    for (const { p } of inOrder) {
      diagnostics.push(toJson(rel, lines, p));
      if (p.severity === 'error') summary.errors++;
      else if (p.severity === 'warning') summary.warnings++;
      else summary.infos++;
    }
  }
  return { report: { diagnostics, summary }, unreadable };
}

function toJson(file: string, lines: TextDocument, p: Problem): JsonDiagnostic {
  const s = lines.positionAt(p.span.start);
  const e = lines.positionAt(Math.max(p.span.start, p.span.end));
  return {
    file,
    line: s.line + 1,
    column: s.character + 1,
    endLine: e.line + 1,
    endColumn: e.character + 1,
    severity: p.severity,
    code: p.code,
    message: p.message,
    href: FabledService.codeHref(p.code),
  };
}

const CHECK_COMMAND = {
  name: 'check',
  help: CHECK_HELP,
  options: { cards: CARDS_OPTION, collection: { type: 'string' }, 'no-estimate': { type: 'boolean' } },
  positionals: true,
  formats: ['text', 'json', 'sarif'],
} as const satisfies CommandSpec;

export const runCheck = command(CHECK_COMMAND, ({ values, positionals, format, fail }, io) => {
  if (positionals.length === 0) return fail('give at least one file or folder to check (run "fabled-star check --help" for the options)');
  const listing = expandPaths(io, positionals);
  const { files, missing } = listing;
  const cards = expandPaths(io, values.cards ?? []);
  const problems = [...missing, ...cards.missing].map((m) => `${m}: no such file or folder`);
  problems.push(...cards.unreadable.map((u) => `${u} (--cards)`));
  problems.push(...listing.unreadable);
  const { kindOfPath } = FabledService;
  const skipped = files.filter((f) => !kindOfPath(f));
  for (const f of skipped) problems.push(`${f}: not a Fabled Star file (name it *.unit.yaml, *.faction.yaml, *.fleet.yaml or *.collection.yaml)`);
  const ours = files.filter((f) => kindOfPath(f));
  const collection = values.collection;
  if (collection !== undefined) {
    if (kindOfPath(collection) !== 'collection') return fail(`--collection ${collection}: a collection is a *.collection.yaml file`);
    if (!io.exists(collection) || io.isDirectory(collection)) return fail(`--collection ${collection}: no such file`);
  }
  const { report, unreadable } = checkFiles(
    io,
    ours,
    cards.files.filter((f) => kindOfPath(f)),
    { estimateNotes: !values['no-estimate'], ...(collection !== undefined ? { collection } : {}) },
  );
  problems.push(...unreadable);
  for (const p of problems) io.stderr(`fabled-star check: ${escapeControls(p)}\n`);

  if (format === 'json') io.stdout(JSON.stringify(report, null, 2) + '\n');
  else if (format === 'sarif') io.stdout(JSON.stringify(toSarif(report), null, 2) + '\n');
  else io.stdout(toText(report));

  if (problems.length) return 2;
  return report.summary.errors > 0 ? 1 : 0;
});

export function toText(report: CheckReport): string {
  // File names and messages hold text from files: one line each, whatever they contain.
  const lines = report.diagnostics.map((d) => `${escapeControls(d.file)}:${d.line}:${d.column}: ${d.severity} ${d.code}: ${escapeControls(d.message)}`);
  const s = report.summary;
  const { count } = FabledService;
  lines.push(`${count(s.files, 'file')} checked: ${count(s.errors, 'error')}, ${count(s.warnings, 'warning')}, ${count(s.infos, 'info')}`);
  return lines.join('\n') + '\n';
}

const SARIF_LEVEL = { error: 'error', warning: 'warning', info: 'note' } as const;

/**
 * A file as SARIF names it: a uri reference (RFC 3986), relative to where the check ran, each
 * segment percent-encoded ("my cards.unit.yaml" -> "my%20cards.unit.yaml", "100%" -> "100%25",
 * "C#" -> "C%23"), so that a code-scanning service maps it back to the file; an absolute path is a
 * file: uri.
 */
export function sarifUri(file: string): string {
  const encoded = file.split('/').map(encodeURIComponent).join('/');
  if (file.startsWith('/')) return `file://${encoded}`;
  // A drive letter ("C:/…"): an absolute file: uri too (its colon stays, as in file:///C:/…).
  if (/^[A-Za-z]:\//.test(file)) return `file:///${file.slice(0, 2)}${encoded.slice(file.indexOf('/'))}`;
  return encoded;
}

export function toSarif(report: CheckReport): object {
  const { CODES, codeHref } = FabledService;
  const codes = Object.keys(CODES) as (keyof typeof CODES)[];
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'fabled-star',
            informationUri: 'https://github.com/fabled-star/fabled-star-tools',
            rules: codes.map((c) => ({
              id: c,
              name: CODES[c].title.replace(/[^A-Za-z0-9]+(.)?/g, (_m, ch: string | undefined) => (ch ? ch.toUpperCase() : '')),
              shortDescription: { text: CODES[c].title },
              helpUri: codeHref(c),
              defaultConfiguration: { level: SARIF_LEVEL[CODES[c].severity] },
              properties: { section: CODES[c].section },
            })),
          },
        },
        columnKind: 'utf16CodeUnits',
        results: report.diagnostics.map((d) => ({
          ruleId: d.code,
          ruleIndex: codes.indexOf(d.code as keyof typeof CODES),
          level: SARIF_LEVEL[d.severity],
          message: { text: d.message },
          locations: [
            {
              physicalLocation: {
                artifactLocation: { uri: sarifUri(d.file) },
                region: { startLine: d.line, startColumn: d.column, endLine: d.endLine, endColumn: d.endColumn },
              },
            },
          ],
        })),
      },
    ],
  };
}
