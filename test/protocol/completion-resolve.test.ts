/**
 * Completion documentation is resolved lazily for a client that says it resolves it
 * (`completionItem.resolveSupport`, as VS Code does): the list carries each item's label, edit,
 * detail and a small `data`; `completionItem/resolve` fills in the rule text the core wrote for the
 * item (as Markdown, or as plain text for a client that reads no Markdown). The list is the lighter
 * for it. A client that does not resolve gets the documentation in the list, as before.
 */
import { strict as assert } from 'node:assert';
import type { ClientCapabilities, CompletionItem, CompletionList, MarkupContent } from 'vscode-languageserver-protocol';
import { clientFeatures, serverCapabilities } from '../../server/src/lsp/capabilities';
import { complete } from '../../server/src/core/features/completion';
import { Workspace } from '../../server/src/core/workspace';
import { startServer, type Client } from './harness';

const CARD = `faction: Hush
units:
  - name: Quiet Destroyer
    class: Destroyer
    points: 145
    bases: 1
    stats: "9/6 5+ 7+ 4 6+ 5 6/3 7/2 3"
    abilities:
      - 
`;

/** Where the tests ask: the list item under `abilities:` (every rulebook ability, each with its text) and the class's value. */
const PLACES = [
  { what: 'an ability', needle: '      - ', delta: 8 },
  { what: 'a class', needle: 'class: ', delta: 7 },
];

/** The core's own items at `needle + delta` of CARD: the oracle for what resolve gives. */
function coreItems(needle: string, delta: number) {
  const ws = new Workspace();
  const uri = 'file:///ws/hush.unit.yaml';
  const doc = ws.set(uri, CARD);
  return complete(doc, ws, CARD, CARD.indexOf(needle) + delta).items;
}

/** The harness's capabilities with completion's own replaced by `item` (plus resolveSupport when `resolves`). */
function completionCaps(item: Record<string, unknown>, resolves: boolean) {
  return (caps: ClientCapabilities): ClientCapabilities => ({
    ...caps,
    textDocument: {
      ...caps.textDocument,
      completion: { completionItem: { ...item, ...(resolves ? { resolveSupport: { properties: ['documentation', 'detail'] } } : {}) } },
    },
  });
}

describe('completion documentation resolved lazily', function () {
  this.timeout(60000);
  let c: Client | undefined;
  afterEach(async () => {
    await c?.stop();
    c = undefined;
  });

  it('says it resolves completion items', () => {
    assert.equal(serverCapabilities(clientFeatures({})).completionProvider?.resolveProvider, true);
  });

  it('sends the documentation in the list to a client that does not say it resolves it', async () => {
    c = await startServer({ settings: { pointsEstimate: false }, capabilities: completionCaps({ snippetSupport: true }, false) });
    const uri = await c.open('hush.unit.yaml', CARD);
    const list = await c.request<CompletionList>('textDocument/completion', { textDocument: { uri }, position: c.pos(uri, 'class: ', 7) });
    const core = coreItems('class: ', 7);
    for (const item of list.items) {
      const want = core.find((i) => i.label === item.label)!;
      assert.deepEqual(item.documentation, { kind: 'markdown', value: want.documentation }, item.label);
      assert.equal(item.data, undefined);
    }
  });

  for (const place of PLACES) {
    it(`sends ${place.what}'s items without their documentation and fills it in on resolve`, async () => {
      c = await startServer({ settings: { pointsEstimate: false }, capabilities: completionCaps({ snippetSupport: true }, true) });
      const uri = await c.open('hush.unit.yaml', CARD);
      const list = await c.request<CompletionList>('textDocument/completion', { textDocument: { uri }, position: c.pos(uri, place.needle, place.delta) });
      const core = coreItems(place.needle, place.delta);
      const documented = core.filter((i) => i.documentation);
      assert.ok(documented.length >= 5, `the core documents only ${documented.length} of ${core.length} items here`);
      assert.deepEqual(
        list.items.map((i) => i.label),
        core.map((i) => i.label),
      );
      for (const item of list.items) assert.equal(item.documentation, undefined, `${item.label} came with its documentation`);

      const resolved: CompletionItem[] = [];
      for (const item of list.items) {
        const r: CompletionItem = await c.request<CompletionItem>('completionItem/resolve', item);
        resolved.push(r);
        const want = core.find((i) => i.label === item.label)!;
        if (!want.documentation) {
          assert.equal(r.documentation, undefined, item.label);
          continue;
        }
        assert.deepEqual(r.documentation, { kind: 'markdown', value: want.documentation }, item.label);
        // Everything else is as the list gave it.
        assert.deepEqual({ ...r, documentation: undefined }, { ...item, documentation: undefined }, item.label);
        assert.ok(JSON.stringify(item.data).length <= 20, `${item.label}'s data is ${JSON.stringify(item.data)}`);
      }
      const lazy = JSON.stringify(list).length;
      const full = JSON.stringify({ ...list, items: resolved }).length;
      console.log(`      ${place.what}: ${list.items.length} items, ${lazy} bytes lazily, ${full} with every documentation`);
      assert.ok(lazy < full * 0.75, `the list is ${lazy} bytes, ${full} with its documentation`);
    });
  }

  it('resolves to plain text for a client that reads no Markdown, and leaves an item it does not know as it came', async () => {
    c = await startServer({
      settings: { pointsEstimate: false },
      capabilities: completionCaps({ snippetSupport: false, documentationFormat: ['plaintext'] }, true),
    });
    const uri = await c.open('hush.unit.yaml', CARD);
    const list = await c.request<CompletionList>('textDocument/completion', { textDocument: { uri }, position: c.pos(uri, 'class: ', 7) });
    const capital = list.items.find((i) => i.label === 'Capital Ship')!;
    assert.equal(capital.documentation, undefined);
    const r = await c.request<CompletionItem>('completionItem/resolve', capital);
    const doc = r.documentation as MarkupContent;
    assert.equal(doc.kind, 'plaintext');
    assert.ok(doc.value.length > 20 && !/\*\*|\\/.test(doc.value), doc.value);
    // An item of no list the server keeps (another client's, or data it never sent) comes back unchanged.
    for (const data of [{ l: 9999, i: 0 }, { l: 'x' }, null, 'text']) {
      const odd = { ...capital, data };
      assert.deepEqual(await c.request<CompletionItem>('completionItem/resolve', odd), odd);
    }
  });
});
