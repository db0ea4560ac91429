import { runArea } from '../../src/checks/area.js';
import { queriesArea } from '../../src/interfaces/graphql/areas/queries.js';

runArea(queriesArea);
