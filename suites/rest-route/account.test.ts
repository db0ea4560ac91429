import { runArea } from '../../src/checks/area.js';
import { accountArea } from '../../src/interfaces/rest-route/areas/account.js';

runArea(accountArea);
