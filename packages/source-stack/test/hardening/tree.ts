// A throwaway stack directory with a secret file next to it (outside), for the path and fault tests.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export interface HostileTree {
  readonly root: string;
  readonly stack: string;
  readonly config: string;
  write(relative: string, text: string | Uint8Array): string;
  remove(): void;
}

/** The word every file outside the stack directory holds; it must never appear in a result. */
export const SECRET = "outside-secret-value";

export function makeTree(): HostileTree {
  const root = mkdtempSync(join(tmpdir(), "merge-hardening-stack-"));
  const stack = join(root, "stack");
  const write = (relative: string, text: string | Uint8Array) => {
    const path = join(root, relative);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    return path;
  };
  write("secret.yml", `secret: ${SECRET}\n`);
  write("secret", `secret: ${SECRET}\n`);
  write("other/minions/web1.yml", `secret: ${SECRET}\n`);
  write(
    "stack/config.cfg",
    [
      "core.yml",
      "minions/{{ minion_id }}.yml",
      "{% for r in __grains__.get('roles', []) %}",
      "roles/{{ r }}.yml",
      "{% endfor %}",
      "{% if pillar.get('env') %}env/{{ pillar.env }}.yml{% endif %}",
      "",
    ].join("\n"),
  );
  write("stack/core.yml", "core: {{ minion_id | json }}\n");
  write("stack/minions/web1.yml", "minion: web1\n");
  write("stack/minions/web2.yml", "minion: web2\n");
  write("stack/roles/db.yml", "roles: [db]\n");
  write("stack/env/prod.yml", "env: prod\n");
  symlinkSync(join(root, "secret.yml"), join(stack, "minions", "link.yml"));
  symlinkSync(join(root, "other"), join(stack, "linkdir"));
  return {
    root,
    stack,
    config: join(stack, "config.cfg"),
    write,
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}
