import { runArea } from '../../src/checks/area.js';
import { modelWithdrawalsArea } from '../../src/interfaces/rest-v1-network/areas/model-withdrawals.js';

runArea(modelWithdrawalsArea);
