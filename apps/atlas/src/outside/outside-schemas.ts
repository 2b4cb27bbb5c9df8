// The shapes of the files the outside-service jobs write: the domain-age cache (rolling state, not signed)
// and the day's package layer (a dated day file, so that day's seal covers it). Files are read back
// through these schemas, like every other file the app keeps.
import { z } from 'zod';
import { DAY } from '../data/schemas.js';

/** Why an outside service gave no usable answer: the probe's reason and its message. */
export const OutsideProblemSchema = z.object({ reason: z.string(), message: z.string() });
export type OutsideProblem = z.infer<typeof OutsideProblemSchema>;

/** The newest RDAP lookup of one domain. */
export const DomainAgeEntrySchema = z.object({
  domain: z.string(),
  /** The UTC day of the lookup; a found date serves 30 days from it. */
  lookedUpDay: DAY,
  lookedUpAt: z.iso.datetime(),
  /** The registration date the record gave, or null when the lookup found none. */
  registeredAt: z.iso.datetime().nullable(),
  /** Why no date was found, or null. */
  problem: OutsideProblemSchema.nullable(),
  /** The RDAP URL that answered or failed, or null when nothing was asked. */
  rdapUrl: z.string().nullable(),
});
export type DomainAgeEntry = z.infer<typeof DomainAgeEntrySchema>;

/** state/domain-ages.json: the lookup cache, by domain, and the last scan that planned lookups. */
export const DomainAgesFileSchema = z.object({
  /** The last day whose daily check was followed by the domain-age job. */
  lastScanDay: DAY.nullable(),
  domains: z.record(z.string(), DomainAgeEntrySchema),
  /** Domains that were due at the last scan but past its 40 lookups: first in line at the next one. */
  waiting: z.array(z.string()),
});
export type DomainAgesFile = z.infer<typeof DomainAgesFileSchema>;

/** One package that watched servers ship, with its current version and what OSV knows about it. */
export const PackageRecordSchema = z.object({
  ecosystem: z.enum(['npm', 'PyPI']),
  /** The name as its ecosystem compares it (PyPI names in PEP 503 normal form). */
  name: z.string(),
  /** Ids of the watched servers that ship it, sorted. */
  servers: z.array(z.string()),
  /** The current version read from the registry today, or null when it could not be read. */
  version: z.string().nullable(),
  /** Why the version could not be read, or null. */
  problem: OutsideProblemSchema.nullable(),
  /** The ids of the known vulnerabilities of `version`, sorted; null until OSV answered for this day. */
  vulnerabilities: z.array(z.string()).nullable(),
  /** True when OSV had more pages than were read: the list is a lower bound. */
  truncated: z.boolean(),
  /**
   * Downloads of the last 7 days (npm's downloads API, pypistats.org for PyPI), read with the version; null when
   * the count could not be read, absent from day files written before counts were read.
   */
  weeklyDownloads: z.number().int().min(0).nullable().optional(),
});
export type PackageRecord = z.infer<typeof PackageRecordSchema>;

/** How the day's OSV check went. */
export const OsvCheckSchema = z.object({
  /** When the newest attempt ended. */
  checkedAt: z.iso.datetime(),
  ok: z.boolean(),
  problem: OutsideProblemSchema.nullable(),
  /** Attempts made this day (a failure is retried hourly until the day ends). */
  attempts: z.number().int().positive(),
});
export type OsvCheck = z.infer<typeof OsvCheckSchema>;

/** days/<day>/packages.json: the package layer of one day, sealed with the rest of the day. */
export const PackageLayerFileSchema = z.object({
  day: DAY,
  methodologyVersion: z.string(),
  /** When the versions were read. */
  readAt: z.iso.datetime(),
  /** Sorted by ecosystem, then name. */
  packages: z.array(PackageRecordSchema),
  /** Null until the 04:05 UTC check has run for this day. */
  osv: OsvCheckSchema.nullable(),
});
export type PackageLayerFile = z.infer<typeof PackageLayerFileSchema>;
