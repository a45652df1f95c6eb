/**
 * The order vitest starts the test files in: the longest first, so the two workers of a 2-core machine share them
 * and the run does not end on one worker finishing a long file while the other idles. vitest's own order uses the
 * durations of an earlier run (node_modules/.vite), which a fresh clone does not have: it then starts the largest
 * files first, and a short file with a long wait (the package test's pack and install) comes last. The list below is
 * the files' duration ranking from a full run (`npx vitest run --reporter=json`); the other files follow in vitest's
 * order. A file renamed or removed here is simply not ranked.
 */
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Longest first (the per-file durations of a fresh-clone CI run of the whole suite, two workers, 2026-11-28; the
 * durations of a run on a loaded machine, so only their order counts).
 */
export const LONGEST_FIRST = [
  'test/registry-walk.test.ts',
  'test/layers-lint.test.ts',
  'test/storybook.test.ts',
  'test/journal-memory.test.ts',
  'test/music-analysis.test.ts',
  'test/guides.test.ts',
  'test/music-uploads.test.ts',
  'test/video-media.test.ts',
  'test/image-rules.test.ts',
  'test/generated-audio.test.ts',
  'test/voice-clone-rules.test.ts',
  'test/types.test.ts',
  'test/state-invariants.test.ts',
  'test/parallel-sessions.test.ts',
  'test/fuzz-regressions.test.ts',
  'test/music.test.ts',
  'test/media-ocr.test.ts',
  'test/media-label.test.ts',
  'test/proxy-guide.test.ts',
  'test/state-load-turns.test.ts',
];

export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = LONGEST_FIRST.indexOf(relative(f.project.config.root, f.moduleId).replaceAll('\\', '/'));
      return i < 0 ? LONGEST_FIRST.length : i;
    };
    // Array.prototype.sort is stable: unranked files keep vitest's order
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
