import type { ESLint } from 'eslint';

/** The project's local ESLint plugin: `layers/no-upward-dynamic-import` (docs/architecture.md, "The layers"). */
export declare const layersPlugin: ESLint.Plugin;
