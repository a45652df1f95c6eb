/**
 * The podcast service (document 2, "Podcast", "Podcast episode (GET
 * result)"): one-shot episodes, the two-stage flow and the live text stream,
 * on the task kit.
 *
 * An episode is written in full at creation (deterministic in the seed and
 * the request) with a time for every piece: the sources are read, the
 * outline items and the script lines appear one by one, then the audio is
 * rendered. GET and the text stream show what the virtual clock has reached;
 * the kit moves processStatus when a stage ends.
 *
 *   one-shot:  create -> pending --(sources, outline, lines, audio)--> success
 *   two-stage: text-content -> pending --(sources, outline, lines)--> success (text-success)
 *              audio call   -> pending --(audio)--> success (audio-success) | fail (audio-fail)
 *   a forced failure halts the text halfway through the script; a forced
 *   stall halts it before anything is read; a stage pending for 30 minutes
 *   fails (37011). A failed stage is refunded in full.
 *
 * Money (assumed prices, `podcastModePlans`, `podcastAudioCredits`): a
 * one-shot episode reserves script and audio at creation and captures both on
 * success; the two-stage flow reserves and captures each stage on its own.
 * `credits` shows what is consumed so far.
 *
 * The parts: podcast/record.ts (the record, its kit, what the clock has
 * revealed), podcast/writer.ts (writing an episode), podcast/service.ts
 * (presenting, creating, the handlers, the media).
 */
export { podcastService } from './podcast/service.ts';
