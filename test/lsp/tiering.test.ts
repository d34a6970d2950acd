/** The V8 tier-up budget the server sets: only on the V8 it was measured on (see server/src/lsp/tiering.ts). */
import assert from 'node:assert/strict';
import { BUDGET_FACTOR, tieringFlag } from '../../server/src/lsp/tiering';

describe('tiering: how soon V8 optimises', () => {
  it("doubles Node 20's budget (V8 11.x)", () => {
    assert.equal(BUDGET_FACTOR, 2);
    assert.equal(tieringFlag('11.3.244.8-node.38'), '--interrupt-budget=135168');
  });

  it('leaves other V8 versions alone (their flags differ, and nothing was measured there)', () => {
    for (const v of ['10.2.154.26-node.36', '12.4.254.21-node.33', '13.6.233.17-node.31', 'garbage', '']) assert.equal(tieringFlag(v), undefined, v);
  });
});
