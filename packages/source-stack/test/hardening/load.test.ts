import { describe, expect, it } from "vitest";
import { createStackLoader } from "../../src/index.js";
import { figure, reportCounts, tally } from "../../../../test-kit/tally.js";
import { makeTree } from "./tree.js";

reportCounts("@merge/source-stack", import.meta.url);

const HOSTS = 10_000;

describe("load", () => {
  it("renders 10,000 hosts through one loader, every result correct, memory bounded", () => {
    const tree = makeTree();
    try {
      tree.write(
        "stack/config.cfg",
        [
          "core.yml",
          "roles/{{ __grains__.role }}.yml",
          "envs/{{ __grains__.env }}.yml",
          "hosts.yml",
          "",
        ].join("\n"),
      );
      tree.write("stack/core.yml", "core:\n  ntp: [ntp1, ntp2]\n  id: {{ minion_id }}\n");
      for (const role of ["web", "db", "cache"]) {
        tree.write(`stack/roles/${role}.yml`, `roles: [${role}]\npackages:\n  - ${role}-server\n`);
      }
      for (const env of ["dev", "prod"]) {
        tree.write(
          `stack/envs/${env}.yml`,
          `env: ${env}\ncore:\n  ntp:\n    - __: overwrite\n    - ntp-${env}\n`,
        );
      }
      tree.write(
        "stack/hosts.yml",
        "host:\n  name: {{ minion_id }}\n  index: {{ __grains__.index }}\n  tag: {{ stack.env }}-{{ stack.roles | join(',') }}\n",
      );
      const loader = createStackLoader({ config: tree.config });
      const roles = ["web", "db", "cache"];
      const envs = ["dev", "prod"];
      const started = performance.now();
      const heapBefore = process.memoryUsage().heapUsed;
      let peakHeap = heapBefore;
      let correct = 0;
      for (let i = 0; i < HOSTS; i++) {
        const role = roles[i % 3]!;
        const env = envs[i % 2]!;
        const minionId = `host-${i}`;
        const { data, files, warnings } = loader.load({ minionId, grains: { role, env, index: i } });
        expect(warnings).toEqual([]);
        expect(files.length).toBe(4);
        expect(data).toEqual({
          core: { ntp: [`ntp-${env}`], id: minionId },
          roles: [role],
          packages: [`${role}-server`],
          env,
          host: { name: minionId, index: i, tag: `${env}-${role}` },
        });
        correct++;
        if (i % 500 === 0) peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
      }
      const seconds = (performance.now() - started) / 1000;
      expect(correct).toBe(HOSTS);
      // Memory is bounded: nothing per host is kept by the loader (a leak of even 10 KB per host would show).
      const growth = (peakHeap - heapBefore) / 1024 / 1024;
      expect(growth).toBeLessThan(200);
      figure("source-stack: 10,000 hosts, one loader (s)", Number(seconds.toFixed(2)));
      figure("source-stack: hosts per second", Math.round(HOSTS / seconds));
      figure("source-stack: heap growth during the batch (MB)", Math.round(growth));
      tally("load", HOSTS);
    } finally {
      tree.remove();
    }
  });
});
