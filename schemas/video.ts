/**
 * Video generation contract: the shared endpoint (families 1-4) and the dedicated
 * family5 endpoint, their models, content rules, capability rules, tasks, list
 * items, estimates, prices and the simulated schedule.
 *
 * Seed: document 1, "Video task", "Video models", "Content items (shared video
 * endpoint)", "Video: create task (shared)", "Video: get task", "Video: list
 * tasks", "Video: estimate (shared)", "Video: family5 create", "Video: family5
 * estimate", "Limits". Rules OpenAPI cannot express are data tables;
 * the Zod refinements and the spec descriptions both read them. The parts:
 * video/tables.ts (models, prices, schedule), video/requests.ts (the shared
 * endpoint), video/family5.ts (the family5 endpoint), video/operations.ts
 * (responses, operations, the area).
 */
export * from './video/tables.ts';
export * from './video/requests.ts';
export * from './video/family5.ts';
export * from './video/operations.ts';
