// What the page holds, its starting points, and its encoding in the URL fragment (compressed; a fragment is never
// sent to a server).
import type { CloudMode, PartInput, StackFile } from "./worker/protocol.js";

export type View = "cloud" | "lab" | "stack";

export interface CloudState {
  readonly mode: CloudMode;
  readonly source: "parts" | "mime";
  readonly parts: readonly PartInput[];
  readonly mime: string;
}

export interface LabState {
  readonly spec: string;
  readonly docs: readonly string[];
}

export interface StackState {
  readonly files: readonly StackFile[];
  readonly config: string;
  readonly minionId: string;
  readonly grains: string;
  readonly pillar: string;
}

export interface AppState {
  readonly view: View;
  readonly cloud: CloudState;
  readonly lab: LabState;
  readonly stack: StackState;
}

// The seed's example (cloud-init's merging document): two parts that both set run_cmd.
const SEED_PARTS: readonly PartInput[] = [
  { name: "part-001", header: "", text: "#cloud-config\nrun_cmd:\n  - bash1\n  - bash2\n" },
  { name: "part-002", header: "", text: "#cloud-config\nrun_cmd:\n  - bash3\n  - bash4\n" },
];

const SEED_MIME = [
  'Content-Type: multipart/mixed; boundary="BOUNDARY"',
  "MIME-Version: 1.0",
  "",
  "--BOUNDARY",
  'Content-Type: text/cloud-config; charset="us-ascii"',
  'Content-Disposition: attachment; filename="base.yaml"',
  "",
  "#cloud-config",
  "packages: [git]",
  "runcmd:",
  "  - echo base",
  "",
  "--BOUNDARY",
  'Content-Type: text/cloud-config; charset="us-ascii"',
  'Content-Disposition: attachment; filename="extra.yaml"',
  "Merge-Type: list(append)+dict(recurse_array)+str()",
  "",
  "#cloud-config",
  "packages: [curl]",
  "runcmd:",
  "  - echo extra",
  "",
  "--BOUNDARY",
  'Content-Type: text/x-shellscript; charset="us-ascii"',
  'Content-Disposition: attachment; filename="hello.sh"',
  "",
  "#!/bin/sh",
  "echo hello",
  "",
  "--BOUNDARY--",
  "",
].join("\n");

// examples/stack: the tree of Salt's PillarStack documentation, with its grains and pillar for test-1-dev.
const EXAMPLE = import.meta.glob<string>("../../../examples/stack/**/*.{cfg,yml}", {
  query: "?raw",
  import: "default",
  eager: true,
});
const exampleText = (name: string): string => EXAMPLE[`../../../examples/stack/${name}`] ?? "";
const NOT_IN_TREE = new Set(["grains.yml", "pillar.yml", "expected.yml"]);

function exampleFiles(): StackFile[] {
  const files = Object.entries(EXAMPLE)
    .map(([path, text]) => ({ name: path.slice("../../../examples/stack/".length), text }))
    .filter((file) => !NOT_IN_TREE.has(file.name));
  // The config first, then the files in the order a reader meets them.
  return files.sort((a, b) =>
    a.name === "config.cfg"
      ? -1
      : b.name === "config.cfg"
        ? 1
        : a.name < b.name
          ? -1
          : a.name > b.name
            ? 1
            : 0,
  );
}

export function initialState(): AppState {
  return {
    view: "cloud",
    cloud: { mode: "current", source: "parts", parts: SEED_PARTS, mime: SEED_MIME },
    lab: {
      spec: "list(append)+dict(recurse_array)+str()",
      docs: [
        "packages: [git]\nport: 8080\nmotd: Hello\nusers:\n  tom: {shell: /bin/sh}\n",
        "packages: [curl]\nport: 9090\nmotd: ' world'\nusers:\n  tom: {shell: /bin/bash}\n  ann: {shell: /bin/zsh}\n",
      ],
    },
    stack: {
      files: exampleFiles(),
      config: "config.cfg",
      minionId: "test-1-dev",
      grains: exampleText("grains.yml"),
      pillar: exampleText("pillar.yml"),
    },
  };
}

const PREFIX = "#v1=";

async function pipe(bytes: Uint8Array, stream: CompressionStream | DecompressionStream): Promise<Uint8Array> {
  const body = new Blob([bytes as BlobPart]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(body).arrayBuffer());
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): Uint8Array {
  const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** The state as a URL fragment: JSON, deflated, base64url. */
export async function encodeState(state: AppState): Promise<string> {
  const json = new TextEncoder().encode(JSON.stringify(state));
  return PREFIX + toBase64Url(await pipe(json, new CompressionStream("deflate-raw")));
}

/** The state a fragment holds, or undefined when it holds none (or is damaged). */
export async function decodeState(hash: string): Promise<AppState | undefined> {
  if (!hash.startsWith(PREFIX)) return undefined;
  try {
    const json = await pipe(fromBase64Url(hash.slice(PREFIX.length)), new DecompressionStream("deflate-raw"));
    return sanitize(JSON.parse(new TextDecoder().decode(json)));
  } catch {
    return undefined;
  }
}

const text = (value: unknown, fallback: string): string => (typeof value === "string" ? value : fallback);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const record = (value: unknown): Record<string, unknown> =>
  typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};

/** A shared state is input like any other: keep only the fields of the right types. */
function sanitize(raw: unknown): AppState {
  const base = initialState();
  const r = record(raw);
  const cloud = record(r.cloud);
  const lab = record(r.lab);
  const stack = record(r.stack);
  const view = r.view === "lab" || r.view === "stack" ? r.view : "cloud";
  return {
    view,
    cloud: {
      mode: cloud.mode === "stack" ? "stack" : "current",
      source: cloud.source === "mime" ? "mime" : "parts",
      parts: list(cloud.parts).map((p, i) => {
        const part = record(p);
        return {
          name: text(part.name, `part-${i + 1}`),
          header: text(part.header, ""),
          text: text(part.text, ""),
        };
      }),
      mime: text(cloud.mime, ""),
    },
    lab: { spec: text(lab.spec, base.lab.spec), docs: list(lab.docs).map((d) => text(d, "")) },
    stack: {
      files: list(stack.files).map((f, i) => {
        const file = record(f);
        return { name: text(file.name, `file-${i + 1}.yml`), text: text(file.text, "") };
      }),
      config: text(stack.config, base.stack.config),
      minionId: text(stack.minionId, base.stack.minionId),
      grains: text(stack.grains, ""),
      pillar: text(stack.pillar, ""),
    },
  };
}
