/**
 * Two large configuration documents of the shape people merge (services with nested settings, lists of tags and of
 * endpoint mappings, a few quoted strings and floats), generated from a seed so every run reads the same bytes.
 * The two share about half their keys, so `merge docs` both adds and merges.
 */

const WORDS = [
  "alpha",
  "beta",
  "cache",
  "client",
  "delta",
  "enabled",
  "gamma",
  "host",
  "level",
  "name",
  "path",
  "port",
  "queue",
  "region",
  "retries",
  "server",
  "timeout",
  "user",
  "worker",
  "zone",
];

/** A small linear congruential generator: deterministic, and the same on every platform. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** About `bytes` characters of YAML; `seed` 1 and 2 give two documents with many keys in common. */
export function configDocument(seed: number, bytes: number): string {
  const next = random(seed);
  const word = () => WORDS[Math.floor(next() * WORDS.length)]!;
  const chunks: string[] = [];
  let size = 0;
  for (let service = 0; size < bytes; service++) {
    const lines = [
      `service_${service}:`,
      `  enabled: ${next() < 0.5}`,
      `  port: ${8000 + Math.floor(next() * 1000)}`,
      `  host: ${word()}-${Math.floor(next() * 100)}.example.com`,
      "  settings:",
    ];
    for (let k = 0; k < 6; k++) {
      const value =
        next() < 0.3 ? JSON.stringify(`${word()} ${word()}`) : String(Math.floor(next() * 10_000));
      lines.push(`    ${word()}_${k}: ${value}`);
    }
    lines.push(
      "  limits:",
      `    cpu: ${(next() * 4).toFixed(2)}`,
      `    memory: ${64 * (1 + Math.floor(next() * 32))}Mi`,
    );
    lines.push("  tags:");
    for (let k = 0; k < 4; k++) lines.push(`    - ${word()}`);
    lines.push("  endpoints:");
    for (let k = 0; k < 2; k++) {
      lines.push(
        `    - name: ${word()}${k}`,
        `      url: https://${word()}.example.com/${word()}`,
        `      weight: ${(next() * 10).toFixed(2)}`,
      );
    }
    const chunk = `${lines.join("\n")}\n`;
    chunks.push(chunk);
    size += chunk.length;
  }
  return chunks.join("");
}
