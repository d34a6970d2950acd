/**
 * Product code and docs never name issues: history lives in git. A comment or a page that says
 * "(issue 32)" tells a reader nothing they can follow, and goes stale. Every text file git tracks
 * under the product's folders and the top-level docs is read.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');
const PLACES = [
  'server/src',
  'client',
  'protocol',
  'docs',
  'schemas',
  'syntaxes',
  'README.md',
  'README.vscode.md',
  'CONTRIBUTING.md',
  'SECURITY.md',
  'package.json',
];
const TEXT = /\.(ts|js|mjs|cjs|css|html|md|json|ya?ml)$/;
/** "issue 32", "issues 12 and 13", "issue #4", "(issue 26's …)". */
export const ISSUE_NUMBER = /\bissues? #?\d+\b/i;

describe('product code and docs name no issues', () => {
  it('the pattern finds the ways an issue is named, and not the word alone', () => {
    for (const s of ['(issue 32)', 'issue #4', "issue 26's Fled", 'Issues 12 and 13']) assert.match(s, ISSUE_NUMBER, s);
    for (const s of ['a known issue', 'Report Issue', 'issue-free', 'tissue 3']) assert.doesNotMatch(s, ISSUE_NUMBER, s);
  });

  it('no tracked file of the product or its docs names an issue', () => {
    const files = execFileSync('git', ['ls-files', '--', ...PLACES], { cwd: ROOT, encoding: 'utf8' })
      .split('\n')
      .filter((f) => TEXT.test(f));
    assert.ok(files.length > 100, `${files.length} files read`);
    const found: string[] = [];
    for (const f of files)
      readFileSync(join(ROOT, f), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (ISSUE_NUMBER.test(line)) found.push(`${f}:${i + 1}: ${line.trim().slice(0, 120)}`);
        });
    assert.deepEqual(found, []);
  });
});
