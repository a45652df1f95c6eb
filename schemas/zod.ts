/**
 * The one Zod instance of the contract, extended with `.openapi()` so that
 * every schema in `schemas/` can carry OpenAPI metadata (zod-to-openapi 9).
 */
import { z } from 'zod';

// By a dynamic import (awaited once, when this module loads): bundlers do not
// tree-shake the package, so a browser build keeps its 78 KB out of the MSW
// handlers' main chunk (docs/architecture.md, "Transports").
// (a bundle that resolves the package's CommonJS build gets its exports under `default`: the container image's)
const openapi = await import('@asteasolutions/zod-to-openapi');
// typed as always there; not in a CommonJS build
const extendZodWithOpenApi = openapi.extendZodWithOpenApi ?? openapi.default.extendZodWithOpenApi;
// only ZodType is read; handing over the namespace itself would keep all of Zod (every locale,
// JSON Schema conversion) in a bundle, since a namespace used as a value cannot be tree-shaken
extendZodWithOpenApi({ ZodType: z.ZodType } as unknown as typeof z);

export { z };
