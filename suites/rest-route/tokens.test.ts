import { runArea } from '../../src/checks/area.js';
import { tokensArea } from '../../src/interfaces/rest-route/areas/tokens.js';

runArea(tokensArea);
