import { runArea } from '../../src/checks/area.js';
import { registerLimitsArea } from '../../src/interfaces/rest-route/areas/register-limits.js';

runArea(registerLimitsArea);
