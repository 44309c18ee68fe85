import { mysqlPillar } from "./dist/index.js";
const settings = { host: "127.0.0.1", port: +process.env.MERGE_TEST_MYSQL_PORT, user: "merge_test", password: "merge-test-pass" };
const queries = [
      "SELECT 'k', 'a' AS `__proto__`, 'b' AS `constructor`, 'c' AS `prototype` FROM DUAL WHERE %s <> ''",
      "SELECT '__proto__', 'polluted', 1 FROM DUAL WHERE %s <> ''",
      "SELECT 'constructor', 'prototype', 'isAdmin', 1 FROM DUAL WHERE %s <> ''",
      "SELECT 'x', '__proto__' AS `__proto__`, 'hacked' AS `constructor` FROM DUAL WHERE %s <> ''",
      "SELECT NULL, '__proto__', 2 FROM DUAL WHERE %s <> ''",
];
for (const query of queries) for (const options of [{}, { as_list: true }, { with_lists: "1" }, { depth: 1 }]) {
  const depth = query.includes("AS `__proto__`, 'b'") ? { depth: 1 } : {};
  try { const r = await mysqlPillar("web01", {}, { connection: settings, queries: { q: { query, ...options, ...depth } } }); console.log(JSON.stringify(options), JSON.stringify(r)); } catch (e) { console.log("!!", e.code, e.message); }
}
process.exit(0);
