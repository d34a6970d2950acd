/**
 * The message contract between the extension host and the engagement view, checked in Node:
 * what each parser accepts and refuses, and that the view's bounds are the simulator's.
 */
import assert from 'node:assert/strict';
import { parseHostMessage, parseSimulationResult, parseViewMessage } from '../../client/webview/engagement/messages';
import { OPTION_LIMITS } from '../../server/src/core/sim/limits';
import { distributionBars, formatPercent, formatPercentError } from '../../client/webview/format';
import { destroyerVsFrigates, simulated } from './fixtures';

describe('engagement view messages', () => {
  it('accepts a result the simulator produced, unchanged', () => {
    const result = simulated();
    assert.deepEqual(parseHostMessage({ type: 'result', result }), { type: 'result', result });
    assert.deepEqual(parseSimulationResult(JSON.parse(JSON.stringify(result))), result);
  });

  it('drops keys it does not know instead of passing them on', () => {
    const result = { ...destroyerVsFrigates(), extra: '<script>' };
    const parsed = parseHostMessage({ type: 'result', result, also: 1 });
    assert.ok(parsed && parsed.type === 'result');
    assert.equal('extra' in parsed.result, false);
    assert.equal('also' in parsed, false);
  });

  const good = destroyerVsFrigates();
  const refusedHost: [string, unknown][] = [
    ['nothing', undefined],
    ['a string', 'result'],
    ['an unknown type', { type: 'explode' }],
    ['a result without its result', { type: 'result' }],
    ['a probability above 1', { type: 'result', result: { ...good, volley: { ...good.volley, killProbability: 1.5 } } }],
    ['a negative probability', { type: 'result', result: { ...good, engagement: { ...good.engagement, neither: -0.2 } } }],
    ['NaN', { type: 'result', result: { ...good, volley: { ...good.volley, expectedHullDamage: Number.NaN } } }],
    ['Infinity', { type: 'result', result: { ...good, engagement: { ...good.engagement, meanRounds: Infinity } } }],
    ['an unknown method', { type: 'result', result: { ...good, volley: { ...good.volley, method: 'vibes' } } }],
    ['an unknown weapon type', { type: 'result', result: { ...good, volley: { ...good.volley, weapons: [{ ...good.volley.weapons[0], type: 'Laser' }] } } }],
    ['a name that is not text', { type: 'result', result: { ...good, attacker: { toString: 'x' } } }],
    ['an error without text', { type: 'error', message: 42 }],
    ['a view message sent the wrong way', { type: 'ready' }],
    ['cards without names', { type: 'units', attacker: {}, defender: { name: 'B' } }],
    ['points that are not a number', { type: 'units', attacker: { name: 'A', points: '145' }, defender: { name: 'B' } }],
    ['an example flag that is not a boolean', { type: 'units', attacker: { name: 'A' }, defender: { name: 'B', example: 'yes' } }],
    ['a reach that is not a distance', { type: 'result', result: { ...good, reach: { attacker: -1, defender: 12 } } }],
    ['an estimate that is not a number', { type: 'result', result: good, estimates: { attacker: { estimate: '537' }, defender: {} } }],
    ['a negative estimate', { type: 'result', result: good, estimates: { attacker: { estimate: -5 }, defender: {} } }],
    ['a ratio that is NaN', { type: 'result', result: good, estimates: { attacker: { estimate: 537, ratio: Number.NaN }, defender: {} } }],
    ['an unknown estimate verdict', { type: 'result', result: good, estimates: { attacker: { estimate: 537, verdict: '<b>bargain</b>' }, defender: {} } }],
    ['estimates for one card only', { type: 'result', result: good, estimates: { attacker: { estimate: 537 } } }],
    ['estimates that are a list', { type: 'result', result: good, estimates: [{ estimate: 537 }, {}] }],
    ['a reason that is not text', { type: 'result', result: good, estimates: { attacker: {}, defender: { reason: { html: '<i>' } } } }],
  ];
  for (const [what, message] of refusedHost) {
    it(`refuses from the host: ${what}`, () => assert.equal(parseHostMessage(message), undefined));
  }

  it('accepts the two cards\u2019 lines, and a result with each unit\u2019s reach', () => {
    const units = {
      type: 'units',
      attacker: { name: 'Lumen Destroyer', faction: 'Myr-Valari', class: 'Destroyer', points: 145 },
      defender: { name: 'Reaver Destroyer', faction: 'Consumed', class: 'Destroyer', points: 140, example: true },
    };
    assert.deepEqual(parseHostMessage(units), units);
    const result = simulated();
    assert.ok(result.reach && result.reach.attacker === 18 && result.reach.defender === 12);
    assert.deepEqual(parseHostMessage({ type: 'result', result }), { type: 'result', result });
  });

  it('accepts both cards’ points estimates beside a result', () => {
    const estimates = {
      attacker: { points: 190, estimate: 537, ratio: 0.35, verdict: 'far too cheap', spreadPct: 22 },
      defender: { points: 110, reason: 'it deals no damage to the reference field.', spreadPct: 22 },
    };
    assert.deepEqual(parseHostMessage({ type: 'result', result: good, estimates }), { type: 'result', result: good, estimates });
  });

  it('cuts an over-long error message rather than refusing it', () => {
    const parsed = parseHostMessage({ type: 'error', message: 'x'.repeat(50_000) });
    assert.ok(parsed && parsed.type === 'error');
    assert.equal(parsed.message.length, 10_000);
  });

  const acceptedView: [string, unknown][] = [
    ['ready', { type: 'ready' }],
    [
      'a full rerun',
      { type: 'rerun', options: { range: 18, cover: true, aim: 'Lumen Lance', brace: false, defenderShields: 2, rounds: 4, trials: 5000, seed: 7 } },
    ],
    ['an empty rerun', { type: 'rerun', options: {} }],
    [
      'a rerun with variants by name',
      {
        type: 'rerun',
        options: {},
        rules: {
          variants: [
            { name: 'break-tests', parameters: {} },
            { name: 'morale', parameters: {} },
          ],
          compare: true,
        },
      },
    ],
    [
      'a rerun with a variant parameter',
      { type: 'rerun', options: {}, rules: { variants: [{ name: 'retreat', parameters: { threshold: 0.3 } }], compare: false } },
    ],
  ];
  for (const [what, message] of acceptedView) {
    it(`accepts from the view: ${what}`, () => assert.deepEqual(parseViewMessage(message), message));
  }

  const refusedView: [string, unknown][] = [
    ['trials 0', { type: 'rerun', options: { trials: 0 } }],
    ['too many trials', { type: 'rerun', options: { trials: OPTION_LIMITS.trialsMax + 1 } }],
    ['fractional rounds', { type: 'rerun', options: { rounds: 2.5 } }],
    ['a negative seed', { type: 'rerun', options: { seed: -1 } }],
    ['a seed beyond 32 bits', { type: 'rerun', options: { seed: 2 ** 32 } }],
    ['a range as text', { type: 'rerun', options: { range: '12"' } }],
    ['a rerun without options', { type: 'rerun' }],
    ['a host message sent the wrong way', { type: 'busy' }],
    ['an unknown variant', { type: 'rerun', options: {}, rules: { variants: [{ name: 'flanking', parameters: {} }], compare: true } }],
    // The view sends {name, parameters}, as the requests carry them; the text form is the CLI's.
    ['a variant as text', { type: 'rerun', options: {}, rules: { variants: ['morale'], compare: true } }],
    [
      'a variant parameter out of its bounds',
      { type: 'rerun', options: {}, rules: { variants: [{ name: 'retreat', parameters: { threshold: 2 } }], compare: true } },
    ],
    [
      'a parameter the variant does not have',
      { type: 'rerun', options: {}, rules: { variants: [{ name: 'morale', parameters: { threshold: 0.5 } }], compare: true } },
    ],
    [
      'a variant twice',
      {
        type: 'rerun',
        options: {},
        rules: {
          variants: [
            { name: 'retreat', parameters: {} },
            { name: 'retreat', parameters: { threshold: 0.4 } },
          ],
          compare: true,
        },
      },
    ],
    [
      'a conflicting pair, one with a parameter',
      {
        type: 'rerun',
        options: {},
        rules: {
          variants: [
            { name: 'retreat', parameters: { threshold: 0.4 } },
            { name: 'morale', parameters: {} },
          ],
          compare: true,
        },
      },
    ],
  ];
  for (const [what, message] of refusedView) {
    it(`refuses from the view: ${what}`, () => assert.equal(parseViewMessage(message), undefined));
  }
});

describe('engagement view number formats', () => {
  const percents: [number, string][] = [
    [0, '0%'],
    [1, '100%'],
    [0.0712, '7.12%'],
    [0.5, '50.00%'],
    [0.00004, '<0.01%'],
    [0.99996, '>99.99%'],
    [0.0001, '0.01%'],
    [Number.NaN, '—'],
  ];
  for (const [p, text] of percents) {
    it(`writes ${p} as ${text}`, () => assert.equal(formatPercent(p), text));
  }

  it('writes a standard error in percentage points', () => assert.equal(formatPercentError(0.00348), '± 0.35%'));

  it('keeps one bar per value while there are few', () => {
    const { bars, binned } = distributionBars([
      { value: 2, p: 0.5 },
      { value: 0, p: 0.25 },
      { value: 1, p: 0.25 },
    ]);
    assert.equal(binned, false);
    assert.deepEqual(bars, [
      { label: '0', p: 0.25 },
      { label: '1', p: 0.25 },
      { label: '2', p: 0.5 },
    ]);
  });

  it('shows impossible values between possible ones as empty bars', () => {
    const { bars } = distributionBars([
      { value: 0, p: 0.5 },
      { value: 4, p: 0.5 },
    ]);
    assert.deepEqual(
      bars.map((b) => [b.label, b.p]),
      [
        ['0', 0.5],
        ['1', 0],
        ['2', 0],
        ['3', 0],
        ['4', 0.5],
      ],
    );
  });

  it('groups many values into bins that keep the total probability', () => {
    const points = Array.from({ length: 1000 }, (_, i) => ({ value: i, p: 1 / 1000 }));
    const { bars, binned } = distributionBars(points, 40);
    assert.equal(binned, true);
    assert.ok(bars.length <= 40);
    assert.equal(bars[0]!.label, '0–24');
    assert.ok(Math.abs(bars.reduce((a, b) => a + b.p, 0) - 1) < 1e-9);
  });
});
