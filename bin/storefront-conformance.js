#!/usr/bin/env node
// Runs the TypeScript sources through tsx, so the suite needs no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
const code = await main(process.argv.slice(2));
if (code >= 0) process.exitCode = code; // a negative code means a server keeps running
