import { HttpError, type Handler, type Method } from './reply.js';

interface RouteNode {
  statics: Map<string, RouteNode>;
  param: RouteNode | null;
  /** method -> handler and the names of the `:params` on the way here, in order */
  methods: Map<string, { handler: Handler; names: string[]; pattern: string }> | null;
}

/** A matched route: its handler, the `:params` decoded, and the pattern it was registered with (a metrics label). */
export interface RouteMatch {
  handler: Handler;
  params: Record<string, string>;
  pattern: string;
}

const newNode = (): RouteNode => ({ statics: new Map(), param: null, methods: null });
/** Params of a route without `:params` (shared, never written). */
export const NO_PARAMS: Record<string, string> = Object.freeze({}) as Record<string, string>;

/**
 * Routes by method and path: static paths are one map lookup; patterns live in a segment trie
 * (static segments before `:params`), so matching costs the path's depth, not the route count.
 */
export class Router {
  /** method -> static path -> the match result, built once (a static route allocates nothing per request) */
  private readonly exact = new Map<string, Map<string, RouteMatch>>();
  private readonly root = newNode();

  add(method: Method, pattern: string, handler: Handler): this {
    if (!pattern.startsWith('/')) throw new TypeError(`route pattern must start with /: ${pattern}`);
    if (!pattern.includes('/:')) {
      let paths = this.exact.get(method);
      if (paths === undefined) this.exact.set(method, (paths = new Map()));
      paths.set(pattern, { handler, params: NO_PARAMS, pattern });
    }
    let node = this.root;
    const names: string[] = [];
    for (const seg of pattern.split('/').slice(1)) {
      if (seg.startsWith(':')) {
        names.push(seg.slice(1));
        node = node.param ??= newNode();
      } else {
        let next = node.statics.get(seg);
        if (next === undefined) node.statics.set(seg, (next = newNode()));
        node = next;
      }
    }
    (node.methods ??= new Map()).set(method, { handler, names, pattern });
    return this;
  }

  get(pattern: string, h: Handler): this {
    return this.add('GET', pattern, h);
  }

  post(pattern: string, h: Handler): this {
    return this.add('POST', pattern, h);
  }

  /** The handler, params and route pattern for a request, `{allowed}` when only the method is wrong, or null. */
  match(method: string, path: string): RouteMatch | { allowed: string[] } | null {
    const m = method === 'HEAD' ? 'GET' : method;
    const hit = this.exact.get(m)?.get(path);
    if (hit !== undefined) return hit;
    const parts = path.split('/');
    const values: string[] = [];
    const allowed = new Set<string>();
    const leaf = walk(this.root, parts, 1, values, m, allowed);
    if (leaf === null) return allowed.size > 0 ? { allowed: [...allowed] } : null;
    const params: Record<string, string> = {};
    for (let i = 0; i < leaf.names.length; i++) params[leaf.names[i]!] = decodeSegment(values[i]!);
    return { handler: leaf.handler, params, pattern: leaf.pattern };
  }
}

/** Depth-first, static before param; collects the methods of matching paths for a 405. */
function walk(node: RouteNode, parts: string[], i: number, values: string[], method: string, allowed: Set<string>): { handler: Handler; names: string[]; pattern: string } | null {
  if (i === parts.length) {
    if (node.methods === null) return null;
    const hit = node.methods.get(method);
    if (hit !== undefined) return hit;
    for (const k of node.methods.keys()) allowed.add(k);
    return null;
  }
  const seg = parts[i]!;
  const next = node.statics.get(seg);
  if (next !== undefined) {
    const hit = walk(next, parts, i + 1, values, method, allowed);
    if (hit !== null) return hit;
  }
  if (node.param !== null && seg !== '') {
    values.push(seg);
    const hit = walk(node.param, parts, i + 1, values, method, allowed);
    if (hit !== null) return hit;
    values.pop();
  }
  return null;
}

function decodeSegment(v: string): string {
  if (!v.includes('%')) return v;
  try {
    return decodeURIComponent(v);
  } catch {
    throw new HttpError(400, 'bad_request', 'malformed percent-encoding in the path');
  }
}
