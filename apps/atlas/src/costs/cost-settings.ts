// The two compute caps' settings: each cap's budget per UTC day and the cost model both share. The numbers
// and the rule live in @mcp-atlas/operations; this file only resolves what an operator configured.
import { type CheckCostModel, usdToMicroUsd } from '@mcp-atlas/operations';
import { COST_CAP_RULES } from '@mcp-atlas/operations/rules';

/** The cost defaults as the usage texts write them (`0.10`, `0.00001`), read from the rules so they cannot drift. */
export const COST_DEFAULT_TEXT = Object.freeze({
  dailyBudgetUsd: COST_CAP_RULES.dailyCheckBudgetUsd.toFixed(2),
  fiveMinuteBudgetUsd: COST_CAP_RULES.fiveMinuteBudgetUsd.toFixed(2),
  perCheckUsd: String(COST_CAP_RULES.defaultCheckCostModel.perCheckUsd),
  perSecondUsd: String(COST_CAP_RULES.defaultCheckCostModel.perSecondUsd),
});

/** What an operator may set; anything left out takes the methodology's default. */
export interface CostSettings {
  /** What the daily checks may spend per UTC day, in US dollars (default 0.10). */
  dailyBudgetUsd?: number;
  /** What the five-minute checks may spend per UTC day, in US dollars (default 0.25). */
  fiveMinuteBudgetUsd?: number;
  /** What one check costs (default: $0.00001 per check plus $0.00001 per second of wall time). */
  model?: CheckCostModel;
}

/** The settings in the unit the ledgers count in. */
export interface ResolvedCosts {
  dailyBudgetMicroUsd: number;
  fiveMinuteBudgetMicroUsd: number;
  model: CheckCostModel;
}

/** Fills in the defaults and converts budgets to whole micro-dollars; throws on a negative or non-finite amount. */
export function resolveCosts(settings: CostSettings = {}): ResolvedCosts {
  const model = settings.model ?? COST_CAP_RULES.defaultCheckCostModel;
  // Converting both parts checks the model now, at start-up, rather than at the first check.
  usdToMicroUsd(model.perCheckUsd, 'perCheckUsd');
  usdToMicroUsd(model.perSecondUsd, 'perSecondUsd');
  return {
    dailyBudgetMicroUsd: usdToMicroUsd(settings.dailyBudgetUsd ?? COST_CAP_RULES.dailyCheckBudgetUsd, 'dailyBudgetUsd'),
    fiveMinuteBudgetMicroUsd: usdToMicroUsd(
      settings.fiveMinuteBudgetUsd ?? COST_CAP_RULES.fiveMinuteBudgetUsd,
      'fiveMinuteBudgetUsd',
    ),
    model: { perCheckUsd: model.perCheckUsd, perSecondUsd: model.perSecondUsd },
  };
}

/** The command-line options that set the caps, as `serve` and `scan` accept them. */
export const COST_FLAG_OPTIONS = {
  'daily-budget-usd': { type: 'string' },
  'five-minute-budget-usd': { type: 'string' },
  'check-cost-usd': { type: 'string' },
  'check-cost-per-second-usd': { type: 'string' },
} as const;

/** The cost flags of the daily check alone (scan and worker run no five-minute checks). */
export const DAILY_COST_FLAG_OPTIONS = {
  'daily-budget-usd': COST_FLAG_OPTIONS['daily-budget-usd'],
  'check-cost-usd': COST_FLAG_OPTIONS['check-cost-usd'],
  'check-cost-per-second-usd': COST_FLAG_OPTIONS['check-cost-per-second-usd'],
} as const;

/** The largest amount any cost option accepts, in US dollars: far above any sane budget, and a guard against typos. */
export const MAX_COST_FLAG_USD = 1_000;

const DECIMAL = /^\d+(?:\.\d+)?$/;

/** Thrown for a cost option that is not a plain decimal amount; the command turns it into a usage error. */
export class CostFlagError extends Error {
  override readonly name = 'CostFlagError';
}

function readUsd(
  flags: Record<string, string | boolean | undefined>,
  name: keyof typeof COST_FLAG_OPTIONS,
): number | undefined {
  const raw = flags[name];
  if (raw === undefined) return undefined;
  const value = typeof raw === 'string' && DECIMAL.test(raw) ? Number(raw) : Number.NaN;
  if (!(value >= 0 && value <= MAX_COST_FLAG_USD)) {
    throw new CostFlagError(
      `--${name} must be an amount in US dollars from 0 to ${MAX_COST_FLAG_USD}, written like 0.10`,
    );
  }
  return value;
}

/** Reads the cost options of a parsed command line; options left out keep their defaults. */
export function readCostFlags(flags: Record<string, string | boolean | undefined>): CostSettings {
  const dailyBudgetUsd = readUsd(flags, 'daily-budget-usd');
  const fiveMinuteBudgetUsd = readUsd(flags, 'five-minute-budget-usd');
  const perCheckUsd = readUsd(flags, 'check-cost-usd');
  const perSecondUsd = readUsd(flags, 'check-cost-per-second-usd');
  const settings: CostSettings = {};
  if (dailyBudgetUsd !== undefined) settings.dailyBudgetUsd = dailyBudgetUsd;
  if (fiveMinuteBudgetUsd !== undefined) settings.fiveMinuteBudgetUsd = fiveMinuteBudgetUsd;
  if (perCheckUsd !== undefined || perSecondUsd !== undefined) {
    settings.model = {
      perCheckUsd: perCheckUsd ?? COST_CAP_RULES.defaultCheckCostModel.perCheckUsd,
      perSecondUsd: perSecondUsd ?? COST_CAP_RULES.defaultCheckCostModel.perSecondUsd,
    };
  }
  return settings;
}
