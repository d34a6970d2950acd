/**
 * The pieces both views share: the page frame (client/webview/frame.ts) with its
 * Content-Security-Policy, and the schema blocks and parser (client/webview/schema.ts). Both
 * pages are checked to be the one frame around their own skeleton; the pages themselves run in
 * Chromium (view.test.ts, battle-view.test.ts).
 */
import { strict as assert } from 'node:assert';
import * as v from 'valibot';
import { attr, numberField, renderPage } from '../../client/webview/frame';
import { int, MAX_TEXT, parser, probability, text } from '../../client/webview/schema';
import { renderWebviewHtml } from '../../client/webview/engagement/html';
import { renderBattleHtml } from '../../client/webview/battle/html';

const ARGS = ['vscode-resource:', 'bm9uY2U=', 'https://x/view.js', 'https://x/view.css'] as const;

describe('the views’ page frame (client/webview/frame.ts)', () => {
  it('puts the body in <main id="app"> under a CSP that allows only the nonce’s script and the extension’s styles', () => {
    const page = renderPage(...ARGS, { title: 'Test', body: '<p id="x"></p>' });
    const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(page)![1]!.replace(/&#39;/g, "'");
    assert.equal(
      csp,
      "default-src 'none'; img-src vscode-resource: data:; style-src vscode-resource: 'nonce-bm9uY2U='; font-src vscode-resource:; script-src 'nonce-bm9uY2U='; base-uri 'none'; form-action 'none'",
    );
    assert.match(page, /<title>Test<\/title>/);
    assert.match(page, /<main id="app" aria-busy="false">\n<p id="x"><\/p>\n {2}<\/main>/);
    assert.match(page, /<script nonce="bm9uY2U=" src="https:\/\/x\/view\.js"><\/script>/);
    assert.match(page, /<link rel="stylesheet" href="https:\/\/x\/view\.css" nonce="bm9uY2U=">/);
  });

  it('escapes what the host passes into attributes', () => {
    assert.equal(attr(`"><script>alert('x')</script>&`), '&#34;&#62;&#60;script&#62;alert(&#39;x&#39;)&#60;/script&#62;&#38;');
    const page = renderPage('a"b', 'n"><x', 's"', 't"', { title: 'T', body: '' });
    assert.doesNotMatch(page, /n"><x/);
  });

  it('gives number fields their label, bounds and what empty means', () => {
    const f = numberField('opt-seed', 'Seed', { min: 0, max: 99 });
    assert.match(f, /<label for="opt-seed">Seed<\/label>/);
    assert.match(f, /<input id="opt-seed" name="opt-seed" type="number" inputmode="numeric" step="1" min="0" max="99">/);
    assert.match(numberField('s', 'Shields', { min: 0, max: 9 }, 'full'), /placeholder="full" aria-describedby="s-hint">.*empty: full/s);
  });

  it('is the frame of both views: the same page around each view’s own skeleton', () => {
    const frameOf = (page: string) => page.replace(/<title>[^<]*<\/title>/, '').replace(/<main id="app"[^]*<\/main>/, '');
    const engagement = renderWebviewHtml(...ARGS);
    const battle = renderBattleHtml(...ARGS);
    assert.equal(frameOf(engagement), frameOf(renderPage(...ARGS, { title: '', body: '' })));
    assert.equal(frameOf(battle), frameOf(engagement));
    assert.match(engagement, /<title>Engagement<\/title>/);
    assert.match(battle, /<title>Battle<\/title>/);
  });
});

describe('the views’ schema blocks (client/webview/schema.ts)', () => {
  const point = parser(v.object({ n: int(1, 3), p: probability, s: text }));

  it('parses the shape, dropping unknown keys', () => {
    assert.deepEqual(point({ n: 2, p: 0.5, s: 'x', extra: true }), { n: 2, p: 0.5, s: 'x' });
  });

  it('refuses anything else, and never throws', () => {
    for (const bad of [
      undefined,
      null,
      'x',
      [],
      { n: 4, p: 0.5, s: '' },
      { n: 1.5, p: 0.5, s: '' },
      { n: 1, p: 1.1, s: '' },
      { n: 1, p: Number.NaN, s: '' },
      { n: 1, p: 0, s: 'x'.repeat(MAX_TEXT + 1) },
    ])
      assert.equal(point(bad), undefined, JSON.stringify(bad));
  });

  it('allows rounding noise just outside [0, 1] in a probability', () => {
    assert.deepEqual(point({ n: 1, p: 1 + 1e-9, s: '' }), { n: 1, p: 1 + 1e-9, s: '' });
    assert.deepEqual(point({ n: 1, p: -1e-9, s: '' }), { n: 1, p: -1e-9, s: '' });
  });
});
