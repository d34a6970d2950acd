/**
 * Data-driven diagnostics tests. Each folder under test/core/fixtures is one workspace; each file
 * in it says what it expects in comments:
 *   # expect: FS-CODE[@text], FS-OTHER      a problem with that code starts on this line (and, with
 *                                            @text, its range covers exactly that text)
 *   # expect-below: FS-CODE[@text]          the same, for the next line (where a comment cannot go)
 * Every expected problem must be reported on its line, and nothing else may be reported: so each
 * fixture is also the "must not" case for every code it does not expect. The examples/ workspace
 * is a fixture too (its clean folders must stay clean).
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { Workspace } from '../../server/src/core/workspace';
import { CODES } from '../../server/src/core/check';
import { diagnose } from '../../server/src/core/service';
import { fileUri } from '../../server/src/cli/io';

const ROOT = path.join(__dirname, 'fixtures');

interface Expectation {
  line: number;
  code: string;
  text?: string;
}

function expectations(text: string): Expectation[] {
  const out: Expectation[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    const m = /#\s*expect(-below)?:\s*(.+)$/.exec(line);
    if (!m) return;
    for (const part of m[2]!.split(/,\s*(?=FS-)/)) {
      const [code, ...rest] = part.trim().split('@');
      out.push({ line: i + (m[1] ? 1 : 0), code: code!.trim(), text: rest.length ? rest.join('@').trim() : undefined });
    }
  });
  return out;
}

function yamlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...yamlFiles(p));
    else if (/\.ya?ml$/.test(e.name)) out.push(p);
  }
  return out.sort();
}

function runWorkspace(dir: string) {
  const ws = new Workspace();
  const files = yamlFiles(dir);
  for (const f of files) ws.set(fileUri(f), fs.readFileSync(f, 'utf8'));
  return files.map((f) => {
    const text = fs.readFileSync(f, 'utf8');
    const doc = ws.get(fileUri(f));
    assert.ok(doc, `${f} is not a Fabled Star file`);
    const lines = TextDocument.create('x', 'yaml', 0, text);
    // What the language server reports: the checks, then the points-estimate notes (on by default),
    // less what the file's suppression comments hide, and those comments' own problems.
    const problems = diagnose(doc, ws).problems.map((p) => ({
      ...p,
      line: lines.positionAt(p.span.start).line,
      text: text.slice(p.span.start, p.span.end),
    }));
    return { file: f, text, problems, expected: expectations(text) };
  });
}

const seen = new Set<string>();
const folders = fs.readdirSync(ROOT).filter((d) => fs.statSync(path.join(ROOT, d)).isDirectory());

describe('diagnostics fixtures', () => {
  for (const folder of folders) {
    describe(folder, () => {
      for (const r of runWorkspace(path.join(ROOT, folder))) {
        it(`${path.basename(r.file)} reports exactly what it expects`, () => {
          const got = r.problems.map((p) => `${p.line + 1}: ${p.code} [${p.text}] ${p.message}`);
          for (const e of r.expected) seen.add(e.code);
          for (const e of r.expected) {
            const hit = r.problems.find((p) => p.line === e.line && p.code === e.code && (e.text === undefined || p.text === e.text));
            assert.ok(hit, `expected ${e.code}${e.text ? ` on "${e.text}"` : ''} at line ${e.line + 1}; got:\n${got.join('\n')}`);
          }
          const unexpected = r.problems.filter((p) => !r.expected.some((e) => e.line === p.line && e.code === p.code));
          assert.deepEqual(
            unexpected.map((p) => `${p.line + 1}: ${p.code} [${p.text}] ${p.message}`),
            [],
            'unexpected problems',
          );
        });
      }
    });
  }

  it('the examples workspace: clean folders are clean and the showcase shows what it says', () => {
    const results = runWorkspace(path.join(__dirname, '..', '..', 'examples'));
    for (const r of results) {
      const lines = r.text.split(/\r?\n/);
      const marked = new Set(lines.map((l, i) => (/#\s*<-/.test(l) ? i : -1)).filter((i) => i >= 0));
      if (!r.file.includes(`${path.sep}showcase${path.sep}`)) {
        assert.deepEqual(
          r.problems.map((p) => `${p.line + 1}: ${p.code} ${p.message}`),
          [],
          `${r.file} should be clean`,
        );
        continue;
      }
      for (const i of marked)
        assert.ok(
          r.problems.some((p) => p.line === i),
          `${path.basename(r.file)}:${i + 1} is marked "<-" but nothing is reported there`,
        );
      for (const p of r.problems) assert.ok(marked.has(p.line), `${path.basename(r.file)}:${p.line + 1} ${p.code} is reported on a line not marked "<-"`);
    }
  });

  after(() => {
    // Every code is exercised by some fixture (the title of this check names the ones that are not).
    const missing = Object.keys(CODES).filter((c) => !seen.has(c));
    assert.deepEqual(missing, [], `codes without a fixture: ${missing.join(', ')}`);
  });
});
