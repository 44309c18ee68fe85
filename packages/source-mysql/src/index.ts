export { floatAsText } from "./columns.js";
export { classifyDriverError } from "./driver-errors.js";
export type { MysqlErrorCode, QueryLabel } from "./errors.js";
export { DecimalKey, decimalIdentity, keyOf } from "./keys.js";
export { mergeExtPillar } from "./merge.js";
export {
  createMysqlPillar,
  type MysqlData,
  type MysqlPillar,
  type MysqlPillarOptions,
  mysqlEntriesFromMaster,
  mysqlOptionsFromMaster,
  mysqlPillar,
} from "./pillar.js";
export { type PreparedSql, prepareSql } from "./placeholders.js";
export type { ValuePlace } from "./places.js";
export type { MysqlProvenance, MysqlQuerySource, MysqlValueSource } from "./provenance.js";
export type { PoolLimits } from "./pool.js";
export {
  compareCodePoints,
  type ExtPillarArgs,
  type ExtractOptions,
  extractQueries,
  extractQueriesFromConfig,
  extractSaltQueries,
  LEGACY_QUERY_KEY,
  parseWithLists,
  pyTruthy,
  type QuerySpec,
  RESERVED_QUERY_NAMES,
  type SaltQuery,
  splitExtPillarConfig,
} from "./queries.js";
export {
  describeSettings,
  type MysqlSettings,
  type MysqlSslSettings,
  parseMysqlSettings,
  SALT_MYSQL_DEFAULTS,
} from "./settings.js";
export {
  createShaper,
  effectiveDepth,
  type Row,
  type RowSink,
  type ShapedValue,
  type ShapeOptions,
  type Shaper,
  shapeRows,
} from "./shape.js";
