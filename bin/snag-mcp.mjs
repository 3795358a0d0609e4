#!/usr/bin/env node
// `npx snag-mcp`: the MCP server over stdio (lib/mcp/server.ts, run through tsx like the other bins).
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../lib/mcp/server.ts');
await main();
