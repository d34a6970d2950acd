/**
 * The core's facade (server/src/core/service.ts): the checks cached once per workspace
 * version and read by the roster, a battle and a duel set up once for every edge, and a prepared
 * battle that is plain data (a worker thread takes it by structured clone and plays the same battle).
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  diagnose,
  Diagnoser,
  prepareBattle,
  prepareSimulation,
  roster,
  simulationRefusal,
  validateBattleOptions,
  type Workspace,
  type FabledDocument,
  type FleetDocument,
  type Problem,
} from '../../server/src/core/service';
import { checkDocument } from '../../server/src/core/check';
import { buildRoster } from '../../server/src/core/roster/model';
import { simulateBattle } from '../../server/src/core/sim/fleet-battle';
import { EXAMPLES, exampleCardsWorkspace } from '../exampleFleets';

function fleetIn(ws: Workspace, file: string): FleetDocument {
  const p = join(EXAMPLES, 'fleets', file);
  return ws.set(`file://${p}`, readFileSync(p, 'utf8')) as FleetDocument;
}

describe('the core facade (service.ts)', function () {
  this.timeout(60000);
  const ws = exampleCardsWorkspace();
  const a = fleetIn(ws, 'standard-1000.fleet.yaml');
  const b = fleetIn(ws, 'standard-1000-myr-valari.fleet.yaml');

  it('prepares a battle as plain data: a structured clone plays the same battle', () => {
    const options = validateBattleOptions({ trials: 300, seed: 4, variants: [{ name: 'retreat', parameters: { threshold: 0.3 } }] }).options!;
    const prepared = prepareBattle(
      [
        { doc: a, ws },
        { doc: b, ws },
      ],
      options,
    );
    assert.ok('battle' in prepared);
    const job = prepared.battle;
    const copy = structuredClone(job);
    assert.deepEqual(copy, job, 'nothing is lost crossing to a thread (no functions, classes or cycles)');
    const here = simulateBattle(job.fleets, job.options, { limits: job.limits });
    const there = simulateBattle(copy.fleets, copy.options, { limits: copy.limits });
    assert.deepEqual(there, here);
    assert.deepEqual(here.variants, ['retreat']);
    assert.equal(here.variantRules?.[0]?.parameters.threshold, 0.3);
  });

  it('refuses a side that cannot fight, naming the side and the line', () => {
    const broken = ws.set(
      'file:///tmp/broken.fleet.yaml',
      'name: Broken\nfaction: Nobody\npoints: 1000\nunits:\n  - unit: No Such Card\n    count: 1\n',
    ) as FleetDocument;
    const r = prepareBattle(
      [
        { doc: a, ws },
        { doc: broken, ws },
      ],
      {},
    );
    assert.ok('refused' in r);
    assert.equal(r.refused.side, 1);
    assert.match(r.refused.errors[0]!, /^line \d+: /);
    ws.delete('file:///tmp/broken.fleet.yaml');
  });

  it('caches the checks per workspace version, and the roster reads them instead of checking again', () => {
    const d = new Diagnoser();
    const first = d.diagnose(a, ws);
    assert.equal(d.diagnose(a, ws), first, 'the same answer while the workspace is unchanged');
    assert.deepEqual(first.checks, checkDocument(a, ws));
    // The roster built on the cache is the roster built afresh, and asks the cache for every document it reports on.
    const asked: FabledDocument[] = [];
    const counted = (doc: FabledDocument, w: Workspace): Problem[] => (asked.push(doc), d.checks(doc, w));
    const cached = roster(a, ws, counted);
    assert.deepEqual(cached.roster, buildRoster(a, ws));
    assert.ok(asked.includes(a), 'the fleet');
    assert.ok(asked.length > 1, 'and its card files');
    assert.equal(new Set(asked.map((x) => x.uri)).size, asked.length, 'each document once');
    // A second roster runs no checks: every document comes from the cache.
    const again = asked.map((doc) => d.diagnose(doc, ws));
    roster(a, ws, d.checks);
    assert.deepEqual(
      asked.map((doc) => d.diagnose(doc, ws)),
      again,
    );
    // An edit moves the workspace on: the cache answers afresh.
    const p = join(EXAMPLES, 'fleets', 'standard-1000.fleet.yaml');
    ws.set(`file://${p}`, readFileSync(p, 'utf8') + '\n');
    assert.notEqual(d.diagnose(ws.get(`file://${p}`)!, ws), first);
  });

  it('diagnose adds the estimate notes to cards only, and never throws', () => {
    const card = ws.allCards()[0]!;
    const doc = ws.get(card.uri)!;
    const on = diagnose(doc, ws, true);
    const off = diagnose(doc, ws, false);
    assert.deepEqual(off.notes, []);
    assert.deepEqual(on.problems, [...on.checks, ...on.notes]);
    assert.deepEqual(diagnose(a, ws, true).notes, []);
  });

  it('prepares a duel once for both edges: the refusal in the words each gives', () => {
    const [x, y] = ws.allCards().map((r) => r.card);
    const ok = prepareSimulation(x!, y!, { trials: 10 }, { variants: [{ name: 'sustained-damage' }] });
    assert.ok('simulation' in ok);
    assert.deepEqual(structuredClone(ok.simulation), ok.simulation);
    assert.deepEqual(ok.simulation.variants, [{ name: 'sustained-damage', parameters: {} }]);
    const bad = prepareSimulation(x!, y!, { trials: 0, rounds: 'x' }, {}, (s) => `--${s.flag}`);
    assert.ok('refused' in bad && bad.refused.problem === 'options');
    assert.equal(
      simulationRefusal(bad.refused),
      '--rounds must be a whole number of rounds from 1 to 100, not "x". --trials must be a whole number of trials from 1 to 1000000, not 0.',
    );
  });
});
