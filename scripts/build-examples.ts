/**
 * Builds server/src/core/examples/examples.json: the text of the example factions' card files
 * (examples/<faction>/*.unit.yaml and *.faction.yaml) and of the example fleet lists
 * (examples/fleets/*.fleet.yaml), so that the language server can offer those cards and fleets as
 * opponents in any workspace (the VSIX ships no examples/ folder; they travel inside the bundle as
 * data). The showcase folder is left out: its files hold mistakes on purpose.
 *
 *   node --import=tsx scripts/build-examples.ts [--check]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as prettier from 'prettier';
import { writeOrCheck } from './generated-files';

export const EXAMPLES_DIR = resolve(__dirname, '..', 'examples');
export const EXAMPLES_JSON = resolve(__dirname, '..', 'server', 'src', 'core', 'examples', 'examples.json');
/** Folders of examples/ that hold files with deliberate mistakes. */
const LEFT_OUT = new Set(['showcase']);
/** The folder of the example fleet lists (every other folder is a faction's cards). */
const FLEETS = 'fleets';

/** The example card and fleet files, by path under examples/ (sorted, '/'-separated), with their text. */
export function exampleFiles(): { path: string; text: string }[] {
  const out: { path: string; text: string }[] = [];
  for (const dir of readdirSync(EXAMPLES_DIR, { withFileTypes: true })) {
    if (!dir.isDirectory() || LEFT_OUT.has(dir.name)) continue;
    for (const file of readdirSync(join(EXAMPLES_DIR, dir.name)).sort()) {
      const wanted = dir.name === FLEETS ? file.endsWith('.fleet.yaml') : file.endsWith('.unit.yaml') || file.endsWith('.faction.yaml');
      if (wanted) {
        out.push({ path: `${dir.name}/${file}`, text: readFileSync(join(EXAMPLES_DIR, dir.name, file), 'utf8') });
      }
    }
  }
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

/** The JSON as committed, laid out by the project's Prettier settings. */
export async function examplesJson(): Promise<string> {
  const options = (await prettier.resolveConfig(EXAMPLES_JSON)) ?? {};
  return prettier.format(JSON.stringify({ files: exampleFiles() }), { ...options, filepath: EXAMPLES_JSON });
}

async function main(): Promise<void> {
  writeOrCheck([{ path: EXAMPLES_JSON, text: await examplesJson() }], 'scripts/build-examples.ts');
}

if (require.main === module) void main();
