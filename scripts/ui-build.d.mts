/** Bundles the dashboard (mock/ui/) into `outdir` (default dist/ui); returns the paths written. */
export function buildUi(outdir?: string): Promise<{ js: string; css: string }>;
