// The benchmark writes the same files the scan writes; it takes their paths from the app, not its own.
export { dayCatalogPath as catalogPathForBench, serverStatePath as statePathForBench } from '../src/data/paths.js';
