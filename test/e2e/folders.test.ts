/**
 * Folders of cards moved in and out of the workspace on disk, in real VS Code (code-server) with
 * the packaged extension. VS Code's watcher reports a folder moved as ONE event for the
 * folder; the open fleet, the status bar, the battle picker and the engagement picker must follow.
 *
 *   npx mocha --no-config --node-option import=tsx --timeout 600000 test/e2e/folders.test.ts
 *   (FABLED_E2E_VSIX=path tests that VSIX instead of packaging one)
 */
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { poll } from './codeServer';
import { codeServerSession, OUT } from './session';

const card = (name: string) =>
  `  - name: ${name}\n    class: Destroyer\n    points: 145\n    stats: "9/6 5+ 7+ 4 6+ 5 6/3 7/2 3"\n    weapons:\n      - Gun — Energy, 12", 2, 3\n`;
const CARDS = (faction: string, ...names: string[]) => `faction: ${faction}\nunits:\n${names.map(card).join('')}`;
const FLEET = (name: string, faction: string, ...units: string[]) =>
  `name: ${name}\nfaction: ${faction}\npoints: 500\nunits:\n${units.map((n) => `  - unit: ${n}\n`).join('')}`;

function write(dir: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
}

describe('folders of cards moved in and out of the workspace (code-server)', function () {
  this.retries(1);
  // The folder to move in, outside the workspace (the same file system, so a move is a rename).
  let away: string;
  const s = codeServerSession({
    name: 'folders',
    workspace: {
      'home/home.fleet.yaml': FLEET('Home Guard', 'Reef', 'Reef Hawk', 'Reef Lance'),
      'home/anchor.unit.yaml': CARDS('Anchor', 'Anchor Post'),
    },
    prepare: (sandbox) => {
      away = join(sandbox.root, 'away');
      write(away, {
        'reef/reef.unit.yaml': CARDS('Reef', 'Reef Hawk', 'Reef Lance'),
        'reef/deep/deep.unit.yaml': CARDS('Reef', 'Deep Warden'),
        'reef/reef.fleet.yaml': FLEET('Reef Raiders', 'Reef', 'Reef Hawk', 'Deep Warden'),
      });
    },
  });

  const status = () => s.wb.page.locator('[id$="fabledStar.fleetPoints"]');
  const statusShows = (text: string) =>
    poll(
      `the status bar to show "${text}"`,
      async () =>
        (
          await status()
            .innerText()
            .catch(() => '')
        ).includes(text),
      60_000,
    );
  const rows = () => s.wb.page.locator('.quick-input-list .monaco-list-row');

  /** The attacker picker of Simulate Engagement (the workspace's own cards), as text, then closed. */
  async function attackerPicks(): Promise<string> {
    await s.wb.openFile('home/home.fleet.yaml');
    await s.wb.goTo(1, 1);
    await s.wb.runCommand('Fabled Star: Simulate Engagement');
    // The command's own pick (not the palette's rows, which may still be closing).
    const input = s.wb.page.locator('.quick-input-widget input[type="text"]');
    await poll(
      'the attacker picker with cards',
      async () => ((await input.getAttribute('placeholder')) ?? '').includes('Attacker') && (await rows().count()) > 0,
    );
    const text = (await rows().allInnerTexts()).join('\n');
    await s.wb.closeQuickInput();
    return text;
  }

  it('a folder of cards moved in: the open fleet resolves, and both pickers see its cards and fleet', async () => {
    // Run again after a failure: from the folder outside again.
    if (existsSync(join(s.sandbox.folder, 'reef'))) renameSync(join(s.sandbox.folder, 'reef'), join(away, 'reef'));
    await s.wb.openFile('home/home.fleet.yaml');
    await statusShows('0 / 500 pts');
    assert.ok(!(await attackerPicks()).includes('Reef Hawk'));
    renameSync(join(away, 'reef'), join(s.sandbox.folder, 'reef'));
    await s.wb.openFile('home/home.fleet.yaml');
    await statusShows('290 / 500 pts');
    // The picker is read again until it offers them (its list is the server's at the moment it opens).
    await poll('the engagement picker to offer the moved cards', async () => {
      const picks = await attackerPicks();
      return ['Reef Hawk', 'Reef Lance', 'Deep Warden'].every((name) => picks.includes(name));
    });
    // The battle picker: the moved fleet is read (its faction and points), not "not read yet".
    await s.wb.openFile('home/home.fleet.yaml');
    await s.wb.runCommand('Fabled Star: Simulate Fleet Battle');
    const row = rows().filter({ hasText: 'Reef Raiders' }).first();
    const text = await poll(
      'the opponent "Reef Raiders" with its points',
      async () => {
        const t = await row.innerText().catch(() => '');
        return /290 pts/.test(t) ? t : undefined;
      },
      60_000,
    );
    assert.ok(!text.includes('not read yet'), text);
    await s.wb.screenshot(join(OUT, 'folders-moved-in.png'));
    await s.wb.closeQuickInput();
  });

  it('the folder moved out again: its cards are gone from the fleet and the pickers at once', async () => {
    renameSync(join(s.sandbox.folder, 'reef'), join(away, 'reef'));
    await s.wb.openFile('home/home.fleet.yaml');
    await statusShows('0 / 500 pts');
    const picks = await poll('the engagement picker without the moved cards', async () => {
      const text = await attackerPicks();
      return ['Reef Hawk', 'Reef Lance', 'Deep Warden'].every((name) => !text.includes(name)) ? text : undefined;
    });
    assert.ok(picks.includes('Anchor Post'), picks);
    await s.wb.screenshot(join(OUT, 'folders-moved-out.png'));
  });
});
