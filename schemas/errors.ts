/**
 * The error catalog: every error the API (and the mock's transport layer) can
 * return, once. Each entry has the numeric `code` carried in the envelope, the
 * HTTP status it is answered with, its meaning and its provenance.
 *
 * Seed: document 1, "Errors" (family5 codes 32001-32008 and 29998) and
 * "Authentication". Every other number here is assumed: the seed says the
 * numeric values of the shared video endpoint and of the common transport
 * errors are "not shown" (decisions/0003-assumed-codes.md).
 *
 * An error is referred to by its code, its catalog name, or, for the reasons a
 * failed task reports as a string (`failReason: "free_relax_busy"`), that string.
 *
 * The blocks live in schemas/errors/, one file per source document
 * (document-1.ts, document-2.ts, document-3.ts); this file joins them, in one
 * order, into the one catalog and proves at load time that no name, code or
 * failure-reason string is used twice.
 */
import type { CatalogError } from './errors/catalog-error.ts';
import { transportErrors, sharedVideoErrors, family5Errors, imageErrors, oauthErrors } from './errors/document-1.ts';
import { speechErrors, generatedAudioErrors, voiceCloneErrors, podcastErrors } from './errors/document-2.ts';
import { storybookErrors, extractionErrors, lyricsErrors, musicAnalysisErrors, musicErrors } from './errors/document-3.ts';

export type { CatalogError } from './errors/catalog-error.ts';

const blocks = [
  transportErrors,
  sharedVideoErrors,
  family5Errors,
  speechErrors,
  generatedAudioErrors,
  voiceCloneErrors,
  podcastErrors,
  storybookErrors,
  extractionErrors,
  imageErrors,
  lyricsErrors,
  musicAnalysisErrors,
  musicErrors,
  oauthErrors,
] as const;

/** The catalog, keyed by a stable name used in code (the wire carries only `code`). */
export const errorCatalog = {
  ...transportErrors,
  ...sharedVideoErrors,
  ...family5Errors,
  ...speechErrors,
  ...generatedAudioErrors,
  ...voiceCloneErrors,
  ...podcastErrors,
  ...storybookErrors,
  ...extractionErrors,
  ...imageErrors,
  ...lyricsErrors,
  ...musicAnalysisErrors,
  ...musicErrors,
  ...oauthErrors,
} as const satisfies Record<string, CatalogError>;

/** Stable name of a catalogued error. */
export type ErrorName = keyof typeof errorCatalog;

/** Every catalogued error name. */
export const errorNames = Object.keys(errorCatalog) as ErrorName[];
if (blocks.reduce((n, b) => n + Object.keys(b).length, 0) !== errorNames.length) throw new Error('error catalog: a name used in two blocks');

const byCode = new Map<number, ErrorName>(errorNames.map((n) => [errorCatalog[n].code, n]));
if (byCode.size !== errorNames.length) throw new Error('error catalog: duplicate numeric code');

/** Looks up an error by its numeric wire code; undefined when not catalogued. */
export function errorNameByCode(code: number): ErrorName | undefined {
  return byCode.get(code);
}

const byReason = new Map<string, ErrorName>();
for (const n of errorNames) {
  const reason = (errorCatalog[n] as CatalogError).reason;
  if (reason === undefined) continue;
  if (byReason.has(reason) || Object.hasOwn(errorCatalog, reason)) throw new Error(`error catalog: failure reason ${reason} is not unique`);
  byReason.set(reason, n);
}

/** The failure-reason string of an error, when it has one. */
export function errorReason(name: ErrorName): string | undefined {
  return (errorCatalog[name] as CatalogError).reason;
}

/** Resolves a `Prefer: error=` value: a numeric code, a catalog name, or a failure-reason string (`free_relax_busy`). */
export function resolveErrorRef(ref: string): ErrorName | undefined {
  if (/^\d+$/.test(ref)) return byCode.get(Number(ref));
  return Object.hasOwn(errorCatalog, ref) ? (ref as ErrorName) : byReason.get(ref);
}

/** How an error is named in messages: `26030 IMAGE_FREE_RELAX_BUSY (free_relax_busy)`. */
export function describeErrorRef(name: ErrorName): string {
  const reason = errorReason(name);
  return `${errorCatalog[name].code} ${name}${reason ? ` (${reason})` : ''}`;
}
