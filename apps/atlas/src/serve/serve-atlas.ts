// Serving: the HTTP app over the read model, on 127.0.0.1 by default, with graceful shutdown on SIGINT and
// SIGTERM (stop accepting, finish what is in flight, close the fleet or scheduler, then resolve).
import { createHmac } from 'node:crypto';
import { DEFAULT_USER_AGENT, readOwnerToken, type NetworkOptions } from '@mcp-atlas/probe';
import { nodeNetwork } from '@mcp-atlas/probe/node';
import { createHttpApp } from '../http/app.js';
import type { Logger } from '../log.js';
import { APP_VERSION, METHODOLOGY_VERSION } from '../methodology.js';
import type { SigningKeys } from '../seal/keys.js';
import type { Storage } from '../storage/storage.js';
import { buildView, type AtlasView } from '../view/build-view.js';
import { createDemandRecorder } from '../demand/recorder.js';
import { listen } from './listen.js';

/** A license validator for paid reporters; the demo uses a fixed key store. */
export type LicenseValidator = (key: string) => Promise<boolean>;

/** Options of {@link serveAtlas}. */
export interface ServeOptions {
  storage: Storage;
  port: number;
  host?: string;
  log: Logger;
  keys: SigningKeys;
  validateLicense?: LicenseValidator;
  now?: () => Date;
  /** Called once on shutdown, before the promise `closed` resolves. */
  onClose?: () => Promise<void>;
  /** The network token files are read through (the guarded, pinned Node network unless a test gives another). */
  ownerNetwork?: NetworkOptions;
  /** Distinct tool searches remembered per view; 0 computes every search afresh (the load benchmark's baseline). */
  searchCacheEntries?: number;
  /** Handle SIGINT/SIGTERM (the CLI does; tests do not). */
  handleSignals?: boolean;
}

/** A running service. */
export interface RunningAtlas {
  url: string;
  port: number;
  /** Rebuilds the read model from storage (after a scan) and swaps it in whole. */
  refresh(): Promise<void>;
  close(): Promise<void>;
  closed: Promise<void>;
}

/** The demo's key store: these license keys count as paying reporters, and no others. */
export const DEMO_LICENSE_KEYS: ReadonlySet<string> = new Set(['demo-paid-license-1', 'demo-paid-license-2']);

export const demoLicenseValidator: LicenseValidator = async (key) => DEMO_LICENSE_KEYS.has(key);

/** Starts serving the data in `storage`. */
export async function serveAtlas(options: ServeOptions): Promise<RunningAtlas> {
  const now = options.now ?? (() => new Date());
  let view: AtlasView = await buildView(options.storage, now());
  // Held here so that shutdown can put the last demand counts on disk.
  const demand = createDemandRecorder({ storage: options.storage, now, logger: options.log });
  const app = createHttpApp({
    getView: () => view,
    storage: options.storage,
    publicKey: options.keys.publicKey,
    now,
    methodologyVersion: METHODOLOGY_VERSION,
    botUserAgent: DEFAULT_USER_AGENT,
    validateLicense: options.validateLicense ?? demoLicenseValidator,
    appVersion: APP_VERSION,
    // Stable across restarts and never stored: derived from the signing key, which never leaves keys/.
    reporterSecret: createHmac('sha256', options.keys.privateKey).update('mcp-atlas reporter ids').digest(),
    logger: options.log,
    ...(options.searchCacheEntries !== undefined ? { searchCacheEntries: options.searchCacheEntries } : {}),
    readOptOutToken: (origin, token) => readOwnerToken(origin, 'opt-out', token, options.ownerNetwork ?? nodeNetwork),
    readOwnerToken: (origin, kind, token) => readOwnerToken(origin, kind, token, options.ownerNetwork ?? nodeNetwork),
    // Only a network that lifts the guard's address rules (tests, the demo's loopback fleet) lets submissions name one.
    allowPrivateTargets: options.ownerNetwork?.allowPrivate === true,
    demand,
  });
  const host = options.host ?? '127.0.0.1';
  const { server, port } = await listen(app.fetch, options.port, host);
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve;
  });
  let closing: Promise<void> | null = null;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      options.log.info('shutting down');
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as unknown as { closeIdleConnections?: () => void }).closeIdleConnections?.();
      });
      await demand.flush();
      await options.onClose?.();
      resolveClosed();
    })();
    return closing;
  };
  if (options.handleSignals !== false) {
    process.once('SIGINT', () => void close());
    process.once('SIGTERM', () => void close());
  }
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  options.log.info({ url }, 'serving');
  return {
    url,
    port,
    refresh: async () => {
      view = await buildView(options.storage, now());
    },
    close,
    closed,
  };
}
