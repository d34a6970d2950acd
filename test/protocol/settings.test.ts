/**
 * A setting the server cannot take as given is a warning in the editor naming the setting and the
 * value used (window/showMessage), once per value, and again after the configuration changes.
 */
import { strict as assert } from 'node:assert';
import { startServer, type Client } from './harness';

const FLEET = 'name: Test\nfaction: Myr-Valari\npoints: 500\nunits:\n  - Lumen Cruiser\n';

describe('settings out of bounds or of the wrong type (stdio)', function () {
  this.timeout(60000);
  let c: Client | undefined;
  afterEach(async () => {
    await c?.stop();
    c = undefined;
  });

  const warnings = (client: Client): string[] =>
    client.notifications
      .filter((n) => n.method === 'window/showMessage' && (n.params as { type: number }).type === 2)
      .map((n) => (n.params as { message: string }).message)
      .filter((m) => m.startsWith('Fabled Star settings:'));

  it('warns once, naming the setting and the value used, however many files ask for the settings', async () => {
    c = await startServer({
      files: { 'a.fleet.yaml': FLEET, 'b.fleet.yaml': FLEET },
      settings: { liveOdds: { trials: 99999999 }, diagnostics: { delayMs: 'soon' } },
    });
    const client = c;
    await client.open('a.fleet.yaml', FLEET);
    await client.open('b.fleet.yaml', FLEET);
    await client.waitFor('both warnings', () => warnings(client).length >= 2);
    await new Promise((r) => setTimeout(r, 500));
    assert.deepEqual(warnings(client).sort(), [
      'Fabled Star settings: fabledStar.diagnostics.delayMs is "soon": it must be a whole number; 150 is used.',
      'Fabled Star settings: fabledStar.liveOdds.trials is 99999999: the most it takes is 50000; 50000 is used.',
    ]);
  });

  it('says nothing for settings in bounds, and warns again when a changed configuration is still wrong', async () => {
    c = await startServer({ files: { 'a.fleet.yaml': FLEET }, settings: { liveOdds: { trials: 2000 } } });
    const client = c;
    await client.open('a.fleet.yaml', FLEET);
    await client.waitFor('diagnostics', () => client.diagnostics.get(client.uri('a.fleet.yaml')));
    assert.deepEqual(warnings(client), []);
    client.settings = { liveOdds: { trials: -3 } };
    await client.conn.sendNotification('workspace/didChangeConfiguration', { settings: { fabledStar: client.settings } });
    const text = FLEET + '# edited\n';
    await client.change(client.uri('a.fleet.yaml'), [{ text }], text);
    await client.waitFor('the warning', () => warnings(client).length === 1);
    assert.match(warnings(client)[0]!, /fabledStar\.liveOdds\.trials is -3: the least it takes is 100; 100 is used\./);
  });
});
