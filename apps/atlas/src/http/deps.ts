// What the HTTP surface needs from the rest of the app, injected so tests and the demo can hand in their
// own clock, storage and license store, and so nothing here reads a global.

import { randomBytes } from 'node:crypto';
import type { DemandRecorder } from '../demand/recorder.js';
import type { Storage } from '../storage/storage.js';
import type { AtlasView } from '../view/build-view.js';
import type { IntakeHooks } from './intake-hooks.js';
import { REPORTER_SECRET_MIN_BYTES, UNVERSIONED } from './limits.js';
import { createSiteAddress, type SiteAddress } from './site-address.js';

/** Where the HTTP surface writes its structured log lines (pino's `info` and `warn` fit). */
export interface HttpLogger {
  info(fields: object, message?: string): void;
  warn(fields: object, message?: string): void;
}

/**
 * Everything `createHttpApp` needs.
 *
 * @example
 * createHttpApp({
 *   getView: () => currentView,
 *   storage,
 *   publicKey: keys.publicKey,
 *   now: () => new Date(),
 *   appVersion: '0.1.0',
 *   methodologyVersion: METHODOLOGY_VERSION,
 *   botUserAgent: DEFAULT_USER_AGENT,
 *   validateLicense: async (key) => licenses.has(key),
 *   reporterSecret: createHmac('sha256', keys.privateKey).update('mcp-atlas reporter ids').digest(),
 *   logger,
 * });
 */
export interface HttpDeps extends IntakeHooks {
  /** The current read model. Called once per request; the app replaces the view whole after a scan. */
  getView(): AtlasView;
  /** Where reports (`days/<day>/reports.jsonl`) and sensor batches (`sensors/<day>/…`) are written. */
  storage: Storage;
  /** The Ed25519 public key of the signed history (32 bytes), served as SPKI PEM. */
  publicKey: Uint8Array;
  /** The clock: the UTC day of a report or batch, quotas, and the route's `now`. */
  now(): Date;
  /**
   * The app's own version, shown in the well-known file, the OpenAPI document and the MCP handshake.
   * Defaults to `unversioned`.
   */
  appVersion?: string;
  /** The methodology version every published figure follows. */
  methodologyVersion: string;
  /** The user agent the bot sends, published so operators can recognize and opt out of it. */
  botUserAgent: string;
  /**
   * True when a key from the `x-mcp-atlas-license` header is an active license, so the report counts as a
   * paying reporter's. The key itself is never stored or logged: the reporter is a keyed hash of it.
   */
  validateLicense(key: string): Promise<boolean>;
  /**
   * At least 32 secret bytes that key the hashes naming reporters: a paying reporter is a hash of its
   * license key, an anonymous one a hash of its network, so neither a key nor an address is ever stored.
   * It must stay the same across restarts, or every reporter's history splits in two; deriving it from the
   * signing key is one way. Without it, a random secret is drawn per process (and a warning logged): fine
   * for tests, wrong for a service, since quotas and reporter histories would restart with the process.
   */
  reporterSecret?: Uint8Array;
  /**
   * How many reverse proxies in front of the app append to `X-Forwarded-For` and can be trusted. 0 (the
   * default) uses the socket's address and ignores the header, which any client can forge; with n, the
   * n-th address from the right of the header is the client's.
   */
  trustedProxyHops?: number;
  /**
   * Where the service is reached (`createSiteAddress`): the origin every absolute URL on pages and snippets
   * starts with, and the Host and Origin values requests may carry (others are refused with 421 or 403).
   * Defaults to loopback on any port with the origin http://localhost, which suits an app served on loopback
   * by someone else; `serveAtlas` always passes the real one.
   */
  site?: SiteAddress;
  logger?: HttpLogger;
  /**
   * Reads an owner's token file for the opt-out form: the probe's `readOwnerToken` bound to the service's
   * network (guarded and pinned). Without it, the form's confirm step answers 503.
   */
  readOptOutToken?: (origin: string, token: string) => Promise<{ matches: boolean; detail: string | null }>;
  /**
   * Reads an owner's token file of either kind (`opt-out` or `verify`): the probe's `readOwnerToken` bound to
   * the service's guarded, pinned network. Owner verification needs it (503 without); the opt-out form uses it
   * when `readOptOutToken` is not given.
   */
  readOwnerToken?: (
    origin: string,
    kind: 'opt-out' | 'verify',
    token: string,
  ) => Promise<{ matches: boolean; detail: string | null }>;
  /**
   * Lifts the probe guard's address and https rules for submitted URLs (http, loopback and private
   * addresses). For tests and the demo's loopback fleet only; the schedule's network must allow them too.
   */
  allowPrivateTargets?: boolean;
  /** Where routed tasks are counted per server and day; the app makes its own when none is given. */
  demand?: DemandRecorder;
  /** Distinct tool searches remembered per view (default 2,000); 0 computes every search afresh. */
  searchCacheEntries?: number;
}

/** HttpDeps with every default filled in and every value checked; what the routes work with. */
export type ResolvedHttpDeps = Omit<HttpDeps, 'appVersion' | 'reporterSecret' | 'trustedProxyHops' | 'site'> & {
  appVersion: string;
  reporterSecret: Uint8Array;
  trustedProxyHops: number;
  site: SiteAddress;
};

/**
 * Fills in the defaults and checks the values a caller could get wrong. A wrong value is a bug in the
 * caller, so it throws a TypeError at start-up rather than failing requests later.
 */
export function resolveHttpDeps(deps: HttpDeps): ResolvedHttpDeps {
  const trustedProxyHops = deps.trustedProxyHops ?? 0;
  if (!Number.isInteger(trustedProxyHops) || trustedProxyHops < 0) {
    throw new TypeError(
      `createHttpApp: trustedProxyHops must be a whole number >= 0, got ${String(deps.trustedProxyHops)}`,
    );
  }
  let reporterSecret = deps.reporterSecret;
  if (reporterSecret === undefined) {
    deps.logger?.warn({}, 'no reporterSecret given: reporter ids, quotas and histories restart with this process');
    reporterSecret = randomBytes(REPORTER_SECRET_MIN_BYTES);
  } else if (!(reporterSecret instanceof Uint8Array) || reporterSecret.length < REPORTER_SECRET_MIN_BYTES) {
    throw new TypeError(`createHttpApp: reporterSecret must be at least ${REPORTER_SECRET_MIN_BYTES} bytes`);
  }
  const site = deps.site ?? createSiteAddress({ bindHost: 'localhost', port: null });
  return { ...deps, appVersion: deps.appVersion ?? UNVERSIONED, reporterSecret, trustedProxyHops, site };
}
