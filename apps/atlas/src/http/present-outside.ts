// How a server's domain age and packages read on the wire (GET /api/servers/:id). Each field is copied by
// name, so nothing the files hold beyond the documented shape reaches an answer.

import type { DomainAgeView, ServerPackagesView } from '../outside/read-outside.js';
import type { ServerDetail } from './schemas.js';

/** The domain age as the API shows it, or null when the domain was not looked up in the last 30 days. */
export function presentDomainAge(age: DomainAgeView | null): ServerDetail['domainAge'] {
  if (age === null) return null;
  return {
    domain: age.domain,
    registeredAt: age.registeredAt,
    ageDays: age.ageDays,
    young: age.young,
    lookedUpDay: age.lookedUpDay,
    problem: age.problem === null ? null : { reason: age.problem.reason, message: age.problem.message },
  };
}

function presentOsv(osv: ServerPackagesView['osv']): ServerDetail['packages']['osv'] {
  if (osv === null) return null;
  return {
    checkedAt: osv.checkedAt,
    ok: osv.ok,
    problem: osv.problem === null ? null : { reason: osv.problem.reason, message: osv.problem.message },
    attempts: osv.attempts,
  };
}

/** The packages as the API shows them: each with its version, and the ids of its known vulnerabilities. */
export function presentPackages(view: ServerPackagesView): ServerDetail['packages'] {
  return {
    day: view.day,
    osv: presentOsv(view.osv),
    packages: view.packages.map((record) => ({
      ecosystem: record.ecosystem,
      name: record.name,
      version: record.version,
      problem: record.problem === null ? null : { reason: record.problem.reason, message: record.problem.message },
      vulnerabilities: record.vulnerabilities === null ? null : [...record.vulnerabilities],
      truncated: record.truncated,
      weeklyDownloads: record.weeklyDownloads ?? null,
    })),
    newer: view.newer === null ? null : { day: view.newer.day, osv: presentOsv(view.newer.osv) },
  };
}
