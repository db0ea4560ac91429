import { runArea } from '../../src/checks/area.js';
import { bankDetailsArea } from '../../src/interfaces/rest-v1-network/areas/bank-details.js';

runArea(bankDetailsArea);
