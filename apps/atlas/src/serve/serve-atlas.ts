// Serving: the HTTP app over the read model, on 127.0.0.1 by default, with graceful shutdown on SIGINT and
// SIGTERM (stop accepting, finish what is in flight, close the fleet or scheduler, then resolve). The app is
// built once the port is known, so that its pages name the bound address (or the public URL), never a Host.
import { createHmac } from 'node:crypto';
import { DEFAULT_USER_AGENT, readOwnerToken, type NetworkOptions } from '@mcp-atlas/probe';
import { nodeNetwork } from '@mcp-atlas/probe/node';
import { createHttpApp } from '../http/app.js';
import { createLicenseKeyStore, licenseValidatorOf, refuseEveryLicense } from '../http/license-keys.js';
import { createSiteAddress } from '../http/site-address.js';
import type { Logger } from '../log.js';
import { APP_VERSION, METHODOLOGY_VERSION } from '../methodology.js';
import type { SigningKeys } from '../seal/keys.js';
import type { Storage } from '../storage/storage.js';
import { buildView, type AtlasView } from '../view/build-view.js';
import { createDemandRecorder } from '../demand/recorder.js';
import { listen, type NodeFetchHandler } from './listen.js';

/** A license validator for paid reporters; without one every key is refused (the demo installs its own). */
export type LicenseValidator = (key: string) => Promise<boolean>;

/** Options of {@link serveAtlas}. */
export interface ServeOptions {
  storage: Storage;
  port: number;
  /** The address to bind (default 127.0.0.1). Anything but loopback needs `publicUrl`. */
  host?: string;
  /**
   * The origin the service is reached at from outside (https://atlas.example.org). Pages, snippets and the
   * Host and Origin checks use it; without it the bound loopback address names the service.
   */
  publicUrl?: string | null;
  /** Reverse proxies in front that append to X-Forwarded-For and can be trusted (default 0: the socket). */
  trustedProxyHops?: number;
  log: Logger;
  keys: SigningKeys;
  /** Which license keys count as paying reporters; absent, none does. */
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
  /** Where the server listens (the bound address and port). */
  url: string;
  /** The origin pages and snippets name: the public URL when one was given, else `url`. */
  origin: string;
  port: number;
  /** Rebuilds the read model from storage (after a scan) and swaps it in whole. */
  refresh(): Promise<void>;
  close(): Promise<void>;
  closed: Promise<void>;
}

/** The demo's license keys: public on purpose, so only `demo` (never `serve`) installs them. */
export const DEMO_LICENSE_KEYS: ReadonlySet<string> = new Set(['demo-paid-license-1', 'demo-paid-license-2']);

/** The demo's validator: these keys count as paying reporters, and no others. */
export const demoLicenseValidator: LicenseValidator = licenseValidatorOf(createLicenseKeyStore(DEMO_LICENSE_KEYS));

/** Starts serving the data in `storage`. */
export async function serveAtlas(options: ServeOptions): Promise<RunningAtlas> {
  const now = options.now ?? (() => new Date());
  let view: AtlasView = await buildView(options.storage, now());
  // Held here so that shutdown can put the last demand counts on disk.
  const demand = createDemandRecorder({ storage: options.storage, now, logger: options.log });
  const host = options.host ?? '127.0.0.1';
  // Checked before binding, so a public bind without a public URL fails at once and binds nothing.
  createSiteAddress({ publicUrl: options.publicUrl ?? null, bindHost: host, port: null });
  // Requests are handed to the app once it exists; none can arrive before `listen` resolves and it is set.
  // The bindings (the Node request and response) go along: the client's socket address is read from them.
  let handler: NodeFetchHandler | null = null;
  const { server, port } = await listen(
    (request, bindings) => (handler === null ? new Response('starting', { status: 503 }) : handler(request, bindings)),
    options.port,
    host,
  );
  const site = createSiteAddress({ publicUrl: options.publicUrl ?? null, bindHost: host, port });
  let app: ReturnType<typeof createHttpApp>;
  try {
    app = createHttpApp({
      getView: () => view,
      storage: options.storage,
      publicKey: options.keys.publicKey,
      now,
      methodologyVersion: METHODOLOGY_VERSION,
      botUserAgent: DEFAULT_USER_AGENT,
      validateLicense: options.validateLicense ?? refuseEveryLicense,
      site,
      ...(options.trustedProxyHops !== undefined ? { trustedProxyHops: options.trustedProxyHops } : {}),
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
  } catch (error) {
    // A bad setting (caught by createHttpApp) must not leave the port bound.
    server.close();
    throw error;
  }
  handler = (request, bindings) => app.fetch(request, bindings as Record<string, unknown>);
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
  options.log.info({ url, public_url: site.origin }, 'serving');
  return {
    url,
    origin: site.origin,
    port,
    refresh: async () => {
      view = await buildView(options.storage, now());
    },
    close,
    closed,
  };
}
