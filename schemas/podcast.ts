/**
 * Podcast contract: one-shot episodes, the two-stage flow (script first,
 * audio on request, with an edited script if wanted) and the live text
 * stream of the outline or the script.
 *
 * Seed: document 2, "Podcast episode (GET result)", "Podcast", "States and
 * transitions", "Events", "Errors", "Limits". The seed leaves out the price,
 * the schedule, the failCode values, the size limits of query and sources,
 * the response of the audio call and the payload of the stream's messages:
 * each is a table or a schema below, marked assumed and listed in
 * `podcastTableAssumptions`.
 *
 * The parts: podcast/tables.ts (modes, languages, limits, plans, the schedule,
 * the price), podcast/requests.ts (request bodies and their rules),
 * podcast/operations.ts (responses, stream events, assumptions, operations, the
 * area).
 */
export * from './podcast/tables.ts';
export * from './podcast/requests.ts';
export * from './podcast/operations.ts';
