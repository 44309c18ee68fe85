import { formatMergeError } from "@merge/core";
import { describe, expect, it } from "vitest";
import { wrapDriverError } from "./driver-errors.js";

const where = { server: "db.example:3306", database: "salt" };
const main = { root: "main", index: 0, sql: "SELECT k, v FROM t WHERE id = %s" };

function line(error: unknown, phase: "connect" | "query", context: Parameters<typeof wrapDriverError>[2]) {
  return formatMergeError(wrapDriverError(error, phase, context, ["s3cret"]));
}

describe("wrapDriverError", () => {
  it("says a refused connection once, in words, naming the server and no query", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 10.0.0.5:3306"), { code: "ECONNREFUSED" });
    expect(line(refused, "connect", where)).toBe(
      "cannot connect to the MySQL server at db.example:3306: connection refused (is the server running and listening there?) [SQL_CONNECT]",
    );
  });

  it("names the query as the source of an SQL error, with its SQL after the server's reason", () => {
    const missing = Object.assign(new Error("Table 'salt.t' doesn't exist"), {
      code: "ER_NO_SUCH_TABLE",
      errno: 1146,
    });
    const error = wrapDriverError(missing, "query", { ...where, query: main }, []);
    expect(formatMergeError(error)).toBe(
      `query "main": Table 'salt.t' doesn't exist; the SQL: SELECT k, v FROM t WHERE id = %s [SQL_QUERY]`,
    );
    expect(error.details).toMatchObject({ driverCode: "ER_NO_SUCH_TABLE", errno: 1146, root: "main" });
  });

  it("names the running query of a lost connection without blaming it", () => {
    const lost = Object.assign(new Error("Connection lost: The server closed the connection."), {
      code: "PROTOCOL_CONNECTION_LOST",
      fatal: true,
    });
    const error = wrapDriverError(lost, "query", { ...where, query: main }, []);
    expect(formatMergeError(error)).toBe(
      'lost the connection to the MySQL server at db.example:3306 while query "main" ran: the server closed the connection [SQL_CONNECTION_LOST]',
    );
    expect(error.source).toBeUndefined();
    expect(error.details?.runningQuery).toBe("main");
  });

  it("gives a query-kind failure with no query running to the server, saying what was being done", () => {
    const killed = Object.assign(new Error("Query execution was interrupted"), { errno: 1317 });
    expect(line(killed, "query", { ...where, step: "starting the transaction" })).toBe(
      "the MySQL server at db.example:3306 failed while starting the transaction: Query execution was interrupted [SQL_INTERRUPTED]",
    );
  });

  it("keeps the password out of the message", () => {
    const denied = Object.assign(new Error("Access denied for user 'salt' (password s3cret)"), {
      errno: 1045,
    });
    expect(line(denied, "connect", where)).toBe(
      "the MySQL server at db.example:3306 refused the login: Access denied for user 'salt' (password ***) [SQL_AUTH]",
    );
  });
});
