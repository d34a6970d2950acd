// `npm start`: the main job. Checks the bundled examples (the clean workspace, then the showcase
// of mistakes) and prints an engagement, the way a designer would use the CLI.
import { spawnSync } from 'node:child_process';

const cli = ['bin/fabled-star.js'];
function run(title, args) {
  process.stdout.write(`\n$ fabled-star ${args.map((a) => (/\s/.test(a) ? JSON.stringify(a) : a)).join(' ')}    # ${title}\n`);
  return spawnSync(process.execPath, [...cli, ...args], { stdio: 'inherit' }).status;
}

const clean = run('the examples workspace: must be clean', ['check', 'examples/myr-valari', 'examples/consumed', 'examples/fleets']);
run('the showcase of mistakes (errors expected)', ['check', 'examples/showcase', '--cards', 'examples']);
const sim = run('one Fire action and a 6-round engagement', [
  'sim',
  '--cards',
  'examples',
  '--attacker',
  'Lumen Destroyer',
  '--defender',
  'Consumed Maw Frigate',
  '--range',
  '9',
]);
process.exitCode = clean === 0 && sim === 0 ? 0 : 1;
