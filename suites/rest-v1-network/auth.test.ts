import { runArea } from '../../src/checks/area.js';
import { authArea } from '../../src/interfaces/rest-v1-network/areas/auth.js';

runArea(authArea);
