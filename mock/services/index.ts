/**
 * Composition of the services (docs/architecture.md, "The registry",
 * "Adding an area"): `defaultServices` lists every area's service and the
 * control service; `composeServices` joins a list into a `ServiceSet` (the
 * operations it serves with their handlers, media routes, credentials, task
 * kits, contributions to slots, account extensions and singleton schemas), refusing a handler twice or an
 * operation without one; `prepareEngine` wires a set onto one engine. Nothing
 * is registered at import time: a test composes its own set (a faulty service,
 * a subset) and gets a mock of just that.
 */
import type { z } from 'zod';
import { controlOperations } from '../../schemas/control.ts';
import { operations as apiOperations } from '../../schemas/operations.ts';
import type { OperationDef } from '../../schemas/registry-types.ts';
import type { ErrorName } from '../../schemas/errors.ts';
import { createSlot, type Engine } from '../engine/engine.ts';
import type { AccountExtension } from '../engine/accounts.ts';
import type { Contribution, ControlContext, CredentialResolver, KitRef, MediaRoute, ServiceContext } from './context.ts';
import { controlService } from './control.ts';
import { registerHostedMedia } from './hosted-media.ts';
import { TaskKit, type Task } from './tasks.ts';
import { videoService } from './video.ts';
import { accountService } from './account.ts';
import { imageService } from './image.ts';
import { speechService } from './speech.ts';
import { voiceCloneService } from './voice-clone.ts';
import { platformVoiceService, seedAudioService } from './generated-audio.ts';
import { podcastService } from './podcast.ts';
import { lyricsService } from './lyrics.ts';
import { extractionService } from './extraction.ts';
import { storybookService } from './storybook.ts';
import { musicAnalysisService } from './music-analysis.ts';
import { musicService } from './music.ts';
import { oauthService } from './oauth.ts';

/** The parsed input of a handler, as the runner holds it (typed per operation in context.ts). */
export interface HandlerInput {
  body: unknown;
  params: unknown;
  query: unknown;
}

/**
 * A handler as the runner calls it (the typed handlers of context.ts, their
 * input erased): an API operation's with a ServiceContext, a control
 * operation's with a ControlContext, told apart by `kind`.
 */
export type AnyHandler =
  | { kind: 'api'; run: (input: HandlerInput, ctx: ServiceContext<ErrorName>) => unknown }
  | { kind: 'control'; run: (input: HandlerInput, ctx: ControlContext<ErrorName>) => unknown };

/** A service as composition sees it: handlers by operationId, and what else it declares. */
export interface AnyService {
  readonly handlers: object;
  /** True for the control service: its handlers run the control operations. */
  readonly control?: boolean;
  readonly media?: readonly MediaRoute[];
  readonly kits?: readonly KitRef[];
  readonly contributes?: readonly Contribution[];
  readonly accountExtensions?: readonly AccountExtension<unknown>[];
  readonly state?: Record<string, z.ZodType>;
  /** The schemas of its stores' saved records, by store name (see Service.records). */
  readonly records?: Record<string, z.ZodType>;
  readonly credentials?: CredentialResolver;
  /** See Service.keepsOwner. */
  readonly keepsOwner?: (engine: Engine, owner: string) => boolean;
  /** See Service.onAccountGone. */
  readonly onAccountGone?: (engine: Engine, apiKey: string) => void;
}

/** Every service of the mock: the API's areas, then the control API. */
export const defaultServices: readonly AnyService[] = [
  videoService,
  accountService,
  oauthService,
  imageService,
  speechService,
  voiceCloneService,
  platformVoiceService,
  seedAudioService,
  podcastService,
  lyricsService,
  musicAnalysisService,
  storybookService,
  extractionService,
  musicService,
  controlService,
];

/** Services joined: what one mock serves. */
export interface ServiceSet {
  /** Every operation served (the API's and the control API's), by operationId. */
  readonly operations: Readonly<Record<string, OperationDef>>;
  /** The API operations served, by operationId (scenario rules and the journal name them). */
  readonly apiOperations: Readonly<Record<string, OperationDef>>;
  /** The handler of every operation, by operationId. */
  readonly handlers: Readonly<Record<string, AnyHandler>>;
  readonly media: readonly MediaRoute[];
  readonly credentials: readonly CredentialResolver[];
  readonly kits: readonly KitRef[];
  /** What the services add to other modules' slots (see Service.contributes). */
  readonly contributions: readonly Contribution[];
  /** The areas' parts of every account (see Service.accountExtensions). */
  readonly accountExtensions: readonly AccountExtension<unknown>[];
  readonly state: Readonly<Record<string, z.ZodType>>;
  /** The saved-record schema of every store, by store name. */
  readonly records: Readonly<Record<string, z.ZodType>>;
  /** What the areas drop when an account goes (see Service.onAccountGone). */
  readonly accountGone: readonly ((engine: Engine, apiKey: string) => void)[];
  /** The areas that keep something of an owner outside their stores (see Service.keepsOwner). */
  readonly ownerKeepers: readonly ((engine: Engine, owner: string) => boolean)[];
}

/**
 * Joins `services`: each handler's operation comes from the API registry or
 * the control registry (`control` services). Throws on a handler of no
 * operation, two handlers of one operation, or two kits of one area. An API
 * operation without a handler is left out of the set (a subset mock serves
 * only what it has); `strict` refuses that too.
 */
export function composeServices(services: readonly AnyService[] = defaultServices, opts: { strict?: boolean } = {}): ServiceSet {
  const handlers: Record<string, AnyHandler> = {};
  const areas = new Set<string>();
  for (const s of services) {
    const registry: Record<string, OperationDef> = s.control ? controlOperations : apiOperations;
    for (const [id, h] of Object.entries(s.handlers)) {
      if (!Object.hasOwn(registry, id)) throw new Error(`services: a handler for ${id}, which is not a${s.control ? ' control' : 'n API'} operation`);
      if (id in handlers) throw new Error(`services: two handlers for ${id}`);
      // the one place a typed handler is erased to the runner's view: its operation's input, its kind's context
      handlers[id] = s.control
        ? { kind: 'control', run: h as (input: HandlerInput, ctx: ControlContext<ErrorName>) => unknown }
        : { kind: 'api', run: h as (input: HandlerInput, ctx: ServiceContext<ErrorName>) => unknown };
    }
    for (const k of s.kits ?? []) {
      if (areas.has(k.config.area)) throw new Error(`services: two task kits for area ${k.config.area}`);
      areas.add(k.config.area);
    }
  }
  if (opts.strict) {
    const missing = Object.keys(apiOperations).filter((id) => !(id in handlers));
    if (missing.length) throw new Error(`services: no handler for ${missing.join(', ')}`);
  }
  // in the registries' order (the spec's), whatever the order of the services
  const ordered = (registry: Record<string, OperationDef>) => Object.fromEntries(Object.entries(registry).filter(([id]) => id in handlers));
  return {
    operations: { ...ordered(apiOperations), ...ordered(controlOperations) },
    apiOperations: ordered(apiOperations),
    handlers,
    media: services.flatMap((s) => s.media ?? []),
    credentials: services.flatMap((s) => (s.credentials ? [s.credentials] : [])),
    kits: services.flatMap((s) => s.kits ?? []),
    contributions: services.flatMap((s) => s.contributes ?? []),
    accountExtensions: services.flatMap((s) => s.accountExtensions ?? []),
    state: Object.assign({}, ...services.map((s) => s.state ?? {})) as Record<string, z.ZodType>,
    records: Object.assign({}, ...services.map((s) => s.records ?? {})) as Record<string, z.ZodType>,
    accountGone: services.flatMap((s) => (s.onAccountGone ? [s.onAccountGone] : [])),
    ownerKeepers: services.flatMap((s) => (s.keepsOwner ? [s.keepsOwner] : [])),
  };
}

/** The set composed onto an engine (by `prepareEngine`). */
const composedServices = createSlot<{ set?: ServiceSet }>('composed services', () => ({}));

/** The services composed onto `engine` (by `prepareEngine`). Throws for an engine no set was composed onto. */
export function servicesOf(engine: Engine): ServiceSet {
  const set = engine.slot(composedServices).set;
  if (!set) throw new Error('engine: no services composed onto it (prepareEngine)');
  return set;
}

/**
 * Wires `set` onto `engine` before it serves anything (and before a saved
 * state is loaded): the task kits' event handler, the contributions to slots (voice sources), the account extensions, the
 * media routes `resolveHostedMedia` finds, the schemas of the singletons and
 * of the stores' records, the areas that keep an owner's ids alive, what
 * the areas drop when an account goes.
 * Returns the set.
 */
export function prepareEngine(engine: Engine, set: ServiceSet = composeServices()): ServiceSet {
  engine.slot(composedServices).set = set;
  TaskKit.install(engine, set.kits as readonly TaskKit<Task>[]);
  for (const c of set.contributions) c.apply(engine);
  for (const ext of set.accountExtensions) engine.accounts.declare(ext);
  registerHostedMedia(engine, set.media);
  for (const [name, schema] of Object.entries(set.state)) engine.declareState(name, schema);
  for (const [name, schema] of Object.entries(set.records)) engine.declareRecords(name, schema);
  for (const keeps of set.ownerKeepers) engine.declareOwnerKeeper(keeps);
  for (const gone of set.accountGone) engine.onAccountGone(gone);
  return set;
}
