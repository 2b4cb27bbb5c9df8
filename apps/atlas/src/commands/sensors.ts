// `mcp-atlas sensors add | list | revoke`: the gateway sensors allowed to spend their own daily allowance. `add`
// prints the new token once; the store keeps only its keyed digest, under a key derived from the signing key.
import {
  listSensorRegistrations,
  registerSensor,
  revokeSensor,
  sensorTokenKeyOf,
} from '../data/sensor-registrations.js';
import { SENSOR_ID_PATTERN } from '../data/stored-records.js';
import { reporterSecretOf } from '../seal/keys.js';
import { readOperatorSigningKeys } from './keys.js';
import { expectWords, openExistingDataFolder, parseOperatorArgs } from './operator-args.js';
import { EXIT_FAILED, EXIT_OK, UsageError } from './shared.js';

export const SENSORS_USAGE = `  sensors add <id> [--data DIR | --store URL] [--signing-key FILE]
          register a gateway sensor and print its token once (send it as Authorization: Bearer <token>);
          adding a registered id again replaces its token
  sensors list [--data DIR | --store URL] [--json]   the registered sensors (never their tokens)
  sensors revoke <id> [--data DIR | --store URL]     end a sensor's token; its id stays reserved`;

const STORE_FLAGS = { data: { type: 'string' }, store: { type: 'string' } } as const;

function sensorIdOf(word: string): string {
  if (!SENSOR_ID_PATTERN.test(word))
    throw new UsageError(
      'a sensor id is 1 to 64 lower-case letters, digits, "_" or "-", starting with a letter or digit',
    );
  return word;
}

async function addCommand(args: readonly string[], env: NodeJS.ProcessEnv, now: Date): Promise<number> {
  const { flags, words } = parseOperatorArgs(args, { ...STORE_FLAGS, 'signing-key': { type: 'string' } });
  const [word] = expectWords(words, 1, 'one sensor id: sensors add <id>') as [string];
  const sensor = sensorIdOf(word);
  const storage = await openExistingDataFolder(flags, env);
  const found = await readOperatorSigningKeys(flags, env);
  if (!found.ok) {
    process.stderr.write(`mcp-atlas: ${found.message}\n`);
    return EXIT_FAILED;
  }
  const key = sensorTokenKeyOf(reporterSecretOf(found.keys));
  const { token, replaced } = await registerSensor(storage, key, sensor, now);
  process.stderr.write(
    `${replaced ? 'replaced the token of' : 'registered'} ${sensor}; the token is shown only now, keep it secret:\n`,
  );
  process.stdout.write(`${token}\n`);
  return EXIT_OK;
}

async function listCommand(args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const { flags, words } = parseOperatorArgs(args, { ...STORE_FLAGS, json: { type: 'boolean' } });
  expectWords(words, 0, 'no words after "sensors list"');
  const records = await listSensorRegistrations(await openExistingDataFolder(flags, env));
  const shown = records.map(({ sensor, created, revoked }) => ({ sensor, created, revoked }));
  if (flags.json === true) process.stdout.write(`${JSON.stringify(shown, null, 2)}\n`);
  else if (shown.length === 0) process.stdout.write('no registered sensors\n');
  else
    process.stdout.write(
      shown
        .map((r) => `${r.sensor}  registered ${r.created}${r.revoked === null ? '' : `  revoked ${r.revoked}`}\n`)
        .join(''),
    );
  return EXIT_OK;
}

async function revokeCommand(args: readonly string[], env: NodeJS.ProcessEnv, now: Date): Promise<number> {
  const { flags, words } = parseOperatorArgs(args, STORE_FLAGS);
  const [word] = expectWords(words, 1, 'one sensor id: sensors revoke <id>') as [string];
  const sensor = sensorIdOf(word);
  if (!(await revokeSensor(await openExistingDataFolder(flags, env), sensor, now))) {
    process.stderr.write(`mcp-atlas: no registered sensor ${sensor}\n`);
    return EXIT_FAILED;
  }
  process.stdout.write(`revoked ${sensor}\n`);
  return EXIT_OK;
}

/** Runs `mcp-atlas sensors <subcommand>`. */
export async function commandSensors(
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  now: Date = new Date(),
): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === 'add') return addCommand(rest, env, now);
  if (sub === 'list') return listCommand(rest, env);
  if (sub === 'revoke') return revokeCommand(rest, env, now);
  throw new UsageError('sensors takes one subcommand: add, list or revoke');
}
