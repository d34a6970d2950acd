/**
 * The service instance (core/service.ts `createFabledService`): each owns its state. Two services
 * on two workspaces never see each other's field prices; a price arriving makes the instance's
 * cached diagnoses stale by itself; an opponent is found by name, by URI or from its text, and a
 * battle that cannot be played is refused in the one sentence.
 */
import { strict as assert } from 'node:assert';
import { Workspace, cannotFight, createFabledService, exampleFleets, exampleWorkspace, Refused } from '../../server/src/core/service';

function workspaceWithExamples(): Workspace {
  const ws = new Workspace();
  for (const uri of exampleWorkspace().uris()) ws.set(uri.replace(/^[^:]+:/, 'file://'), exampleWorkspace().textOf(uri)!);
  return ws;
}

describe('the service instance owns its state', function () {
  this.timeout(60_000);

  it('a field price told to one service moves its version and none of another', () => {
    const a = createFabledService({ workspace: workspaceWithExamples() });
    const b = createFabledService({ workspace: workspaceWithExamples() });
    const field = a.field();
    const before = b.estimates.version;
    a.setFieldPrices(field, new Map(field.members.map((m) => [m.key, m.points * 2])));
    assert.equal(a.estimates.version, 1);
    assert.equal(b.estimates.version, before);
  });

  it('a price arriving makes the cached diagnosis stale (no hand-called clear)', () => {
    const s = createFabledService({ workspace: workspaceWithExamples() });
    const doc = s.workspace.documents().find((d) => d.kind !== 'fleet')!;
    const first = s.diagnose(doc);
    assert.equal(s.diagnose(doc), first, 'kept while nothing changed');
    s.setFieldPrices(s.field(), new Map());
    assert.notEqual(s.diagnose(doc), first, 'made again after the price');
  });

  it('finds an opponent by name (the workspace first, then a bundled example), by URI and from its text', () => {
    const s = createFabledService({ workspace: new Workspace() });
    const name = exampleFleets()[0]!.name.value!;
    const byName = s.opponent({ name: ` ${name.toUpperCase()} ` });
    assert.ok(!('why' in byName));
    assert.equal(byName.ws, exampleWorkspace(), 'a bundled example fleet fights with the bundled cards');
    const byUri = s.opponent({ uri: exampleFleets()[0]!.uri });
    assert.ok(!('why' in byUri) && byUri.doc === byName.doc);
    const fromText = s.opponent({ uri: 'file:///other.fleet.yaml', text: exampleFleets()[0]!.text });
    assert.ok(!('why' in fromText) && fromText.ws === s.workspace, 'a text fights with the service workspace');
    const none = s.opponent({ name: 'No Such Fleet', what: 'a test' });
    assert.ok('why' in none && /no fleet named "No Such Fleet".*\(a test, or a fleet's name such as/.test(none.why), JSON.stringify(none));
  });

  it('refuses a battle in one sentence: an unknown side, and a fleet with errors (the first, and how many more)', () => {
    const ws = new Workspace();
    ws.set('file:///bad.fleet.yaml', 'name: Bad\nfaction: Myr\npoints: 1000\nunits:\n  - unit: Nobody Here\n    count: 1\n  - unit: Nor Here\n    count: 1\n');
    const s = createFabledService({ workspace: ws });
    assert.throws(
      () => s.prepareBattle({ fleet: { uri: '' }, vs: { uri: exampleFleets()[0]!.uri } }),
      (e: unknown) => e instanceof Refused && e.message === 'No fleet list at (no uri)',
    );
    assert.throws(
      () => s.prepareBattle({ fleet: { uri: 'file:///bad.fleet.yaml' }, vs: { uri: exampleFleets()[0]!.uri } }),
      (e: unknown) => e instanceof Refused && /^The fleet "Bad" cannot fight: line \d+: .*\(and \d+ more\)$/.test(e.message),
    );
    assert.equal(cannotFight('x', ['a']), 'x cannot fight: a');
    assert.equal(cannotFight('x', ['a', 'b', 'c'], '; see'), 'x cannot fight: a (and 2 more; see)');
  });

  it('prepares the battle of two bundled example fleets', () => {
    const s = createFabledService({ workspace: new Workspace() });
    const [f, g] = exampleFleets();
    const p = s.prepareBattle({ fleet: { uri: f!.uri }, vs: { uri: g!.uri }, options: { trials: 10 } });
    assert.equal(p.battle.options.trials, 10);
    assert.equal(p.sides[0].doc, f);
  });
});
