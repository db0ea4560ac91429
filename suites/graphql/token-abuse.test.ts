import { runArea } from '../../src/checks/area.js';
import { tokenAbuseArea } from '../../src/interfaces/graphql/areas/token-abuse.js';

runArea(tokenAbuseArea);
