/** Where the public API lives, as the reference page states it (issue 25, docs/api.md). */
import { endpointTable } from '../api/endpoint-table';

/** The OpenAPI document's path, from the route table (the renderer and the "raw document" link). */
export const openApiPath = endpointTable['v1.openapi'][1];

/** The v1 base URL on this deployment: the API is served from the dashboard's own origin. */
export const apiBaseUrl = (origin: string): string => `${origin}/api/v1`;
