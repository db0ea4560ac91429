import { runArea } from '../../src/checks/area.js';
import { payoutsArea } from '../../src/interfaces/rest-v1-network/areas/payouts.js';

runArea(payoutsArea);
