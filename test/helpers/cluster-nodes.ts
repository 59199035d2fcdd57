import { spawn, type ChildProcess } from 'node:child_process';

/**
 * Node processes for the cluster tests: the CLI started as an operator starts it, and probes of
 * what a node reports (owned shards from /metrics, publisher owners from the admin list).
 */
const ROOT = new URL('../../', import.meta.url).pathname;
/** the admin token the cluster tests start their nodes with */
export const TOKEN = 'cluster-test-admin-token';

export interface RunningNode {
  id: string;
  child: ChildProcess;
  url: string;
  exited: Promise<number | null>;
  stderr: () => string;
}

/** A node as an operator runs it: the CLI in its own process. */
export async function startNode(id: string, args: string[]): Promise<RunningNode> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('NEWSAGG_')));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'start', '--node-id', id, '--user-agent', `newsagg-test/${id}`, ...args], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`node ${id} exited (${code}) before listening: ${err.slice(-3000)}`)));
  });
  return { id, child, url, exited, stderr: () => err };
}

export async function until<T>(what: string, probe: () => Promise<T | null | false> | T | null | false, timeoutMs: number, everyMs = 250): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== null && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export async function ownedShards(n: RunningNode, kind: string): Promise<number> {
  try {
    const res = await fetch(`${n.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    const m = new RegExp(`^newsagg_owned_shards\\{kind="${kind}"\\} (\\d+)`, 'm').exec(await res.text());
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

export async function owners(n: RunningNode): Promise<Map<string, string | null>> {
  const res = await fetch(`${n.url}/v1/publishers?limit=500`, { headers: { authorization: `Bearer ${TOKEN}` } });
  const body = (await res.json()) as { items: { id: string; owner: string | null }[] };
  return new Map(body.items.map((p) => [p.id, p.owner]));
}
