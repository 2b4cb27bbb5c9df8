// How a server reads on the wire: the read model's ServerView turned into the API's JSON. Every figure
// comes from the view (and so from the packages); this file only chooses names and shapes.
import { describeShownState } from '@mcp-atlas/reliability/live';
import type { z } from 'zod';
import { OWNER_NOTE_ATTRIBUTION } from '../owners/limits.js';
import type { ObservingSubmission } from '../submissions/observing.js';
import type { AtlasView, ServerView } from '../view/build-view.js';
import { WITHHELD_DESCRIPTION_REASON } from '../view/served-text.js';
import { presentScore, type ServerDetailWithScore, scoreFreshnessOf, scoreOf } from './leaderboard.js';
import { presentDomainAge, presentPackages } from './present-outside.js';
import type { ObservingServer, ServerChangeSchema, ServerDetail, ServerSummary, ServerToolSchema } from './schemas.js';

/** What a page shows for the server now (hourly checks and the second-failure rule included), with its words. */
export function displayStatusOf(server: ServerView): ServerSummary['status'] {
  const state = server.shown.state;
  if (state === null) return { state: null, label: 'not checked yet' };
  return { state, label: describeShownState(state) };
}

/** One server as GET /api/servers lists it. */
export function presentServerSummary(view: AtlasView, server: ServerView): ServerSummary {
  const { uptime } = server;
  return {
    id: server.id,
    url: server.url,
    title: server.title,
    day: view.day,
    letter: server.latest?.letter ?? null,
    letters: server.letters,
    status: displayStatusOf(server),
    notStandardMcp: server.latest?.notStandardMcp === true,
    uptime: {
      value: uptime.percent,
      label: uptime.label,
      source: uptime.source,
      sourceLabel: uptime.sourceLabel,
      daysObserved: uptime.daysObserved,
      isThirtyDay: uptime.isThirtyDay,
      longValue: uptime.longPercent,
    },
    successChance: server.successChance,
    stability: server.stability,
    changeDaysLast30: server.changeDaysLast30,
    category: server.category,
    toolCount: server.latest === null ? null : server.latest.toolCount,
    tokens: server.latest?.tokens ?? null,
    findings: (server.latest?.findings ?? []).map((finding) => ({
      id: finding.id,
      message: finding.message,
      ...(finding.tools !== undefined ? { tools: finding.tools } : {}),
      ...(finding.value !== undefined ? { value: finding.value } : {}),
    })),
  };
}

/** The directories that reported a server, and its pages there, from the newest catalog. */
function presentSources(view: AtlasView, id: string): Pick<ServerDetail, 'sources' | 'external_urls'> {
  const entry = view.catalog?.byServerId.get(id);
  if (entry === undefined) return { sources: [], external_urls: {} };
  return {
    sources: entry.reportedBy.map((seen) => ({
      source: seen.source,
      id: seen.sourceId,
      firstSeen: seen.firstSeen,
      lastSeen: seen.lastSeen,
      listsNow: seen.listsNow,
    })),
    external_urls: { ...entry.externalUrls },
  };
}

/** A submitted server in observation as GET /api/servers lists it, apart from the servers on the map. */
export function presentObserving(entry: ObservingSubmission): ObservingServer {
  return {
    id: entry.id,
    url: entry.url,
    name: entry.name,
    submittedAt: entry.submittedAt,
    window: { index: entry.window.index, start: entry.window.start, end: entry.window.end },
    checks: entry.checks,
    answered: entry.answered,
    answeredPercent: entry.answeredPercent,
    nextCheckAt: entry.nextCheckAt,
  };
}

/** The description a server gave a tool, when it gave a string one (the tools array is untrusted JSON). */
function descriptionOf(tools: readonly unknown[], name: string): string | null {
  for (const tool of tools) {
    if (tool !== null && typeof tool === 'object' && (tool as { name?: unknown }).name === name) {
      const description = (tool as { description?: unknown }).description;
      return typeof description === 'string' ? description : null;
    }
  }
  return null;
}

/** What pages show in place of a withheld description (see {@link presentTools}). */
export const WITHHELD_DESCRIPTION_NOTE =
  'Description withheld until a person reviews it: it matched the description-injection scan, which looks for text written to steer an AI agent.';

/**
 * The server's tools with our verdicts, from its newest catalog. A description held back until a person
 * reviews it (see view/served-text.ts) is null, with `descriptionWithheld` saying why.
 */
export function presentTools(
  server: Pick<ServerView, 'catalog' | 'withheldDescriptions'>,
): z.infer<typeof ServerToolSchema>[] {
  const catalog = server.catalog;
  if (catalog === null) return [];
  return catalog.verdicts.map((verdict) => {
    const withheld = server.withheldDescriptions.has(verdict.name);
    return {
      name: verdict.name,
      description: withheld ? null : descriptionOf(catalog.tools, verdict.name),
      ...(withheld ? { descriptionWithheld: WITHHELD_DESCRIPTION_REASON } : {}),
      level: verdict.level,
      rule: verdict.rule,
      raised: verdict.raised,
      reason: verdict.reason,
    };
  });
}

/** The verified owner's part of a server page: their note is labelled as their words, never ours. */
export function presentOwner(server: ServerView): ServerDetail['owner'] {
  const owner = server.owner;
  if (owner === null) return null;
  return {
    origin: owner.origin,
    verifiedAt: owner.verifiedAt,
    note:
      owner.note === null
        ? null
        : { text: owner.note.text, setAt: owner.note.setAt, attribution: OWNER_NOTE_ATTRIBUTION },
    fiveMinuteChecks: owner.fiveMinuteChecks,
  };
}

/** Why a server is off the published map, with its words; null while it is on the map. */
export interface LeftOutBody {
  reason: NonNullable<ServerView['leftOut']>;
  label: string;
}

const LEFT_OUT_LABELS: Readonly<Record<NonNullable<ServerView['leftOut']>, string>> = {
  'opted-out': 'left out: its owner opted out',
  robots: 'left out: its robots.txt shuts our bot out',
  'not-in-registry': 'left out: no longer in the registry',
  'not-checked': 'left out: the newest daily check did not list it',
};

/**
 * Why a server is off the map (left out of lists, search, route and rankings), with its words, or null:
 * the `leftOut` field of GET /api/servers/:id and the note on the server page.
 */
export function presentLeftOut(server: ServerView): LeftOutBody | null {
  return server.leftOut === null ? null : { reason: server.leftOut, label: LEFT_OUT_LABELS[server.leftOut] };
}

/**
 * One server as GET /api/servers/:id shows it at `now`, with its tools, the changes passed in, and its quality
 * score with its freshness and uptime windows.
 */
export function presentServerDetail(
  view: AtlasView,
  server: ServerView,
  changes: z.infer<typeof ServerChangeSchema>[],
  now: Date,
): ServerDetailWithScore {
  const latest = server.latest;
  const scored = scoreOf(view, server.id);
  return {
    ...presentServerSummary(view, server),
    check:
      latest === null
        ? null
        : {
            day: view.day,
            reason: latest.reason,
            message: latest.message,
            protocolVersion: latest.protocolVersion,
            serverName: latest.serverName,
            serverVersion: latest.serverVersion,
            handshakeMs: latest.elapsedMs,
            highRiskTools: latest.highRiskTools,
            paymentAddress: latest.paymentAddress,
            redirect: latest.redirect,
          },
    toolsDay: server.catalog?.day ?? null,
    tools: presentTools(server),
    changes,
    outages: server.state.outages,
    incident: {
      shown: server.incident.shown,
      confirmedBy: server.incident.confirmedBy,
      failingReporters: server.incident.failingReporters.length,
      since: server.incident.since,
      until: server.incident.until,
      explanation: server.incident.explanation,
    },
    rating: {
      shown: server.rating.visible,
      stars: server.rating.visible ? server.rating.stars : null,
      reliability: server.rating.visible ? server.rating.reliability : null,
      reporters: server.rating.reporters,
    },
    owner: presentOwner(server),
    submittedAt: server.submittedAt,
    domainAge: presentDomainAge(server.domainAge),
    packages: presentPackages(server.packages),
    leftOut: presentLeftOut(server),
    ...presentSources(view, server.id),
    score: presentScore(scored?.score ?? null),
    scoredDay: scored?.day ?? null,
    ...scoreFreshnessOf(scored?.day ?? null, now),
    scoreUptime: scored?.score.uptime ?? null,
  };
}
