/**
 * The CLI's one argument reader (server/src/cli/args.ts): an option table in, typed values out;
 * `--help`, `--format` and every usage problem answered the same way by every command (one line
 * on stderr naming the command, control characters escaped, exit status 2, nothing on stdout);
 * and the card loader the commands share (server/src/cli/io.ts).
 */
import { strict as assert } from 'node:assert';
import { wordList, parseCommand, usageWriter, type CommandSpec } from '../../server/src/cli/args';
import { loadCards, readProblem, type CliIO } from '../../server/src/cli/io';
import { runCheck } from '../../server/src/cli/check';
import { runSim } from '../../server/src/cli/sim';
import { runBalance } from '../../server/src/cli/balance';
import { runRoster } from '../../server/src/cli/roster';
import { runBattle } from '../../server/src/cli/battle';
import { twoSidedCommand } from '../../server/src/cli/variants';
import { memoryIO } from './memoryIO';

const SPEC = {
  name: 'demo',
  help: 'Usage: fabled-star demo\n',
  options: { name: { type: 'string' }, paths: { type: 'string', multiple: true }, quiet: { type: 'boolean' } },
  positionals: true,
  formats: ['text', 'json', 'sarif'],
} as const satisfies CommandSpec;

describe('CLI arguments (cli/args.ts)', () => {
  it('reads the table: strings, repeated strings, booleans, paths and the default format', () => {
    const io = memoryIO();
    const cmd = parseCommand(SPEC, ['a.yaml', '--name', 'Lance', '--paths', 'x', '--paths=y', '--quiet', 'b.yaml'], io);
    assert.ok(typeof cmd !== 'number');
    assert.deepEqual({ ...cmd.values }, { name: 'Lance', paths: ['x', 'y'], quiet: true });
    assert.deepEqual(cmd.positionals, ['a.yaml', 'b.yaml']);
    assert.equal(cmd.format, 'text');
    assert.equal(io.err + io.out, '');
  });

  it('takes --format from the command formats, and a default that is not the first', () => {
    const io = memoryIO();
    const cmd = parseCommand(SPEC, ['--format', 'sarif'], io);
    assert.ok(typeof cmd !== 'number' && cmd.format === 'sarif');
    const other = parseCommand({ ...SPEC, defaultFormat: 'json' }, [], io);
    assert.ok(typeof other !== 'number' && other.format === 'json');
  });

  it('prints the help on --help and -h, exit 0', () => {
    for (const flag of ['--help', '-h']) {
      const io = memoryIO();
      assert.equal(parseCommand(SPEC, ['--quiet', flag], io), 0);
      assert.equal(io.out, SPEC.help);
      assert.equal(io.err, '');
    }
  });

  const problems: [string, string[], RegExp][] = [
    ['an unknown option', ['--warp'], /^fabled-star demo: Unknown option '--warp'.*\(run "fabled-star demo --help" for the options\)\n$/],
    ['a missing value', ['--name'], /^fabled-star demo: Option '--name <value>' argument missing \(run/],
    ['an unknown format', ['--format', 'xml'], /^fabled-star demo: --format must be text, json or sarif, not "xml"\.\n$/],
    ['a format with an escape in it', ['--format', 'x\u001b[2J\ny'], /^fabled-star demo: --format must be .*not "x\\u001b\[2J\\ny"\.\n$/],
  ];
  for (const [what, argv, re] of problems)
    it(`answers ${what} with one line on stderr and exit 2`, () => {
      const io = memoryIO();
      assert.equal(parseCommand(SPEC, argv, io), 2);
      assert.match(io.err, re);
      assert.equal(io.err.trimEnd().split('\n').length, 1, io.err);
      assert.equal(io.out, '');
    });

  it('refuses paths when the command takes none', () => {
    const io = memoryIO();
    assert.equal(parseCommand({ ...SPEC, positionals: false }, ['a.yaml'], io), 2);
    assert.match(io.err, /^fabled-star demo: Unexpected argument 'a.yaml'/);
  });

  it('fail writes each line escaped, indented after the first, and returns 2', () => {
    const io = memoryIO();
    assert.equal(usageWriter(io, 'demo')('first \u0007', 'second\r'), 2);
    assert.equal(io.err, 'fabled-star demo: first \\u0007\n  second\\r\n');
  });

  it('says lists of words in words', () => {
    assert.equal(wordList(['text']), 'text');
    assert.equal(wordList(['text', 'json']), 'text or json');
    assert.equal(wordList(['a', 'b', 'c']), 'a, b or c');
    assert.equal(wordList(['a', 'b', 'c'], 'and'), 'a, b and c');
  });

  const needs: [string, Record<string, { type: 'string'; required: string }>, string[], string][] = [
    ['one', { fleet: { type: 'string', required: 'FILE' } }, [], '--fleet FILE is needed.'],
    ['two', { a: { type: 'string', required: 'NAME' }, b: { type: 'string', required: 'NAME' } }, ['--a', 'x'], 'both --a NAME and --b NAME are needed.'],
    [
      'three',
      { a: { type: 'string', required: 'X' }, b: { type: 'string', required: 'Y' }, c: { type: 'string', required: 'Z' } },
      ['--a', '1', '--b', '2', '--c', ''],
      '--a X, --b Y and --c Z are needed.',
    ],
  ];
  for (const [what, options, argv, message] of needs)
    it(`says which options are needed when ${what} must be given`, () => {
      const io = memoryIO();
      assert.equal(parseCommand({ name: 'demo', help: '', options, formats: ['text'] }, argv, io), 2);
      assert.equal(io.err, `fabled-star demo: ${message}\n`);
    });

  it('hands back the required options when they are given', () => {
    const cmd = parseCommand(
      { name: 'demo', help: '', options: { fleet: { type: 'string', required: 'FILE' } }, formats: ['text'] },
      ['--fleet', 'a'],
      memoryIO(),
    );
    assert.ok(typeof cmd !== 'number');
    const fleet: string = cmd.values.fleet;
    assert.equal(fleet, 'a');
  });

  it("builds a two-sided command: both sides required, then --cards, the run's flags and the variant flags", () => {
    const spec = twoSidedCommand({ name: 'duel', help: 'h', sides: { red: 'NAME', blue: 'NAME' }, flags: { cover: { type: 'boolean' } } });
    assert.deepEqual(Object.keys(spec.options), ['red', 'blue', 'cards', 'cover', 'variant', 'compare']);
    assert.deepEqual(spec.formats, ['text', 'json']);
    const missing = memoryIO();
    assert.equal(parseCommand(spec, ['--red', 'a'], missing), 2);
    assert.equal(missing.err, 'fabled-star duel: both --red NAME and --blue NAME are needed.\n');
    const cmd = parseCommand(spec, ['--red', 'a', '--blue', 'b', '--cards', 'x', '--cards', 'y', '--cover', '--variant', 'morale', '--compare'], memoryIO());
    assert.ok(typeof cmd !== 'number');
    const red: string = cmd.values.red;
    assert.equal(red, 'a');
    assert.deepEqual(cmd.values.cards, ['x', 'y']);
    assert.deepEqual(cmd.values.variant, ['morale']);
    assert.equal(cmd.values.compare, true);
    assert.equal(cmd.values.cover, true);
    assert.equal(cmd.format, 'text');
  });

  it('every command answers an unknown option and a bad format the same way', async () => {
    const runs: [string, (argv: string[], io: CliIO) => number | Promise<number>][] = [
      ['check', runCheck],
      ['sim', runSim],
      ['balance', runBalance],
      ['roster', runRoster],
      ['battle', runBattle],
    ];
    for (const [name, run] of runs) {
      const io = memoryIO();
      assert.equal(await run(['--warp'], io), 2, name);
      assert.match(io.err, new RegExp(`^fabled-star ${name}: Unknown option '--warp'.* \\(run "fabled-star ${name} --help" for the options\\)\\n$`));
      const fmt = memoryIO();
      assert.equal(await run(['--format', 'xml'], fmt), 2, name);
      assert.match(fmt.err, new RegExp(`^fabled-star ${name}: --format must be [a-z, ]+ or [a-z]+, not "xml"\\.\\n$`));
      assert.equal(io.out + fmt.out, '', name);
    }
  });
});

describe('CLI card loading (cli/io.ts)', () => {
  it('reads the cards, passes over fleet lists, and names what stops it', () => {
    const files = { '/ws/a.unit.yaml': 'name: A\n', '/ws/f.fleet.yaml': 'name: F\n' };
    const io = memoryIO(files);
    const { ws, problems } = loadCards(io, ['/ws/a.unit.yaml', '/ws/f.fleet.yaml']);
    assert.deepEqual(problems, []);
    assert.deepEqual(
      ws.allCards().map((c) => c.card.name.value),
      ['A'],
    );
    assert.deepEqual(loadCards(io, ['/ws/a.unit.yaml', '/ws/b.unit.yaml', '/ws/c.unit.yaml']).problems, [
      'no such file or folder: /ws/b.unit.yaml, /ws/c.unit.yaml',
    ]);
    const unreadable = { ...memoryIO(files), exists: () => true };
    assert.deepEqual(loadCards(unreadable, ['/ws/a.unit.yaml', '/ws/b.unit.yaml']).problems, ['cannot read /ws/b.unit.yaml: ENOENT']);
    const unlisted = {
      ...memoryIO(files),
      isDirectory: () => true,
      listYaml: (d: string, problems?: string[]) => (problems?.push(`${d}: cannot list this folder (EACCES)`), []),
    };
    assert.deepEqual(loadCards(unlisted, ['/ws/locked']).problems, ['/ws/locked: cannot list this folder (EACCES)']);
  });

  it('says why a file could not be read: its code, or the size past the cap', () => {
    assert.equal(readProblem('x', Object.assign(new Error('no'), { code: 'EACCES' })), 'cannot read x: EACCES');
    assert.equal(readProblem('x', Object.assign(new Error('larger than 9 bytes'), { code: 'too-large' })), 'cannot read x: larger than 9 bytes');
    assert.equal(readProblem('x', new Error('odd')), 'cannot read x: odd');
  });
});
