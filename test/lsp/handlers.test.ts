/**
 * The handler table's custom-request rows: each protocol request and notification carries its
 * method once (its type says the same), and the table names each custom request by its method.
 */
import assert from 'node:assert/strict';
import * as protocol from '../../protocol';
import { HANDLERS, requestName } from '../../server/src/lsp/handlers';

const messages = Object.entries(protocol).filter(([name]) => /(Request|Notification)$/.test(name)) as [string, { method: string; type: { method: string } }][];

describe('custom requests (protocol/ and the handler table)', () => {
  it('declares each message with its type carrying the same method, under fabledStar/', () => {
    assert.ok(messages.length >= 9, `found ${messages.map(([n]) => n).join(', ')}`);
    for (const [name, m] of messages) {
      assert.match(m.method, /^fabledStar\/[a-zA-Z]+$/, name);
      assert.equal(m.type.method, m.method, name);
    }
    assert.equal(new Set(messages.map(([, m]) => m.method)).size, messages.length, 'every method is distinct');
  });

  it('names a custom request in the log by its method without the prefix', () => {
    assert.equal(requestName('fabledStar/listCards'), 'listCards');
    assert.equal(requestName('fabledStar/rosterEdit'), 'rosterEdit');
    assert.equal(requestName('textDocument/hover'), 'textDocument/hover');
  });

  it('has one row for each client -> server request, named as before', () => {
    const names = HANDLERS.map((h) => h.name);
    assert.equal(new Set(names).size, names.length, 'no name twice');
    for (const n of ['listCards', 'cardAt', 'fleetSummary', 'roster', 'rosterEdit', 'ruleText', 'simulate', 'battle']) assert.ok(names.includes(n), n);
  });
});
