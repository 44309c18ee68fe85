/**
 * PyYAML's implicit resolver (YAML 1.1 as `yaml.resolver.Resolver` has it). A plain scalar's tag is found by trying
 * the patterns registered for its first character, in PyYAML's registration order: bool, float, int, merge, null,
 * timestamp, value. Anything else is a string.
 */

export const TAG = {
  str: "tag:yaml.org,2002:str",
  int: "tag:yaml.org,2002:int",
  float: "tag:yaml.org,2002:float",
  bool: "tag:yaml.org,2002:bool",
  null: "tag:yaml.org,2002:null",
  timestamp: "tag:yaml.org,2002:timestamp",
  merge: "tag:yaml.org,2002:merge",
  value: "tag:yaml.org,2002:value",
  binary: "tag:yaml.org,2002:binary",
  map: "tag:yaml.org,2002:map",
  seq: "tag:yaml.org,2002:seq",
  set: "tag:yaml.org,2002:set",
  omap: "tag:yaml.org,2002:omap",
  pairs: "tag:yaml.org,2002:pairs",
} as const;

export const BOOL_RE = /^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/;
// Floats need a dot; an exponent needs its sign (`1.0e+3`), so `1e3` and `1.0e3` stay strings.
export const FLOAT_RE =
  /^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;
export const INT_RE =
  /^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$/;
export const NULL_RE = /^(?:~|null|Null|NULL|)$/;
export const TIMESTAMP_RE =
  /^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$/;

/** The tag PyYAML gives a plain (untagged) scalar. */
export function resolvePlain(value: string): string {
  if (value === "") return TAG.null;
  const c = value.charCodeAt(0);
  // digits and signs: float, int, timestamp (digits only)
  if ((c >= 48 && c <= 57) || c === 45 || c === 43) {
    if (FLOAT_RE.test(value)) return TAG.float;
    if (INT_RE.test(value)) return TAG.int;
    if (c >= 48 && c <= 57 && TIMESTAMP_RE.test(value)) return TAG.timestamp;
    return TAG.str;
  }
  switch (value[0]) {
    case ".":
      return FLOAT_RE.test(value) ? TAG.float : TAG.str;
    case "y":
    case "Y":
    case "t":
    case "T":
    case "f":
    case "F":
    case "o":
    case "O":
      return BOOL_RE.test(value) ? TAG.bool : TAG.str;
    case "n":
    case "N":
      if (BOOL_RE.test(value)) return TAG.bool;
      return NULL_RE.test(value) ? TAG.null : TAG.str;
    case "~":
      return value === "~" ? TAG.null : TAG.str;
    case "<":
      return value === "<<" ? TAG.merge : TAG.str;
    case "=":
      return value === "=" ? TAG.value : TAG.str;
    default:
      return TAG.str;
  }
}
