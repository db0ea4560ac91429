// Register -> token use -> login -> the failure cases of both, and the token rule of Part 5.
import type { AreaSpec } from '../../../../checks/model.js';
import { loginChecks } from './login.js';
import { loginRefusalChecks } from './login-refusals.js';
import { registerRefusalChecks } from './register-refusals.js';
import { registrationChecks } from './registration.js';
import type { AuthState } from './state.js';
import { withoutTokenChecks } from './without-token.js';

export const authArea: AreaSpec<AuthState> = {
  interface: 'rest-v1-shop',
  name: 'auth',
  // The checks share one account (state.ts), so they run in the order they were written: each file is a contiguous run.
  checks: [...registrationChecks, ...loginChecks, ...loginRefusalChecks, ...registerRefusalChecks, ...withoutTokenChecks],
};
