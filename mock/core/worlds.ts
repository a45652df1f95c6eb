/**
 * Worlds and sessions, transport-neutral (docs/architecture.md, "Sessions";
 * decisions/0019-sessions.md): a mock serves one default world and any number
 * of isolated sessions, each a world of its own (an engine with its clock,
 * seed, accounts, tasks, scenarios and journal; its runner; its media
 * answerer), all on one composed service set. A request names its session with
 * `X-Mock-Session: <name>` or the path prefix `/sessions/<name>/` (stripped
 * before routing; a session's media URLs carry it). The Express server and the
 * fetch handlers (MSW, in-process) both keep their worlds here, so the control
 * operations on sessions answer the same everywhere.
 */
import { MAX_SESSIONS, SESSION_NAME, type SessionInfo } from '../../schemas/control.ts';
import { Engine, type EngineOptions } from '../engine/engine.ts';
import { composeServices, defaultServices, prepareEngine, type AnyService, type ServiceSet } from '../services/index.ts';
import { createMediaAnswerer, type MediaAnswerer } from './media.ts';
import { createOperationRunner, type OperationOptions, type OperationRunner } from './operation.ts';
import { createRouteTable, type RouteTable } from './routes.ts';

/** One world: an engine prepared with the services, its runner and its media answerer. */
export interface World {
  /** The session name, or null for the default world. */
  readonly name: string | null;
  /** Path prefix of its URLs: '' for the default world, `/sessions/<name>` for a session. */
  readonly prefix: string;
  readonly engine: Engine;
  readonly run: OperationRunner;
  readonly media: MediaAnswerer;
}

export interface WorldsOptions {
  /** Options of every world's engine (each session starts with them). */
  engine?: EngineOptions;
  /** The services (default: every area and the control API). */
  services?: readonly AnyService[];
  /** Runner options of a world (`host` is completed with the sessions here). */
  runner: (world: { name: string | null; prefix: string; engine: Engine }) => OperationOptions;
  /** Most bytes of rendered media kept per world (default 256 MiB). */
  mediaCacheBytes?: number;
  /** Called when the mock finds a bug in itself. */
  onMockBug?: (where: string, problem: string) => void;
  /** Most sessions kept besides the default world (default MAX_SESSIONS); beyond, the least recently used is dropped. */
  maxSessions?: number;
}

/** The session a request names: by its path prefix (then `path` is the rest) or header; `problem` when the name is not one. */
export function sessionOf(path: string, header: string | null | undefined): { name?: string; path: string; problem?: string } {
  const prefixed = /^\/sessions\/([^/]+)(?=\/)/i.exec(path);
  let name = header ?? undefined;
  let rest = path;
  if (prefixed) {
    try {
      name = decodeURIComponent(prefixed[1]);
    } catch {
      name = prefixed[1];
    }
    rest = path.slice(prefixed[0].length);
  }
  if (name === undefined || name === '') return { path };
  if (!SESSION_NAME.test(name))
    return { path, problem: `X-Mock-Session (or /sessions/<name>): "${name.slice(0, 80)}" is not a session name; use 1-64 letters, digits, ".", "_" or "-"` };
  return { name, path: rest };
}

/** The worlds of one mock: the default one, and the sessions created on first use. */
export function createWorlds(opts: WorldsOptions) {
  const services: ServiceSet = composeServices(opts.services ?? defaultServices);
  const routes: RouteTable = createRouteTable(services.operations);
  const sessions = new Map<string, World>();
  const maxSessions = opts.maxSessions ?? MAX_SESSIONS;

  const sessionsControl = {
    list: (): SessionInfo[] =>
      [...sessions].map(([name, w]) => ({ name, seed: w.engine.seed, now: w.engine.tick(), requests: w.engine.journal.total, baseUrl: w.prefix })),
    drop: (name: string) => sessions.delete(name),
  };

  function make(name: string | null): World {
    const prefix = name === null ? '' : `/sessions/${name}`;
    const engine = new Engine(opts.engine);
    engine.onBug = opts.onMockBug;
    const bug = (where: string, problem: string) => engine.reportBug(where, problem);
    prepareEngine(engine, services);
    const runnerOpts = opts.runner({ name, prefix, engine });
    return {
      name,
      prefix,
      engine,
      run: createOperationRunner(engine, services, { ...runnerOpts, onMockBug: bug, host: { ...runnerOpts.host, sessions: sessionsControl } }),
      media: createMediaAnswerer(engine, services.media, { cacheBytes: opts.mediaCacheBytes, onMockBug: bug }),
    };
  }

  const main = make(null);
  return {
    services,
    routes,
    main,
    /** The world of session `name`, created on first use (the least recently used dropped beyond the cap). */
    session(name: string): World {
      let w = sessions.get(name);
      if (w) sessions.delete(name);
      else {
        w = make(name);
        if (sessions.size >= maxSessions) sessions.delete(sessions.keys().next().value!);
      }
      sessions.set(name, w);
      return w;
    },
    /** The sessions, least recently used first (GET /__mock/sessions). */
    list: sessionsControl.list,
    /** Drops session `name`; false when there was none. */
    drop: sessionsControl.drop,
  };
}

/** The worlds of one mock (see createWorlds). */
export type Worlds = ReturnType<typeof createWorlds>;
