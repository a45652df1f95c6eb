/**
 * The route table of the operations a mock serves (the API's and the control
 * API's), for every transport: the Express server and the fetch handlers find
 * an operation, its path parameters, or the methods a path allows (405) with
 * it. Paths match like Express routes: letters in any case, one optional
 * trailing slash; HEAD finds the GET operation.
 */
import type { OperationDef } from '../../schemas/registry-types.ts';
import { compilePathTemplate, type PathTemplate } from '../services/path-template.ts';

/** What a request path and method find. */
export type RouteMatch =
  | { kind: 'operation'; operationId: string; op: OperationDef; params: Record<string, string> }
  /** The path exists, not with this method. */
  | { kind: 'method'; allowed: string[] }
  /** The path matches a template but a parameter is not valid percent-encoding: it names nothing. */
  | { kind: 'encoding' };

interface Route {
  template: PathTemplate;
  byMethod: Map<string, string>;
}

/** The first two segments of a path, lower-cased: routes are bucketed by them so a lookup tests few templates. */
function bucketOf(path: string): string {
  if (path.charCodeAt(0) !== 0x2f) {
    const parts = path.toLowerCase().split('/', 3);
    return `${parts[1] ?? ''}/${parts[2] ?? ''}`;
  }
  // `/a/b/...` -> `a/b`, `/a` -> `a/`: one slice, no array (every request's path is looked up)
  const second = path.indexOf('/', 1);
  if (second < 0) return `${path.slice(1).toLowerCase()}/`;
  const third = path.indexOf('/', second + 1);
  return path.slice(1, third < 0 ? path.length : third).toLowerCase();
}

/**
 * A route table over `operations`: `find(method, path)` (path percent-encoded,
 * without query); `isPage(path)`: the path is that of a web page operation
 * (response kind `page`), whatever the method.
 */
export function createRouteTable(operations: Readonly<Record<string, OperationDef>>): RouteTable {
  const pageOps = Object.fromEntries(Object.entries(operations).filter(([, op]) => op.response.kind === 'page'));
  const pages = Object.keys(pageOps).length ? createRouteFinder(pageOps) : undefined;
  const all = createRouteFinder(operations);
  return { find: (method, path) => all.find(method, path), isPage: (path) => pages?.find('GET', path) !== undefined };
}

/** What a route table answers (see createRouteTable). */
export interface RouteTable {
  /** The operation at `method` `path`, the methods the path allows, a path that names nothing, or undefined (no route). */
  find(method: string, path: string): RouteMatch | undefined;
  /**
   * True when `path` is that of a web page operation (any method): a page a
   * browser opens or posts a form to. Transports check its Host as they do
   * the control API's, give it no CORS headers and leave it out of the journal.
   */
  isPage(path: string): boolean;
}

function createRouteFinder(operations: Readonly<Record<string, OperationDef>>) {
  const byTemplate = new Map<string, Route>();
  for (const [id, op] of Object.entries(operations)) {
    let r = byTemplate.get(op.path);
    if (!r) byTemplate.set(op.path, (r = { template: compilePathTemplate(op.path, { loose: true }), byMethod: new Map() }));
    r.byMethod.set(op.method.toUpperCase(), id);
  }
  // a template whose first two segments are literal goes in their bucket; any other is tried for every path
  const buckets = new Map<string, Route[]>();
  const wild: Route[] = [];
  for (const r of byTemplate.values()) {
    const literal = /^\/[^{}/]+\/[^{}/]+(\/|$)/.test(r.template.template);
    if (!literal) wild.push(r);
    else {
      const key = bucketOf(r.template.template);
      buckets.set(key, [...(buckets.get(key) ?? []), r]);
    }
  }
  return {
    /** The operation at `method` `path`, the methods the path allows, a path that names nothing, or undefined (no route). */
    find(method: string, path: string): RouteMatch | undefined {
      const candidates = buckets.get(bucketOf(path));
      for (const list of candidates ? [candidates, wild] : [wild])
        for (const r of list) {
          if (!r.template.test(path)) continue;
          const m = method.toUpperCase();
          const id = r.byMethod.get(m) ?? (m === 'HEAD' ? r.byMethod.get('GET') : undefined);
          if (!id) return { kind: 'method', allowed: [...r.byMethod.keys()] };
          const params = r.template.match(path);
          return params ? { kind: 'operation', operationId: id, op: operations[id], params } : { kind: 'encoding' };
        }
      return undefined;
    },
  };
}
