/**
 * The panel host both views share (client/src/viewPanel.ts), driven through a recorded stand-in
 * for the `vscode` module: the panel's setup and page, checked messages (a malformed one is logged
 * and never acted on), `ready` and `rerun`, one request at a time (a new run cancels the one in
 * flight, whose answer is then dropped), failures shown in the view, nothing posted after closing,
 * and the set of open panels. The views themselves run in Chromium (view.test.ts,
 * battle-view.test.ts); the whole extension in code-server (test/e2e).
 */
import { strict as assert } from 'node:assert';
import type * as ViewPanelModule from '../../client/src/viewPanel';
import type { Ctx } from '../../client/src/ctx';
import { created, FakePanel, Uri, useFakeVscode } from './fakeVscode';
import { MAX_TEXT } from '../../client/webview/schema';
import { parseBattleHostMessage } from '../../client/webview/battle/messages';
import { simulateBattle } from '../../server/src/core/sim/fleet-battle';
import type { UnitProfile } from '../../server/src/core/sim/types';

/** A small battle's result, as the server sends it. */
function battleResult() {
  const profile: UnitProfile = {
    name: 'U',
    class: 'Destroyer',
    bases: 1,
    baseMm: 60,
    bs: 5,
    hp: 10,
    combinedShields: false,
    weapons: [{ name: 'Gun', type: 'Energy', range: 12, damage: 2, attacks: 3 }],
    move: [9, 6],
  };
  const side = (name: string) => ({ name, faction: name, units: [{ name, copy: 1, points: 100, profile: { ...profile, name } }] });
  return simulateBattle([side('A'), side('B')], { trials: 200, range: 12 });
}

useFakeVscode();
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded after the stand-in is in place
const { pairTitle, ViewPanel, ViewPanels } = require('../../client/src/viewPanel') as typeof ViewPanelModule;

type Host = { type: 'busy' } | { type: 'error'; message: string } | { type: 'result'; value: number };
type View = { type: 'ready' } | { type: 'rerun'; options: { n: number } } | { type: 'ping' };

const KIND: ViewPanelModule.ViewKind<View> = {
  viewType: 'test.view',
  name: 'test view',
  bundle: 'testview',
  title: 'Test',
  render: (csp, nonce, script, style) => `<page csp="${csp}" nonce="${nonce}" script="${script}" style="${style}">`,
  parse: (raw) => (raw && typeof raw === 'object' && ['ready', 'rerun', 'ping'].includes((raw as { type: string }).type) ? (raw as View) : undefined),
};

function fakeCtx(): Ctx & { warnings: string[] } {
  const warnings: string[] = [];
  return { extension: { extensionUri: new Uri('/ext') }, log: { warn: (s: string) => warnings.push(s) }, warnings } as unknown as Ctx & { warnings: string[] };
}

/** A request the test answers (or fails) when it likes. */
function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

class TestPanel extends ViewPanel<Host, View, { n: number }> {
  result: number | undefined;
  runs = 0;
  pings = 0;
  next = deferred<number>();
  tokens: { isCancellationRequested: boolean }[] = [];
  protected replay(): boolean {
    if (this.result !== undefined) this.post({ type: 'result', value: this.result });
    return this.result !== undefined;
  }
  protected override receive(message: View): void {
    if (message.type === 'ping') this.pings++;
  }
  run(): Promise<void> {
    this.runs++;
    const answer = this.next;
    return this.request(
      'Test run',
      (token) => {
        this.tokens.push(token);
        return answer.promise;
      },
      (value) => {
        this.result = value;
        this.post({ type: 'result', value });
      },
    );
  }
  get opts() {
    return this.options;
  }
  stop() {
    return this.cancel();
  }
}

const tick = () => new Promise((r) => setImmediate(r));

function open(ctx = fakeCtx()) {
  const panel = new FakePanel();
  let forgotten = 0;
  const p = new TestPanel(ctx, panel as never, KIND, 'Test: A vs B', () => forgotten++);
  return { p, panel, ctx, forgotten: () => forgotten };
}

describe('panel host (client/src/viewPanel.ts)', () => {
  it('sets up the panel: title, icon, scripts on with only dist/ loadable, the page with a fresh nonce', () => {
    const { panel } = open();
    const { panel: other } = open();
    assert.equal(panel.title, 'Test: A vs B');
    assert.equal(String(panel.iconPath), 'fake:/ext/icons/fabled-fleet.svg');
    assert.deepEqual(JSON.parse(JSON.stringify(panel.webview.options)), { enableScripts: true, localResourceRoots: [{ path: '/ext/dist' }] });
    assert.match(
      panel.webview.html,
      /^<page csp="fake-csp" nonce="[A-Za-z0-9+/]{22}==" script="fake:\/ext\/dist\/testview\.js" style="fake:\/ext\/dist\/testview\.css">$/,
    );
    const nonce = (html: string) => /nonce="([^"]+)"/.exec(html)![1];
    assert.notEqual(nonce(panel.webview.html), nonce(other.webview.html));
  });

  it("titles a panel with the view's word and the two sides", () => {
    assert.equal(pairTitle(KIND, 'Lancer', 'Warden'), 'Test: Lancer vs Warden');
  });

  it('logs a malformed message and does nothing with it', async () => {
    const { p, panel, ctx } = open();
    panel.fromView({ type: 'run-rm-rf' });
    panel.fromView('ready');
    await tick();
    assert.equal(p.runs, 0);
    assert.deepEqual(panel.posted, []);
    assert.equal(ctx.warnings.length, 2);
    assert.match(ctx.warnings[0]!, /^Ignored a malformed message from the test view: \{"type":"run-rm-rf"\}/);
  });

  it('on ready runs when it has nothing to show, and shows what it has otherwise', async () => {
    const { p, panel } = open();
    panel.fromView({ type: 'ready' });
    assert.equal(p.runs, 1);
    p.next.resolve(7);
    await tick();
    assert.deepEqual(panel.posted, [{ type: 'busy' }, { type: 'result', value: 7 }]);
    panel.fromView({ type: 'ready' });
    assert.equal(p.runs, 1, 'a reloaded view gets the result, not a new run');
    assert.deepEqual(panel.posted.at(-1), { type: 'result', value: 7 });
  });

  it('on rerun takes the options as a copy and runs; other messages go to the panel', () => {
    const { p, panel } = open();
    const options = { n: 3 };
    panel.fromView({ type: 'rerun', options });
    options.n = 4;
    assert.deepEqual(p.opts, { n: 3 });
    assert.equal(p.runs, 1);
    panel.fromView({ type: 'ping' });
    assert.equal(p.pings, 1);
  });

  it('runs one request at a time: a new run cancels the one in flight, whose answer is dropped', async () => {
    const { p, panel } = open();
    const first = p.next;
    const a = p.run();
    p.next = deferred<number>();
    const b = p.run();
    assert.equal(p.tokens[0]!.isCancellationRequested, true);
    assert.equal(p.tokens[1]!.isCancellationRequested, false);
    first.resolve(1);
    p.next.resolve(2);
    await Promise.all([a, b]);
    assert.deepEqual(panel.posted, [{ type: 'busy' }, { type: 'busy' }, { type: 'result', value: 2 }]);
    assert.equal(p.result, 2);
  });

  it('shows a failure in the view and logs it; a cancelled run fails in silence', async () => {
    const { p, panel, ctx } = open();
    const run = p.run();
    p.next.reject(new Error('The server fell over'));
    await run;
    assert.deepEqual(panel.posted, [{ type: 'busy' }, { type: 'error', message: 'The server fell over' }]);
    assert.deepEqual(ctx.warnings, ['Test run failed: The server fell over']);
    p.next = deferred<number>();
    const again = p.run();
    assert.equal(p.stop(), true);
    assert.equal(p.tokens.at(-1)!.isCancellationRequested, true);
    p.next.reject(new Error('cancelled'));
    await again;
    assert.equal(panel.posted.length, 3, 'nothing after busy');
    assert.equal(p.stop(), false, 'nothing left to cancel');
  });

  it('cuts every string to what the view takes, so that a 20,000-character fleet name keeps its result and its error', async () => {
    const { p, panel } = open();
    const long = 'L'.repeat(20_000);
    const run = p.run();
    p.next.reject(new Error(`The fleet "${long}" cannot fight: line 5: no card named "X"`));
    await run;
    const error = panel.posted[1] as { type: string; message: string };
    assert.equal(error.type, 'error');
    assert.ok(error.message.length <= MAX_TEXT, `${error.message.length} characters`);
    assert.ok(error.message.startsWith('The fleet "LLL'));
    // A battle result as the server sends it, with the long name in it: the view's parser takes it once cut.
    const result = { ...battleResult(), sides: battleResult().sides.map((s) => ({ ...s, fleet: long })) };
    assert.equal(parseBattleHostMessage({ type: 'result', result, partial: false }), undefined, 'as it is, the view drops it');
    (p as unknown as { post(m: unknown): void }).post({ type: 'result', result, partial: false });
    assert.ok(parseBattleHostMessage(panel.posted.at(-1)), 'as posted, the view takes it');
  });

  it('on close cancels the run, posts nothing more, forgets the panel once', async () => {
    const { p, panel, forgotten } = open();
    const run = p.run();
    panel.dispose();
    assert.equal(p.tokens[0]!.isCancellationRequested, true);
    p.next.resolve(5);
    await run;
    assert.deepEqual(panel.posted, [{ type: 'busy' }]);
    p.dispose();
    assert.equal(forgotten(), 1);
    panel.fromView({ type: 'ready' });
    assert.equal(p.runs, 1, 'a closed panel no longer listens');
  });
});

describe('open panels (ViewPanels)', () => {
  class TestPanels extends ViewPanels<TestPanel> {
    open(key: string): TestPanel | undefined {
      if (this.reopen((p) => p.panel.title === key)) return undefined;
      const panel = this.createPanel(key);
      let made: TestPanel | undefined;
      this.add((forget) => (made = new TestPanel(this.ctx, panel, KIND, key, forget)));
      return made;
    }
    async deserializeWebviewPanel(): Promise<void> {}
  }

  it('opens a panel beside the editor, and brings an open one to the front and runs it again', () => {
    const panels = new TestPanels(fakeCtx(), 'test.view');
    const before = created.length;
    const p = panels.open('A vs B')!;
    assert.equal(created.length, before + 1);
    assert.equal(created.at(-1)!.viewType, 'test.view');
    assert.equal(panels.open('A vs B'), undefined);
    assert.equal(created.length, before + 1);
    assert.equal((p.panel as unknown as FakePanel).revealed, 1);
    assert.equal(p.runs, 1);
  });

  it('forgets a closed panel, and closes every panel on dispose', () => {
    const panels = new TestPanels(fakeCtx(), 'test.view');
    const a = panels.open('A')!;
    const b = panels.open('B')!;
    a.panel.dispose();
    assert.ok(panels.open('A'), 'a closed panel is opened anew');
    panels.dispose();
    assert.equal((b.panel as unknown as FakePanel).disposed, true);
  });
});
