/**
 * What a picture's label says and the names of it the records and the media cache keys use (mock/media/label.ts
 * re-exports them; it lays the label out and draws it). Apart from the drawing so that the services, which keep a
 * prompt's start and name a label in their handlers, do not load the font and the layout (they load on first use:
 * mock/media/renderers.ts). Standard JavaScript only.
 */
import { hash32 } from '../engine/rng.ts';

/** What a label says. */
export interface LabelText {
  /** The prompt (or what stands for it: a page's text, an episode's title); its start is shown. */
  prompt: string;
  /** The model (or the service), shown with the pixel size. */
  model: string;
  /** The task id (or the episode, page...). */
  id: string;
}

/** Most code points of a prompt a record keeps for its label (a label shows at most 64). */
export const PROMPT_KEPT = 160;

/** The start of a prompt a record keeps for its label: at most PROMPT_KEPT code points. */
export function promptStart(prompt: string | null | undefined): string {
  const cps = [...(prompt ?? '').slice(0, 2 * PROMPT_KEPT)];
  return cps.length > PROMPT_KEPT ? cps.slice(0, PROMPT_KEPT).join('') : cps.join('');
}

/** Names a label's text in a media cache key (two 32-bit hashes of prompt, model and id). */
export function labelKey(t: LabelText): string {
  return `label:${hash32('a', t.prompt, t.model, t.id).toString(16)}${hash32('b', t.prompt, t.model, t.id).toString(16)}`;
}
