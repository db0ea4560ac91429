import { runArea } from '../../src/checks/area.js';
import { negativeArea } from '../../src/interfaces/graphql/areas/negative.js';

runArea(negativeArea);
