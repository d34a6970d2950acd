/**
 * The cycle check that follows type imports (.dependency-cruiser.cjs, run by `npm run lint`): the
 * lint's import-x/no-cycle does not see `import type`, so a cycle of type imports only (as the one
 * once found among battle, fire, types and the variants) is caught here. Each case cruises
 * probe files written to a temporary folder with the project's config, and the product's own folders.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');
const BIN = join(ROOT, 'node_modules', '.bin', 'depcruise');

function cruise(...paths: string[]): { ok: boolean; out: string } {
  try {
    const out = execFileSync(BIN, [...paths, '--config', '.dependency-cruiser.cjs', '--output-type', 'err'], { cwd: ROOT, encoding: 'utf8' });
    return { ok: true, out };
  } catch (e) {
    const err = e as { status: number; stdout: string };
    assert.equal(err.status, 1, err.stdout);
    return { ok: false, out: err.stdout };
  }
}

function probe(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'fabled-cycle-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe('no import cycle, type imports included (dependency-cruiser)', function () {
  this.timeout(120_000);
  const dirs: string[] = [];
  after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('rejects a cycle of type imports only', () => {
    const dir = probe({
      'a.ts': "import type { B } from './b';\nexport interface A { b?: B }\n",
      'b.ts': "import type { A } from './a';\nexport interface B { a?: A }\n",
    });
    dirs.push(dir);
    const r = cruise(dir);
    assert.equal(r.ok, false);
    assert.match(r.out, /no-cycle: .*a\.ts/);
  });

  it('rejects a three-module cycle of value imports', () => {
    const dir = probe({
      'a.ts': "import { b } from './b';\nexport const a = () => b();\n",
      'b.ts': "import { c } from './c';\nexport const b = () => c();\n",
      'c.ts': "import { a } from './a';\nexport const c = () => a;\n",
    });
    dirs.push(dir);
    assert.equal(cruise(dir).ok, false);
  });

  it('allows the same modules without the closing import', () => {
    const dir = probe({
      'a.ts': "import type { B } from './b';\nexport interface A { b?: B }\n",
      'b.ts': 'export interface B { n: number }\n',
    });
    dirs.push(dir);
    assert.equal(cruise(dir).ok, true);
  });

  it('finds no cycle in server/src, client/ or protocol/', () => {
    const r = cruise('server/src', 'client', 'protocol');
    assert.ok(r.ok, r.out);
  });
});
