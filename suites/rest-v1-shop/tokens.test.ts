import { runArea } from '../../src/checks/area.js';
import { tokensArea } from '../../src/interfaces/rest-v1-shop/areas/tokens.js';

runArea(tokensArea);
