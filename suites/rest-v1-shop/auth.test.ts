import { runArea } from '../../src/checks/area.js';
import { authArea } from '../../src/interfaces/rest-v1-shop/areas/auth.js';

runArea(authArea);
