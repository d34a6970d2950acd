/**
 * Settings from one table: package.json's contributes.configuration gives the server its bounds
 * and types, docs/settings.md is generated from it, and a value that cannot be taken as given is
 * said, never clamped in silence.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { DEFAULT_SETTINGS, SETTINGS_SECTION, readSettings } from '../../protocol';
import { SETTING_DECLARATIONS } from '../../protocol/settings';
import { SETTINGS_PAGE, settingsPageText } from '../../scripts/build-settings-docs';

describe('settings from the manifest', () => {
  it('docs/settings.md is what scripts/build-settings-docs.ts generates from package.json now', async () => {
    assert.equal(readFileSync(SETTINGS_PAGE, 'utf8'), await settingsPageText(), 'run node --import=tsx scripts/build-settings-docs.ts');
  });

  it('docs/settings.md names every contributed setting', () => {
    const page = readFileSync(SETTINGS_PAGE, 'utf8');
    for (const name of Object.keys(SETTING_DECLARATIONS)) assert.ok(page.includes(`\`${name}\``), `${name} is not on the settings page`);
  });

  it("nothing sent: the defaults, which are the manifest's, and no problem", () => {
    for (const raw of [undefined, null, {}, [], 'junk']) {
      const { settings, problems } = readSettings(raw);
      assert.deepEqual(settings, DEFAULT_SETTINGS);
      assert.deepEqual(problems, []);
    }
  });

  it('values in bounds are taken as given, without a word', () => {
    const { settings, problems } = readSettings({
      liveOdds: { trials: 100, opponent: ' Lantern Watch ' },
      diagnostics: { delayMs: 5000 },
      inlayHints: { points: false },
    });
    assert.deepEqual(problems, []);
    assert.equal(settings.liveOdds.trials, 100);
    assert.equal(settings.liveOdds.opponent, 'Lantern Watch');
    assert.equal(settings.diagnostics.delayMs, 5000);
    assert.equal(settings.inlayHints.points, false);
  });

  it('a number above its maximum is held there, and the sentence names the setting, the value given and the value used', () => {
    const { settings, problems } = readSettings({ liveOdds: { trials: 99999999 } });
    assert.equal(settings.liveOdds.trials, 50000);
    assert.equal(problems.length, 1);
    assert.equal(problems[0]!.setting, `${SETTINGS_SECTION}.liveOdds.trials`);
    assert.equal(problems[0]!.message, 'fabledStar.liveOdds.trials is 99999999: the most it takes is 50000; 50000 is used.');
  });

  it('below its minimum, a fraction, the wrong type, text past its length: each said', () => {
    const { settings, problems } = readSettings({
      liveOdds: { trials: 5, opponent: 'x'.repeat(1500) },
      diagnostics: { delayMs: 12.6 },
      codeLens: { enabled: 'yes' },
      workspace: { maxFiles: '100' },
    });
    assert.equal(settings.liveOdds.trials, 100);
    assert.equal(settings.diagnostics.delayMs, 13);
    assert.equal(settings.codeLens.enabled, true);
    assert.equal(settings.workspace.maxFiles, 25000);
    assert.equal(settings.liveOdds.opponent.length, 1000);
    const by = new Map(problems.map((p) => [p.setting.slice(SETTINGS_SECTION.length + 1), p.message]));
    assert.match(by.get('liveOdds.trials')!, /the least it takes is 100; 100 is used/);
    assert.match(by.get('diagnostics.delayMs')!, /is 12\.6: it takes a whole number; 13 is used/);
    assert.match(by.get('codeLens.enabled')!, /is "yes": it must be true or false; true is used/);
    assert.match(by.get('workspace.maxFiles')!, /is "100": it must be a whole number; 25000 is used/);
    assert.match(by.get('liveOdds.opponent')!, /at most 1000 characters/);
    assert.equal(problems.length, 5);
  });

  it('NaN and Infinity are not numbers a setting takes', () => {
    for (const v of [Number.NaN, Number.POSITIVE_INFINITY]) {
      const { settings, problems } = readSettings({ diagnostics: { delayMs: v } });
      assert.equal(settings.diagnostics.delayMs, 150);
      assert.equal(problems.length, 1);
    }
  });
});
