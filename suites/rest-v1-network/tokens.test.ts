import { runArea } from '../../src/checks/area.js';
import { tokensArea } from '../../src/interfaces/rest-v1-network/areas/tokens.js';

runArea(tokensArea);
