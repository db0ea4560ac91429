import { runArea } from '../../src/checks/area.js';
import { commissionsArea } from '../../src/interfaces/rest-v1-network/areas/commissions.js';

runArea(commissionsArea);
