/**
 * File paths as the CLI meets them on disk: folders whose names hold "#" or "?" (`list#2/`, `C#/`)
 * are paths, not uris, so nothing after the "#" is a fragment; and the SARIF report names each file
 * by a relative uri reference (RFC 3986) that decodes back to the file's path.
 */
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as path from 'node:path';
import { runCheck } from '../../server/src/cli/check';
import { runRoster } from '../../server/src/cli/roster';
import { runCliSync, type Command } from '../helpers';

/** Runs a command on real files; the paths are given from `cwd` (the process's own is elsewhere). */
function run(cmd: Command, args: string[], cwd: string) {
  return runCliSync(
    cmd,
    args.map((a, i) => (a.startsWith('-') || args[i - 1] === '--format' ? a : path.join(cwd, a))),
    { cwd },
  );
}

/** A faction no bundled example has: a card the fleet needs is unknown unless these files are read. */
const CARDS = `faction: Hash Collective
units:
  - name: Sharp Corvette
    class: Frigate
    points: 60
    stats: "9/6 5+ 7+ 4 6+ 5 6/3 7/2 3"
    weapons:
      - Lance — Energy, 18", 2, 3
`;
const FLEET = `name: Pound Sign
faction: Hash Collective
points: 500
units:
  - unit: Sharp Corvette
    count: 2
`;

describe('CLI: paths whose folders hold "#" or "?"', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'fabled-paths-'));
    for (const sub of ['list#2', 'C#', 'what?', 'both#?x']) mkdirSync(path.join(dir, sub));
    writeFileSync(path.join(dir, 'C#', 'hash.unit.yaml'), CARDS);
    writeFileSync(path.join(dir, 'what?', 'hash.unit.yaml'), CARDS);
    writeFileSync(path.join(dir, 'list#2', 'pound.fleet.yaml'), FLEET);
    writeFileSync(path.join(dir, 'both#?x', 'hash.unit.yaml'), CARDS);
    writeFileSync(path.join(dir, 'both#?x', 'pound.fleet.yaml'), FLEET);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('check reads every file below such folders as the kind its name says', () => {
    const r = run(runCheck, ['both#?x'], dir);
    assert.doesNotMatch(r.err, /not a Fabled Star file/);
    assert.equal(r.err, '');
    assert.match(r.out, /^2 files checked: 0 errors/m);
    assert.equal(r.code, 0, r.out);
  });

  for (const cards of ['C#', 'what?', path.join('C#', 'hash.unit.yaml')])
    it(`check --cards ${cards}: the cards are read, the fleet's entry resolves`, () => {
      const r = run(runCheck, [path.join('list#2', 'pound.fleet.yaml'), '--cards', cards], dir);
      assert.equal(r.err, '');
      assert.doesNotMatch(r.out, /FS-UNKNOWN|Sharp Corvette/, r.out);
      assert.match(r.out, /^1 file checked: 0 errors/m);
      assert.equal(r.code, 0);
    });

  it('roster of a fleet in such a folder, with cards from another', () => {
    const r = run(runRoster, [path.join('list#2', 'pound.fleet.yaml'), '--cards', 'C#', '--format', 'short'], dir);
    assert.equal(r.err, '');
    assert.match(r.out, /^Pound Sign \(Hash Collective\): 2× Sharp Corvette 120; 120\/500 · /);
    assert.equal(r.code, 0);
  });
});

describe('CLI: check --format sarif names files by uri references', () => {
  let dir: string;
  const NAMES = ['my cards.unit.yaml', '100%.unit.yaml', 'C#/a b#1.unit.yaml', 'what?/x.unit.yaml', 'über [1].unit.yaml', 'a:b.unit.yaml'];
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'fabled-sarif-'));
    for (const n of NAMES) {
      mkdirSync(path.dirname(path.join(dir, n)), { recursive: true });
      // Each file a different faction: no duplicate names across them, and one problem each at least.
      writeFileSync(path.join(dir, n), CARDS.replace('Hash Collective', `Faction ${NAMES.indexOf(n)}`));
    }
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('each result uri is a relative uri reference that resolves to its file', () => {
    const r = run(runCheck, ['.', '--format', 'sarif'], dir);
    assert.equal(r.err, '');
    const sarif = JSON.parse(r.out) as { runs: { results: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[] }[] };
    const uris = new Set(sarif.runs[0]!.results.map((x) => x.locations[0]!.physicalLocation.artifactLocation.uri));
    assert.equal(uris.size, NAMES.length, [...uris].join(', '));
    const base = pathToFileURL(dir + path.sep);
    for (const uri of uris) {
      // RFC 3986: only unreserved characters, sub-delims, "/" and percent escapes; no scheme.
      assert.match(uri, /^(?:[A-Za-z0-9\-._~!$&'()*+,;=@/]|%[0-9A-F]{2})+$/, uri);
      assert.doesNotMatch(uri, /^[^/]*:/, `${uri} would read as a scheme`);
      const file = fileURLToPath(new URL(uri, base));
      assert.ok(
        NAMES.some((n) => path.join(dir, n) === file),
        `${uri} -> ${file}`,
      );
      assert.ok(NAMES.includes(decodeURIComponent(uri)), uri);
    }
  });
});
