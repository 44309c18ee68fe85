import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadYaml } from "@merge/yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { merge, PACKAGE_DIR, REPO, unusedPort } from "./helpers.js";

// `merge mysql` and `merge pillar` against the throwaway MariaDB server of scripts/mariadb.sh. Without one these
// tests are skipped with a message, except under CI, where a missing server fails them.
const env = process.env;
const server =
  env.MERGE_TEST_MYSQL_HOST && env.MERGE_TEST_MYSQL_PORT
    ? {
        host: env.MERGE_TEST_MYSQL_HOST,
        port: Number(env.MERGE_TEST_MYSQL_PORT),
        user: env.MERGE_TEST_MYSQL_USER ?? "root",
        password: env.MERGE_TEST_MYSQL_PASS ?? "",
      }
    : undefined;
const EXAMPLE = join(REPO, "examples", "mysql");
const MISSING = "no MySQL server: run `source scripts/mariadb.sh && mariadb_start` to set MERGE_TEST_MYSQL_*";

if (server === undefined) {
  if (env.CI) {
    describe("merge mysql against MariaDB", () => {
      it("has a server to run against", () => {
        throw new Error(`CI is set but ${MISSING}`);
      });
    });
  } else {
    process.stderr.write(`[@merge/cli] skipped the MySQL tests: ${MISSING}\n`);
  }
}

function sql(database: string | undefined, text: string): void {
  const args = [
    "--no-defaults",
    `-h${server!.host}`,
    `-P${server!.port}`,
    `-u${server!.user}`,
    `-p${server!.password}`,
  ];
  if (database !== undefined) args.push(database);
  const run = spawnSync("mariadb", args, { input: text, encoding: "utf8" });
  if (run.status !== 0) throw new Error(`mariadb failed: ${run.stderr}`);
}

describe.runIf(server !== undefined)("merge mysql against MariaDB", () => {
  const database = `merge_cli_${randomBytes(4).toString("hex")}`;
  const dir = mkdtempSync(join(tmpdir(), "merge-cli-mysql-"));
  const example = loadYaml(readFileSync(join(EXAMPLE, "master.yml"), "utf8"), { flavor: "salt" }) as Record<
    string,
    unknown
  >;
  const connection = {
    host: server?.host,
    port: server?.port,
    user: server?.user,
    pass: server?.password,
    db: database,
  };
  const master = join(dir, "master.yml");

  beforeAll(() => {
    sql(undefined, `CREATE DATABASE ${database}`);
    sql(database, readFileSync(join(EXAMPLE, "schema.sql"), "utf8"));
    sql(database, readFileSync(join(EXAMPLE, "fixtures.sql"), "utf8"));
    writeFileSync(master, JSON.stringify({ ...example, mysql: connection }, null, 2));
  });

  afterAll(() => {
    sql(undefined, `DROP DATABASE IF EXISTS ${database}`);
  });

  const minions = readdirSync(join(EXAMPLE, "expected")).map((file) => file.replace(/\.json$/, ""));
  it.each(minions)("gives %s the pillar in examples/mysql/expected", (minion) => {
    const run = merge(["mysql", "--config", master, "--minion-id", minion, "--format", "json"]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(
      JSON.parse(readFileSync(join(EXAMPLE, "expected", `${minion}.json`), "utf8")),
    );
  });

  it("gives the same pillars through `merge daemon`, which keeps no connection open after a command", () => {
    const runtime = mkdtempSync(join(tmpdir(), "merge-cli-mysql-daemon-"));
    chmodSync(runtime, 0o700);
    const entry = join(PACKAGE_DIR, "bin", "merge.cjs");
    const installed = (args: readonly string[]) =>
      spawnSync(process.execPath, [entry, ...args], {
        encoding: "utf8",
        env: { ...process.env, XDG_RUNTIME_DIR: runtime, MERGE_NO_DAEMON: undefined, NO_COLOR: "1" },
      });
    expect(installed(["daemon", "start", "--idle-timeout", "10m"]).status).toBe(0);
    try {
      const status = () => JSON.parse(installed(["daemon", "status", "--format", "json"]).stdout);
      const { pid } = status();
      const descriptors = () => readdirSync(`/proc/${pid}/fd`).length;
      const fetch = (minion: string) => {
        const run = installed(["mysql", "--config", master, "--minion-id", minion, "--format", "json"]);
        expect(run.stderr).toBe("");
        expect(run.status).toBe(0);
        expect(JSON.parse(run.stdout)).toEqual(
          JSON.parse(readFileSync(join(EXAMPLE, "expected", `${minion}.json`), "utf8")),
        );
      };
      fetch(minions[0]!);
      const open = descriptors();
      for (const minion of minions) fetch(minion);
      expect(status().served).toBe(minions.length + 1);
      expect(descriptors()).toBe(open);
    } finally {
      installed(["daemon", "stop"]);
    }
  });

  it("explains each value with its ext_pillar entry, query and row, and the value that lost with its own", () => {
    const run = merge(["mysql", "--config", master, "--minion-id", "web01", "--explain"]);
    expect(run.status).toBe(0);
    const entry = (n: number) => `\\S+master\\.yml:\\d+ \\(ext_pillar ${n}: mysql\\)`;
    const more = "query #1 \\(SELECT pillar,value FROM more_pillars WH…\\)";
    const pillars = "query #1 \\(SELECT pillar,value FROM pillars WHERE m…\\)";
    // The value that lost to a later entry's query is named with its own query and row, and the fold of the
    // entries (Salt's default strategy, smart) is what replaced it.
    expect(run.stdout).toMatch(
      new RegExp(
        `^role: frontend # from ${entry(2)} ${more}, row 2 \\(pillar=role\\), replaced by pillar\\(smart\\); lost: webserver \\(${entry(1)} ${pillars}, row 1 \\(pillar=role\\)\\)$`,
        "m",
      ),
    );
    // A later row of the same query wins (env: staging then prod); the row that lost is named.
    expect(run.stdout).toMatch(
      new RegExp(
        `^env: prod # from ${entry(1)} ${pillars}, row 3 \\(pillar=env\\); lost: staging \\(${entry(1)} ${pillars}, row 2 \\(pillar=env\\)\\)$`,
        "m",
      ),
    );
    // Key columns of a deeper query; a named query's values below its keyword. A key a later entry brings to the
    // pillar is added by the fold, and what is below it with it.
    const added = ", added by pillar\\(smart\\)$";
    expect(run.stdout).toMatch(
      new RegExp(
        `^ {4}port: 443 # from .* query #3 \\(SELECT 'services'.*\\), row 1 \\(services=services, name=nginx\\)${added}`,
        "m",
      ),
    );
    expect(run.stdout).toMatch(
      new RegExp(
        `^ {2}role: webserver # from \\S+ \\(ext_pillar 3: mysql\\) query "main" \\(.*\\), row 1 \\(pillar=role\\)${added}`,
        "m",
      ),
    );
    // with_lists makes lists of levels: each value there still names its row.
    expect(run.stdout).toMatch(
      new RegExp(
        `^ {8}col7: three # from \\S+ \\(ext_pillar 3: mysql\\) query "fromdb" \\(.*\\), row 3 \\(col1=a, col2=z, col3=h, col4=y, col5=j\\)${added}`,
        "m",
      ),
    );
    expect(run.stdout).toMatch(
      new RegExp(
        `^ {8}- five # from \\S+ \\(ext_pillar 3: mysql\\) query "fromdb" \\(.*\\), row 5 \\(col1=a, col2=z, col3=h, col4=y, col5=k\\)${added}`,
        "m",
      ),
    );
    // The first entry is merged into an empty pillar: nothing decided there, its values say only where they are from.
    expect(run.stdout).toMatch(/^env: prod # from .*\(pillar=env\); lost: staging/m);
    expect(run.stdout).not.toContain("contributed nothing");
  });

  it("shows a value a later row of the same query overwrote as lost, with its row, in every explain view", () => {
    const one = join(dir, "one-query.yml");
    const query = "SELECT pillar,value FROM pillars WHERE minion_id = %s ORDER BY id";
    writeFileSync(one, JSON.stringify({ mysql: connection, ext_pillar: [{ mysql: [query] }] }, null, 2));
    const input = `${one}:12 (ext_pillar 1: mysql) query #1 (SELECT pillar,value FROM pillars WHERE m…)`;
    // Salt applies the rows in the order the server sends them (ORDER BY id): row 3 (prod) overwrote row 2 (staging).
    for (const command of ["mysql", "pillar"]) {
      const annotated = merge([command, "--config", one, "--minion-id", "web01", "--explain"]);
      expect(annotated.status).toBe(0);
      expect(annotated.stdout).toContain(
        `\nenv: prod # from ${input}, row 3 (pillar=env); lost: staging (${input}, row 2 (pillar=env))\n`,
      );
      expect(annotated.stdout).toContain(`\nrole: webserver # from ${input}, row 1 (pillar=role)\n`);
    }
    const story = merge(["mysql", "--config", one, "--minion-id", "web01", "--get", "env", "--explain"]);
    expect(story.stdout).toBe(
      [
        'Searching for "env" (env)',
        `  in: merge mysql --config ${one} --minion-id web01`,
        `  ${input}, row 2 (pillar=env) (input 1)`,
        "    had: staging",
        `  ${input}, row 3 (pillar=env) (input 1)`,
        "    had: prod",
        `Final value: prod (from ${input}, row 3 (pillar=env))`,
        `Values that lost: staging (${input}, row 2 (pillar=env))`,
        "",
      ].join("\n"),
    );
    const json = merge(["mysql", "--config", one, "--minion-id", "web01", "--explain", "-f", "json"]);
    const record = JSON.parse(json.stdout) as { values: { path: string; from: unknown; lost: unknown[] }[] };
    const env = record.values.find((value) => value.path === "env")!;
    expect(env.from).toMatchObject({ document: 0, path: "env", detail: "row 3 (pillar=env)" });
    expect(env.lost).toEqual([
      expect.objectContaining({ value: "staging", kind: "value", document: 0, detail: "row 2 (pillar=env)" }),
    ]);
    const keyJson = merge([
      "mysql",
      "--config",
      one,
      "--minion-id",
      "web01",
      "--get",
      "env",
      "--explain",
      "-f",
      "json",
    ]);
    const told = JSON.parse(keyJson.stdout) as {
      inputs: { detail: string; value: unknown }[];
      lost: unknown[];
    };
    expect(told.inputs.map((step) => [step.detail, step.value])).toEqual([
      ["row 2 (pillar=env)", "staging"],
      ["row 3 (pillar=env)", "prod"],
    ]);
    expect(told.lost).toEqual([expect.objectContaining({ value: "staging", detail: "row 2 (pillar=env)" })]);
  });

  it("names the row of each item of a level with_lists made a list, and the row a later row replaced there", () => {
    const listed = join(dir, "with-lists.yml");
    const query = "SELECT 'hosts', pillar, value FROM pillars WHERE minion_id = %s ORDER BY id";
    writeFileSync(
      listed,
      JSON.stringify({ mysql: connection, ext_pillar: [{ mysql: [{ query, with_lists: [1] }] }] }, null, 2),
    );
    const input = `${listed}:12 (ext_pillar 1: mysql) query #1 (SELECT 'hosts', pillar, value FROM pilla…)`;
    // Level 1 (the mapping below hosts) becomes the list of its values in key order: role, env, motd; env's
    // value is row 3's, which overwrote row 2's before the level became a list.
    const run = merge(["mysql", "--config", listed, "--minion-id", "web01", "--explain"]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(
      [
        `hosts: # from ${input}`,
        `- webserver # from ${input}, row 1 (hosts=hosts, pillar=role)`,
        `- prod # from ${input}, row 3 (hosts=hosts, pillar=env); lost: staging (${input}, row 2 (hosts=hosts, pillar=env))`,
        `- null # from ${input}, row 4 (hosts=hosts, pillar=motd)`,
      ].join("\n"),
    );
    const story = merge([
      "mysql",
      "--config",
      listed,
      "--minion-id",
      "web01",
      "--get",
      "hosts:1",
      "--explain",
    ]);
    expect(story.stdout).toContain(
      `  ${input}, row 2 (hosts=hosts, pillar=env) (input 1)\n    had: staging\n`,
    );
    expect(story.stdout).toContain(`Values that lost: staging (${input}, row 2 (hosts=hosts, pillar=env))\n`);
  });

  it("names the row of every value of an as_json query, and what a later row's JSON replaced", () => {
    sql(
      database,
      "CREATE TABLE jdocs (id INT PRIMARY KEY, minion VARCHAR(32), doc JSON);" +
        `INSERT INTO jdocs VALUES (1, 'web01', '{"ntp": {"servers": ["a", "b"], "iburst": true}, "tier": "web"}'),` +
        ` (2, 'web01', '{"ntp": {"servers": ["c"]}, "tier": {"name": "front"}}'),` +
        ` (3, 'web01', '{"tier": {"name": "edge", "zone": 2}}');`,
    );
    const docs = join(dir, "as-json.yml");
    const query = "SELECT doc FROM jdocs WHERE minion = %s ORDER BY id";
    writeFileSync(
      docs,
      JSON.stringify(
        { mysql: connection, ext_pillar: [{ mysql: { cfg: { query, as_json: true } } }] },
        null,
        2,
      ),
    );
    const input = `${docs}:12 (ext_pillar 1: mysql) query "cfg" (SELECT doc FROM jdocs WHERE minion = %s …)`;
    const run = merge(["mysql", "--config", docs, "--minion-id", "web01", "--explain"]);
    expect(run.status).toBe(0);
    // Salt merges each row's object into the result (salt.utils.dictupdate.update): a list is replaced whole, a
    // mapping merges into the one before, a text replaced by a mapping lost.
    expect(run.stdout).toContain(
      [
        `cfg: # from ${input}`,
        `  ntp: # from ${input}`,
        `    servers: # from ${input}; lost: a list (${input}, row 1)`,
        `    - c # from ${input}, row 2`,
        `    iburst: true # from ${input}, row 1`,
        `  tier: # from ${input}; lost: web (${input}, row 1)`,
        `    name: edge # from ${input}, row 3; lost: front (${input}, row 2)`,
        `    zone: 2 # from ${input}, row 3`,
      ].join("\n"),
    );
    const story = merge([
      "mysql",
      "--config",
      docs,
      "--minion-id",
      "web01",
      "--get",
      "cfg:ntp:servers",
      "--explain",
    ]);
    expect(story.stdout).toContain(
      `  ${input}, row 1 (input 1)\n    had:\n      - a\n      - b\n  ${input}, row 2 (input 1)\n    had:\n      - c\n`,
    );
    expect(story.stdout).toContain(`Values that lost: a list (${input}, row 1)\n`);
  });

  it("names the query and row a later query of the same entry overrode, in every explain view", () => {
    const both = join(dir, "two-queries.yml");
    const entry = [
      "SELECT pillar,value FROM pillars WHERE minion_id = %s ORDER BY id",
      "SELECT pillar,value FROM more_pillars WHERE minion_id = %s ORDER BY id",
    ];
    writeFileSync(both, JSON.stringify({ mysql: connection, ext_pillar: [{ mysql: entry }] }, null, 2));
    const first = "query #1 (SELECT pillar,value FROM pillars WHERE m…), row 1 (pillar=role)";
    const second = "query #2 (SELECT pillar,value FROM more_pillars WH…), row 2 (pillar=role)";
    const at = (line: number) => `${both}:${line} (ext_pillar 1: mysql)`;
    const annotated = merge(["pillar", "--config", both, "--minion-id", "web01", "--explain"]);
    expect(annotated.status).toBe(0);
    expect(annotated.stdout).toContain(
      `\nrole: frontend # from ${at(13)} ${second}; lost: webserver (${at(12)} ${first})\n`,
    );
    const story = merge(["pillar", "--config", both, "--minion-id", "web01", "--get", "role", "--explain"]);
    expect(story.stdout).toContain(`  ${at(12)} ${first} (input 1)\n    had: webserver\n`);
    expect(story.stdout).toContain(`Final value: frontend (from ${at(13)} ${second})\n`);
    expect(story.stdout).toContain(`Values that lost: webserver (${at(12)} ${first})\n`);
    const json = merge(["pillar", "--config", both, "--minion-id", "web01", "--explain", "-f", "json"]);
    const record = JSON.parse(json.stdout) as { values: { path: string; from: unknown; lost: unknown[] }[] };
    const role = record.values.find((value) => value.path === "role")!;
    expect(role.from).toMatchObject({ path: "role", detail: "row 2 (pillar=role)" });
    expect(role.lost).toEqual([
      expect.objectContaining({ value: "webserver", detail: "row 1 (pillar=role)" }),
    ]);
  });

  it("reports a wrong password with its code, without the password, and leaves -o's old file intact", () => {
    const bad = join(dir, "bad-password.yml");
    writeFileSync(bad, JSON.stringify({ ...example, mysql: { ...connection, pass: "wrong-secret-xyz" } }));
    const out = join(dir, "pillar.yml");
    writeFileSync(out, "old: pillar\n");
    const run = merge(["mysql", "--config", bad, "--minion-id", "web01", "-o", out]);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/\[SQL_AUTH\]\n$/);
    expect(run.stderr).not.toContain("wrong-secret-xyz");
    expect(readFileSync(out, "utf8")).toBe("old: pillar\n");
  });

  it("reports an unknown database", () => {
    const bad = join(dir, "bad-db.yml");
    writeFileSync(bad, JSON.stringify({ ...example, mysql: { ...connection, db: `${database}_missing` } }));
    const run = merge(["mysql", "--config", bad, "--minion-id", "web01"]);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/\[SQL_UNKNOWN_DATABASE\]\n$/);
  });

  it("reports each MySQL failure in one line that says each thing once, naming a query only when it is at fault", async () => {
    const port = await unusedPort();
    const query = "SELECT pillar, value FROM pillars WHERE minion_id = %s";
    const write = (name: string, changes: Record<string, unknown>, second: string) => {
      const path = join(dir, name);
      const ext_pillar = [{ mysql: { first: query, second } }];
      writeFileSync(path, JSON.stringify({ mysql: { ...connection, ...changes }, ext_pillar }));
      return path;
    };
    const server = `${connection.host}:${connection.port}`;
    const cases: [string, string][] = [
      [
        write("refused.yml", { port }, query),
        `error: cannot connect to the MySQL server at ${connection.host}:${port}: connection refused (is the server running and listening there?) [SQL_CONNECT]`,
      ],
      [
        write("denied.yml", { pass: "wrong-secret-xyz" }, query),
        `error: the MySQL server at ${server} refused the login: Access denied for user '${connection.user}'@'${connection.host}' (using password: YES) [SQL_AUTH]`,
      ],
      [
        write("no-db.yml", { db: `${database}_gone` }, query),
        `error: the MySQL server at ${server} has no database "${database}_gone" [SQL_UNKNOWN_DATABASE]`,
      ],
      [
        write("syntax.yml", {}, "SELEC pillar, value FROM pillars"),
        `error: query "second": You have an error in your SQL syntax; check the manual that corresponds to your MariaDB server version for the right syntax to use near 'SELEC pillar, value FROM pillars' at line 1 [SQL_QUERY]`,
      ],
      [
        write("no-table.yml", {}, "SELECT k, v FROM no_such_table"),
        `error: query "second": Table '${database}.no_such_table' doesn't exist; the SQL: SELECT k, v FROM no_such_table [SQL_QUERY]`,
      ],
    ];
    for (const [config, line] of cases) {
      for (const command of ["pillar", "mysql"]) {
        const run = merge([command, "--config", config, "--minion-id", "web01"]);
        expect(run.status).toBe(1);
        expect(run.stderr).toBe(`${line}\n`);
      }
    }
  });

  it("reads mysql_query as an ordinary named query with --no-legacy-mysql-query or merge: in the file", () => {
    const legacy = join(dir, "legacy.yml");
    const query = "SELECT pillar,value FROM pillars WHERE minion_id = %s ORDER BY id";
    const body = { mysql: connection, ext_pillar: [{ mysql: { mysql_query: query } }] };
    writeFileSync(legacy, JSON.stringify(body));
    const flat = { role: "webserver", env: "prod", motd: null };
    for (const command of ["mysql", "pillar"]) {
      const base = [command, "--config", legacy, "--minion-id", "web01", "-f", "json"];
      expect(JSON.parse(merge(base).stdout)).toEqual(flat);
      const current = merge([...base, "--no-legacy-mysql-query"]);
      expect(current.stderr).toBe("");
      expect(JSON.parse(current.stdout)).toEqual({ mysql_query: flat });
    }
    const configured = join(dir, "configured.yml");
    writeFileSync(configured, JSON.stringify({ ...body, merge: { legacy_mysql_query: false } }));
    const run = merge(["mysql", "--config", configured, "--minion-id", "web01", "-f", "json"]);
    expect(JSON.parse(run.stdout)).toEqual({ mysql_query: flat });
    writeFileSync(configured, JSON.stringify({ ...body, merge: { legacy_mysql_query: "no" } }));
    const bad = merge(["mysql", "--config", configured, "--minion-id", "web01"]);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/merge\.legacy_mysql_query must be true or false.*\[SQL_CONFIG\]\n$/);
  });

  it("folds its entries under the master's pillar merging options, as Salt's pillar compiler does", () => {
    const folded = join(dir, "folded.yml");
    const run = (options: Record<string, unknown>) => {
      writeFileSync(
        folded,
        JSON.stringify({
          mysql: connection,
          ext_pillar: [{ mysql: ["SELECT 'a', 'x', 1"] }, { mysql: ["SELECT 'a', 'y', 2"] }],
          ...options,
        }),
      );
      return merge(["mysql", "--config", folded, "--minion-id", "web01", "-f", "json"]);
    };
    expect(JSON.parse(run({}).stdout)).toEqual({ a: { x: 1, y: 2 } });
    // overwrite replaces a top-level key the pillar so far shares; list keeps only the keys it had ({} to start).
    expect(JSON.parse(run({ pillar_source_merging_strategy: "overwrite" }).stdout)).toEqual({ a: { y: 2 } });
    expect(JSON.parse(run({ pillar_source_merging_strategy: "list" }).stdout)).toEqual({});
    const excluded = run({ exclude_ext_pillar: ["mysql"] });
    expect(excluded.stderr).toContain("ext_pillar has no mysql entries");
  });

  it("refuses a depth written as a float below the field count, as Salt fails on it, and takes one it replaces", () => {
    const floats = join(dir, "float-depth.yml");
    const query = "SELECT pillar, value FROM pillars WHERE minion_id = %s";
    const write = (depth: string) =>
      writeFileSync(
        floats,
        [
          "mysql:",
          ...Object.entries(connection).map(([key, value]) => `  ${key}: ${JSON.stringify(value)}`),
          "ext_pillar:",
          "  - mysql:",
          `      fromdb: [${JSON.stringify(query)}, ${depth}]`,
          "",
        ].join("\n"),
      );
    write("1.0");
    const refused = merge(["mysql", "--config", floats, "--minion-id", "web01"]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/query "fromdb": depth 1\.0 is a float.*\[SQL_CONFIG\]\n$/);
    write("2.0");
    const replaced = merge(["mysql", "--config", floats, "--minion-id", "web01", "--format", "json"]);
    write("0");
    const whole = merge(["mysql", "--config", floats, "--minion-id", "web01", "--format", "json"]);
    expect(replaced.status).toBe(0);
    expect(replaced.stdout).toBe(whole.stdout);
  });

  it("reports a query named pillar as SQL_RESERVED_NAME", () => {
    const reserved = join(dir, "reserved.yml");
    writeFileSync(
      reserved,
      JSON.stringify({ mysql: connection, ext_pillar: [{ mysql: { pillar: "SELECT 1" } }] }),
    );
    const run = merge(["mysql", "--config", reserved, "--minion-id", "web01"]);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/\[SQL_RESERVED_NAME\]\n$/);
  });

  it("answers a 3,000-column result with DEPTH_LIMIT, also with --explain and YAML output", () => {
    const wide = join(dir, "wide.yml");
    const columns = Array.from({ length: 3000 }, (_, i) => `${i} AS c${i}`).join(", ");
    writeFileSync(
      wide,
      JSON.stringify({ mysql: connection, ext_pillar: [{ mysql: { wide: `SELECT ${columns} FROM DUAL` } }] }),
    );
    for (const extra of [[], ["--explain"], ["-f", "json"]]) {
      const run = merge(["mysql", "--config", wide, "--minion-id", "web01", ...extra]);
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(/^error: .*query "wide".*\[DEPTH_LIMIT\]\n$/);
      expect(run.stderr).not.toMatch(/RangeError|\n\s+at /);
    }
  });

  it("prints for a --minions batch host exactly what merge pillar prints for it alone", () => {
    sql(
      database,
      "CREATE TABLE exact_values (minion_id VARCHAR(64), k INT, ratio DOUBLE, price DECIMAL(6,1));" +
        "INSERT INTO exact_values VALUES ('web01', 7, 9, 12.0), ('web01', 3, 0.5, 4.5), ('db01', 1, 2, 3.0);",
    );
    const exact = join(dir, "exact.yml");
    writeFileSync(
      exact,
      JSON.stringify({
        mysql: connection,
        ext_pillar: [
          { mysql: { ratios: "SELECT k, ratio FROM exact_values WHERE minion_id = %s ORDER BY k DESC" } },
          { mysql: { prices: "SELECT k, price FROM exact_values WHERE minion_id = %s ORDER BY k DESC" } },
        ],
      }),
    );
    const hosts = join(dir, "exact-hosts.yml");
    writeFileSync(hosts, "- id: web01\n- id: db01\n");
    const out = join(mkdtempSync(join(tmpdir(), "merge-cli-mysql-batch-")), "pillars");
    const batch = merge(["pillar", "--config", exact, "--minions", hosts, "-o", out]);
    expect(batch.stderr).toBe("");
    expect(batch.status).toBe(0);
    const lines = merge(["pillar", "--config", exact, "--minions", hosts]).stdout.trimEnd().split("\n");
    for (const [index, id] of ["web01", "db01"].entries()) {
      const alone = merge(["pillar", "--config", exact, "--minion-id", id]);
      expect(alone.status).toBe(0);
      expect(readFileSync(join(out, `${id}.yml`), "utf8")).toBe(alone.stdout);
      const json = merge(["pillar", "--config", exact, "--minion-id", id, "-f", "json"]).stdout;
      // The JSON line is json.dumps' one-line form of the same text.
      const oneLine = json.replace(/,\n\s*/g, ", ").replace(/\n\s*/g, "");
      expect(lines[index]).toBe(`{"id": "${id}", "pillar": ${oneLine}}`);
    }
    // Salt's values: the DOUBLE 9 is the float 9.0, a DECIMAL is its text, the INT keys stay ints in row order.
    expect(readFileSync(join(out, "web01.yml"), "utf8")).toBe(
      "ratios:\n  7: 9.0\n  3: 0.5\nprices:\n  7: '12.0'\n  3: '4.5'\n",
    );
  });

  it("runs a pillar of a stack and a mysql entry in order, the later entry winning", () => {
    const both = join(dir, "pillar-master.yml");
    writeFileSync(
      both,
      JSON.stringify({
        mysql: connection,
        ext_pillar: [
          { stack: join(REPO, "examples", "stack", "config.cfg") },
          { mysql: { mysql_query: "SELECT pillar,value FROM pillars WHERE minion_id = %s ORDER BY id" } },
        ],
      }),
    );
    const grains = join(REPO, "examples", "stack", "grains.yml");
    const run = merge(["pillar", "--config", both, "--minion-id", "web01", "--grains", grains, "-f", "json"]);
    // The stack has no minions/web01.yml: Salt logs that and goes on; so do we, on standard error.
    expect(run.stderr).toBe(
      `warning: ${join(REPO, "examples", "stack", "config.cfg")}: Ignoring pillar stack template "minions/web01.yml": ` +
        `can't find from root dir "${join(REPO, "examples", "stack")}" [STACK_NO_MATCH]\n`,
    );
    expect(run.status).toBe(0);
    const pillar = JSON.parse(run.stdout);
    expect(pillar.role).toBe("webserver");
    expect(pillar.timezone).toBe("UTC");
  });

  it("tells where a mysql entry replaced or extended what a stack entry wrote, and credits --pillar's list items", () => {
    const stack = mkdtempSync(join(tmpdir(), "merge-cli-mysql-stack-"));
    writeFileSync(join(stack, "app.cfg"), "app.yml\n");
    writeFileSync(join(stack, "app.yml"), "role: base\nowners: [ops]\nntp: {server: pool}\n");
    writeFileSync(join(stack, "top.yml"), "owners: [root]\n");
    const master = join(stack, "master.yml");
    const query = "SELECT pillar,value FROM pillars WHERE minion_id = %s ORDER BY id";
    writeFileSync(
      master,
      JSON.stringify({
        mysql: connection,
        pillar_merge_lists: true,
        ext_pillar: [{ stack: "app.cfg" }, { mysql: { mysql_query: query } }],
      }),
    );
    const args = ["pillar", "--config", master, "--minion-id", "web01", "--pillar", "top.yml"];
    const row = `${master}:1 (ext_pillar 2: mysql) query #1 (SELECT pillar,value FROM pillars WHERE m…), row 1 (pillar=role)`;
    const story = merge([...args, "--get", "role", "--explain"], { cwd: stack });
    expect(story.stderr).toBe("");
    expect(story.stdout).toContain(
      `  app.yml:1 (input 2)\n    had: base\n    added by stack()\n    added by pillar(smart)\n` +
        `  ${row} (input 3)\n    had: webserver\n    replaced by pillar(smart)\n`,
    );
    const annotated = merge([...args, "--explain"], { cwd: stack });
    expect(annotated.stdout).toContain(
      "#   1. top.yml (--pillar)\n#   2. app.yml\n" +
        `#   3. ${master}:1 (ext_pillar 2: mysql) query #1 (SELECT pillar,value FROM pillars WHERE m…)\n`,
    );
    expect(annotated.stdout).toContain(
      "\nowners: # from top.yml, app.yml\n- root # from top.yml:1\n" +
        "- ops # from app.yml:2, appended by pillar(smart) (pillar_merge_lists)\n",
    );
  });
});
