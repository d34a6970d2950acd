/** Fleets and cards for the roster tests: hostile names everywhere file text reaches a roster. */
import type { Workspace } from '../../server/src/core/workspace';
import { workspaceOf } from '../helpers';

export { workspaceOf };
import type { FleetDocument } from '../../server/src/core/model/types';

/** Names as a hostile (or merely careless) card author might write them, decoded. */
export const HOSTILE = {
  script: '<script>alert(1)</script> Raider',
  img: '<img src=x onerror=alert(2)> Wing',
  quotes: `"Quoted" & 'Single' Cutter`,
  pipe: 'Pipe | Table | Breaker',
  stars: '*Bold* _Under_ ~~Gone~~ Frigate',
  link: '[click](javascript:alert(3)) Escort',
  ticks: '`rm -rf` ``Tick`` Ship',
  newline: 'Line\nBreak # Heading',
  control: 'Bell\u0007Esc\u001b[31mRed\u202eDrawkcab',
  mention: '@everyone Cruiser',
  fleet: '<h1>Evil</h1> | *Fleet* [x](javascript:alert(4))',
  faction: 'Faction <b>&amp;</b> `Co`',
};

const q = (s: string) => JSON.stringify(s);

export const HOSTILE_CARDS = `faction: ${q(HOSTILE.faction)}
units:
  - name: ${q(HOSTILE.script)}
    class: Destroyer
    points: 145
    stats: "9/6 5+ 7+ 4 6+ 5 6/3 7/2 3"
    weapons:
      - name: ${q('<svg onload=alert(5)> Lance')}
        type: Energy
        range: 18"
        damage: 2
        attacks: 3
    orders:
      - name: ${q('[Order](http://evil.example) <i>now</i>')}
        difficulty: 2
        effect: ${q('Effect with | pipe, *stars*, <u>tags</u> and\na line break')}
    abilities:
      - name: ${q('Ability </li><li>injected')}
        text: ${q('`code` and <script>alert(6)</script>')}
  - name: ${q(HOSTILE.img)}
    class: Fighter
    points: 60
    stats: "9/6 4+ 6+ - - 1 7/2 - -"
    weapons:
      - Darts — Energy, 6", 1, 1
  - name: ${q(HOSTILE.quotes)}
    class: Escort
    points: 80
    stats: "9/6 5+ 6+ 2 8+ 2 7/2 - 1"
  - name: ${q(HOSTILE.pipe)}
    class: Escort
    points: 80
    stats: "9/6 5+ 6+ 2 8+ 2 7/2 - 1"
  - name: ${q(HOSTILE.stars)}
    class: Frigate
    points: 110
    stats: "9/3 5+ 7+ 3 7+ 3 6/2 8/2 2"
  - name: ${q(HOSTILE.link)}
    class: Escort
    points: 80
    stats: "9/6 5+ 6+ 2 8+ 2 7/2 - 1"
  - name: ${q(HOSTILE.ticks)}
    class: Escort
    points: 80
    stats: "9/6 5+ 6+ 2 8+ 2 7/2 - 1"
  - name: ${q(HOSTILE.newline)}
    class: Escort
    points: 80
    stats: "9/6 5+ 6+ 2 8+ 2 7/2 - 1"
  - name: ${q(HOSTILE.control)}
    class: Escort
    points: 80
    stats: "9/6 5+ 6+ 2 8+ 2 7/2 - 1"
  - name: ${q(HOSTILE.mention)}
    class: Cruiser
    points: 190
    stats: "6/6 5+ 8+ 6 5+ 7 6/3 7/3 5"
    abilities:
      - Launch Bay Tier 1
`;

export const HOSTILE_BOARD = `faction: ${q(HOSTILE.faction)}
doctrine: Standard
factionAbility:
  name: ${q('<marquee>Grace</marquee>')}
  text: ${q('Reroll | one *die* [x](javascript:alert(7))')}
commandAbilities:
${[1, 2, 3, 4, 5, 6].map((i) => `  - name: ${q(`<b>Ability ${i}</b> | *x*`)}\n    cost: 1\n    timing: ${q('Any time <br>')}\n    effect: ${q('`Effect` & more')}`).join('\n')}
`;

export const HOSTILE_FLEET = `name: ${q(HOSTILE.fleet)}
faction: ${q(HOSTILE.faction)}
points: 1000
units:
  - unit: ${q(HOSTILE.script)}
  - unit: ${q(HOSTILE.quotes)}
  - unit: ${q(HOSTILE.pipe)}
  - unit: ${q(HOSTILE.stars)}
  - unit: ${q(HOSTILE.link)}
  - unit: ${q(HOSTILE.ticks)}
  - unit: ${q(HOSTILE.newline)}
  - unit: ${q(HOSTILE.control)}
  - unit: ${q(HOSTILE.mention)}
    embark:
      - ${q(HOSTILE.img)}
  - unit: ${q('<script>Unknown</script> | *Card*')}
`;

/** Every card name and fleet text of the hostile fixture, as it should read once cleaned. */
export const HOSTILE_TEXTS = [
  HOSTILE.script,
  HOSTILE.img,
  HOSTILE.quotes,
  HOSTILE.pipe,
  HOSTILE.stars,
  HOSTILE.link,
  HOSTILE.ticks,
  HOSTILE.mention,
  HOSTILE.fleet,
];

export function hostileWorkspace(): { ws: Workspace; fleet: FleetDocument } {
  const ws = workspaceOf({
    'file:///ws/hostile.unit.yaml': HOSTILE_CARDS,
    'file:///ws/hostile.faction.yaml': HOSTILE_BOARD,
    'file:///ws/hostile.fleet.yaml': HOSTILE_FLEET,
  });
  return { ws, fleet: ws.get('file:///ws/hostile.fleet.yaml') as FleetDocument };
}
