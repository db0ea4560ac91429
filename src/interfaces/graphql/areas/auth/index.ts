/** register and login: "4. Endpoints" rows 1-2, "5. Authentication", "8. Limits". */
import type { AreaSpec } from '../../../../checks/model.js';
import { noSecretsCheck } from '../common.js';
import { duplicateEmailChecks } from './duplicate-emails.js';
import { loginChecks } from './login.js';
import { registerRuleChecks } from './register-rules.js';
import { registrationChecks } from './registration.js';
import type { AuthState } from './state.js';
import { withoutTokenChecks } from './without-token.js';

// The checks run in this order and share state (state.ts): each file holds a contiguous run of them.
export const authArea: AreaSpec<AuthState> = {
  interface: 'graphql',
  name: 'auth',
  checks: [
    ...withoutTokenChecks,
    ...registrationChecks,
    ...loginChecks,
    ...duplicateEmailChecks,
    ...registerRuleChecks,
    noSecretsCheck<AuthState>(),
  ],
};
