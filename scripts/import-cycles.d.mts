/** The files whose imports `npm run lint:code` checks (scripts/import-cycles.mjs). */
export declare const CYCLE_GLOBS: string[];

/** The import cycles among the files of `root` matching `globs`, and the files read, paths relative to `root` (scripts/import-cycles.mjs). */
export declare function importCycles(root: string, globs?: string[]): Promise<{ files: string[]; cycles: string[][] }>;
