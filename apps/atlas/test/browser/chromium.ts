// Launching Debian's Chromium for the browser tests. The browser is the system one (`apt-get install -y
// chromium`, which scripts/ensure-chromium.sh runs when it is missing), never one a test tool downloads.
// The flags are the ones these machines need: no sandbox for root, no GPU, and no background networking or
// component updates, because the machine's network is closed and Chromium would keep trying.
// Playwright gives each launch a fresh temporary profile (its own --user-data-dir), removed on close.
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Where the browser is; CHROMIUM_PATH overrides it. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The flags every launch gets. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
] as const;

/** Launches Chromium, or fails saying how to install it. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `no Chromium at ${CHROMIUM_PATH}: run apps/atlas/scripts/ensure-chromium.sh (apt-get install -y chromium)`,
    );
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: [...CHROMIUM_ARGS] });
}
