/**
 * Suppression comments (FORMATS.md): each form hides its codes where it says, in what the editor
 * shows (`diagnose`) and in `check`; a comment that hides nothing or names no code is reported; the
 * quick fix "Ignore FS-CODE on this line" writes a comment that hides the problem; and a hidden
 * error still keeps a fleet out of a battle. (The fixture test/core/fixtures/suppression has the
 * forms side by side with their near misses.)
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Workspace } from '../../server/src/core/workspace';
import { codeActions, diagnose, prepareBattle, BATTLE_DEFAULTS, type FleetDocument } from '../../server/src/core/service';
import { directivesIn } from '../../server/src/core/model/directives';
import { applyEdits } from '../../server/src/core/model/edit';
import { runCheck } from '../../server/src/cli/check';
import { nodeIO } from '../../server/src/cli/io';

const CARD = `faction: Hush
units:
  - name: Quiet Destroyer
    class: Destroyer
    points: 160
    bases: 2
    stats: "9/6 5+ 7+ 4 6+ 5 6/3 7/2 3"
    weapons:
      - Hush Lance — Energy, 18", 2, 3
      - Hush Battery — Auto, 10", 1, 4
    abilities:
      - name: Drift
        text: |
          Moves 4" after firing.
`;

function codesOf(text: string, name = 'hush.unit.yaml', ws = new Workspace()): string[] {
  const uri = `file:///w/${name}`;
  ws.set(uri, text);
  return diagnose(ws.get(uri)!, ws, false).problems.map((p) => p.code);
}

describe('suppression comments', () => {
  it('the card without comments has the problems the tests hide', () => {
    const codes = codesOf(CARD);
    for (const c of ['FS-POINTS-NONSTANDARD', 'FS-BASES', 'FS-RANGE-BAND', 'FS-RANGE-TEXT']) assert.ok(codes.includes(c), `${c} in ${codes.join(', ')}`);
  });

  it('disable-next-line hides its codes on the next line only', () => {
    const codes = codesOf(CARD.replace('    points: 160\n', '    # fabled-star-disable-next-line FS-POINTS-NONSTANDARD, FS-BASES\n    points: 160\n'));
    assert.ok(!codes.includes('FS-POINTS-NONSTANDARD'));
    assert.ok(codes.includes('FS-BASES'), 'FS-BASES is on the line after');
    assert.ok(codes.includes('FS-DISABLE-UNUSED'), 'and the comment says FS-BASES hid nothing');
  });

  it('disable-line at the end of a line hides its code on that line', () => {
    const codes = codesOf(CARD.replace('    bases: 2\n', '    bases: 2 # fabled-star-disable-line FS-BASES\n'));
    assert.ok(!codes.includes('FS-BASES'));
    assert.ok(!codes.includes('FS-DISABLE-UNUSED'));
  });

  it('disable on a line of its own hides its code in the whole file; at the end of a line it does not', () => {
    const two = CARD.replace('Hush Lance — Energy, 18"', 'Hush Lance — Energy, 20"');
    const hidden = codesOf(`# fabled-star-disable FS-RANGE-BAND\n${two}`);
    assert.ok(!hidden.includes('FS-RANGE-BAND'));
    const trailing = codesOf(two.replace('faction: Hush', 'faction: Hush # fabled-star-disable FS-RANGE-BAND'));
    assert.equal(trailing.filter((c) => c === 'FS-RANGE-BAND').length, 2);
    assert.ok(trailing.includes('FS-DISABLE-UNUSED'));
  });

  it('works in a CRLF file', () => {
    const crlf = CARD.replace('    bases: 2\n', '    # fabled-star-disable-next-line FS-BASES\n    bases: 2\n').replace(/\n/g, '\r\n');
    const codes = codesOf(crlf);
    assert.ok(!codes.includes('FS-BASES'));
    assert.ok(!codes.includes('FS-DISABLE-UNUSED'));
  });

  it('an unknown code, or none, is reported, with the closest code', () => {
    const ws = new Workspace();
    const text = CARD.replace('    bases: 2\n', '    # fabled-star-disable-next-line FS-BASE\n    bases: 2\n    # fabled-star-disable-line\n');
    ws.set('file:///w/a.unit.yaml', text);
    const problems = diagnose(ws.get('file:///w/a.unit.yaml')!, ws, false).problems.filter((p) => p.code === 'FS-DISABLE-UNKNOWN');
    assert.equal(problems.length, 2);
    assert.match(problems[0]!.message, /FS-BASE is no problem code.*did you mean FS-BASES\?/);
    assert.equal(text.slice(problems[0]!.span.start, problems[0]!.span.end), 'FS-BASE');
    assert.match(problems[1]!.message, /names no code/);
  });

  it('text that looks like a comment inside a block scalar or a quoted string is no directive', () => {
    const text = CARD.replace('Moves 4" after firing.', 'Moves 4" # fabled-star-disable-line FS-RANGE-TEXT').replace(
      '    bases: 2\n',
      "    bases: 2\n    base: '60mm # fabled-star-disable-line FS-BASES'\n",
    );
    assert.deepEqual(directivesIn(text), []);
    const codes = codesOf(text);
    assert.ok(codes.includes('FS-RANGE-TEXT') && codes.includes('FS-BASES'));
  });

  describe('the quick fix "Ignore FS-CODE on this line"', () => {
    function ignore(text: string, code: string) {
      const ws = new Workspace();
      ws.set('file:///w/a.unit.yaml', text);
      const doc = ws.get('file:///w/a.unit.yaml')!;
      const p = diagnose(doc, ws, false).problems.find((x) => x.code === code)!;
      assert.ok(p, `${code} is reported`);
      return codeActions(doc, p.span, [p], ws).find((a) => a.title === `Ignore ${code} on this line`);
    }
    function applied(text: string, code: string): string {
      const a = ignore(text, code);
      assert.ok(a, 'the fix is offered');
      assert.equal(a.kind, 'quickfix');
      return applyEdits(
        text,
        a.edits.map((e) => ({ start: e.span.start, end: e.span.end, newText: e.newText })),
      );
    }

    it('writes a comment above the line, at its indentation, that hides the problem and only it', () => {
      const after = applied(CARD, 'FS-RANGE-BAND');
      assert.ok(after.includes('      # fabled-star-disable-next-line FS-RANGE-BAND\n      - Hush Battery'), after);
      const codes = codesOf(after);
      assert.ok(!codes.includes('FS-RANGE-BAND') && !codes.includes('FS-DISABLE-UNUSED'));
      assert.deepEqual(
        codesOf(after).sort(),
        codesOf(CARD)
          .filter((c) => c !== 'FS-RANGE-BAND')
          .sort(),
      );
    });

    it('adds the code to a comment already above the line', () => {
      const text = CARD.replace('    points: 160\n', '    # fabled-star-disable-next-line FS-RANGE-BAND\n    points: 160\n');
      const after = applied(text, 'FS-POINTS-NONSTANDARD');
      assert.ok(after.includes('    # fabled-star-disable-next-line FS-RANGE-BAND, FS-POINTS-NONSTANDARD\n    points: 160\n'), after);
      assert.ok(!codesOf(after).includes('FS-POINTS-NONSTANDARD'));
    });

    it('keeps the line ending of a CRLF file', () => {
      const after = applied(CARD.replace(/\n/g, '\r\n'), 'FS-BASES');
      assert.ok(after.includes('    # fabled-star-disable-next-line FS-BASES\r\n    bases: 2\r\n'));
      assert.ok(!/[^\r]\n/.test(after), 'no bare LF');
    });

    it('is not offered inside a block scalar, where a comment would be text', () => {
      assert.equal(ignore(CARD, 'FS-RANGE-TEXT'), undefined);
    });
  });

  it('a hidden error still keeps the fleet out of a battle, with its sentence', () => {
    const ws = new Workspace();
    ws.set('file:///w/hush.unit.yaml', CARD);
    const fleet = `name: Hush Patrol
faction: Hush
points: 500
units:
  # fabled-star-disable-next-line FS-UNIT-UNKNOWN
  - unit: Nobody Here
  - unit: Quiet Destroyer
`;
    ws.set('file:///w/hush.fleet.yaml', fleet);
    const doc = ws.get('file:///w/hush.fleet.yaml') as FleetDocument;
    assert.ok(!diagnose(doc, ws).problems.some((p) => p.code === 'FS-UNIT-UNKNOWN'), 'hidden in the editor');
    const r = prepareBattle(
      [
        { doc, ws },
        { doc, ws },
      ],
      { ...BATTLE_DEFAULTS, trials: 10 },
    );
    assert.ok('refused' in r, 'the battle is refused');
    assert.ok(
      r.refused.errors.some((e) => e.includes('Nobody Here')),
      r.refused.errors.join(' | '),
    );
  });

  it('check honours them, and its JSON links each problem to its page', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'fabled-suppress-'));
    try {
      writeFileSync(path.join(dir, 'hush.unit.yaml'), CARD.replace('    bases: 2\n', '    bases: 2 # fabled-star-disable-line FS-BASES\n'));
      let out = '';
      const code = runCheck([path.join(dir, 'hush.unit.yaml'), '--format', 'json', '--no-estimate'], {
        ...nodeIO(),
        cwd: dir,
        stdout: (s) => (out += s),
        stderr: () => undefined,
      }) as number;
      const report = JSON.parse(out) as { diagnostics: { code: string; href: string }[] };
      const codes = report.diagnostics.map((d) => d.code);
      assert.ok(!codes.includes('FS-BASES') && codes.includes('FS-RANGE-BAND'), codes.join(', '));
      assert.equal(code, 1, 'FS-RANGE-BAND is an error');
      for (const d of report.diagnostics) assert.equal(d.href, `https://github.com/fabled-star/fabled-star-tools/blob/main/docs/codes/${d.code}.md`);
      let sarif = '';
      runCheck([path.join(dir, 'hush.unit.yaml'), '--format', 'sarif'], { ...nodeIO(), cwd: dir, stdout: (s) => (sarif += s), stderr: () => undefined });
      const rules = (JSON.parse(sarif) as { runs: { tool: { driver: { rules: { id: string; helpUri: string }[] } } }[] }).runs[0]!.tool.driver.rules;
      assert.ok(rules.length > 50);
      for (const rule of rules) assert.equal(rule.helpUri, `https://github.com/fabled-star/fabled-star-tools/blob/main/docs/codes/${rule.id}.md`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
