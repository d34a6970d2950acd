/**
 * `fabled-star roster`: the roster of every example fleet in every format against golden files
 * (reviewed by eye; `UPDATE_GOLDEN=1` rewrites them), exit statuses, and every way the command
 * line can be wrong (exit 2, one line on stderr, nothing on stdout).
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runRoster } from '../../server/src/cli/roster';
import { type CliIO } from '../../server/src/cli/io';
import { runCliSync, type CliRun } from '../helpers';

const ROOT = path.resolve(__dirname, '../..');
const GOLDEN = path.join(__dirname, 'roster-golden');
const abs = (p: string) => path.join(ROOT, p);
const FLEETS = [
  abs('examples/fleets/skirmish-500.fleet.yaml'),
  abs('examples/fleets/standard-1000.fleet.yaml'),
  abs('examples/fleets/battle-2000.fleet.yaml'),
  abs('examples/showcase/over-budget.fleet.yaml'),
];
const FORMATS = { text: 'txt', markdown: 'md', html: 'html', json: 'json', short: 'short.txt' } as const;

const run = (args: string[], io?: Partial<CliIO>): CliRun => runCliSync(runRoster, args, { cwd: ROOT, ...io });

describe('roster CLI: golden files of the example fleets', () => {
  for (const fleet of FLEETS) {
    for (const [format, ext] of Object.entries(FORMATS)) {
      it(`${path.basename(fleet)} as ${format}`, () => {
        const r = run([fleet, '--cards', abs('examples'), '--format', format]);
        assert.equal(r.err, '');
        assert.equal(r.code, fleet.includes('showcase') ? 1 : 0);
        const file = path.join(GOLDEN, `${path.basename(fleet, '.fleet.yaml')}.${ext}`);
        if (process.env.UPDATE_GOLDEN) {
          fs.mkdirSync(GOLDEN, { recursive: true });
          fs.writeFileSync(file, r.out);
        }
        assert.equal(r.out, fs.readFileSync(file, 'utf8'), `${file} differs; rerun with UPDATE_GOLDEN=1 and review the diff`);
      });
    }
  }
});

describe('roster CLI: what the examples add up to', () => {
  const json = (fleet: string) => JSON.parse(run([fleet, '--cards', abs('examples'), '--format', 'json']).out);

  it('totals match the hand-added points of each example, embarked units included', () => {
    // Skirmish: Lumen Cruiser 190 + Veilwing 60, Prism Frigate 110, Shardlight Escort 80, Veilwing 60.
    const s = json(abs('examples/fleets/skirmish-500.fleet.yaml'));
    assert.equal(s.total, 500);
    assert.deepEqual(
      s.entries.map((e: { unit: string; total: number }) => [e.unit, e.total]),
      [
        ['Lumen Cruiser', 250],
        ['Prism Frigate Squadron', 110],
        ['Shardlight Escort', 80],
        ['Veilwing Fighter Wing', 60],
      ],
    );
    assert.equal(s.remaining, 0);
    assert.equal(s.legal, true);
    assert.equal(
      s.copyText,
      `Veil Patrol (Myr-Valari): Lumen Cruiser + Veilwing Fighter Wing 250, Prism Frigate Squadron 110, Shardlight Escort 80, Veilwing Fighter Wing 60; 500/500 · rules July 30 · ${s.digest}`,
    );
  });

  it('counts copies in the class totals and the Command Board comes from the faction file', () => {
    const s = json(abs('examples/fleets/standard-1000.fleet.yaml'));
    const escorts = s.byClass.find((c: { class: string }) => c.class === 'Escort');
    assert.deepEqual(escorts, { class: 'Escort', units: 2, points: 160 });
    assert.equal(
      s.byClass.reduce((t: number, c: { points: number }) => t + c.points, 0),
      s.total,
    );
    assert.equal(s.board.faction, 'Consumed');
    assert.equal(s.board.commandAbilities.length, 6);
  });

  it('a fleet with errors lists them, per entry and overall, and exits 1', () => {
    const r = run([abs('examples/showcase/over-budget.fleet.yaml'), '--cards', abs('examples'), '--format', 'json']);
    assert.equal(r.code, 1);
    const s = JSON.parse(r.out);
    assert.equal(s.legal, false);
    assert.deepEqual(s.counts, { errors: 5, warnings: 1, infos: 0 });
    assert.deepEqual(
      s.problems.map((p: { code: string }) => p.code),
      ['FS-FLEET-OVER', 'FS-OBJECTIVES'],
    );
    const unknown = s.entries.find((e: { unit: string }) => e.unit === 'Lumen Destroyr');
    assert.equal(unknown.card, null);
    assert.equal(unknown.problems[0].code, 'FS-UNIT-UNKNOWN');
    assert.equal(unknown.problems[0].file, 'examples/showcase/over-budget.fleet.yaml');
    assert.equal(unknown.problems[0].line, 16);
    const text = run([abs('examples/showcase/over-budget.fleet.yaml'), '--cards', abs('examples')]).out;
    assert.match(text.split('\n').slice(0, 6).join('\n'), /NOT LEGAL AS WRITTEN: 5 errors, 1 warning/);
  });

  /** The page as a reader sees it: no style block, no QR code, no tags. */
  const pageText = (html: string) =>
    html
      .replace(/<style>[\s\S]*?<\/style>/, '')
      .replace(/<svg[\s\S]*?<\/svg>/g, '')
      .replace(/<[^>]+>/g, ' ');

  it('the HTML sheet says a list’s problems in words, with no problem codes or file positions', () => {
    const fleet = abs('examples/showcase/over-budget.fleet.yaml');
    const html = run([fleet, '--cards', abs('examples'), '--format', 'html']).out;
    const s = JSON.parse(run([fleet, '--cards', abs('examples'), '--format', 'json']).out);
    const page = pageText(html);
    assert.doesNotMatch(page, /FS-[A-Z]/, 'a problem code on the sheet');
    assert.doesNotMatch(page, /\.fleet\.yaml:\d+/, 'a file position on the sheet');
    assert.doesNotMatch(html, /<h2>Problems<\/h2>|class="problems"/, 'the table of problems');
    // Every problem is still there, in words: the errors in the verdict, the fleet's warning beside them.
    const esc = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
    const messages: string[] = [...s.problems, ...s.entries.flatMap((e: { problems: unknown[] }) => e.problems)].map((p: { message: string }) => p.message);
    assert.equal(messages.length, 6);
    for (const m of messages) assert.ok(html.includes(esc(m)), m);
  });

  it('the HTML sheet of a legal list says nothing of problems, even with a warning', () => {
    const fleet = abs('examples/fleets/standard-1000.fleet.yaml');
    const io = { readFile: (p: string) => fs.readFileSync(p, 'utf8').replace(p === fleet ? /^objectives: 6$/m : /$^/, 'objectives: 4') };
    const s = JSON.parse(run([fleet, '--cards', abs('examples'), '--format', 'json'], io).out);
    assert.equal(s.legal, true);
    assert.equal(s.counts.warnings, 1, 'the test needs a legal list with a warning');
    const html = run([fleet, '--cards', abs('examples'), '--format', 'html'], io).out;
    const page = pageText(html);
    assert.doesNotMatch(page, /FS-[A-Z]|warning|objectives, not 4|problem/i, page);
    assert.match(page, /Legal as written\./);
  });
});

describe('roster CLI: usage and I/O', () => {
  const cases: [string, string[], RegExp][] = [
    ['no fleet', [], /give exactly one fleet file/],
    ['two fleets', ['a.fleet.yaml', 'b.fleet.yaml'], /exactly one fleet file.*not 2 paths/],
    ['a card file instead of a fleet', [abs('examples/myr-valari/myr-valari.unit.yaml')], /not a fleet list \(name it \*\.fleet\.yaml\)/],
    ['a missing fleet', [abs('nowhere.fleet.yaml'), '--cards', abs('examples')], /nowhere\.fleet\.yaml: no such file/],
    ['a missing cards folder', [abs('examples/fleets/skirmish-500.fleet.yaml'), '--cards', abs('no-such-dir')], /no-such-dir: no such file or folder/],
    [
      'an unknown format',
      [abs('examples/fleets/skirmish-500.fleet.yaml'), '--format', 'pdf'],
      /--format must be markdown, html, json, text or short, not "pdf"/,
    ],
    ['a fleet path with a line break', [abs('two\nlines.fleet.yaml')], /two\\nlines\.fleet\.yaml: no such file/],
    ['an unknown option', [abs('examples/fleets/skirmish-500.fleet.yaml'), '--colour'], /Unknown option '--colour'/],
  ];
  for (const [name, args, message] of cases) {
    it(`${name}: exit 2 with one line on stderr and nothing on stdout`, () => {
      const r = run(args);
      assert.equal(r.code, 2);
      assert.equal(r.out, '');
      assert.match(r.err, message);
      assert.equal(r.err.trimEnd().split('\n').length, 1, r.err);
    });
  }

  it('an unreadable fleet is an I/O problem (exit 2)', () => {
    const r = run([abs('examples/fleets/skirmish-500.fleet.yaml'), '--cards', abs('examples')], {
      readFile: (p) => {
        if (p.endsWith('.fleet.yaml')) throw Object.assign(new Error('denied'), { code: 'EACCES' });
        return fs.readFileSync(p, 'utf8');
      },
    });
    assert.equal(r.code, 2);
    assert.match(r.err, /skirmish-500\.fleet\.yaml: EACCES/);
  });

  it('an unreadable card file is skipped with a warning; its cards show up as unknown', () => {
    const r = run([abs('examples/fleets/skirmish-500.fleet.yaml'), '--cards', abs('examples'), '--format', 'short'], {
      readFile: (p) => {
        if (p.endsWith('myr-valari.unit.yaml')) throw Object.assign(new Error('denied'), { code: 'EACCES' });
        return fs.readFileSync(p, 'utf8');
      },
    });
    assert.equal(r.code, 1);
    assert.match(r.err, /myr-valari\.unit\.yaml: EACCES \(skipped\)/);
    assert.match(r.out, /Lumen Cruiser \+ Veilwing Fighter Wing \?/);
  });

  it('--help prints the usage and exits 0', () => {
    const r = run(['--help']);
    assert.equal(r.code, 0);
    assert.match(r.out, /^Usage: fabled-star roster FLEET/);
    assert.match(r.out, /Exit status: 0 the fleet is legal, 1/);
  });
});
