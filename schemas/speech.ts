/**
 * Speech contract: the two binary TTS endpoints (`/v1/tts` and its exact alias
 * `/v1/audio/speech`, which follows the OpenAI SDK's request shape), the
 * multi-voice `/v1/speech`, flow-speech episodes (one voice from a text or a
 * page; multi-voice from a script) and the speaker catalogue.
 *
 * Seed: document 2, "Speech endpoints at a glance", "Flow-speech episode (GET
 * result)", "POST /v1/tts and POST /v1/audio/speech", "POST /v1/speech", "POST
 * /v1/flow-speech/episodes", "GET /v1/flow-speech/episodes/{episodeId}", "POST
 * /v1/flow-speech/episodes/tts", "GET /v1/speakers/list", "Errors", "Limits".
 * Prices, the speaking-rate model, the catalogue's voices, the schedule, the
 * error numbers and statuses are assumed (the seed says they are not shown):
 * each is a table below, listed in `speechTableAssumptions`.
 *
 * The parts: speech/tables.ts (limits, prices, the speaking-rate model, the
 * catalogue, the schedule), speech/requests.ts (request bodies and their rules),
 * speech/operations.ts (responses, assumptions, operations, the area).
 */
export * from './speech/tables.ts';
export * from './speech/requests.ts';
export * from './speech/operations.ts';
