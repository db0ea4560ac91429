#!/usr/bin/env node
// Runs the TypeScript sources through tsx, so the suite needs no build step.
import { setFlagsFromString } from 'node:v8';
import { register } from 'tsx/esm/api';

// A run executes most of its code a few times only (each check once): with V8's default budget it
// spent about a CPU-second compiling optimised code on its helper threads, on two cores the target
// shares. Later tier-up (the budget 7 times the default) ran the default-depth self-test 9-11 %
// faster (alternating runs against a warm reference; numbers in docs/measurements.md). Set before
// any code of the suite loads; its worker thread starts later and shares the flag.
setFlagsFromString('--interrupt-budget=500000');
register();
const { main } = await import('../src/cli/main.ts');
const code = await main(process.argv.slice(2));
if (code >= 0) process.exitCode = code; // a negative code means a server keeps running
