// Runs the real PyYAML (Debian's python3-yaml) as the oracle of the tests in this folder: one Python process per
// test file, every case of the file batched through standard input and output as JSON (see pyyaml.py).
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const SCRIPT = fileURLToPath(new URL("./pyyaml.py", import.meta.url));

/** Which loader answers: pure-Python SafeLoader, libyaml's CSafeLoader, or libyaml with Salt's constructor rules. */
export type OracleLoader = "safe" | "csafe" | "salt";

export interface OracleRequest {
  readonly text: string;
  readonly loader: OracleLoader;
}

export interface OracleInfo {
  readonly python: string;
  readonly pyyaml: string;
  readonly libyaml: boolean;
  readonly executable: string;
}

function probe(executable: string): OracleInfo | undefined {
  const run = spawnSync(executable, [SCRIPT], { input: '[{"info": true}]', encoding: "utf8" });
  if (run.status !== 0 || run.error !== undefined) return undefined;
  try {
    const [info] = JSON.parse(run.stdout) as [Omit<OracleInfo, "executable">];
    return info.libyaml ? { ...info, executable } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The Python to ask: `MERGE_TEST_PYTHON` when set, else Debian's `/usr/bin/python3` (what scripts/python-yaml.sh
 * installs python3-yaml for), else the first `python3` on the PATH; it must import yaml with libyaml.
 */
function findPython(): OracleInfo | undefined {
  const chosen = process.env.MERGE_TEST_PYTHON;
  if (chosen !== undefined && chosen !== "") return probe(chosen);
  return probe("/usr/bin/python3") ?? probe("python3");
}

export const oracle: OracleInfo | undefined = findPython();

/**
 * Whether the oracle tests run: always when PyYAML is there; in CI (`CI` set) its absence is a failure, not a skip,
 * so a machine without python3-yaml cannot pass for a green run.
 */
export const runOracle = oracle !== undefined || (process.env.CI ?? "") !== "";

/** Asks PyYAML for every request at once; throws with a clear message when python3-yaml is missing. */
export function askPyyaml(requests: readonly OracleRequest[]): unknown[] {
  if (oracle === undefined) {
    throw new Error(
      "python3 with PyYAML and libyaml is not installed: run `bash scripts/python-yaml.sh` (apt-get install python3-yaml)",
    );
  }
  const run = spawnSync(oracle.executable, [SCRIPT], {
    input: JSON.stringify(requests),
    encoding: "utf8",
    maxBuffer: 1 << 30,
  });
  if (run.status !== 0) throw new Error(`the PyYAML oracle failed: ${run.stderr}`);
  const answers = JSON.parse(run.stdout) as unknown[];
  if (answers.length !== requests.length)
    throw new Error("the PyYAML oracle answered a different number of cases");
  return answers;
}

/** How the tests name the oracle in their titles. */
export const oracleName =
  oracle === undefined ? "PyYAML (missing)" : `PyYAML ${oracle.pyyaml} on Python ${oracle.python}`;
