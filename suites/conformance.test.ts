// The run's one suite file: the areas of checks the run selected, several at once (src/checks/area.ts).
import { runSelectedAreas } from '../src/checks/area.js';

await runSelectedAreas();
