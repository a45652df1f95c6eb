/**
 * Hosted media on Express: the answers of mock/core/media.ts (every media
 * route the areas declare, Range, ETag, 410 past validity, signed URLs).
 */
import express, { type Request, type Response, type Router } from 'express';
import { createMediaAnswerer, type MediaOptions } from '../core/media.ts';
import type { Engine } from '../engine/engine.ts';
import type { MediaRoute } from '../services/context.ts';
import { writeWhole } from './respond.ts';

export { parseRange, queryOf, type MediaOptions } from '../core/media.ts';

/** The media router, bound to `engine`, serving `routes`. */
export function createMediaRouter(engine: Engine, routes: readonly MediaRoute[], opts: MediaOptions = {}): Router {
  const answer = createMediaAnswerer(engine, routes, opts);
  const router = express.Router();
  router.use(async (req: Request, res: Response, next) => {
    const a = await answer(req.method, req.path, req.url, req.headers);
    if (!a) return next();
    writeWhole(res, a);
  });
  return router;
}
