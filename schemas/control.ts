/**
 * The mock's control API under /__mock (docs/architecture.md, "The control
 * API"): schemas and routes, emitted to spec/mock-control.openapi.yaml and used
 * by the mock to validate control requests. Not part of the Media Generation
 * Service. The parts: control/schemas.ts (requests and answers),
 * control/state.ts (saved state, users, sessions), control/proxy.ts (the
 * proxy's report), control/operations.ts (the routes).
 */
export * from './control/schemas.ts';
export * from './control/state.ts';
export * from './control/operations.ts';
export * from './control/proxy.ts';
