/**
 * The control API under /__mock (docs/architecture.md, "The control API"),
 * validated with the schemas of schemas/control.ts and written with the same
 * request and response kinds as the API: JSON, multipart uploads, binary
 * samples and an event stream of task activity.
 */
import { createHash } from 'node:crypto';
import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import type { z } from 'zod';
import { controlOperations, MAX_VIRTUAL_TIME, sampleLimits, type SessionInfo, type ControlOperation, type TaskActivityEvent } from '../../schemas/control.ts';
import { resolveErrorRef } from '../../schemas/errors.ts';
import { audioFileTypes, mediaFileTypes } from '../../schemas/media.ts';
import { operationIds, operations, type OperationId } from '../../schemas/operations.ts';
import type { BinaryBody, EventStreamSource, UploadedFile } from '../../schemas/registry-types.ts';
import type { Account } from '../engine/accounts.ts';
import { ApiError } from '../engine/api-error.ts';
import type { Engine } from '../engine/engine.ts';
import { renderAudio } from '../media/audio.ts';
import { renderMidi } from '../media/midi.ts';
import { colourFor, encodePng } from '../media/png.ts';
import { renderVideo } from '../media/video.ts';
import { encodedAudio } from '../media/audio.ts';
import { streamsBusy, type Capacity } from './capacity.ts';
import { streamEvents } from './event-stream.ts';
import { loadState, stateOf, writeStateFile } from './state-file.ts';
import { authorize, createUser, listLoginSessions, listUsers } from '../services/oauth.ts';
import { readMultipart } from './multipart.ts';
import { sendBinary, sendError, sendJson } from './respond.ts';
import { expressPath, forcingApplies } from './router.ts';

type Ops = typeof controlOperations;

export interface ControlOptions {
  /** Real ms between event-stream heartbeats. */
  heartbeatMs: number;
  /** Called when the mock finds a bug in itself. */
  onMockBug?: (where: string, problem: string) => void;
  /** The --state file POST /__mock/state/save writes (none: the route answers 10008). */
  stateFile?: string;
  /** The isolated sessions of the mock (GET and DELETE /__mock/sessions). */
  sessions?: { list(): z.infer<typeof SessionInfo>[]; drop(name: string): boolean };
  /** The process's cap on open event streams (GET /__mock/events counts among them). */
  capacity?: Capacity;
}

function parse<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  throw new ApiError('CONTROL_INVALID_REQUEST', r.error.issues.map((i) => `${i.path.length ? i.path.join('.') : 'body'}: ${i.message}`).join('; '));
}

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
function view(a: Account, q: { ledgerPage: number; ledgerPageSize: number }) {
  const from = (q.ledgerPage - 1) * q.ledgerPageSize;
  return {
    apiKey: a.apiKey,
    keyId: a.keyId,
    credits: a.credits,
    plan: a.plan,
    everPaid: a.everPaid,
    freeUsages: { ...a.freeUsages },
    voiceClone: { ...a.voiceClone },
    ledger: a.ledger.slice(from, from + q.ledgerPageSize),
    ledgerTotal: a.ledger.length,
    ledgerPage: q.ledgerPage,
    ledgerPageSize: q.ledgerPageSize,
  };
}

/** The JSON body of a control request (read by express.raw); `{}` when empty and not required. */
function jsonBody(req: Request, required: boolean): unknown {
  const raw = req.body as Buffer | undefined;
  if (!Buffer.isBuffer(raw) || raw.length === 0) return required ? undefined : {};
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch (e) {
    throw new ApiError('MALFORMED_JSON', `request body is not valid JSON: ${(e as Error).message}`);
  }
}

/** The event source of GET /__mock/events: the activity feed after a cursor, filtered, ending after the terminal change of `taskId` when given. */
function activitySource(
  engine: Engine,
  q: z.output<typeof controlOperations.streamEvents.query>,
): EventStreamSource<{ event: 'task'; data: TaskActivityEvent }> {
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
  p: z.output<typeof controlOperations.getSample.params>,
  q: z.output<typeof controlOperations.getSample.query>,
  seed: number,
): Promise<BinaryBody> {
  const bad = (message: string) => new ApiError('CONTROL_INVALID_REQUEST', message);
  switch (p.kind) {
    case 'audio':
      return { contentType: audioFileTypes[q.format].contentType, body: await renderAudio({ format: q.format, durationMs: q.durationMs, variant: q.variant }) };
    case 'midi':
      return { contentType: mediaFileTypes.midi.contentType, body: renderMidi({ durationMs: q.durationMs, variant: q.variant }) };
    case 'image':
      return {
        contentType: mediaFileTypes.png.contentType,
        body: encodePng(q.width, q.height, colourFor(seed, 'sample', `image-bg-${q.variant}`), colourFor(seed, 'sample', `image-fg-${q.variant}`)),
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
        body: await renderVideo({ width: q.width, height: q.height, durationMs: q.durationMs, colours, ...(audio ? { audio } : {}) }),
      };
    }
  }
}

/** The report of POST /__mock/uploads: each file with its SHA-256, and the text fields as received. */
function inspect(form: Record<string, unknown>) {
  const files = (form.files as UploadedFile[] | undefined) ?? [];
  // own properties whatever the names (a field named __proto__ is reported, not made a prototype)
  const fields = Object.fromEntries(
    Object.entries(form).filter(([k, v]) => k !== 'files' && (typeof v === 'string' || (Array.isArray(v) && v.every((x) => typeof x === 'string')))),
  ) as Record<string, string | string[]>;
  return {
    files: files.map((f) => ({
      field: 'files',
      filename: f.filename,
      mimeType: f.mimeType,
      size: f.bytes.byteLength,
      checksum: createHash('sha256').update(f.bytes).digest('hex'),
    })),
    fields,
  };
}

/** The control router, bound to `engine`. */
export function createControlRouter(engine: Engine, opts: ControlOptions): Router {
  const router = express.Router();
  /** An account exists only for a well-formed key: anything else is a control error, not a new account. */
  function keyParams(p: { apiKey: string }): { apiKey: string } {
    if (!engine.keyPattern.test(p.apiKey))
      throw new ApiError('CONTROL_INVALID_REQUEST', `apiKey: ${p.apiKey} is not of the form ${engine.keyPrefix}_<keyId>_<secret> (letters and digits)`);
    return p;
  }
  const handlers: { [K in keyof Ops]: (req: Request) => unknown } = {
    health: () => ({ status: 'ok', seed: engine.seed, clock: { now: engine.tick(), mode: engine.clock.mode } }),
    reset: (req) => {
      const b = parse(controlOperations.reset.body.schema, jsonBody(req, false));
      engine.reset(b.seed);
      return { seed: engine.seed, now: engine.clock.now() };
    },
    getClock: () => ({ now: engine.tick(), mode: engine.clock.mode }),
    advanceClock: (req) => {
      const b = parse(controlOperations.advanceClock.body.schema, jsonBody(req, true));
      const now = engine.tick();
      if (now + b.ms > MAX_VIRTUAL_TIME)
        throw new ApiError(
          'CONTROL_INVALID_REQUEST',
          `ms: the clock would pass ${new Date(MAX_VIRTUAL_TIME).toISOString()}, where it stops; at most ${MAX_VIRTUAL_TIME - now} ms more`,
        );
      return engine.advance(b.ms);
    },
    getAccount: (req) => {
      const { apiKey } = keyParams(parse(controlOperations.getAccount.params, req.params));
      if (engine.accounts.isDeleted(apiKey))
        throw new ApiError('CONTROL_NOT_FOUND', `apiKey ${apiKey} was deleted; PUT /__mock/accounts/${apiKey} creates it again`);
      return view(engine.accounts.get(apiKey, engine.tick()), parse(controlOperations.getAccount.query, req.query));
    },
    putAccount: (req) => {
      const { apiKey } = keyParams(parse(controlOperations.putAccount.params, req.params));
      const b = parse(controlOperations.putAccount.body.schema, jsonBody(req, true));
      const q = parse(controlOperations.putAccount.query, req.query);
      return view(engine.accounts.update(apiKey, b, engine.tick()), q);
    },
    deleteAccount: (req) => {
      const { apiKey } = keyParams(parse(controlOperations.deleteAccount.params, req.params));
      engine.tick();
      return { apiKey, existed: engine.accounts.delete(apiKey) };
    },
    addScenario: (req) => {
      const b = parse(controlOperations.addScenario.body.schema, jsonBody(req, true));
      const error = b.error === undefined ? undefined : resolveErrorRef(String(b.error));
      if (b.error !== undefined && !error)
        throw new ApiError('CONTROL_INVALID_REQUEST', `error: ${b.error} is not a catalogued error code, name or failure reason`);
      const ids = b.operationId === undefined ? undefined : [b.operationId].flat();
      const unknown = ids?.filter((i) => !Object.hasOwn(operations, i));
      if (unknown?.length) throw new ApiError('CONTROL_INVALID_REQUEST', `operationId: ${unknown.join(', ')} is not an operation of the API`);
      const forcing = { code: b.code, error, outcome: b.outcome, delayMs: b.delay };
      const targets = (ids ?? operationIds) as OperationId[];
      if (!targets.some((i) => forcingApplies(forcing, operations[i])))
        throw new ApiError(
          'CONTROL_INVALID_REQUEST',
          `the rule can never apply: none of ${ids ? ids.join(', ') : 'the operations'} declares that code, error or outcome`,
        );
      return engine.scenarios.add({ apiKey: b.apiKey, operationIds: ids, times: b.times, forcing });
    },
    clearScenarios: () => ({ removed: engine.scenarios.clear() }),
    listBugs: () => ({ items: [...engine.bugs] }),
    getState: () => stateOf(engine),
    putState: (req) => loadState(engine, jsonBody(req, true)),
    saveState: () => {
      if (!opts.stateFile)
        throw new ApiError(
          'CONTROL_INVALID_REQUEST',
          'no state file: start the mock with --state FILE to save its state to a file (GET /__mock/state returns it meanwhile)',
        );
      engine.tick();
      return { file: opts.stateFile, bytes: writeStateFile(opts.stateFile, engine), now: engine.clock.now() };
    },
    requests: (req) => {
      const q = parse(controlOperations.requests.query, req.query);
      const items = matchingRequests(engine, q);
      return { items: q.limit === undefined ? items : items.slice(-q.limit) };
    },
    countRequests: (req) => ({ count: matchingRequests(engine, parse(controlOperations.countRequests.query, req.query)).length }),
    listUsers: () => ({ items: listUsers(engine) }),
    createUser: (req) => createUser(engine, parse(controlOperations.createUser.body.schema, jsonBody(req, true)), engine.tick()),
    listLoginSessions: () => ({ items: listLoginSessions(engine, engine.tick()) }),
    authorizeLoginSession: (req) => {
      const { sessionId } = parse(controlOperations.authorizeLoginSession.params, req.params);
      const who = parse(controlOperations.authorizeLoginSession.body.schema, jsonBody(req, true));
      try {
        return authorize(engine, sessionId, who, engine.tick());
      } catch (e) {
        // the flow's own codes become the control API's
        if (e instanceof ApiError && e.error === 'OAUTH_SESSION_NOT_FOUND') throw new ApiError('CONTROL_NOT_FOUND', e.message);
        if (e instanceof ApiError) throw new ApiError('CONTROL_INVALID_REQUEST', e.message);
        throw e;
      }
    },
    listSessions: () => ({ items: opts.sessions?.list() ?? [] }),
    deleteSession: (req) => {
      const { name } = parse(controlOperations.deleteSession.params, req.params);
      return { name, existed: opts.sessions?.drop(name) ?? false };
    },
    streamEvents: (req) => activitySource(engine, parse(controlOperations.streamEvents.query, req.query)),
    getSample: (req) => sample(parse(controlOperations.getSample.params, req.params), parse(controlOperations.getSample.query, req.query), engine.seed),
    inspectUpload: async (req) =>
      inspect(parse(controlOperations.inspectUpload.body.schema, await readMultipart(req, controlOperations.inspectUpload.body, 'CONTROL_INVALID_REQUEST'))),
  };
  const noBody: RequestHandler = (_req, _res, next) => next();
  for (const [name, op] of Object.entries(controlOperations) as [keyof Ops, ControlOperation][]) {
    // JSON bodies are read up to their limit; multipart bodies are streamed by their handler; routes without a body read none.
    const bodyParser = op.body?.kind === 'json' ? express.raw({ type: () => true, limit: op.body.limitBytes ?? 1024 * 1024 }) : noBody;
    router[op.method](expressPath(op.path), bodyParser, async (req: Request, res: Response) => {
      try {
        const out = await handlers[name](req);
        if (op.response.kind === 'binary') return await sendBinary(res, 200, out as BinaryBody);
        if (op.response.kind === 'event-stream') {
          const started = streamEvents(req, res, engine, out as EventStreamSource, {
            heartbeatMs: opts.heartbeatMs,
            capacity: opts.capacity,
            onError: (p) => opts.onMockBug?.(name, p),
          });
          if (!started) sendError(res, 'SERVER_BUSY', streamsBusy(opts.capacity!));
          return;
        }
        sendJson(res, 200, out);
      } catch (e) {
        if (res.headersSent) return void res.destroy();
        if (e instanceof ApiError) return sendError(res, e);
        if (e instanceof RangeError) return sendError(res, 'CONTROL_INVALID_REQUEST', e.message);
        return sendError(res, 'MOCK_INTERNAL_ERROR', `mock bug in control API: ${(e as Error)?.message}`);
      }
    });
  }
  return router;
}
