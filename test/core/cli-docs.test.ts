/**
 * The CLI's reference page is generated from the commands' own tables, and the docs a reader meets
 * first stay short and free of project history.
 */
import { strict as assert } from 'node:assert';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { COMMANDS, HELP } from '../../server/src/cli';
import { CLI_REFERENCE, cliReferencePage } from '../../scripts/build-cli-docs';

const ROOT = join(__dirname, '..', '..');

describe('the CLI reference (docs/cli-reference.md)', () => {
  it('is what scripts/build-cli-docs.ts generates from the option tables now', async () => {
    assert.equal(readFileSync(CLI_REFERENCE, 'utf8'), await cliReferencePage(), 'run node --import=tsx scripts/build-cli-docs.ts');
  });

  for (const [word, run] of Object.entries(COMMANDS)) {
    it(`names every flag of ${word}'s option table in its --help`, () => {
      const missing = Object.keys(run.spec.options).filter((name) => !new RegExp(`--${name}\\b`).test(run.spec.help));
      assert.deepEqual(missing, [], `fabled-star ${word} --help leaves out ${missing.map((m) => `--${m}`).join(', ')}`);
      assert.equal(run.spec.name, word);
    });
  }

  it('lists every command in fabled-star --help and in docs/cli.md', () => {
    const page = readFileSync(join(ROOT, 'docs', 'cli.md'), 'utf8');
    for (const word of Object.keys(COMMANDS)) {
      assert.match(HELP, new RegExp(`^  ${word}\\b`, 'm'), `fabled-star --help leaves out ${word}`);
      assert.match(page, new RegExp(`fabled-star ${word}\\b`), `docs/cli.md leaves out ${word}`);
    }
  });
});

describe('the README and the manual', () => {
  const docs = [
    join(ROOT, 'README.md'),
    ...readdirSync(join(ROOT, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => join(ROOT, 'docs', f)),
  ];

  it('the README is a page a reader takes in: under 200 lines', () => {
    const lines = readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n').length;
    assert.ok(lines < 200, `README.md has ${lines} lines`);
  });

  it('names no issue (history lives in git)', () => {
    const found = docs.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, i) => ({ file, line: i + 1, text: line }))
        .filter(({ text }) => /\bissues? #?\d+/i.test(text)),
    );
    assert.deepEqual(found, []);
  });

  it('links only to files that exist', () => {
    const broken: string[] = [];
    for (const file of docs) {
      const dir = join(file, '..');
      for (const [, target] of readFileSync(file, 'utf8').matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        try {
          readFileSync(join(dir, target!));
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== 'EISDIR') broken.push(`${file}: ${target}`);
        }
      }
    }
    assert.deepEqual(broken, []);
  });
});
