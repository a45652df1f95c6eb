// A local ESLint plugin of the project (eslint.config.js): the order of the layers for dynamic imports.
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

/** The rank of each folder of mock/ in the order of the layers (docs/architecture.md, "The layers"); the entry points rank last. */
const layerRank = { engine: 0, media: 1, services: 2, core: 3, http: 4, web: 4, 'index.ts': 5, 'cli.ts': 5 };

/** The layer of a path: `mock/<folder>/...` or `mock/index.ts`, `mock/cli.ts`; `schemas` for the contract; otherwise undefined. */
function layerOf(file) {
  const parts = path.relative(root, file).split(path.sep);
  if (parts[0] === 'schemas') return 'schemas';
  if (parts[0] !== 'mock') return undefined;
  return parts[1] in layerRank || parts[1] === 'ui' ? parts[1] : undefined;
}

/**
 * `layers/no-upward-dynamic-import`: the layer order for dynamic `import('...')` too, which the static import rules
 * below do not see. A literal relative specifier is resolved against the importing file; an import of a higher
 * layer (or, from schemas/, of mock/; from the dashboard, of any layer) is reported.
 */
export const layersPlugin = {
  rules: {
    'no-upward-dynamic-import': {
      meta: { type: 'problem', schema: [], messages: { upward: '{{from}} never imports {{to}}, not even dynamically (docs/architecture.md, "The layers")' } },
      create(context) {
        const from = layerOf(context.filename);
        if (from === undefined) return {};
        return {
          ImportExpression(node) {
            const spec = node.source.type === 'Literal' ? node.source.value : undefined;
            if (typeof spec !== 'string' || !spec.startsWith('.')) return;
            const to = layerOf(path.resolve(path.dirname(context.filename), spec));
            if (to === undefined || to === from) return;
            const upward =
              from === 'schemas' ? to !== 'schemas' : from === 'ui' ? to !== 'schemas' : to === 'ui' || (to !== 'schemas' && layerRank[to] > layerRank[from]);
            if (upward) context.report({ node, messageId: 'upward', data: { from: `mock/${from}`.replace('mock/schemas', 'schemas/'), to: `mock/${to}` } });
          },
        };
      },
    },
  },
};
