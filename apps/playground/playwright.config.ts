import { defineConfig } from "@playwright/test";

// Debian's Chromium (`apt-get install chromium`; scripts/chromium.sh in CI): Playwright's own browser download is
// not used. PLAYGROUND_CHROMIUM points at another binary.
const executablePath = process.env.PLAYGROUND_CHROMIUM ?? "/usr/bin/chromium";

export default defineConfig({
  testDir: "test",
  globalSetup: "./test/global-setup.ts",
  // The machine has two cores; one browser at a time keeps the tests' waits far from their limits.
  workers: 1,
  fullyParallel: false,
  forbidOnly: true,
  retries: 0,
  reporter: [["list"]],
  // Generous limits: the tests wait for what the page shows, never for a time.
  timeout: 120_000,
  expect: { timeout: 30_000 },
  use: {
    viewport: { width: 1280, height: 900 },
    launchOptions: {
      executablePath,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
});
