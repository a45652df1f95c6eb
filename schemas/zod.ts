/**
 * The one Zod instance of the contract, extended with `.openapi()` so that
 * every schema in `schemas/` can carry OpenAPI metadata (zod-to-openapi 9).
 */
import { z } from 'zod';
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';

extendZodWithOpenApi(z);

export { z };
