/**
 * The bundles are plain ASCII. One character past ASCII anywhere in a bundle (esbuild escapes
 * strings but not regular-expression literals or kept comments) makes V8 hold the whole source as
 * two-byte text: 4 MB instead of 2 MB in every server process, and a slower first parse of the
 * code. Write such characters as \u escapes in a pattern, and in words in a comment.
 */
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

describe('bundles', () => {
  for (const name of ['server.js', 'cli.js', 'client.js', 'engagement.js', 'battle.js', 'sim-worker.js', 'sim-thread.js', 'entry/worker.js']) {
    it(`dist/${name} is plain ASCII`, () => {
      const file = join(ROOT, 'dist', name);
      assert.ok(existsSync(file), `dist/${name} is missing: run "npm run build" first (npm test does)`);
      const text = readFileSync(file, 'latin1');
      const at = text.search(/[^\x00-\x7f]/);
      if (at < 0) return;
      const line = text.slice(0, at).split('\n').length;
      const around = readFileSync(file, 'utf8').split('\n')[line - 1]!.trim().slice(0, 160);
      assert.fail(`dist/${name} line ${line} has a character past ASCII: ${around}`);
    });
  }
});
