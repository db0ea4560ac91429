import type { AreaSpec } from '../../../../checks/model.js';
import { noServerErrorCheck } from '../../expect.js';
import { geneologyChecks } from './geneology.js';
import { loginChecks } from './logins.js';
import { placementChecks } from './placements.js';
import { refusalChecks } from './refusals.js';
import type { TreeState } from './state.js';
import { treeGrowthChecks } from './tree-growth.js';

/**
 * Registration into the binary tree: A at a free position of the SFC_NET_USERNAME tree, then B
 * and C under A (left and right), the refusals (taken position, third child, bad input), and
 * what A's geneology tree shows of it.
 */
export const registrationArea: AreaSpec<TreeState> = {
  interface: 'rest-v1-network',
  name: 'registration',
  // The files in run order: each check builds on the state the ones before it set.
  checks: [...placementChecks, ...loginChecks, ...refusalChecks, ...geneologyChecks, ...treeGrowthChecks, noServerErrorCheck()],
};
