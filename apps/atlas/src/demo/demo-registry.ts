// The fleet's registry entries, as a registry sync would have stored them (state/registry-score-facts.json). They
// differ in what the quality score reads from an entry: a repository and packages or none, secret variables from
// none to many, the transport, and descriptions that say what the server does or only that it is a server. With the members' differing tool schemas,
// uptime and latency, they give the demo's leaderboard a spread of grades a newcomer can read.
import type { RegistryScoreFacts } from '../data/schemas.js';
import { WATCHED_TRANSPORT, writeRegistryScoreFacts } from '../score/registry-facts.js';
import type { Storage } from '../storage/storage.js';

const secret = (name: string) => ({ name, isSecret: true });
const setting = (name: string) => ({ name, isSecret: false });

/** A description that says nothing about the server, which the score reads as a template's; two entries use it. */
const SHARED_DESCRIPTION = 'An MCP server for your team.';

function entry(id: string, parts: Partial<RegistryScoreFacts>): RegistryScoreFacts {
  return {
    registryId: `io.github.atlas-demo/${id}`,
    description: '',
    repositoryUrl: null,
    websiteUrl: null,
    envVars: [],
    transport: WATCHED_TRANSPORT,
    packages: [],
    ...parts,
  };
}

/** The registry facts of the fleet's members, by member id; a member not listed has no registry entry. */
export const DEMO_REGISTRY_FACTS: ReadonlyMap<string, RegistryScoreFacts> = new Map([
  [
    'notes',
    entry('notes', {
      description: 'Create, search and link notes in a shared notebook.',
      repositoryUrl: 'https://github.com/atlas-demo/notes',
      websiteUrl: 'https://notes.demo-fleet.example',
      packages: [{ registryType: 'npm', identifier: '@atlas-demo/notes' }],
    }),
  ],
  [
    'weather',
    entry('weather', {
      description: 'Current weather and forecasts by place name.',
      repositoryUrl: 'https://github.com/atlas-demo/weather',
      envVars: [secret('WEATHER_API_KEY')],
    }),
  ],
  [
    'ledger',
    entry('ledger', {
      description: 'Payments, refunds and balances of a business ledger.',
      repositoryUrl: 'https://github.com/atlas-demo/ledger',
      envVars: [secret('LEDGER_API_KEY'), secret('LEDGER_WEBHOOK_SECRET'), secret('BANK_PASSWORD')],
    }),
  ],
  [
    'vault',
    entry('vault', {
      description: 'Look up shared passwords after signing in.',
      repositoryUrl: 'https://github.com/atlas-demo/vault',
      packages: [{ registryType: 'npm', identifier: '@atlas-demo/vault' }],
    }),
  ],
  [
    'paywall',
    entry('paywall', {
      description: 'Premium market data, paid per call.',
      repositoryUrl: 'https://github.com/atlas-demo/paywall',
      packages: [{ registryType: 'npm', identifier: '@atlas-demo/paywall' }],
    }),
  ],
  ['calendar', entry('calendar', { description: SHARED_DESCRIPTION })],
  ['codehost', entry('codehost', { description: SHARED_DESCRIPTION })],
  [
    'warehouse',
    entry('warehouse', {
      description: 'Run read-only SQL over the analytics warehouse.',
      envVars: [
        secret('WAREHOUSE_PASSWORD'),
        secret('AWS_SECRET_ACCESS_KEY'),
        secret('AWS_ACCESS_KEY_ID'),
        setting('WAREHOUSE_USER'),
        setting('WAREHOUSE_SCHEMA'),
        setting('S3_BUCKET'),
      ],
    }),
  ],
  [
    'files',
    entry('files', {
      description: 'Upload, share and fetch files.',
      transport: 'sse',
      envVars: [secret('FILES_TOKEN'), secret('FILES_PRIVATE_KEY'), secret('FILES_DB_PASSWORD')],
    }),
  ],
  [
    'translate',
    entry('translate', {
      description: 'Translate text between languages.',
      transport: 'sse',
      envVars: [secret('TRANSLATE_API_KEY'), secret('TRANSLATE_SECRET'), secret('TRANSLATE_PASSWORD')],
    }),
  ],
]);

/** Stores the fleet's registry entries, as the registry sync stores a real registry's. */
export async function writeDemoRegistryFacts(storage: Storage): Promise<void> {
  await writeRegistryScoreFacts(storage, DEMO_REGISTRY_FACTS);
}
