/**
 * What test/webview does not already cover of the engagement view's trust boundary: the message
 * parsers under arbitrary and mutated payloads (property tests), values the host passes into the
 * page that could break out of an attribute, huge payloads, and a scan of the view's own sources
 * for ways to turn text into markup or code. (The Chromium tests in test/webview check the
 * rendered page: CSP enforced, HTML in names shown as text, malformed messages ignored.)
 */
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { parseHostMessage, parseSimulationResult, parseViewMessage, RERUN_LIMITS } from '../../client/webview/engagement/messages';
import { renderWebviewHtml } from '../../client/webview/engagement/html';
import { destroyerVsFrigates } from '../webview/fixtures';

const RUNS = 300;
const SEED = 4242;

/** Every value inside a message is finite, and every probability lies in [0, 1]. */
function assertSane(value: unknown, path = 'message'): void {
  if (typeof value === 'number') assert.ok(Number.isFinite(value), `${path} is ${value}`);
  else if (Array.isArray(value)) value.forEach((v, i) => assertSane(v, `${path}[${i}]`));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === 'standardError') continue; // not probabilities
      if (['p', 'killProbability', 'attackerWins', 'defenderWins', 'neither'].includes(k) && typeof v === 'number')
        assert.ok(v >= 0 && v <= 1, `${path}.${k} is ${v}`);
      assertSane(v, `${path}.${k}`);
    }
  }
}

/** The paths to every leaf of a JSON value. */
function leaves(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return value.length ? value.flatMap((v, i) => leaves(v, [...path, i])) : [path];
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => leaves(v, [...path, k]));
  return [path];
}

function replaced(value: unknown, path: (string | number)[], by: unknown): unknown {
  if (!path.length) return by;
  if (Array.isArray(value)) {
    const copy: unknown[] = [...value];
    copy[path[0] as number] = replaced(copy[path[0] as number], path.slice(1), by);
    return copy;
  }
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  copy[path[0]!] = replaced(copy[path[0]!], path.slice(1), by);
  return copy;
}

const good = { type: 'result', result: destroyerVsFrigates() };
const goodLeaves = leaves(good);

describe('hardening: engagement view messages (properties)', () => {
  it(`no value at all makes a parser throw, and whatever is accepted parses to itself (${RUNS} runs each)`, () => {
    fc.assert(
      fc.property(
        fc.anything({
          withBoxedValues: true,
          withMap: true,
          withSet: true,
          withTypedArray: true,
          withSparseArray: true,
          withNullPrototype: true,
          withBigInt: true,
          withDate: true,
        }),
        (x) => {
          for (const parse of [parseHostMessage, parseViewMessage, parseSimulationResult] as ((d: unknown) => unknown)[]) {
            const out = parse(x);
            if (out !== undefined) {
              assert.deepEqual(parse(out), out);
              assertSane(out);
            }
          }
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('a result with any one value replaced by junk is refused or still sane', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: goodLeaves.length - 1 }),
        fc.oneof(fc.anything(), fc.constantFrom(NaN, Infinity, -1, 2, 1e308, '<img src=x onerror=alert(1)>', null, [], {})),
        (i, junk) => {
          const out = parseHostMessage(replaced(good, goodLeaves[i]!, junk));
          if (out) assertSane(out);
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('a rerun is accepted only with every option inside the bounds the host enforces', () => {
    const bounds = RERUN_LIMITS as Record<string, { min: number; max: number }>;
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.constantFrom(...Object.keys(bounds), 'cover', 'brace', 'aim', 'evil'),
          fc.oneof(fc.integer(), fc.double(), fc.boolean(), fc.string(), fc.constant(null)),
        ),
        (options) => {
          const out = parseViewMessage({ type: 'rerun', options });
          if (!out || out.type !== 'rerun') return;
          for (const [k, v] of Object.entries(out.options)) {
            // Every bound is a whole number but the range, which may be any distance.
            if (bounds[k])
              assert.ok(
                typeof v === 'number' && (k === 'range' || Number.isInteger(v)) && v >= bounds[k].min && v <= bounds[k].max,
                `${k} ${String(v)} let through`,
              );
          }
          assert.ok(!('evil' in out.options), 'unknown options are dropped');
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('refuses a result of a million distribution points, takes one of 100,000, and cuts an error of a million characters', () => {
    const points = (n: number) => ({
      ...good.result,
      volley: { ...good.result.volley, hullDamage: Array.from({ length: n }, (_, value) => ({ value, p: 1 / n })) },
    });
    assert.equal(parseHostMessage({ type: 'result', result: points(1_000_000) }), undefined);
    assert.equal(parseHostMessage({ type: 'result', result: points(100_000) })?.type, 'result');
    const err = parseHostMessage({ type: 'error', message: '<'.repeat(1_000_000) });
    assert.ok(err && err.type === 'error' && err.message.length <= 10_000);
  });

  it('refuses a message nested 100,000 levels deep without overflowing the stack', () => {
    const deep: Record<string, unknown> = { type: 'result' };
    let cursor = deep;
    for (let i = 0; i < 100_000; i++) cursor = (cursor['result'] = { volley: {} }) as Record<string, unknown>;
    assert.equal(parseHostMessage(deep), undefined);
  });
});

describe('hardening: engagement view page', () => {
  it('keeps values the host passes inside their attributes, whatever they hold', () => {
    const evil = '"><script>alert(1)</script><meta http-equiv="refresh" content="0;url=https://evil.example">\'';
    const html = renderWebviewHtml(evil, evil, evil, evil);
    assert.equal((html.match(/<script\b/g) ?? []).length, 1, 'one script element');
    assert.equal((html.match(/<meta\b/g) ?? []).length, 3, 'only the page\u2019s own meta elements');
    assert.ok(!html.includes('<script>alert'), 'nothing injected');
  });

  it('builds the page with a strict CSP for any nonce and source', () => {
    fc.assert(
      fc.property(fc.base64String({ minLength: 16, maxLength: 32 }), fc.webUrl(), (nonce, origin) => {
        const html = renderWebviewHtml(origin, nonce, `${origin}/webview.js`, `${origin}/webview.css`);
        const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1]?.replace(/&#39;/g, "'") ?? '';
        assert.match(csp, /default-src 'none'/);
        assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
        assert.doesNotMatch(html, /\son[a-z]+\s*=/i, 'no inline event handlers');
      }),
      { seed: SEED, numRuns: 100 },
    );
  });

  it('has no way in its own sources to turn text into markup or code', () => {
    const dir = join(__dirname, '..', '..', 'client', 'webview');
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.ts'))) {
      const src = readFileSync(join(dir, f), 'utf8');
      assert.doesNotMatch(
        src,
        /\.(innerHTML|outerHTML)\s*=|insertAdjacentHTML|document\.write|\beval\(|new Function\(|setTimeout\(\s*['"`]|setInterval\(\s*['"`]/,
        f,
      );
    }
  });
});
