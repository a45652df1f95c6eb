/**
 * `x-lifecycle` of the episode areas (podcasts, page decks, flow-speech; read
 * by mediagen-verify, docs/guides/verify.md): an episode's `processStatus`
 * moves pending -> success or fail, read by its GET, named by the create
 * answer's `episodeId`. The polling advice is the area's where its document
 * gives one (podcasts: wait 60 s, then every 10 s, document 3); elsewhere
 * assumed (every 10 s after 10 s); the longest wait is assumed at 15 minutes.
 */
import type { LifecycleDef, LifecycleMedia } from './registry-types.ts';

/** The lifecycle of an episode read by `pollOperationId`, created from `example`, a success carrying `successRequires`. */
export function episodeTaskLifecycle(def: {
  pollOperationId: string;
  example: Record<string, unknown>;
  successRequires: readonly string[];
  media?: readonly LifecycleMedia[];
  chargedField?: string;
  firstPollMs?: number;
  intervalMs?: number;
}): LifecycleDef {
  return {
    statusField: 'processStatus',
    states: ['pending', 'success', 'fail'],
    transitions: { pending: ['success', 'fail'] },
    terminal: ['success', 'fail'],
    success: 'success',
    pollOperationId: def.pollOperationId,
    idField: 'episodeId',
    firstPollMs: def.firstPollMs ?? 10_000,
    intervalMs: def.intervalMs ?? 10_000,
    timeoutMs: 15 * 60_000,
    example: def.example,
    successRequires: def.successRequires,
    ...(def.media ? { media: def.media } : {}),
    ...(def.chargedField ? { chargedField: def.chargedField } : {}),
  };
}
