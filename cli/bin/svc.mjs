#!/usr/bin/env node
// Runs the TypeScript sources directly: no build step between a checkout and a working `svc`.
import { register } from 'tsx/esm/api';

// Ignore the tsconfig of whatever directory svc is run from; the CLI needs none.
register({ tsconfig: false });
const { main } = await import('../main.ts');
await main(process.argv);
