import { runArea } from '../../src/checks/area.js';
import { protocolArea } from '../../src/interfaces/graphql/areas/protocol.js';

runArea(protocolArea);
