/**
 * The guards in front of the YAML parser (server/src/core/model/limits.ts): they refuse what they
 * should, let through every real file, and leave the parser a wide margin below its stack limit.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { countLines, findExcess, longLines, LIMITS } from '../../server/src/core/model/limits';
import { parseDocument } from '../../server/src/core/model/parse';
import { checkDocument } from '../../server/src/core/check';
import { SAMPLES } from './arbitraries';

const levels = (n: number, open: string, close = '') => open.repeat(n) + 'x' + close.repeat(n);
const indented = (n: number) => Array.from({ length: n }, (_, i) => `${' '.repeat(i)}k:`).join('\n') + '\n';

/** [what, text, what findExcess finds] */
const CASES: [string, string, 'depth' | 'tags' | undefined][] = [
  ['100 flow levels', `a: ${levels(LIMITS.depth - 1, '[', ']')}\n`, undefined],
  ['101 flow levels', `a: ${levels(LIMITS.depth + 1, '[', ']')}\n`, 'depth'],
  ['101 flow mappings, never closed', `a: ${'{a: '.repeat(LIMITS.depth + 1)}\n`, 'depth'],
  ['101 compact sequences on one line', `${'- '.repeat(LIMITS.depth + 1)}x\n`, 'depth'],
  ['101 explicit keys on one line', `${'? '.repeat(LIMITS.depth + 1)}x\n`, 'depth'],
  ['101 indentation levels', indented(LIMITS.depth + 1), 'depth'],
  ['99 indentation levels', indented(LIMITS.depth - 1), undefined],
  ['flow levels over many lines', `a:\n${'  [\n'.repeat(LIMITS.depth + 1)}`, 'depth'],
  ['brackets in a double-quoted value', `a: "${'['.repeat(500)}"\n`, undefined],
  ['brackets in a single-quoted value spanning lines', `a: '${'[\n  '.repeat(500)}'\n`, undefined],
  ['brackets in a comment', `a: 1 # ${'['.repeat(500)}\n`, undefined],
  ['brackets inside a plain value', `effect: Roll a die[${'['.repeat(500)}\n`, undefined],
  [
    'brackets and deep indentation in a block scalar',
    `text: |\n${Array.from({ length: 300 }, (_, i) => `  ${' '.repeat(i)}[[[`).join('\n')}\nnext: 1\n`,
    undefined,
  ],
  ['a folded block scalar with indicators and a comment', `text: >-2 # folded\n${'    [[[[\n'.repeat(300)}next: 1\n`, undefined],
  ['nesting after a block scalar ends is counted', `text: |\n  plain\n${'- '.repeat(LIMITS.depth + 1)}x\n`, 'depth'],
  ['an apostrophe in a plain value does not open a quote', `a: it's\nb: ${levels(LIMITS.depth + 1, '[', ']')}\n`, 'depth'],
  [`${LIMITS.tags} tags`, Array.from({ length: LIMITS.tags }, (_, i) => `k${i}: !t v`).join('\n'), undefined],
  [`${LIMITS.tags + 1} tags`, Array.from({ length: LIMITS.tags + 1 }, (_, i) => `k${i}: !t v`).join('\n'), 'tags'],
  ['tags in flow collections', `a: [${Array.from({ length: LIMITS.tags + 1 }, () => '!t x').join(', ')}]\n`, 'tags'],
  ['"!" inside words is not a tag', `effect: ${'Fire! '.repeat(500)}\n`, undefined],
];

describe('parser guards (limits.ts)', () => {
  for (const [what, text, expected] of CASES) {
    it(`${what}: ${expected ? `refused (${expected})` : 'let through'}`, () => {
      assert.equal(findExcess(text)?.what, expected);
    });
  }

  it('lets every example and fixture through, and none of them gets FS-YAML-LIMIT except the one about it', () => {
    for (const s of SAMPLES) {
      if (s.file.endsWith('deep.unit.yaml')) continue;
      assert.equal(findExcess(s.text), undefined, s.file);
      const problems = checkDocument(parseDocument(`file:///x.${s.kind}.yaml`, s.text)!);
      assert.deepEqual(
        problems.filter((p) => p.code === 'FS-YAML-LIMIT'),
        [],
        s.file,
      );
    }
  });

  it('counts the nesting of a piece of a document from the levels around it', () => {
    const text = `${'- '.repeat(LIMITS.depth - 2)}x\n`;
    assert.equal(findExcess(text, LIMITS, 0), undefined);
    assert.equal(findExcess(text, LIMITS, 5)?.what, 'depth');
  });

  it('finds lines over the length limit, without their line breaks', () => {
    const long = 'x'.repeat(LIMITS.lineChars + 1);
    assert.deepEqual(longLines(`a\r\n${long}\r\nb`), [{ start: 3, end: 3 + long.length }]);
    assert.deepEqual(longLines(`a\n${'x'.repeat(LIMITS.lineChars)}\n`), []);
  });

  it('counts lines, and stops counting past the limit', () => {
    assert.equal(countLines('a'), 1);
    assert.equal(countLines('a\nb\n'), 2);
    assert.equal(countLines('\n'.repeat(10), 3), 4);
  });

  it('leaves the parser a wide margin: three times the nesting limit parses with a fifth of the default stack', () => {
    // Run in a process of its own with --stack-size lowered from its default of 984 (KB).
    const parser = require.resolve('@stoplight/yaml-ast-parser');
    const n = LIMITS.depth * 3;
    const inputs = [`a: ${levels(n, '[', ']')}`, `a: ${levels(n, '{a: ', '}')}`, `${'- '.repeat(n)}x`, `${'? '.repeat(n)}x`, indented(n)];
    const script = `const { load } = require(${JSON.stringify(parser)}); for (const t of ${JSON.stringify(inputs)}) load(t + '\\n'); console.log('parsed');`;
    const r = spawnSync(process.execPath, ['--stack-size=200', '-e', script], { encoding: 'utf8', cwd: resolve(__dirname) });
    assert.equal(r.stdout.trim(), 'parsed', r.stderr);
  });
});
