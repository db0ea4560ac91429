import { runArea } from '../../src/checks/area.js';
import { authArea } from '../../src/interfaces/rest-route/areas/auth.js';

runArea(authArea);
