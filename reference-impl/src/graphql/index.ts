import type { InterfaceModule } from '../context.js';

// Placeholder until the module is written: answers every request with the envelope and 501.
export const graphqlModule: InterfaceModule = {
  name: 'graphql',
  migrate() {},
  seed() {},
  errorBody: (message) => ({ status: false, errors: [], message }),
};
