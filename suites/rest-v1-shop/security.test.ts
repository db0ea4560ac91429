import { runArea } from '../../src/checks/area.js';
import { securityArea } from '../../src/interfaces/rest-v1-shop/areas/security.js';

runArea(securityArea);
