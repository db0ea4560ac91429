import { runArea } from '../../src/checks/area.js';
import { userInfoArea } from '../../src/interfaces/rest-v1-network/areas/user-info.js';

runArea(userInfoArea);
