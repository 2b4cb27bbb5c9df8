// The owner view: what the service knows about one server, for its verified owner only (their access token,
// owners/owner-access.ts). GET /api/owners/:id/view answers it as JSON; the /owner page shows the same. It holds
// the owner's alerts (second failures, score drops), the demand counts (tasks routed to the server, gateway
// sensors' outcomes), a summary of agents' reports, the changes, and the score with its history.
import { shiftDay } from '@mcp-atlas/base';
import { SHOWN_SCORE_RULES } from '@mcp-atlas/operations/rules';
import { RATING_RULES } from '@mcp-atlas/reliability/rules';
import { GRADE_RULES } from '@mcp-atlas/score/rules';
import { z } from 'zod';
import { OwnerAlertSchema, readOwnerAlerts, ScoreDropAlertSchema } from '../data/owner-alerts.js';
import { demandAggregatePath, sensorAggregatePath } from '../data/paths.js';
import { DemandAggregateSchema, SensorAggregateSchema } from '../demand/aggregates.js';
import { ownerAccessMatches } from '../owners/owner-access.js';
import { type OwnerRecord, readOwnerRecord } from '../owners/owner-records.js';
import { readWebhookLog, WebhookLogEntrySchema } from '../owners/webhooks.js';
import { ScoreResultSchema } from '../score/day-scores.js';
import { getJsonOrNull, type Storage } from '../storage/storage.js';
import type { AtlasView } from '../view/build-view.js';
import { readRecentReports } from '../view/build-view.js';
import { presentScore, ScoreFreshnessSchema, scoreFreshnessOf } from './leaderboard.js';
import { ServerChangeSchema } from './schemas.js';

/** The realm named in the owner view's 401 answers. */
export const OWNER_VIEW_REALM = 'mcp-atlas owners';

const DemandDaySchema = z.object({
  day: z.string(),
  routed: z.int().nonnegative().describe('Tasks whose top pick was this server.'),
  sensorOutcomes: z.int().nonnegative().describe('Calls gateway sensors reported about this server.'),
  sensorFailures: z.int().nonnegative(),
});

/** GET /api/owners/{id}/view. */
export const OwnerViewSchema = z.object({
  server: z.string(),
  title: z.string().nullable(),
  url: z.string(),
  origin: z.string(),
  verifiedAt: z.string(),
  note: z.object({ text: z.string(), setAt: z.string() }).nullable(),
  fiveMinuteChecks: z.boolean(),
  alerts: z.object({
    failures: z.array(OwnerAlertSchema).describe('Second failures in a row, newest last.'),
    scoreDrops: z
      .array(ScoreDropAlertSchema)
      .describe(`Falls of the composite of ${GRADE_RULES.dropAlertPoints} points or more, newest last.`),
  }),
  demand: z.array(DemandDaySchema).describe('Each aggregated day of the window, oldest first.'),
  reports: z.object({
    days: z.int().describe('Days of agents’ reports summed, the newest included.'),
    reports: z.int().nonnegative(),
    worked: z.int().nonnegative(),
    failed: z.int().nonnegative(),
    reporters: z.int().nonnegative().describe('Distinct reporters (never who they are).'),
    failureReasons: z.record(z.string(), z.int().nonnegative()),
  }),
  changes: z.array(ServerChangeSchema),
  webhook: z
    .object({
      url: z.string(),
      setAt: z.string(),
      deliveries: z
        .array(WebhookLogEntrySchema)
        .describe('Each try, newest last: delivered, failed (tried again later) or given up.'),
    })
    .nullable(),
  score: ScoreResultSchema.nullable(),
  scoredDay: z.string().nullable(),
  ...ScoreFreshnessSchema.shape,
  scoreHistory: z.array(
    z.object({
      day: z.string(),
      compositeScore: z.number().nullable(),
      grade: z.string(),
      visibilityLevel: z.string(),
    }),
  ),
});
export type OwnerView = z.infer<typeof OwnerViewSchema>;

/**
 * The owner record of `serverId` when `token` is its access token and the record was made for the origin the
 * server is served from now; null otherwise (for every failure alike, so the answer tells a guesser nothing).
 */
export async function authorizeOwner(
  storage: Storage,
  view: AtlasView,
  serverId: string,
  token: string | null,
): Promise<OwnerRecord | null> {
  const server = view.byId.get(serverId);
  if (server === undefined || token === null) return null;
  const record = await readOwnerRecord(storage, serverId).catch(() => null);
  if (record === null || record.origin !== new URL(server.url).origin) return null;
  return ownerAccessMatches(record.access?.hash, token) ? record : null;
}

/** The bearer token of an Authorization header, or null. */
export function bearerTokenOf(header: string | undefined): string | null {
  const match = /^Bearer ([\x21-\x7e]{1,200})$/.exec(header ?? '');
  return match?.[1] ?? null;
}

async function demandOf(storage: Storage, serverId: string, today: string): Promise<OwnerView['demand']> {
  const days: OwnerView['demand'] = [];
  for (let back = SHOWN_SCORE_RULES.trendDays; back >= 1; back--) {
    const day = shiftDay(today, -back);
    const demand = DemandAggregateSchema.safeParse(await getJsonOrNull(storage, demandAggregatePath(day)));
    const sensors = SensorAggregateSchema.safeParse(await getJsonOrNull(storage, sensorAggregatePath(day)));
    if (!demand.success && !sensors.success) continue;
    const sensed = sensors.success ? sensors.data.servers[serverId] : undefined;
    days.push({
      day,
      routed: demand.success ? (demand.data.servers[serverId] ?? 0) : 0,
      sensorOutcomes: sensed?.outcomes ?? 0,
      sensorFailures: sensed?.failed ?? 0,
    });
  }
  return days;
}

async function reportsOf(storage: Storage, serverId: string, today: string): Promise<OwnerView['reports']> {
  const reports = (await readRecentReports(storage, today)).get(serverId) ?? [];
  const failureReasons: Record<string, number> = {};
  for (const report of reports)
    if (!report.ok)
      failureReasons[report.reason ?? 'unstated'] = (failureReasons[report.reason ?? 'unstated'] ?? 0) + 1;
  return {
    days: RATING_RULES.reportWindowDays + 1,
    reports: reports.length,
    worked: reports.filter((r) => r.ok).length,
    failed: reports.filter((r) => !r.ok).length,
    reporters: new Set(reports.map((r) => r.reporter)).size,
    failureReasons,
  };
}

/** Everything the owner view shows for `record`'s server, as of `now`. */
export async function ownerViewOf(input: {
  storage: Storage;
  view: AtlasView;
  record: OwnerRecord;
  changes: z.infer<typeof ServerChangeSchema>[];
  now: Date;
}): Promise<OwnerView> {
  const { storage, view, record, now } = input;
  const server = view.byId.get(record.server);
  const today = now.toISOString().slice(0, 10);
  const alerts = (await readOwnerAlerts(storage)).servers[record.server];
  const scored = view.scores.latest.get(record.server) ?? null;
  return {
    server: record.server,
    title: server?.title ?? null,
    url: server?.url ?? '',
    origin: record.origin,
    verifiedAt: record.verifiedAt,
    note: record.note,
    fiveMinuteChecks: record.fiveMinuteChecks,
    alerts: { failures: alerts?.alerts ?? [], scoreDrops: alerts?.scoreDrops ?? [] },
    demand: await demandOf(storage, record.server, today),
    reports: await reportsOf(storage, record.server, today),
    changes: input.changes,
    webhook:
      record.webhook === undefined
        ? null
        : {
            url: record.webhook.url,
            setAt: record.webhook.setAt,
            deliveries: await readWebhookLog(storage, record.server),
          },
    score: presentScore(scored?.score ?? null),
    scoredDay: scored?.day ?? null,
    ...scoreFreshnessOf(scored?.day ?? null, now),
    scoreHistory: (view.scores.trends.get(record.server) ?? []).map((p) => ({
      day: p.day,
      compositeScore: p.compositeScore,
      grade: p.grade,
      visibilityLevel: p.visibilityLevel,
    })),
  };
}
