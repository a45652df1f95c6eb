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
import type { SpeechSynth } from '../media/speech.ts';
import { setSpeechSynth } from '../services/spoken.ts';
import { MAX_SESSIONS, SESSION_NAME, type SessionInfo } from '../../schemas/control.ts';
import { DEFAULT_LIMITS, Engine, type EngineLimits, type EngineOptions } from '../engine/engine.ts';
import { composeServices, defaultServices, prepareEngine, type AnyService, type ServiceSet } from '../services/index.ts';
import { createMediaAnswerer, createMediaCache, type MediaAnswerer } from './media.ts';
import type { ControlGuardOptions } from './guard.ts';
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
  /** Who may call the control API and open sessions (the request entry, mock/core/front.ts, applies it; default: this machine's pages, no token). */
  control?: ControlGuardOptions;
  /** Runner options of a world (`host` is completed with the sessions here). */
  runner: (world: { name: string | null; prefix: string; engine: Engine }) => OperationOptions;
  /** Most bytes of rendered media kept, by the default world and every session together (default 256 MiB). */
  mediaCacheBytes?: number;
  /** Called when the mock finds a bug in itself. */
  onMockBug?: (where: string, problem: string) => void;
  /** Most sessions kept besides the default world (default MAX_SESSIONS); beyond, the least recently used is dropped. */
  maxSessions?: number;
  /** The speech engine every world speaks with (mock/media/speech.ts; the Node transports pass eSpeak NG's); none: tones. */
  speech?: SpeechSynth;
  /** Where a speech problem is told (a piece that fell back to tones); default: nowhere. */
  onSpeechProblem?: (problem: string) => void;
}

/** The least a session keeps of each bound, however many sessions share the budget (assumed: what a CI worker's test file needs). */
export const SESSION_FLOOR = { tasks: 100, accounts: 20, journal: 100, activity: 200, ledgerEntries: 200 } as const;

/**
 * The limits of one session's world: the sessions share one world's budget
 * (`limits`: tasks per area, accounts, journal, activity), each taking an
 * equal part of it (`maxSessions` parts), but never less than SESSION_FLOOR
 * (nor more than the budget); tasks per key at most the session's tasks;
 * ledger entries per account likewise (a session's ledgers fold sooner). A
 * session's bounds never depend on what other sessions do, so each stays
 * deterministic on its own. The journal's bytes are split without a floor,
 * so the default world and the sessions together keep at most `journalBytes`:
 * half for the default world (mainLimits), the other half in equal parts.
 */
export function sessionLimits(limits: Partial<EngineLimits> | undefined, maxSessions: number): EngineLimits {
  const l = { ...DEFAULT_LIMITS, ...limits };
  const share = (n: number, floor: number) => Math.max(Math.min(n, floor), Math.floor(n / maxSessions));
  const tasks = share(l.tasks, SESSION_FLOOR.tasks);
  return {
    ...l,
    tasks,
    tasksPerKey: Math.min(l.tasksPerKey, tasks),
    accounts: share(l.accounts, SESSION_FLOOR.accounts),
    journal: share(l.journal, SESSION_FLOOR.journal),
    journalBytes: Math.floor(l.journalBytes / 2 / maxSessions),
    activity: share(l.activity, SESSION_FLOOR.activity),
    ledgerEntries: share(l.ledgerEntries, SESSION_FLOOR.ledgerEntries),
  };
}

/** The limits of the default world beside sessions: its own, but half the journal's bytes (see sessionLimits). */
export function mainLimits(limits: Partial<EngineLimits> | undefined): Partial<EngineLimits> {
  return { ...limits, journalBytes: Math.floor((limits?.journalBytes ?? DEFAULT_LIMITS.journalBytes) / 2) };
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

/**
 * The composed set and route table of a list of services, kept per list: both are derived, read-only data (no
 * world's state), and building them was most of the cost of a new mock (a test suite starts one per test). A
 * cache, not a registry: a new list of services is composed anew, and a list no mock uses any more is collected.
 */
const composedOf = new WeakMap<readonly AnyService[], { services: ServiceSet; routes: RouteTable }>();
function composed(list: readonly AnyService[]): { services: ServiceSet; routes: RouteTable } {
  let c = composedOf.get(list);
  if (!c) {
    const services = composeServices(list);
    composedOf.set(list, (c = { services, routes: createRouteTable(services.operations) }));
  }
  return c;
}

/** The worlds of one mock: the default one, and the sessions created on first use. */
export function createWorlds(opts: WorldsOptions) {
  const { services, routes } = composed(opts.services ?? defaultServices);
  const sessions = new Map<string, World>();
  const maxSessions = opts.maxSessions ?? MAX_SESSIONS;
  const perSession = sessionLimits(opts.engine?.limits, maxSessions);
  const perMain = mainLimits(opts.engine?.limits);
  // one media cache for the process: the default world and every session share its bytes, keys prefixed per world
  const mediaCache = createMediaCache(opts.mediaCacheBytes);
  let made = 0;

  const sessionsControl = {
    list: (): SessionInfo[] =>
      [...sessions].map(([name, w]) => ({ name, seed: w.engine.seed, now: w.engine.tick(), requests: w.engine.journal.total, baseUrl: w.prefix })),
    drop: (name: string) => sessions.delete(name),
  };

  function make(name: string | null): World {
    const prefix = name === null ? '' : `/sessions/${name}`;
    const engine = new Engine({ ...opts.engine, limits: name === null ? perMain : perSession });
    engine.onBug = opts.onMockBug;
    const bug = (where: string, problem: string) => engine.reportBug(where, problem);
    prepareEngine(engine, services);
    setSpeechSynth(engine, opts.speech, opts.onSpeechProblem);
    const runnerOpts = opts.runner({ name, prefix, engine });
    return {
      name,
      prefix,
      engine,
      run: createOperationRunner(engine, services, { ...runnerOpts, onMockBug: bug, host: { ...runnerOpts.host, sessions: sessionsControl } }),
      // keys of the shared cache name the world (a session dropped and opened again is a new world)
      media: createMediaAnswerer(engine, services.media, { cache: mediaCache, keyPrefix: `${prefix}\u0000${++made}\u0000`, onMockBug: bug }),
    };
  }

  const main = make(null);
  return {
    services,
    routes,
    main,
    /** The control guard's options (every transport's entry over these worlds applies the same). */
    control: opts.control ?? {},
    /** The world of session `name` if it exists (then it becomes the most recently used), else undefined. */
    existing(name: string): World | undefined {
      const w = sessions.get(name);
      if (w) {
        sessions.delete(name);
        sessions.set(name, w);
      }
      return w;
    },
    /**
     * The world of session `name`, opened when new (the least recently used
     * dropped beyond the cap). Only a request the entry lets open one calls
     * it (mock/core/front.ts).
     */
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
    /** Bytes the journals of the default world and every session keep together, as they estimate them (at most the journal's budget). */
    journalBytes(): number {
      let n = main.engine.journal.bytes;
      for (const w of sessions.values()) n += w.engine.journal.bytes;
      return n;
    },
  };
}

/** The worlds of one mock (see createWorlds). */
export type Worlds = ReturnType<typeof createWorlds>;
