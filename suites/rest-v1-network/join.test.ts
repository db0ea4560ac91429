import { runArea } from '../../src/checks/area.js';
import { joinArea } from '../../src/interfaces/rest-v1-network/areas/join.js';

runArea(joinArea);
