// Node-only entry (`@mcp-atlas/probe/node`): what needs node:http, node:dns or child processes. The root
// entry stays free of Node built-ins so it runs in browsers and edge runtimes; a test checks that.
import type { LookupFunction } from '../guard.js';
import type { HttpClientFactory } from '../http.js';
import { createNodeHttpClient } from './http-client.js';
import { lookupHost } from './lookup.js';

export { createNodeHttpClient } from './http-client.js';
export {
  checkLocalPackage,
  installCommandOf,
  type LocalCheckOptions,
  type LocalCheckResult,
  type LocalLimit,
  type LocalOutcome,
} from './local-check.js';
export {
  type Installed,
  type InstallFailureReason,
  type InstallSettings,
  installPackage,
  type LocalArgument,
  LocalInstallError,
  type LocalPackage,
  type LocalVariable,
} from './local-install.js';
export { lookupHost } from './lookup.js';
export {
  type BubblewrapStatus,
  findBubblewrap,
  isStdioIsolation,
  STDIO_ISOLATIONS,
  type StdioIsolation,
  type StdioIsolationUsed,
} from './pid-namespace.js';
export { findSandbox, type SandboxedProgram, type SandboxStatus, sandboxCommand } from './sandbox.js';
export {
  endProcessGroup,
  isProcessGroupAlive,
  type ProcessGroupStdioOptions,
  ProcessGroupStdioTransport,
  probeStdio,
  probeStdioProcess,
  STDIO_EXIT_GRACE_MS,
  STDIO_KILL_GRACE_MS,
  type StdioExit,
  type StdioIsolationOutcome,
  type StdioProbeOptions,
  type StdioProbeOutcome,
  type StdioServer,
} from './stdio.js';

/**
 * The Node network environment in one object: the system resolver and the pinning HTTP client. Spread
 * it into the options of probeServer, readRobots, readWellKnown, discoverEndpoint, checkSite and
 * listRegistryServers, so that every address is checked and every connection goes only to it.
 *
 * @example
 * import { probeServer } from '@mcp-atlas/probe';
 * import { nodeNetwork } from '@mcp-atlas/probe/node';
 * await probeServer('https://mcp.example.com/mcp', { ...nodeNetwork });
 */
export const nodeNetwork: Readonly<{ lookup: LookupFunction; httpClient: HttpClientFactory }> = Object.freeze({
  lookup: lookupHost,
  httpClient: createNodeHttpClient,
});
