// Serves the built playground (dist/) on 127.0.0.1 at a free port, under a sub-path as a static host might, and
// hands its address to the tests in PLAYGROUND_URL.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { serveStatic } from "../scripts/server.mjs";

export default async function globalSetup(): Promise<() => Promise<void>> {
  const root = fileURLToPath(new URL("../dist/", import.meta.url));
  if (!existsSync(`${root}index.html`)) {
    throw new Error(
      "the playground is not built: run `pnpm --filter playground build` (or `pnpm build`) first",
    );
  }
  const { server, url } = await serveStatic(root, { base: "/some/sub/path/" });
  process.env.PLAYGROUND_URL = url;
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
