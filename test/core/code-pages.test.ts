/**
 * Every problem code has its page in the manual (docs/codes/FS-CODE.md), which the editor, `check
 * --format json` (`href`) and SARIF (`helpUri`) link to. Each page names the code and its title,
 * its severity and rulebook section, says what is allowed, and shows an example and its fix: the
 * example, checked with the example workspace around it, must report the code with the message
 * the page quotes, and the fix must not report it.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Workspace } from '../../server/src/core/workspace';
import { CODES, codeHref, diagnose } from '../../server/src/core/service';
import { sectionTitle } from '../../server/src/core/rules/text';
import { fileUri } from '../../server/src/cli/io';

const ROOT = path.join(__dirname, '..', '..');
const PAGES = path.join(ROOT, 'docs', 'codes');

function yamlFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? yamlFiles(path.join(dir, e.name)) : /\.ya?ml$/.test(e.name) ? [path.join(dir, e.name)] : []))
    .sort();
}
const EXAMPLES = yamlFiles(path.join(ROOT, 'examples')).map((f) => ({ uri: fileUri(f), text: fs.readFileSync(f, 'utf8') }));

/** The YAML blocks under a heading: each names its file on its first line ("# name.unit.yaml"). */
function blocks(md: string, heading: string): { name: string; text: string }[] {
  const at = md.indexOf(`\n## ${heading}\n`);
  if (at < 0) return [];
  const next = md.indexOf('\n## ', at + 1);
  const part = md.slice(at, next < 0 ? md.length : next);
  return [...part.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => ({ name: /^# (\S+\.ya?ml)\n/.exec(m[1]!)?.[1] ?? '', text: m[1]! }));
}

/** The problems of the last block, with the other blocks and the example workspace around it. */
function check(files: { name: string; text: string }[]) {
  const ws = new Workspace();
  for (const e of EXAMPLES) ws.set(e.uri, e.text);
  const uri = (n: string) => fileUri(path.join(ROOT, 'page', n));
  for (const f of files) ws.set(uri(f.name), f.text);
  const last = files[files.length - 1]!;
  const doc = ws.get(uri(last.name));
  assert.ok(doc, `${last.name} is no Fabled Star file name`);
  return diagnose(doc, ws).problems;
}

describe('a page in the manual for every problem code', () => {
  const codes = Object.keys(CODES) as (keyof typeof CODES)[];

  it('links to the page of its code', () => {
    assert.equal(codeHref('FS-RANGE-BAND'), 'https://github.com/fabled-star/fabled-star-tools/blob/main/docs/codes/FS-RANGE-BAND.md');
  });

  it('the index lists every code and only codes that exist', () => {
    const index = fs.readFileSync(path.join(PAGES, 'README.md'), 'utf8');
    const listed = [...index.matchAll(/^\| \[(FS-[A-Z0-9-]+)\]\(\1\.md\)/gm)].map((m) => m[1]);
    assert.deepEqual([...listed].sort(), [...codes].sort());
    const pages = fs.readdirSync(PAGES).filter((f) => f !== 'README.md');
    assert.deepEqual(pages.sort(), codes.map((c) => `${c}.md`).sort(), 'a page for each code, and none for a code that does not exist');
  });

  for (const code of codes) {
    it(`${code}: its page says what is allowed, and its example and fix are checked`, () => {
      const file = path.join(PAGES, `${code}.md`);
      assert.ok(fs.existsSync(file), `docs/codes/${code}.md is missing`);
      const md = fs.readFileSync(file, 'utf8');
      const info = CODES[code];
      assert.equal(md.split('\n')[0], `# ${code}: ${info.title}`);
      const section = info.section === 'FORMATS' ? 'the file format' : info.section === 'class cards' ? 'the class cards' : sectionTitle(info.section)!;
      assert.ok(section, `section ${info.section} has a title`);
      const sev = { error: 'Error', warning: 'Warning', info: 'Information' }[info.severity];
      assert.ok(md.includes(`\n${sev} · Rulebook: ${section}`), `severity and section: ${sev} · ${section}`);
      assert.match(md, /\n## What is allowed\n\n\S/);

      const example = blocks(md, 'Example');
      const fix = blocks(md, 'Fix');
      assert.ok(example.length >= 1 && fix.length >= 1, 'an example and a fix');
      for (const b of [...example, ...fix]) assert.ok(b.name, `a block names its file on its first line:\n${b.text}`);

      const reported = check(example).filter((p) => p.code === code);
      assert.ok(reported.length > 0, `the example reports ${code}`);
      const quoted = /\nThe tools report on line \d+[^\n]*:\n\n> ([^\n]+)\n/.exec(md)?.[1];
      assert.ok(
        reported.some((p) => p.message === quoted),
        `the page quotes the message: ${reported.map((p) => p.message).join(' | ')}`,
      );

      // The fix replaces the example's block of the same file; the other blocks stay.
      const fixed = example.map((b) => fix.find((f) => f.name === b.name) ?? b);
      assert.deepEqual(
        check(fixed)
          .filter((p) => p.code === code)
          .map((p) => p.message),
        [],
        'the fix does not report it',
      );
    });
  }
});
