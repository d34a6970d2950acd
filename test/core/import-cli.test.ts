/**
 * `fabled-star import` and `fabled-star verify` (FORMATS.md): stdout, stderr lines, exit statuses.
 */
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { runImport } from '../../server/src/cli/import';
import { runVerify } from '../../server/src/cli/verify';
import { runRoster } from '../../server/src/cli/roster';
import { type CliIO } from '../../server/src/cli/io';
import { runCliSync, type Command, EXAMPLES } from '../helpers';
import { memoryIO } from './memoryIO';

const ROOT = path.resolve(__dirname, '../..');

const run = (cmd: Command, args: string[], io: Partial<CliIO> = {}) => runCliSync(cmd, args, { cwd: ROOT, ...io });

describe('import CLI', () => {
  it('reads a posted list from standard input; each unreadable line on stderr as "LINE: text (why, closest card)", exit 1', () => {
    const post = 'Veil Patrol - 500 pts\nMyr-Valari\n\n- Lumen Cruiser + Veilwing Fighter Wing\n- Prizm Frgt Sqdrn\n- Shardlight Escort (80)\n';
    const r = run(runImport, ['-', '--cards', EXAMPLES], { readStdin: () => post });
    assert.equal(r.code, 1);
    assert.equal(r.err, '5: - Prizm Frgt Sqdrn (no card named "Prizm Frgt Sqdrn", closest card: Prism Frigate Squadron)\n');
    assert.match(r.out, /^name: Veil Patrol$/m);
    assert.match(r.out, /^faction: Myr-Valari$/m);
    assert.match(r.out, /^points: 500$/m);
    assert.match(r.out, /^ {2}- unit: Lumen Cruiser\n {4}embark:\n {6}- Veilwing Fighter Wing\n {2}- unit: Shardlight Escort\n/m);
  });

  it('a name clearly one card\'s is read as it, said on stderr and on the entry; exit 0; "embarked on a cruiser" embarks', () => {
    const post =
      'Myr-Valari 1000\n1x Celestial Batleship (280)\n3 x Shardlite Escort @ 80\nLumen Cruiser (190)\nVeilwing Fighters (60) embarked on a cruiser\n';
    const r = run(runImport, ['-', '--cards', EXAMPLES], { readStdin: () => post });
    assert.equal(r.code, 0, r.err);
    assert.equal(
      r.err,
      [
        '2: 1x Celestial Batleship (280) (read as Celestial Battleship, the closest card to "Celestial Batleship")',
        '3: 3 x Shardlite Escort @ 80 (read as Shardlight Escort, the closest card to "Shardlite Escort")',
        '5: Veilwing Fighters (60) embarked on a cruiser (read as Veilwing Fighter Wing, the closest card to "Veilwing Fighters")',
        '',
      ].join('\n'),
    );
    assert.match(r.out, /^ {2}- unit: Celestial Battleship # import: "Celestial Batleship" read as the closest card$/m);
    assert.match(r.out, /^ {2}- unit: Shardlight Escort # import: "Shardlite Escort" read as the closest card\n {4}count: 3$/m);
    assert.match(r.out, /^ {2}- unit: Lumen Cruiser\n {4}embark:\n {6}- Veilwing Fighter Wing # import: "Veilwing Fighters" read as the closest card$/m);
  });

  it('every line read: exit 0; flags fill in what the text does not say', () => {
    const r = run(runImport, ['-', '--cards', EXAMPLES, '--name', 'Mine', '--points', '750'], { readStdin: () => '2x Lumen Destroyer\n' });
    assert.equal(r.code, 0);
    assert.equal(r.err, '');
    assert.match(r.out, /^name: Mine\nfaction: Myr-Valari\npoints: 750\n/m);
  });

  it('the roster command’s output, in every format, imports back to the example fleet', () => {
    for (const format of ['text', 'markdown', 'html', 'json', 'short']) {
      const roster = run(runRoster, [path.join(EXAMPLES, 'fleets/skirmish-500.fleet.yaml'), '--cards', EXAMPLES, '--format', format]);
      const r = run(runImport, ['-', '--cards', EXAMPLES], { readStdin: () => roster.out });
      assert.equal(r.code, 0, format);
      assert.match(
        r.out,
        /name: Veil Patrol\nfaction: Myr-Valari\npoints: 500\n(?:objectives: 3\n)?units:\n {2}- unit: Lumen Cruiser\n {4}embark:\n {6}- Veilwing Fighter Wing\n {2}- unit: Prism Frigate Squadron\n {2}- unit: Shardlight Escort\n {2}- unit: Veilwing Fighter Wing\n$/,
        format,
      );
    }
  });

  it('usage and I/O problems: exit 2, one line, nothing on stdout', () => {
    for (const args of [['a', 'b'], ['--points', 'ten', 'x.txt'], ['missing.txt'], ['--bogus']]) {
      const r = run(runImport, args);
      assert.equal(r.code, 2, args.join(' '));
      assert.equal(r.out, '');
      assert.match(r.err, /^fabled-star import: /);
    }
  });
});

describe('verify CLI', () => {
  const CARDS = 'faction: Testers\nunits:\n  - name: Wing\n    class: Fighter\n    points: 60\n    stats: "9/6 4+ 6+ - - 1 7/2 - -"\n';
  const FLEET = 'name: T\nfaction: Testers\npoints: 500\nunits:\n  - unit: Wing\n    count: 3\n';

  it('0 when the roster matches the cards, 1 when a card changed since, 2 for usage problems', () => {
    const io = memoryIO({ '/ws/cards/t.unit.yaml': CARDS, '/ws/t.fleet.yaml': FLEET });
    assert.equal(runRoster(['/ws/t.fleet.yaml', '--cards', '/ws/cards', '--format', 'markdown'], io), 0);
    const roster = io.out;
    const ok = memoryIO({ '/ws/cards/t.unit.yaml': CARDS, '/ws/roster.md': roster });
    assert.equal(runVerify(['/ws/roster.md', '--cards', '/ws/cards'], ok), 0);
    assert.match(ok.out, /^The roster matches these card files \(digest fs1-[0-9a-f]{16}\)\./);
    const changed = memoryIO({ '/ws/cards/t.unit.yaml': CARDS.replace('points: 60', 'points: 65'), '/ws/roster.md': roster });
    assert.equal(runVerify(['/ws/roster.md', '--cards', '/ws/cards', '--format', 'json'], changed), 1);
    const v = JSON.parse(changed.out);
    assert.equal(v.status, 'mismatch');
    assert.notEqual(v.claimed, v.actual);
    const usage = memoryIO({});
    assert.equal(runVerify([], usage), 2);
    assert.match(usage.err, /^fabled-star verify: give exactly one ROSTER/);
  });
});
