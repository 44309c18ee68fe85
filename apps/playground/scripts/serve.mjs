// `pnpm playground`: serves the built playground on 127.0.0.1 and prints its address. PORT chooses the port
// (default 4173; 0 takes a free one).
import { fileURLToPath } from "node:url";
import { serveStatic } from "./server.mjs";

const root = fileURLToPath(new URL("../dist/", import.meta.url));
const port = Number(process.env.PORT ?? 4173);
const { url } = await serveStatic(root, { port });
console.log(`The @merge playground is at ${url}\n(everything runs in the page; stop with Ctrl-C)`);
