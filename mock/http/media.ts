/**
 * Media the mock hosts itself, so URLs in responses actually load: video
 * outputs (a small bundled MP4), covers (PNG, 16:9) and provider copies.
 * Paths are assumed (the seed shows only that tasks carry URLs). No auth: media
 * URLs are loaded by <video> and <img> tags, which send no Authorization header.
 */
import { readFileSync } from 'node:fs';
import express, { type Router } from 'express';
import type { Engine } from '../engine/engine.ts';
import type { StoredVideoTask } from '../services/video.ts';
import { hostedImage } from '../services/image.ts';
import { colourFor, encodePng } from '../services/png.ts';
import { sendError } from './respond.ts';

const SAMPLE_MP4 = readFileSync(new URL('./fixtures/sample.mp4', import.meta.url));

/** The media router, bound to `engine`. */
export function createMediaRouter(engine: Engine): Router {
  const router = express.Router();
  const videoTask = (id: string) => engine.store<StoredVideoTask>('video').get(id)?.record.task;
  router.get('/media/videos/:file', (req, res) => {
    engine.tick();
    const m = /^(.+)\.(mp4|png)$/.exec(req.params.file);
    const task = m ? videoTask(m[1]) : undefined;
    if (!m || !task || task.status !== 'success') return sendError(res, 'ROUTE_NOT_FOUND', `no media at ${req.path}`);
    if (m[2] === 'mp4') return res.type('video/mp4').send(SAMPLE_MP4);
    res.type('image/png').send(Buffer.from(encodePng(640, 360, colourFor(engine.seed, task.id, 'cover-bg'), colourFor(engine.seed, task.id, 'cover-fg'))));
  });
  router.get('/media/provider/:file', (req, res) => {
    engine.tick();
    const m = /^(.+)\.mp4$/.exec(req.params.file);
    const task = m ? videoTask(m[1]) : undefined;
    if (!task || task.providerVideoUrl === null) return sendError(res, 'ROUTE_NOT_FOUND', `no media at ${req.path}`);
    res.type('video/mp4').send(SAMPLE_MP4);
  });
  // Generated images of succeeded image tasks: /media/images/<taskId>/<n>.png (assumed path; no auth).
  router.get('/media/images/:taskId/:file', (req, res) => {
    engine.tick();
    const m = /^(\d+)\.png$/.exec(req.params.file);
    const bytes = m ? hostedImage(engine, req.params.taskId, Number(m[1])) : undefined;
    if (!bytes) return sendError(res, 'ROUTE_NOT_FOUND', `no media at ${req.path}`);
    res.type('image/png').send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  });
  return router;
}
