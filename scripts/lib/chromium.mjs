// Debian's Chromium as `npm start -- --check` and the e2e harness launch it (headless, in a closed network).

export const chromiumBin = process.env.PERSONA_LAB_CHROMIUM || '/usr/bin/chromium';

/** Without the background-networking flags it floods the closed network with retries. */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];
