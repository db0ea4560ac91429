import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { InterfaceId, Requirement, Source } from '../checks/model.js';
import { SPECS_DIR } from './paths.js';

export interface Ambiguity {
  id: string;
  interface: InterfaceId;
  source: Source;
  subject: string;
  alternatives: { id: string; description: string }[];
  requirements?: string[];
}

export interface NotShown {
  id: string;
  interface: InterfaceId;
  source: Source;
  subject: string;
  reason: string;
}

export interface RequirementFile {
  interface: InterfaceId;
  document: string;
  requirements: Requirement[];
  ambiguities: Ambiguity[];
  notShown: NotShown[];
}

export interface Endpoint {
  id: string;
  number?: number;
  method: string;
  methodAlternatives?: string[];
  path: string;
  pathAlternatives?: string[];
  kind?: 'query' | 'mutation';
  operation?: string;
  auth: 'required' | 'none' | 'optional';
  source: Source;
  request: { query?: string | null; body?: string | null; variables?: string | null; encodings?: string[] };
  response: string | null;
  responseShown: boolean;
  requirements: string[];
}

export interface EndpointIndex {
  interface: InterfaceId;
  document: string;
  endpoints: Endpoint[];
}

export function loadRequirementFiles(specsDir = SPECS_DIR): RequirementFile[] {
  const dir = join(specsDir, 'requirements');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => /^(rest-route|rest-v1-network|rest-v1-shop|graphql)\.json$/.test(f))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as RequirementFile);
}

let cache: Map<string, Requirement> | undefined;
/** Every requirement of the catalog by id. */
export function requirementsById(): Map<string, Requirement> {
  if (!cache) {
    cache = new Map();
    for (const file of loadRequirementFiles()) for (const r of file.requirements) cache.set(r.id, r);
  }
  return cache;
}

export function loadEndpointIndex(iface: InterfaceId, specsDir = SPECS_DIR): EndpointIndex | undefined {
  const file = join(specsDir, iface, 'endpoints.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as EndpointIndex) : undefined;
}
