import type { Server } from "node:http";

export function serveStatic(
  root: string,
  options?: { port?: number; base?: string },
): Promise<{ server: Server; url: string }>;
