import { runArea } from '../../src/checks/area.js';
import { modelCartArea } from '../../src/interfaces/graphql/areas/model-cart.js';

runArea(modelCartArea);
