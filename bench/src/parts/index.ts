import type { Row } from "../result.js";
import { CLI_WORKLOADS, runCli } from "./cli.js";
import { CLOUDINIT_WORKLOADS, runCloudInit } from "./cloudinit.js";
import { EXPLAIN_WORKLOADS, runExplain } from "./explain.js";
import { MYSQL_WORKLOADS, runMysql } from "./mysql.js";
import { PEER_WORKLOADS, type PeerWorkload, runPeers } from "./peers.js";
import { runScaling, SCALING_SIZES } from "./scaling.js";
import { runStack, STACK_WORKLOADS } from "./stack.js";

/** Every part of the suite, its workloads (one child process each) and the modes each workload runs in. */
export const PARTS: readonly {
  part: string;
  title: string;
  workloads: readonly string[];
  polluted: boolean;
}[] = [
  { part: "peers", title: "1. Engine vs peers", workloads: PEER_WORKLOADS, polluted: true },
  { part: "scaling", title: "2. Scaling", workloads: SCALING_SIZES, polluted: true },
  { part: "cloudinit", title: "3. cloud-init mergers", workloads: CLOUDINIT_WORKLOADS, polluted: false },
  { part: "stack", title: "4. PillarStack", workloads: STACK_WORKLOADS, polluted: false },
  { part: "mysql", title: "5. MySQL shaping", workloads: MYSQL_WORKLOADS, polluted: false },
  { part: "cli", title: "6. CLI start-up", workloads: CLI_WORKLOADS, polluted: false },
  { part: "explain", title: "7. --explain", workloads: EXPLAIN_WORKLOADS, polluted: false },
];

export async function runPart(part: string, workload: string): Promise<{ rows: Row[]; notes: string[] }> {
  switch (part) {
    case "peers":
      if ((PEER_WORKLOADS as readonly string[]).includes(workload)) return runPeers(workload as PeerWorkload);
      break;
    case "scaling":
      return runScaling(workload);
    case "cloudinit":
      return runCloudInit(workload);
    case "stack":
      return runStack(workload);
    case "mysql":
      return runMysql(workload);
    case "cli":
      return runCli(workload);
    case "explain":
      if ((EXPLAIN_WORKLOADS as readonly string[]).includes(workload)) return runExplain();
      break;
  }
  throw new Error(`unknown workload ${part}/${workload}`);
}
