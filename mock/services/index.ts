/** Every handler, keyed by operationId; the type requires one per registry entry. */
import type { Handlers } from './context.ts';
import { accountHandlers } from './account.ts';
import { videoHandlers } from './video.ts';
import { imageHandlers } from './image.ts';

export const handlers: Handlers = { ...videoHandlers, ...accountHandlers, ...imageHandlers };
