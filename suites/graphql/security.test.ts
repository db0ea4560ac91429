import { runArea } from '../../src/checks/area.js';
import { securityArea } from '../../src/interfaces/graphql/areas/security.js';

runArea(securityArea);
