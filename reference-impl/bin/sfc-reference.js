#!/usr/bin/env node
// Runs the TypeScript sources through tsx, so the reference implementation needs no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/main.ts');
const code = await main(process.argv.slice(2));
if (code >= 0) process.exit(code);
