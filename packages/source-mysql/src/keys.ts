import { keyIdentity, type MappingKey, PY_KEY, PyDict, PyFloat } from "@merge/core";
import { binaryFraction } from "./binary-fraction.js";

/**
 * How a column value becomes a mapping key: as itself, the Python value MySQLdb gave (an int key stays an int, a
 * float a float, NULL is None, binary data bytes), so `1` and `"1"` stay two keys as in Salt. Plain results name
 * such keys as `json.dumps` does (`1`, `1.0`, `null`).
 */
export function keyOf(value: unknown): MappingKey {
  switch (typeof value) {
    case "string":
    case "number":
    case "bigint":
    case "boolean":
      return value;
    case "undefined":
      return null;
    default:
      if (
        value === null ||
        value instanceof PyFloat ||
        value instanceof Uint8Array ||
        value instanceof DecimalKey
      )
        return value;
      if (value instanceof Date) return value.toISOString();
      return String(value);
  }
}

const DECIMAL_TEXT = /^([+-]?)(\d*)(?:\.(\d*))?$/;

/**
 * A DECIMAL column value used as a mapping key. MySQLdb gives Salt a `decimal.Decimal`, which Python finds equal to
 * the int or float of the same value (`Decimal("1.00") == 1`, `Decimal("2.50") == 2.5`, but `Decimal("0.1") != 0.1`),
 * so such keys merge with int and float keys of other queries. Values stay the decimal text; only keys need this.
 * It is named by its text (`1.00`).
 */
export class DecimalKey {
  readonly text: string;
  private identity: number | bigint | string | undefined;

  constructor(text: string) {
    this.text = text;
  }

  [PY_KEY](): number | bigint | string {
    this.identity ??= decimalIdentity(this.text);
    return this.identity;
  }

  toString(): string {
    return this.text;
  }

  toJSON(): string {
    return this.text;
  }
}

/**
 * What a decimal text equals in Python: an int when it is whole, the float when a float holds it exactly, otherwise
 * only decimals of the same value (`decimal:` and its digits without redundant zeros).
 */
export function decimalIdentity(text: string): number | bigint | string {
  const match = DECIMAL_TEXT.exec(text.trim());
  if (match === null) return `decimal:${text}`;
  const negative = match[1] === "-";
  const whole = (match[2] ?? "").replace(/^0+/, "");
  const fraction = (match[3] ?? "").replace(/0+$/, "");
  if (fraction === "") {
    const int = BigInt(whole === "" ? "0" : whole);
    return negative ? -int : int;
  }
  const float = Number(text);
  if (Number.isFinite(float) && exactlyEqual(float, BigInt(whole + fraction), fraction.length)) return float;
  return `decimal:${negative ? "-" : ""}${whole === "" ? "0" : whole}.${fraction}`;
}

/** Whether |float| is exactly digits / 10^places: float = m / 2^k, so digits * 2^k must equal m * 10^places. */
function exactlyEqual(float: number, digits: bigint, places: number): boolean {
  const { numerator, shift } = binaryFraction(float);
  return digits * 2n ** shift === numerator * 10n ** BigInt(places);
}

/**
 * Replaces every `DecimalKey` key in a shaped result by its text, in place, once an entry's queries have all run:
 * while rows are shaped a DECIMAL key must be one key with the int or float of the same value (Salt's `Decimal`),
 * but what a fetch returns names it by its text, as the README's type table says of DECIMAL values.
 */
export function decimalKeysAsText(value: unknown): void {
  if (Array.isArray(value)) {
    for (const item of value) decimalKeysAsText(item);
    return;
  }
  if (!(value instanceof PyDict)) return;
  const entries = [...value.entries()];
  if (entries.some(([key]) => key instanceof DecimalKey)) {
    value.clear();
    for (const [key, item] of entries) value.set(key instanceof DecimalKey ? key.text : key, item);
  }
  for (const [, item] of entries) decimalKeysAsText(item);
}

/** A path with every `DecimalKey` named by its text (see `decimalKeysAsText`). */
export function decimalPathAsText<K>(path: readonly K[]): K[] {
  return path.map((key) => (key instanceof DecimalKey ? (key.text as K) : key));
}

/**
 * A place in a shaped result (before `decimalKeysAsText`) with each key as the mapping holds it, named by its text:
 * a DECIMAL key written where an equal int key already was is that int key (`1`, not `1.00`), as in the data.
 */
export function storedPathAsText(root: unknown, path: readonly PathStep[]): PathStep[] {
  const out: PathStep[] = [];
  let node: unknown = root;
  for (const step of path) {
    if (node instanceof PyDict) {
      const identity = keyIdentity(step);
      const stored = node.keyList().find((key) => keyIdentity(key) === identity) ?? step;
      out.push(stored instanceof DecimalKey ? stored.text : stored);
      node = node.get(stored);
    } else {
      out.push(step instanceof DecimalKey ? step.text : step);
      node = Array.isArray(node) && typeof step === "number" ? node[step] : undefined;
    }
  }
  return out;
}

type PathStep = MappingKey;
