// Owners' webhooks: each alert of a server whose verified owner set a webhook URL is POSTed there, signed with
// HMAC-SHA256 under the owner's own secret, and retried with backoff (WEBHOOK_RULES of @mcp-atlas/operations)
// until it is delivered or given up. Each owner's state (state/owner-webhooks/<server>.json) holds the queue, the
// alerts already taken, and a delivery log the owner reads in the owner view. The deliveries go through the
// probe's guard, so a webhook URL reaches no address a check could not.
import { createHmac, randomBytes } from 'node:crypto';
import { WEBHOOK_RULES } from '@mcp-atlas/operations/rules';
import type { NetworkOptions } from '@mcp-atlas/probe';
import { postWebhook } from '@mcp-atlas/probe/outside';
import { z } from 'zod';
import { type OwnerAlertsFile, readOwnerAlerts } from '../data/owner-alerts.js';
import { OWNER_WEBHOOKS_PREFIX, SERVER_ID_PATTERN } from '../data/paths.js';
import { getJsonOrNull, putJson, type Storage } from '../storage/storage.js';
import { type OwnerRecord, readOwnerRecords } from './owner-records.js';

/** The header that carries the signature: `sha256=` and the hex HMAC of `<timestamp>.<body>`. */
const WEBHOOK_SIGNATURE_HEADER = 'x-mcp-atlas-signature';
/** The header that carries the signed timestamp (seconds since 1970, UTC). */
const WEBHOOK_TIMESTAMP_HEADER = 'x-mcp-atlas-timestamp';
/** The header that carries the delivery's id, the same on every retry of one alert. */
const WEBHOOK_DELIVERY_HEADER = 'x-mcp-atlas-delivery';

/** The prefix of every webhook secret, so a leaked one is recognisable. */
const WEBHOOK_SECRET_PREFIX = 'mcp-atlas-whsec-';

/** A new signing secret for an owner's webhook: 256 random bits. */
export function newWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/**
 * The signature of a delivery: HMAC-SHA256 under the owner's secret of the timestamp, a dot and the exact body, so
 * a receiver can refuse a body changed on the way or replayed much later.
 *
 * @example
 * signWebhook('mcp-atlas-whsec-…', 1764806400, '{"event":"…"}'); // 'sha256=9f2c…'
 */
export function signWebhook(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

const QueuedSchema = z.object({
  id: z.string(),
  event: z.string(),
  body: z.string(),
  /** Tries made so far. */
  attempts: z.int().nonnegative(),
  /** When the next try is due (ISO time). */
  nextAt: z.string(),
});

/** One try in an owner's delivery log. */
export const WebhookLogEntrySchema = z.object({
  id: z.string(),
  event: z.string(),
  at: z.string(),
  attempt: z.int().positive(),
  outcome: z.enum(['delivered', 'failed', 'given-up']),
  status: z.int().nullable(),
  reason: z.string().nullable(),
});
export type WebhookLogEntry = z.infer<typeof WebhookLogEntrySchema>;

const WebhookStateSchema = z.object({
  queued: z.array(QueuedSchema),
  /** Ids of the alerts already taken into the queue (the newest ones), so none is sent twice. */
  taken: z.array(z.string()),
  log: z.array(WebhookLogEntrySchema),
});
type WebhookState = z.infer<typeof WebhookStateSchema>;

/** Alert ids kept in `taken`: far more than the owner alerts file keeps, so an old alert never comes back. */
const TAKEN_KEPT = 200;

const statePathOf = (serverId: string): string => {
  if (!SERVER_ID_PATTERN.test(serverId)) throw new Error(`not a server id: ${serverId}`);
  return `${OWNER_WEBHOOKS_PREFIX}${serverId}.json`;
};

async function readState(storage: Storage, serverId: string): Promise<WebhookState> {
  const parsed = WebhookStateSchema.safeParse(await getJsonOrNull(storage, statePathOf(serverId)));
  return parsed.success ? parsed.data : { queued: [], taken: [], log: [] };
}

/** The owner's delivery log, newest last; empty before the first delivery. */
export async function readWebhookLog(storage: Storage, serverId: string): Promise<WebhookLogEntry[]> {
  return (await readState(storage, serverId)).log;
}

/** One alert as a webhook event: its id, its event name, when it happened, and the alert itself. */
interface AlertEvent {
  id: string;
  event: 'owner.alert.failure' | 'owner.alert.score_drop';
  at: string;
  alert: unknown;
}

/** The alerts of one server's entry in the owner alerts file, as events. */
function alertEventsOf(entry: OwnerAlertsFile['servers'][string] | undefined): AlertEvent[] {
  if (entry === undefined) return [];
  return [
    ...entry.alerts.map(
      (alert): AlertEvent => ({
        id: `failure-${alert.kind}-${alert.at}`,
        event: 'owner.alert.failure',
        at: alert.at,
        alert,
      }),
    ),
    ...(entry.scoreDrops ?? []).map(
      (drop): AlertEvent => ({
        id: `score-drop-${drop.day}`,
        event: 'owner.alert.score_drop',
        // A day's drop is known once the day is scored, after it ends.
        at: `${drop.day}T23:59:59Z`,
        alert: drop,
      }),
    ),
  ];
}

/** The alerts of `record`'s server not yet taken and raised since its webhook was set, queued to go now. */
function takeNewAlerts(state: WebhookState, record: OwnerRecord, file: OwnerAlertsFile, now: Date): boolean {
  const webhook = record.webhook;
  if (webhook === undefined) return false;
  const taken = new Set(state.taken);
  const fresh = alertEventsOf(file.servers[record.server]).filter(
    (e) => !taken.has(e.id) && Date.parse(e.at) >= Date.parse(webhook.setAt),
  );
  for (const event of fresh) {
    const body = JSON.stringify({ id: event.id, event: event.event, server: record.server, alert: event.alert });
    state.queued.push({ id: event.id, event: event.event, body, attempts: 0, nextAt: now.toISOString() });
    state.taken.push(event.id);
  }
  state.taken = state.taken.slice(-TAKEN_KEPT);
  return fresh.length > 0;
}

/** Tries one queued delivery; returns the entry to keep queued (null when delivered or given up). */
async function tryDelivery(
  item: WebhookState['queued'][number],
  webhook: NonNullable<OwnerRecord['webhook']>,
  state: WebhookState,
  network: NetworkOptions,
  now: Date,
): Promise<WebhookState['queued'][number] | null> {
  const timestamp = Math.floor(now.getTime() / 1000);
  const delivery = await postWebhook(
    {
      url: webhook.url,
      body: item.body,
      headers: {
        'content-type': 'application/json',
        [WEBHOOK_SIGNATURE_HEADER]: signWebhook(webhook.secret, timestamp, item.body),
        [WEBHOOK_TIMESTAMP_HEADER]: String(timestamp),
        [WEBHOOK_DELIVERY_HEADER]: item.id,
        'x-mcp-atlas-event': item.event,
      },
      timeoutMs: WEBHOOK_RULES.timeoutMs,
    },
    network,
  );
  const attempt = item.attempts + 1;
  const delays = WEBHOOK_RULES.retryDelaysSeconds;
  const outcome = delivery.ok ? 'delivered' : attempt > delays.length ? 'given-up' : 'failed';
  state.log.push({
    id: item.id,
    event: item.event,
    at: now.toISOString(),
    attempt,
    outcome,
    status: delivery.status,
    reason: delivery.ok ? null : delivery.reason,
  });
  state.log = state.log.slice(-WEBHOOK_RULES.deliveriesKept);
  if (outcome !== 'failed') return null;
  const waitSeconds = delays[attempt - 1] as number;
  return { ...item, attempts: attempt, nextAt: new Date(now.getTime() + waitSeconds * 1000).toISOString() };
}

/**
 * Queues every new alert of the servers whose owner set a webhook, and tries each delivery that is due at `now`.
 * Returns how many deliveries were tried. A receiver that fails never stops another owner's delivery.
 */
export async function deliverOwnerWebhooks(storage: Storage, network: NetworkOptions, now: Date): Promise<number> {
  const { records } = await readOwnerRecords(storage);
  const withWebhook = [...records.values()].filter((r) => r.webhook !== undefined);
  if (withWebhook.length === 0) return 0;
  const alerts = await readOwnerAlerts(storage);
  let tried = 0;
  for (const record of withWebhook) {
    const webhook = record.webhook as NonNullable<OwnerRecord['webhook']>;
    const state = await readState(storage, record.server);
    let changed = takeNewAlerts(state, record, alerts, now);
    const kept: WebhookState['queued'] = [];
    for (const item of state.queued) {
      if (Date.parse(item.nextAt) > now.getTime()) {
        kept.push(item);
        continue;
      }
      tried += 1;
      changed = true;
      const again = await tryDelivery(item, webhook, state, network, now);
      if (again !== null) kept.push(again);
    }
    state.queued = kept;
    if (changed) await putJson(storage, statePathOf(record.server), state);
  }
  return tried;
}
