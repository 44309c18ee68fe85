// A static file server for the built playground, on 127.0.0.1 only. It serves `dist/` under a sub-path too
// (`/some/sub/path/`), which shows the build works from any folder of any static host.
import { createReadStream, statSync } from "node:fs";
import { createServer } from "node:http";
import { extname, join, normalize, sep } from "node:path";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".json": "application/json",
  ".wasm": "application/wasm",
};

/**
 * Serves `root` at `base` (a path starting and ending with `/`) on 127.0.0.1 and resolves to the server and its
 * address once it listens; port 0 takes a free port.
 */
export function serveStatic(root, { port = 0, base = "/" } = {}) {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    if (!url.pathname.startsWith(base)) {
      response.writeHead(404).end("not found");
      return;
    }
    let rel = decodeURIComponent(url.pathname.slice(base.length)) || "index.html";
    if (rel.endsWith("/")) rel += "index.html";
    const file = normalize(join(root, rel));
    if (file !== root && !file.startsWith(root.endsWith(sep) ? root : root + sep)) {
      response.writeHead(403).end("forbidden");
      return;
    }
    let size;
    try {
      const stat = statSync(file);
      if (!stat.isFile()) throw new Error("not a file");
      size = stat.size;
    } catch {
      response.writeHead(404).end("not found");
      return;
    }
    response.writeHead(200, {
      "Content-Type": TYPES[extname(file)] ?? "application/octet-stream",
      "Content-Length": size,
      "Cache-Control": "no-store",
    });
    createReadStream(file).pipe(response);
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      const address = server.address();
      resolve({ server, url: `http://127.0.0.1:${address.port}${base}` });
    });
  });
}
