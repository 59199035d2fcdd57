import type { Config } from '../config.js';
import type { Component } from '../node.js';
import { apiComponent } from './api.js';
import { ingestComponent } from './ingest.js';

/**
 * What a node runs, by role: `api` serves HTTP; `ingest` and `process` run the ingest log and
 * the pipeline behind it (one node holds both until the scale-out issue splits them); `all`
 * is everything. Health and metrics routes are always there.
 */
export function componentsFor(config: Config): Component[] {
  const roles = new Set<string>(config.roles);
  const all = roles.has('all');
  const out: Component[] = [];
  if (all || roles.has('ingest') || roles.has('process')) out.push(ingestComponent());
  if (all || roles.has('api')) out.push(apiComponent());
  return out;
}
