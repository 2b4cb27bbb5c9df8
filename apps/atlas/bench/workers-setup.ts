// What bench/run-workers.mjs needs from the test helpers, bundled by it with esbuild: the throwaway PostgreSQL
// cluster and the loopback fleet with its registry. Never part of the app's build.
export { startLoopbackFleet } from '../test/fixtures/loopback-fleet.js';
export { startPostgresCluster } from '../test/setup/postgres.js';
