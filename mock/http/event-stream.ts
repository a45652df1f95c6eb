/**
 * Server-Sent Events on an Express response: the headers, then the frames of
 * mock/core/event-stream.ts until the source is done or the client goes away.
 */
import type { Request, Response } from 'express';
import type { EventStreamSource } from '../../schemas/registry-types.ts';
import { EVENT_STREAM_HEADERS } from '../core/answer.ts';
import { pumpEvents, type EventStreamOptions } from '../core/event-stream.ts';
import type { Engine } from '../engine/engine.ts';
import type { Capacity } from './capacity.ts';
import { applyCors } from './cors.ts';

export type { EventStreamOptions } from '../core/event-stream.ts';

/**
 * Streams `source` to `res` until it is done or the client goes away. Headers
 * are written at once. With `capacity`, a stream beyond its cap of open
 * streams is not started: the source is closed and false returned (the
 * caller answers 503, SERVER_BUSY).
 */
export function streamEvents(
  req: Request,
  res: Response,
  engine: Engine,
  source: EventStreamSource,
  opts: EventStreamOptions & { capacity?: Capacity },
): boolean {
  const capacity = opts.capacity;
  if (capacity && !capacity.openStream()) {
    source.close?.();
    return false;
  }
  let counted = !!capacity;
  const uncount = () => {
    if (counted) capacity!.closeStream();
    counted = false;
  };
  res.on('close', uncount);
  applyCors(res);
  res.statusCode = 200;
  for (const [k, v] of Object.entries(EVENT_STREAM_HEADERS)) res.setHeader(k, v);
  res.setHeader('Connection', 'keep-alive');
  res.flushHeaders();
  // tells the in-flight count that this response stays open by design
  res.emit('streaming');
  const close = pumpEvents(engine, source, opts, { write: (text) => void res.write(text), end: () => void res.end() });
  req.on('close', close);
  res.on('close', close);
  return true;
}
