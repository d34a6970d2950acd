/**
 * The red-team review, protocol edges, over stdio with raw bytes: requests before
 * `initialize` and after `shutdown` get the errors the LSP spec names, and a frame the server
 * cannot read (a bad Content-Length) is logged and ends the process, so that the client restarts
 * it, instead of leaving it alive and deaf.
 */
import { strict as assert } from 'node:assert';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { SERVER } from '../protocol/harness';

interface Raw {
  child: ChildProcessWithoutNullStreams;
  out: () => string;
  err: () => string;
  send: (msg: unknown) => void;
  /** The JSON-RPC messages the server wrote so far. */
  messages: () => { id?: number; method?: string; result?: unknown; error?: { code: number; message: string }; params?: unknown }[];
  exited: Promise<number | null>;
}

function start(): Raw {
  assert.ok(existsSync(SERVER), 'run `node esbuild.mjs` first');
  const child = spawn(process.execPath, [SERVER, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = Buffer.alloc(0);
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out = Buffer.concat([out, d])));
  child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
  const exited = new Promise<number | null>((res) => child.on('exit', (code) => res(code)));
  return {
    child,
    out: () => out.toString('utf8'),
    err: () => err,
    send: (msg) => {
      const body = Buffer.from(JSON.stringify(msg), 'utf8');
      child.stdin.write(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body]));
    },
    messages: () => {
      const list = [];
      let rest = out;
      for (;;) {
        const m = /^Content-Length: (\d+)\r\n\r\n/.exec(rest.subarray(0, 64).toString('latin1'));
        if (!m) break;
        const start = m[0].length;
        const len = Number(m[1]);
        if (rest.length < start + len) break;
        list.push(JSON.parse(rest.subarray(start, start + len).toString('utf8')));
        rest = rest.subarray(start + len);
      }
      return list;
    },
    exited,
  };
}

async function until<T>(what: string, f: () => T | undefined, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = f();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const INIT = { processId: null, rootUri: null, workspaceFolders: null, capabilities: {} };
const HOVER = { textDocument: { uri: 'file:///x/a.unit.yaml' }, position: { line: 0, character: 0 } };

describe('red team: protocol edges over stdio', function () {
  this.timeout(60_000);

  it('11. answers a request before initialize with ServerNotInitialized (-32002), and one after shutdown with InvalidRequest (-32600)', async () => {
    const s = start();
    try {
      s.send({ jsonrpc: '2.0', id: 1, method: 'textDocument/hover', params: HOVER });
      s.send({ jsonrpc: '2.0', id: 2, method: 'fabledStar/listCards', params: {} });
      const early = await until('the early answers', () => (s.messages().filter((m) => m.id === 1 || m.id === 2).length === 2 ? s.messages() : undefined));
      for (const id of [1, 2]) assert.equal(early.find((m) => m.id === id)?.error?.code, -32002, JSON.stringify(early));
      s.send({ jsonrpc: '2.0', id: 3, method: 'initialize', params: INIT });
      const init = await until('initialize', () => s.messages().find((m) => m.id === 3));
      assert.ok(init.result, JSON.stringify(init));
      s.send({ jsonrpc: '2.0', method: 'initialized', params: {} });
      s.send({ jsonrpc: '2.0', id: 4, method: 'textDocument/hover', params: HOVER });
      const ok = await until('a hover', () => s.messages().find((m) => m.id === 4));
      assert.equal(ok.error, undefined, JSON.stringify(ok));
      s.send({ jsonrpc: '2.0', id: 5, method: 'shutdown' });
      await until('shutdown', () => s.messages().find((m) => m.id === 5));
      s.send({ jsonrpc: '2.0', id: 6, method: 'textDocument/hover', params: HOVER });
      const late = await until('the late answer', () => s.messages().find((m) => m.id === 6));
      assert.equal(late.error?.code, -32600, JSON.stringify(late));
      s.send({ jsonrpc: '2.0', method: 'exit' });
      assert.equal(await s.exited, 0);
    } finally {
      s.child.kill();
    }
  });

  const BAD: [string, (s: Raw) => void, number][] = [
    ['a Content-Length that is not a number', (s) => s.child.stdin.write('Content-Length: abc\r\n\r\n{}'), 5000],
    ['a header without Content-Length', (s) => s.child.stdin.write('Content-Type: application/json\r\n\r\n{}'), 5000],
    [
      'a Content-Length shorter than the body',
      (s) => {
        const body = JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'textDocument/hover', params: HOVER });
        s.child.stdin.write(`Content-Length: ${body.length - 10}\r\n\r\n${body}`);
      },
      5000,
    ],
    [
      'a Content-Length longer than the body',
      (s) => {
        const body = JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'textDocument/hover', params: HOVER });
        s.child.stdin.write(`Content-Length: ${body.length + 100}\r\n\r\n${body}`);
      },
      30_000,
    ],
  ];
  for (const [what, send, ms] of BAD) {
    it(`11. logs ${what} and exits with a failure, so that the client restarts it (within ${ms / 1000} s)`, async () => {
      const s = start();
      try {
        s.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: INIT });
        await until('initialize', () => s.messages().find((m) => m.id === 1));
        s.send({ jsonrpc: '2.0', method: 'initialized', params: {} });
        send(s);
        const code = await Promise.race([s.exited, new Promise<'alive'>((r) => setTimeout(() => r('alive'), ms))]);
        assert.notEqual(code, 'alive', 'still running, deaf');
        assert.notEqual(code, 0);
        const logged = s.err() + JSON.stringify(s.messages().filter((m) => m.method === 'window/logMessage'));
        assert.match(logged, /cannot read|could not read/i, logged);
      } finally {
        s.child.kill();
      }
    });
  }
});
