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
 * Longest first (measured on main, whole suite, two workers, `--reporter=json`, 2026-11-25; the durations of a run on a
 * loaded machine, so only their order counts).
 */
export const LONGEST_FIRST = [
  'test/money-invariants.test.ts',
  'test/registry-walk.test.ts',
  'test/fuzz.test.ts',
  'test/music.test.ts',
  'test/image-decode.test.ts',
  'test/docs-site.test.ts',
  'test/cli.test.ts',
  'test/guides.test.ts',
  'test/music-analysis.test.ts',
  'test/music-uploads.test.ts',
  'test/generated-audio.test.ts',
  'test/verify.test.ts',
  'test/media-audio.test.ts',
  'test/storybook.test.ts',
  'test/voice-clone-contract.prism.test.ts',
  'test/video-contract.prism.test.ts',
  'test/video-contract-errors.prism.test.ts',
  'test/voice-clone-rules.test.ts',
  'test/image-contract.prism.test.ts',
  'test/image-rules.test.ts',
  'test/image-lifecycle.test.ts',
  'test/media-video.test.ts',
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
