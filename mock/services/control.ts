/**
 * The control service (docs/architecture.md, "The control API"): one
 * implementation of every operation under /__mock, run by the same runner as
 * the API's operations (mock/core/operation.ts) for every transport: the
 * Express server, the fetch handler, the MSW handlers and the in-process
 * mock. What only a host has (a state file on disk, the isolated sessions of
 * a server) reaches the handlers through `ctx.host`; where a host has none,
 * the operation says so. Standard JavaScript only.
 */
import type { z } from 'zod';
import {
  type AccountView,
  type controlOperations,
  MAX_VIRTUAL_TIME,
  sampleLimits,
  type ControlOperations,
  type MockState,
  type TaskActivityEvent,
} from '../../schemas/control.ts';
import { errorCatalog, resolveErrorRef } from '../../schemas/errors.ts';
import { audioFileTypes, mediaFileTypes } from '../../schemas/media.ts';
import type { BinaryBody, EventStreamSource, OperationDef, UploadedFile } from '../../schemas/registry-types.ts';
import type { Account } from '../engine/accounts.ts';
import type { Engine } from '../engine/engine.ts';
import { jsonText } from '../engine/json-text.ts';
import { encodedAudio, renderAudio } from '../media/audio.ts';
import { colourFor } from '../media/colour.ts';
import { labelledImage, renderMidi, renderVideo } from '../media/renderers.ts';
import type { ControlContext, ControlHandlers, ControlHost } from './context.ts';
import { loadStateInTurns, stateJson } from './saved-state.ts';
import { userDirectories, type UserDirectory } from './user-directory.ts';

type Query<K extends keyof ControlOperations> = z.output<NonNullable<ControlOperations[K]['request']['query']>>;

/** The journaled requests that match every filter given. */
function matchingRequests(engine: Engine, q: { operationId?: string; keyId?: string; status?: number; since?: number }) {
  return engine.journal
    .list()
    .filter(
      (e) =>
        (q.operationId === undefined || e.operationId === q.operationId) &&
        (q.keyId === undefined || e.keyId === q.keyId) &&
        (q.status === undefined || e.status === q.status) &&
        (q.since === undefined || e.at >= q.since),
    );
}

/** The account with page `q.ledgerPage` of its ledger. */
function view(engine: Engine, a: Account, q: { ledgerPage: number; ledgerPageSize: number }) {
  const from = (q.ledgerPage - 1) * q.ledgerPageSize;
  // the fields every account has and the areas' extensions (image's freeUsages, voice cloning's voiceClone)
  const shown = engine.accounts.view(a) as z.output<typeof AccountView>;
  return {
    ...shown,
    ledger: a.ledger.slice(from, from + q.ledgerPageSize),
    ledgerTotal: a.ledger.length,
    ledgerPage: q.ledgerPage,
    ledgerPageSize: q.ledgerPageSize,
  };
}

/** `apiKey` when it is a well-formed key: anything else is a control error, not a new account. Errors: CONTROL_INVALID_REQUEST. */
function wellFormedKey(ctx: ControlContext<'CONTROL_INVALID_REQUEST'>, apiKey: string): string {
  const { engine } = ctx;
  if (!engine.keyPattern.test(apiKey))
    throw ctx.fail('CONTROL_INVALID_REQUEST', `apiKey: ${apiKey} is not of the form ${engine.keyPrefix}_<keyId>_<secret> (letters and digits)`);
  return apiKey;
}

/** The event source of GET /__mock/events: the activity feed after a cursor, filtered, ending after the terminal change of `taskId` when given. */
function activitySource(engine: Engine, q: Query<'streamEvents'>): EventStreamSource<{ event: 'task'; data: TaskActivityEvent }> {
  let cursor = q.since ?? (q.taskId !== undefined ? 0 : engine.activity.lastSeq);
  return {
    poll() {
      const changes = engine.activity.since(cursor);
      cursor = engine.activity.lastSeq;
      const events = changes.filter(
        (c) =>
          (q.apiKey === undefined || c.apiKey === q.apiKey) && (q.area === undefined || c.area === q.area) && (q.taskId === undefined || c.taskId === q.taskId),
      );
      return { events: events.map((data) => ({ event: 'task' as const, data })), done: q.taskId !== undefined && events.some((e) => e.terminal) };
    },
  };
}

/** The bytes of GET /__mock/samples/{kind}. Errors: CONTROL_INVALID_REQUEST for sizes or durations the renderers refuse. */
async function sample(
  kind: (typeof controlOperations.getSample.request.params.shape.kind.options)[number],
  q: Query<'getSample'>,
  ctx: ControlContext<'CONTROL_INVALID_REQUEST'>,
): Promise<BinaryBody> {
  const seed = ctx.engine.seed;
  const bad = (message: string) => ctx.fail('CONTROL_INVALID_REQUEST', message);
  switch (kind) {
    case 'audio':
      return { contentType: audioFileTypes[q.format].contentType, body: await renderAudio({ format: q.format, durationMs: q.durationMs, variant: q.variant }) };
    case 'midi':
      return { contentType: mediaFileTypes.midi.contentType, body: renderMidi({ durationMs: q.durationMs, variant: q.variant }) };
    case 'image':
      return {
        contentType: mediaFileTypes.png.contentType,
        body: labelledImage(
          q.width,
          q.height,
          colourFor(seed, 'sample', `image-bg-${q.variant}`),
          colourFor(seed, 'sample', `image-fg-${q.variant}`),
          sampleLabel('image', q.variant),
        ),
      };
    case 'video': {
      if (q.width % 2 || q.height % 2) throw bad(`width and height: a video needs even sizes (got ${q.width}x${q.height})`);
      if (q.width > sampleLimits.videoMaxWidth || q.height > sampleLimits.videoMaxHeight)
        throw bad(`width and height: a video is at most ${sampleLimits.videoMaxWidth}x${sampleLimits.videoMaxHeight}`);
      if (q.durationMs > sampleLimits.videoMaxMs) throw bad(`durationMs: a video lasts at most ${sampleLimits.videoMaxMs} ms`);
      const colours = { bg: colourFor(seed, 'sample', `video-bg-${q.variant}`), fg: colourFor(seed, 'sample', `video-fg-${q.variant}`) };
      const audio = q.audio ? await encodedAudio('aac', q.durationMs, q.variant) : undefined;
      return {
        contentType: mediaFileTypes.mp4.contentType,
        body: await renderVideo({
          width: q.width,
          height: q.height,
          durationMs: q.durationMs,
          colours,
          label: sampleLabel('video', q.variant),
          ...(audio ? { audio } : {}),
        }),
      };
    }
  }
}

/** The label of a sample picture: what it is and its variant. */
const sampleLabel = (kind: string, variant: number) => ({
  prompt: `sample ${kind}, variant ${variant}`,
  model: 'mock sample',
  id: `sample-${kind}-${variant}`,
});

/** The answer of GET /__mock/operations: each API operation served with its declared errors, forcible outcomes and failure reasons. */
function operationSummaries(operations: Readonly<Record<string, OperationDef>>) {
  return Object.entries(operations).map(([operationId, op]) => ({
    operationId,
    method: op.method.toUpperCase(),
    path: op.path,
    summary: op.summary,
    errors: op.errors.map((name) => ({ code: errorCatalog[name].code, name, status: errorCatalog[name].httpStatus })),
    outcomes: [...(op.outcomes ?? [])],
    failureReasons: (op.failureReasons ?? []).map((name) => ({ code: errorCatalog[name].code, name })),
  }));
}

/** Hex SHA-256 of `bytes` (WebCrypto: Node 20, browsers and service workers alike). */
async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The report of POST /__mock/uploads: each file with its SHA-256, and the text fields as received. */
async function inspect(form: Record<string, unknown>) {
  const files = (form.files as UploadedFile[] | undefined) ?? [];
  // own properties whatever the names (a field named __proto__ is reported, not made a prototype)
  const fields = Object.fromEntries(
    Object.entries(form).filter(([k, v]) => k !== 'files' && (typeof v === 'string' || (Array.isArray(v) && v.every((x) => typeof x === 'string')))),
  ) as Record<string, string | string[]>;
  return {
    files: await Promise.all(
      files.map(async (f) => ({ field: 'files', filename: f.filename, mimeType: f.mimeType, size: f.bytes.byteLength, checksum: await sha256(f.bytes) })),
    ),
    fields,
  };
}

/** The users of this mock (the first area that keeps some). Errors: CONTROL_INVALID_REQUEST when no composed area does. */
function directory(ctx: ControlContext<'CONTROL_INVALID_REQUEST'>): UserDirectory {
  const found = ctx.engine.slot(userDirectories)[0];
  if (!found) throw ctx.fail('CONTROL_INVALID_REQUEST', 'no area of this mock keeps users who sign in (it serves no OAuth operations)');
  return found;
}

/** Handlers of the control operations, keyed by operationId. */
const handlers: ControlHandlers = {
  health: (_input, { engine, now }) => ({ status: 'ok', seed: engine.seed, clock: { now, mode: engine.clock.mode } }),
  reset({ body }, { engine }) {
    engine.reset(body.seed);
    return { seed: engine.seed, now: engine.clock.now() };
  },
  getClock: (_input, { engine, now }) => ({ now, mode: engine.clock.mode }),
  advanceClock({ body }, ctx) {
    const { engine, now } = ctx;
    if (now + body.ms > MAX_VIRTUAL_TIME)
      throw ctx.fail(
        'CONTROL_INVALID_REQUEST',
        `ms: the clock would pass ${new Date(MAX_VIRTUAL_TIME).toISOString()}, where it stops; at most ${MAX_VIRTUAL_TIME - now} ms more`,
      );
    return engine.advance(body.ms);
  },
  getNextEvent(_input, { engine, now }) {
    const due = engine.scheduler.nextDue();
    return { due: due ?? null, inMs: due === undefined ? null : Math.max(0, due - now) };
  },
  getAccount({ params, query }, ctx) {
    const { engine, now } = ctx;
    const apiKey = wellFormedKey(ctx, params.apiKey);
    if (engine.accounts.isDeleted(apiKey)) throw ctx.fail('CONTROL_NOT_FOUND', `apiKey ${apiKey} was deleted; PUT /__mock/accounts/${apiKey} creates it again`);
    return view(engine, engine.accounts.get(apiKey, now), query);
  },
  putAccount: ({ params, query, body }, ctx) => view(ctx.engine, ctx.engine.accounts.update(wellFormedKey(ctx, params.apiKey), body, ctx.now), query),
  deleteAccount({ params }, ctx) {
    const apiKey = wellFormedKey(ctx, params.apiKey);
    return { apiKey, existed: ctx.engine.accounts.delete(apiKey) };
  },
  addScenario({ body: b }, ctx) {
    const { engine, operations, forcingApplies } = ctx;
    const error = b.error === undefined ? undefined : resolveErrorRef(String(b.error));
    if (b.error !== undefined && !error) throw ctx.fail('CONTROL_INVALID_REQUEST', `error: ${b.error} is not a catalogued error code, name or failure reason`);
    const ids = b.operationId === undefined ? undefined : [b.operationId].flat();
    const unknown = ids?.filter((i) => !Object.hasOwn(operations, i));
    if (unknown?.length) throw ctx.fail('CONTROL_INVALID_REQUEST', `operationId: ${unknown.join(', ')} is not an operation of the API`);
    const forcing = { code: b.code, error, outcome: b.outcome, delayMs: b.delay };
    const targets: OperationDef[] = ids ? ids.map((i) => operations[i]) : Object.values(operations);
    if (!targets.some((op) => forcingApplies(forcing, op)))
      throw ctx.fail(
        'CONTROL_INVALID_REQUEST',
        `the rule can never apply: none of ${ids ? ids.join(', ') : 'the operations'} declares that code, error or outcome`,
      );
    return engine.scenarios.add({ apiKey: b.apiKey, operationIds: ids, times: b.times, forcing });
  },
  clearScenarios: (_input, { engine }) => ({ removed: engine.scenarios.clear() }),
  listScenarios: (_input, { engine }) => ({ items: engine.scenarios.list() }),
  deleteScenario: ({ params }, { engine }) => ({ id: params.id, existed: engine.scenarios.remove(params.id) }),
  listOperations: (_input, { operations }) => ({ items: operationSummaries(operations) }),
  listBugs: (_input, { engine }) => ({ items: [...engine.bugs] }),
  // the whole state as text in one pass, sent as it is (no copy built as objects, no second serialisation)
  getState: (_input, { engine }) => jsonText<MockState>(stateJson(engine)),
  // checked in slices on later turns (other requests answered meanwhile); the body was parsed for this request: taken without a copy
  putState: ({ body }, { engine }) => loadStateInTurns(engine, body, true),
  saveState(_input, ctx) {
    const { engine, now, host } = ctx;
    if (!host.saveState)
      throw ctx.fail(
        'CONTROL_INVALID_REQUEST',
        'no state file: start the mock with --state FILE to save its state to a file (GET /__mock/state returns it meanwhile)',
      );
    return { ...host.saveState(engine), now };
  },
  listRequests({ query }, { engine }) {
    const items = matchingRequests(engine, query);
    return { items: query.limit === undefined ? items : items.slice(-query.limit) };
  },
  countRequests: ({ query }, { engine }) => ({ count: matchingRequests(engine, query).length }),
  listUsers: (_input, { engine }) => ({ items: engine.slot(userDirectories)[0]?.list(engine) ?? [] }),
  createUser: ({ body }, ctx) => directory(ctx).create(ctx.engine, body, ctx.now),
  listLoginSessions: (_input, { engine, now }) => ({ items: engine.slot(userDirectories)[0]?.loginSessions(engine, now) ?? [] }),
  authorizeLoginSession({ params, body }, ctx) {
    const out = directory(ctx).authorize(ctx.engine, params.sessionId, body, ctx.now);
    if ('refused' in out) throw ctx.fail(out.refused === 'not-found' ? 'CONTROL_NOT_FOUND' : 'CONTROL_INVALID_REQUEST', out.message);
    return out;
  },
  getProxyReport: (_input, ctx) => proxyOf(ctx).report(),
  clearProxyReport: (_input, ctx) => proxyOf(ctx).clear(),
  listSessions: (_input, { host }) => ({ items: host.sessions?.list() ?? [] }),
  deleteSession: ({ params }, { host }) => ({ name: params.name, existed: host.sessions?.drop(params.name) ?? false }),
  streamEvents: ({ query }, { engine }) => activitySource(engine, query),
  getSample: ({ params, query }, ctx) => sample(params.kind, query, ctx),
  inspectUpload: ({ body }) => inspect(body),
};

/** The control service: the handlers of every control operation. */
export const controlService = { handlers, control: true } as const;

/** The proxy of the host; a mock started without --upstream has none (10008, saying how to start one). */
function proxyOf(ctx: ControlContext<'CONTROL_INVALID_REQUEST'>): NonNullable<ControlHost['proxy']> {
  const { host } = ctx;
  if (!host.proxy) throw ctx.fail('CONTROL_INVALID_REQUEST', 'no upstream: start the mock with --upstream URL to forward API requests and check the answers');
  return host.proxy;
}
