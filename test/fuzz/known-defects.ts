/**
 * Defects the fuzzer has found and that are pinned by an expected-failure
 * case in test/fuzz-regressions.test.ts. A violation one of them explains is
 * counted and reported, but does not fail the run; when a defect is fixed,
 * its regression case is flipped to `it` and its entry here removed.
 */
import type { WireResponse } from './http.ts';
import type { Violation } from './oracle.ts';
import type { WireRequest } from './model.ts';

/** What the run has done so far that a defect's matcher may need to know. */
export interface RunContext {
  /** A state document was loaded (PUT /__mock/state answered 200). */
  stateLoaded: boolean;
}

/** One known defect: what it is and which violations it explains. */
export interface KnownDefect {
  id: string;
  summary: string;
  matches(v: Violation, w: WireRequest, r: WireResponse | undefined, ctx: RunContext): boolean;
  /** Requests not to send at all, because they take down the process that hosts the mock (counted as seen, not sent). */
  avoid?(w: WireRequest): boolean;
}

/**
 * The known defects: none stand today. Those found so far (uri-format,
 * percent-encoding-404, bodyless-routes-read-bodies, multipart-file-cut-crash,
 * node-parser-errors-bare, state-events-unchecked, state-clock-unbounded) are
 * fixed, and their cases in test/fuzz-regressions.test.ts pass.
 */
export const knownDefects: KnownDefect[] = [];

/** The known defect whose requests must not be sent, if `w` is one. */
export function avoided(w: WireRequest): KnownDefect | undefined {
  return knownDefects.find((d) => d.avoid?.(w));
}

/** The known defect that explains `v`, if any. */
export function explain(v: Violation, w: WireRequest, r: WireResponse | undefined, ctx: RunContext): KnownDefect | undefined {
  return knownDefects.find((d) => d.matches(v, w, r, ctx));
}
