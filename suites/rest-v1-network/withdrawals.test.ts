import { runArea } from '../../src/checks/area.js';
import { withdrawalsArea } from '../../src/interfaces/rest-v1-network/areas/withdrawals.js';

runArea(withdrawalsArea);
