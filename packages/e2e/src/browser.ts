import { Browser, chromium } from 'playwright-core';

/**
 * Debian's Chromium (scripts/ensure-chromium.sh installs it), headless. Playwright's own browser
 * builds cannot be downloaded here; playwright-core drives any Chromium over CDP.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
