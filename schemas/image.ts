/**
 * Image generation contract: the nine models, their sizes, ratio sets and
 * reference limits, the request schema shared by the synchronous, asynchronous
 * and estimate endpoints, the image task, the raw synchronous output, the
 * estimate, prices, the pixel table, the simulated schedule and the free lane.
 *
 * Seed: document 1, "Image models", "Image task", "States and transitions",
 * "Image: request schema", "Image: synchronous generate", "Image: asynchronous
 * generate", "Image: get task", "Image: list tasks", "Image: estimate credits",
 * "Free allowance for image generation", "Errors", "Limits", "Versioning".
 * Rules OpenAPI cannot express are data tables; the Zod refinements, the
 * service and the spec descriptions all read them. The parts: image/tables.ts
 * (models, prices, schedule, free lane), image/requests.ts (the request),
 * image/operations.ts (responses, operations, the area).
 */
export * from './image/tables.ts';
export * from './image/requests.ts';
export * from './image/operations.ts';
