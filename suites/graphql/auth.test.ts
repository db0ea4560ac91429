import { runArea } from '../../src/checks/area.js';
import { authArea } from '../../src/interfaces/graphql/areas/auth.js';

runArea(authArea);
