/**
 * A card against the field in the editor: the "vs the field" lens on each card the simulator can
 * read, and `fabledStar/vsField` answering with the very rows `fabled-star sim --vs-field` prints
 * (the same cards, order and figures), run off the server's thread.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CodeLens } from 'vscode-languageserver-protocol';
import { startServer, type Client } from './harness';
import { runSim } from '../../server/src/cli/sim';
import { nodeIO, type CliIO } from '../../server/src/cli/io';
import type { VsFieldResult } from '../../protocol';
import { VS_FIELD_COMMAND } from '../../protocol';
import { EXAMPLES } from '../exampleFleets';

const FILES = [
  'myr-valari/myr-valari.unit.yaml',
  'myr-valari/myr-valari.faction.yaml',
  'consumed/maw-capitals.unit.yaml',
  'consumed/maw-squadrons.unit.yaml',
  'consumed/consumed.faction.yaml',
];

async function cliField(args: string[]): Promise<VsFieldResult> {
  let out = '';
  const io: CliIO = { ...nodeIO(), stdout: (s) => void (out += s), stderr: () => {} };
  const cards = FILES.flatMap((f) => ['--cards', join(EXAMPLES, f)]);
  assert.equal(await runSim([...cards, ...args, '--vs-field', '--format', 'json'], io), 0);
  return JSON.parse(out) as VsFieldResult;
}

describe('vs the field (lens and request)', function () {
  this.timeout(120_000);
  let c: Client;
  const uris: Record<string, string> = {};
  before(async () => {
    c = await startServer({ files: Object.fromEntries(FILES.map((f) => [f, readFileSync(join(EXAMPLES, f), 'utf8')])) });
    for (const f of FILES) uris[f] = await c.open(f, readFileSync(join(EXAMPLES, f), 'utf8'));
  });
  after(async () => c?.stop());

  it('puts a "vs the field" lens on each card, naming the card', async () => {
    const uri = uris['myr-valari/myr-valari.unit.yaml']!;
    await c.diagnosticsWhere(uri, 'checked', () => true);
    const lenses = await c.request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri } });
    const field = lenses.filter((l) => l.command?.command === VS_FIELD_COMMAND);
    const names = [...readFileSync(join(EXAMPLES, FILES[0]!), 'utf8').matchAll(/^ {2}- name: (.+)$/gm)].map((m) => m[1]!.trim());
    assert.ok(names.length >= 5, String(names));
    assert.deepEqual(
      field.map((l) => (l.command!.arguments![0] as { card: { name: string } }).card.name),
      names,
    );
    assert.ok(field.every((l) => l.command!.title === 'vs the field'));
  });

  for (const [side, range] of [
    ['attacker', 9],
    ['defender', undefined],
  ] as const) {
    it(`answers with the rows of sim --vs-field (--${side} Lumen Destroyer${range ? ` --range ${range}` : ''}), to the last digit`, async () => {
      const r = await c.request<VsFieldResult>('fabledStar/vsField', { card: { name: 'Lumen Destroyer' }, side, ...(range ? { range } : {}) });
      const cli = await cliField([`--${side}`, 'Lumen Destroyer', ...(range ? ['--range', String(range)] : [])]);
      assert.ok(r.field.length >= 15, String(r.field.length));
      assert.deepEqual(r, cli);
    });
  }

  it('refuses a range that is not a distance, and a card that is not there, with a sentence', async () => {
    await assert.rejects(c.request('fabledStar/vsField', { card: { name: 'Lumen Destroyer' }, side: 'attacker', range: -3 }), /range/i);
    await assert.rejects(c.request('fabledStar/vsField', { card: { name: 'No Such Card' }, side: 'attacker' }), /No such card/);
  });
});
