import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = resolve(here, '../..');
export const SPECS_DIR = resolve(REPO_ROOT, 'specs');
export const SUITES_DIR = resolve(REPO_ROOT, 'suites');
