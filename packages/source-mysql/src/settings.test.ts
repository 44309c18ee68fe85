import { isMergeError } from "@merge/core";
import { describe, expect, it } from "vitest";
import { classifyDriverError, sanitizeDriverError } from "./driver-errors.js";
import { mergeExtPillar } from "./merge.js";
import { describeSettings, parseMysqlSettings, SALT_MYSQL_DEFAULTS } from "./settings.js";

function errorOf(run: () => unknown): { code: string; message: string } | undefined {
  try {
    run();
  } catch (error) {
    if (isMergeError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  return undefined;
}

describe("parseMysqlSettings", () => {
  it("gives Salt's defaults for an empty configuration", () => {
    expect(parseMysqlSettings({})).toEqual(SALT_MYSQL_DEFAULTS);
    expect(SALT_MYSQL_DEFAULTS).toEqual({
      host: "localhost",
      port: 3306,
      user: "salt",
      password: "salt",
      database: "salt",
    });
  });

  it("reads the nested mysql: block of the master configuration", () => {
    expect(
      parseMysqlSettings({
        mysql: { user: "salt", pass: "super_secret_password", db: "salt_db" },
        ext_pillar: [],
      }),
    ).toEqual({ ...SALT_MYSQL_DEFAULTS, password: "super_secret_password", database: "salt_db" });
  });

  it("reads the flat mysql.* keys, which win over the nested block", () => {
    const settings = parseMysqlSettings({
      "mysql.host": "127.0.0.1",
      "mysql.port": "3307",
      "mysql.user": "pillar",
      "mysql.pass": "pw",
      "mysql.db": "cmdb",
      "mysql.unix_socket": "/run/mysqld/mysqld.sock",
      "mysql.ssl_ca": "/etc/ssl/ca.pem",
      "mysql.ssl_cert": "/etc/ssl/client.pem",
      "mysql.ssl_key": "/etc/ssl/client.key",
      mysql: { host: "db.internal", user: "other" },
    });
    expect(settings).toEqual({
      host: "127.0.0.1",
      port: 3307,
      user: "pillar",
      password: "pw",
      database: "cmdb",
      socketPath: "/run/mysqld/mysqld.sock",
      ssl: { ca: "/etc/ssl/ca.pem", cert: "/etc/ssl/client.pem", key: "/etc/ssl/client.key" },
    });
  });

  it("reads a nested ssl mapping and a connect timeout in seconds", () => {
    expect(
      parseMysqlSettings({ mysql: { ssl: { ca: "/ca.pem", verify: false }, connect_timeout: 2 } }),
    ).toMatchObject({ ssl: { ca: "/ca.pem", verify: false }, connectTimeout: 2000 });
  });

  it("reads a connection URL, decoding escaped parts", () => {
    expect(
      parseMysqlSettings("mysql://pillar:p%40ss%2Fw@127.0.0.1:3307/cmdb?socket=/tmp/my.sock&ssl_ca=/ca.pem"),
    ).toEqual({
      host: "127.0.0.1",
      port: 3307,
      user: "pillar",
      password: "p@ss/w",
      database: "cmdb",
      socketPath: "/tmp/my.sock",
      ssl: { ca: "/ca.pem" },
    });
    expect(parseMysqlSettings("mariadb://[::1]/x")).toMatchObject({ host: "::1", port: 3306, database: "x" });
    expect(parseMysqlSettings({ mysql: "mysql://u@127.0.0.1/d" })).toMatchObject({
      user: "u",
      database: "d",
    });
  });

  it("does not take a master configuration's own user for the database user", () => {
    expect(parseMysqlSettings({ user: "saltrunner", ext_pillar: [] })).toEqual(SALT_MYSQL_DEFAULTS);
  });

  it("reads a bare settings block", () => {
    expect(parseMysqlSettings({ host: "127.0.0.1", db: "x" })).toMatchObject({
      host: "127.0.0.1",
      database: "x",
    });
  });

  it("rejects bad settings with SQL_CONFIG and never shows the password", () => {
    expect(errorOf(() => parseMysqlSettings({ mysql: { port: "eleven" } }))?.code).toBe("SQL_CONFIG");
    expect(errorOf(() => parseMysqlSettings({ mysql: { port: 70000 } }))?.code).toBe("SQL_CONFIG");
    expect(errorOf(() => parseMysqlSettings("postgres://a@b/c"))?.code).toBe("SQL_CONFIG");
    expect(errorOf(() => parseMysqlSettings("not a url"))?.code).toBe("SQL_CONFIG");
    const bad = errorOf(() => parseMysqlSettings({ mysql: { pass: ["hunter2-secret"] } }));
    expect(bad?.code).toBe("SQL_CONFIG");
    expect(bad?.message).not.toContain("hunter2");
  });

  it("describes the settings with the password masked", () => {
    expect(describeSettings(parseMysqlSettings("mysql://u:topsecret@127.0.0.1:3307/d"))).toBe(
      "mysql://u:***@127.0.0.1:3307/d",
    );
  });
});

describe("driver errors", () => {
  it("classifies server and socket errors by what has to be fixed", () => {
    expect(classifyDriverError({ code: "ECONNREFUSED" }, "connect")).toBe("SQL_CONNECT");
    expect(classifyDriverError({ code: "ER_ACCESS_DENIED_ERROR", errno: 1045 }, "connect")).toBe("SQL_AUTH");
    expect(classifyDriverError({ code: "ER_BAD_DB_ERROR", errno: 1049 }, "connect")).toBe(
      "SQL_UNKNOWN_DATABASE",
    );
    expect(classifyDriverError({ code: "ER_PARSE_ERROR", errno: 1064 }, "query")).toBe("SQL_QUERY");
    expect(classifyDriverError({ code: "ER_LOCK_WAIT_TIMEOUT", errno: 1205 }, "query")).toBe(
      "SQL_LOCK_TIMEOUT",
    );
    expect(classifyDriverError({ code: "ER_STATEMENT_TIMEOUT", errno: 1969 }, "query")).toBe("SQL_TIMEOUT");
    expect(classifyDriverError({ code: "ER_QUERY_INTERRUPTED", errno: 1317 }, "query")).toBe(
      "SQL_INTERRUPTED",
    );
    expect(classifyDriverError({ code: "ER_CONNECTION_KILLED", errno: 1927 }, "query")).toBe(
      "SQL_CONNECTION_LOST",
    );
    expect(classifyDriverError({ code: "PROTOCOL_CONNECTION_LOST" }, "query")).toBe("SQL_CONNECTION_LOST");
    expect(classifyDriverError({ code: "ETIMEDOUT" }, "connect")).toBe("SQL_CONNECT");
    expect(classifyDriverError(new Error("odd"), "connect")).toBe("SQL_CONNECT");
  });

  it("copies only code, number, state and a redacted message", () => {
    const copy = sanitizeDriverError(
      { code: "X", errno: 1, sqlState: "HY000", message: "bad pw s3cret!", config: { password: "s3cret!" } },
      ["s3cret!"],
    ) as Error & Record<string, unknown>;
    expect(copy.message).toBe("bad pw ***");
    expect(copy.config).toBeUndefined();
    expect(copy.code).toBe("X");
  });
});

describe("mergeExtPillar", () => {
  it("merges mappings recursively and replaces everything else, like Salt's smart strategy", () => {
    const base = { a: { x: 1, l: [1] }, b: 1 };
    const out = mergeExtPillar(base, { a: { y: 2, l: [2] }, b: { c: 3 } });
    expect(out).toEqual({ a: { x: 1, y: 2, l: [2] }, b: { c: 3 } });
    expect(base).toEqual({ a: { x: 1, l: [1] }, b: 1 });
  });
});
