// Python string formatting: the `%` operator / Jinja's `format` filter, and `str.format()`.
import { hasOwn, isMapping, pyFloatRepr } from "@merge/core";
import { RenderAccount } from "./budget.js";
import { expPy, fixedPy } from "./decimal.js";
import { TemplateProblem, undefinedOperand } from "./errors.js";
import { splitArgs } from "./kwargs.js";
import { intValue, isFloat, isNumber, toDouble, truncToInt } from "./numbers.js";
import { numberAttribute } from "./numeric.js";
import { cutPiece, findItem, hasMarks, markText, NOT_FOUND, opaqueActive, plainOpaque } from "./opaque.js";
import { DictView, isSafeString, PyTuple, pyRepr, pyStr, pyTypeName } from "./pyvalues.js";

function textOf(v: unknown): string | undefined {
  if (typeof v === "string") return v;
  return isSafeString(v) ? v.val : undefined;
}

/** The number a `%` conversion formats: an int stays exact (`%d` of a big int), a float is a double. */
function toNumber(v: unknown, conv: string): number | bigint {
  const n = intValue(v);
  if (n !== undefined) return n;
  // int() and float() of Jinja's Undefined fail as using it fails; `%x`, `%o`, `%c` want an int and say so.
  if (v === undefined && !"xXoc".includes(conv)) throw undefinedOperand("'%'");
  if (isNumber(v)) {
    // `%x`, `%o` and `%c` take ints only; `%d` truncates a float.
    if ("xXoc".includes(conv))
      throw new TemplateProblem(`TypeError: %${conv} format: an integer is required, not ${pyTypeName(v)}`);
    return toDouble(v);
  }
  throw new TemplateProblem(
    `TypeError: %${conv} format: ${"xXoc".includes(conv) ? "an integer" : "a real number"} is required, not ${pyTypeName(v)}`,
  );
}

/** The int `%d` writes: a float truncated toward zero. */
function intPart(n: number | bigint): bigint {
  if (typeof n === "bigint") return n < 0n ? -n : n;
  const t = truncToInt(Math.abs(n));
  return typeof t === "bigint" ? t : BigInt(t);
}

function expForm(n: number, prec: number, upper: boolean): string {
  const s = (n < 0 ? "-" : "") + expPy(Math.abs(n), prec);
  return upper ? s.toUpperCase() : s;
}

/**
 * A float formatted without a type but with a precision (`'{:.3}'.format(x)`): like `g`, except that it switches to
 * the exponent form one digit earlier and a fixed-point result keeps one digit after the point (`9.0`, `1e+02`).
 */
function shortForm(n: number, precArg: number, alt: boolean): string {
  const special = specialFloat(n, false);
  if (special !== undefined) return special;
  const prec = precArg === 0 ? 1 : precArg;
  const exp = Number(expPy(n, prec - 1).split("e")[1]);
  if (exp < -4 || exp >= prec - 1) {
    let s = expForm(n, prec - 1, false);
    if (!alt) s = s.replace(/\.?0+(e)/, "$1");
    return s;
  }
  let s = fixedPy(n, Math.max(0, prec - 1 - exp));
  if (!alt && s.includes(".")) s = s.replace(/0+$/, "").replace(/\.$/, ".0");
  return s.includes(".") ? s : `${s}.0`;
}

/** `%g`/`{:g}`: fixed or exponent form, trailing zeros removed unless `alt`. */
function generalForm(n: number, precArg: number, upper: boolean, alt: boolean): string {
  const prec = precArg === 0 ? 1 : precArg;
  if (n === 0) return alt ? `0.${"0".repeat(prec - 1)}` : "0";
  const exp = Number(expPy(Math.abs(n), prec - 1).split("e")[1]);
  let s: string;
  if (exp < -4 || exp >= prec) {
    s = expForm(n, prec - 1, upper);
    if (!alt) s = s.replace(/\.?0+(e)/i, "$1");
  } else {
    s = (n < 0 ? "-" : "") + fixedPy(Math.abs(n), Math.max(0, prec - 1 - exp));
    if (!alt && s.includes(".")) s = s.replace(/\.?0+$/, "");
  }
  return s;
}

function specialFloat(n: number, upper: boolean): string | undefined {
  if (Number.isNaN(n)) return upper ? "NAN" : "nan";
  if (!Number.isFinite(n)) return (n < 0 ? "-" : "") + (upper ? "INF" : "inf");
  return undefined;
}

function formatNumberBody(n: number | bigint, conv: string, prec: number | undefined, alt: boolean): string {
  const upper = conv === conv.toUpperCase();
  const sp = "eEfFgG".includes(conv) ? specialFloat(Math.abs(Number(n)), upper) : undefined;
  if (sp !== undefined) return sp;
  const a = Math.abs(Number(n));
  switch (conv) {
    case "d":
    case "i":
    case "u":
      return intPart(n).toString();
    case "x":
    case "X": {
      const s = intPart(n).toString(16);
      return (alt ? (conv === "x" ? "0x" : "0X") : "") + (conv === "X" ? s.toUpperCase() : s);
    }
    case "o":
      return (alt ? "0o" : "") + intPart(n).toString(8);
    case "f":
    case "F":
      return fixedPy(a, prec ?? 6);
    case "e":
    case "E":
      return expForm(a, prec ?? 6, upper);
    case "g":
    case "G":
      return generalForm(a, prec ?? 6, upper, alt);
    default:
      return String(a);
  }
}

/** Python `fmt % values`; widths and precisions are charged to `account` before the padding is made. */
export function pyPercent(
  fmt: string,
  values: unknown,
  account: RenderAccount = new RenderAccount(),
): string {
  // A format string holding marked text is read as its plain text, and all of the result counts as marked.
  if (opaqueActive() && hasMarks(fmt)) return markText(pyPercent(plainOpaque(fmt), values, account));
  const mapping = isMapping(values) ? values : undefined;
  // Jinja's Undefined has `__getitem__`, so Python takes it for a mapping: no "not all arguments converted", and a
  // `%(key)s` looks it up (and fails as using it fails).
  const undefinedArg = values === undefined;
  // So has a list (Python's test is "has `__getitem__` and is no tuple"): it is one argument, and never left over.
  const listArg = Array.isArray(values) && !(values instanceof PyTuple) && !(values instanceof DictView);
  const list: unknown[] = values instanceof PyTuple ? values : [values];
  let next = 0;
  const take = (): unknown => {
    if (next >= list.length) throw new TemplateProblem("TypeError: not enough arguments for format string");
    return list[next++];
  };
  const re = /%(?:\(([^)]*)\))?([-+ #0]*)(\*|\d+)?(?:\.(\*|\d+))?[hlL]?([diouxXeEfFgGcrsa%])/g;
  let out = "";
  let last = 0;
  for (let m = re.exec(fmt); m !== null; m = re.exec(fmt)) {
    out += fmt.slice(last, m.index);
    last = m.index + m[0].length;
    const [, key, flags = "", widthArg, precArg, conv = "s"] = m;
    if (conv === "%" && key === undefined && flags === "" && widthArg === undefined) {
      out += "%";
      continue;
    }
    const width = widthArg === "*" ? Number(take()) : widthArg === undefined ? 0 : Number(widthArg);
    const prec = precArg === "*" ? Number(take()) : precArg === undefined ? undefined : Number(precArg);
    if (width > 0 || prec !== undefined) account.build(Math.max(width, prec ?? 0), "string formatting");
    let value: unknown;
    if (key !== undefined) {
      if (undefinedArg) throw undefinedOperand("'%'");
      if (listArg) throw new TemplateProblem("TypeError: list indices must be integers or slices, not str");
      if (mapping === undefined) throw new TemplateProblem("TypeError: format requires a mapping");
      const found = findItem(mapping, key);
      if (found === NOT_FOUND) throw new TemplateProblem(`KeyError: '${key}'`);
      value = found;
    } else if (conv !== "%") value = take();
    let body: string;
    let sign = "";
    let numeric = false;
    switch (conv) {
      case "%":
        body = "%";
        break;
      case "s":
        body = pyStr(value);
        if (prec !== undefined) body = cutPiece(body.slice(0, prec));
        break;
      case "r":
      case "a":
        body = pyRepr(value);
        if (prec !== undefined) body = body.slice(0, prec);
        break;
      case "c": {
        if (value === undefined) throw new TemplateProblem("TypeError: %c requires int or char");
        const s = textOf(value);
        if (s !== undefined && Array.from(s).length === 1) body = s;
        else if (s !== undefined) throw new TemplateProblem("TypeError: %c requires int or char");
        else body = String.fromCodePoint(Number(toNumber(value, conv)));
        break;
      }
      default: {
        const raw = toNumber(value, conv);
        // The int conversions format the truncated int: `'%d' % -0.5` is `0`.
        const n = "diuxXo".includes(conv) && typeof raw === "number" ? truncToInt(raw) : raw;
        numeric = true;
        if (n < 0 || Object.is(n, -0)) sign = "-";
        else if (flags.includes("+")) sign = "+";
        else if (flags.includes(" ")) sign = " ";
        body = formatNumberBody(n, conv, prec, flags.includes("#"));
        if ("diu".includes(conv) && prec !== undefined) body = body.padStart(prec, "0");
      }
    }
    const len = sign.length + body.length;
    if (len < width) {
      if (flags.includes("-")) body = sign + body + " ".repeat(width - len);
      else if (flags.includes("0") && numeric) body = sign + "0".repeat(width - len) + body;
      else body = " ".repeat(width - len) + sign + body;
    } else body = sign + body;
    out += body;
  }
  out += fmt.slice(last);
  if (mapping === undefined && !undefinedArg && !listArg && next < list.length) {
    throw new TemplateProblem("TypeError: not all arguments converted during string formatting");
  }
  return out;
}

/**
 * A replacement field's `.name` and `[key]` steps, as `str.format` takes them: `.name` is Python's `getattr` (a
 * dict's keys, a list's items and a string's characters are no attributes: `'{a.b}'.format(a={'b': 1})` is an
 * AttributeError), `[digits]` an int index or key, any other `[key]` a string key.
 */
function lookupField(root: unknown, path: string): unknown {
  let v = root;
  const re = /\.([^.[]+)|\[([^\]]+)\]/g;
  for (let m = re.exec(path); m !== null; m = re.exec(path)) {
    if (m[1] !== undefined) {
      const name = m[1];
      // A namespace's attributes are its own names; no other value here has data attributes.
      if (isNumber(v)) {
        const attribute = numberAttribute(v, name);
        if (attribute === undefined)
          throw new TemplateProblem(`AttributeError: '${pyTypeName(v)}' object has no attribute '${name}'`);
        v = attribute;
        continue;
      }
      const plainObject = v !== null && typeof v === "object" && !Array.isArray(v) && !isMapping(v);
      if (!plainObject || isSafeString(v) || !hasOwn(v as object, name))
        throw new TemplateProblem(`AttributeError: '${pyTypeName(v)}' object has no attribute '${name}'`);
      v = (v as Record<string, unknown>)[name];
      continue;
    }
    const k = m[2] as string;
    const key: string | number = /^\d+$/.test(k) ? Number(k) : k;
    if (isMapping(v)) {
      const found = findItem(v, key);
      if (found === NOT_FOUND) throw new TemplateProblem(`KeyError: ${pyRepr(key)}`);
      v = found;
      continue;
    }
    const text = typeof v === "string" ? v : isSafeString(v) ? v.val : undefined;
    const items = text !== undefined ? Array.from(text) : Array.isArray(v) ? v : undefined;
    if (items === undefined)
      throw new TemplateProblem(`TypeError: '${pyTypeName(v)}' object is not subscriptable`);
    const kind = text !== undefined ? "string" : pyTypeName(v);
    if (typeof key === "string")
      throw new TemplateProblem(
        text === undefined
          ? `TypeError: ${kind} indices must be integers or slices, not str`
          : "TypeError: string indices must be integers, not 'str'",
      );
    if (key >= items.length) throw new TemplateProblem(`IndexError: ${kind} index out of range`);
    v = items[key];
  }
  return v;
}

/** The format-spec mini language: `[[fill]align][sign][#][0][width][,][.precision][type]`. */
function applySpec(value: unknown, spec: string, account: RenderAccount): string {
  const m = /^(?:(.)?([<>=^]))?([-+ ])?(#)?(0)?(\d+)?([,_])?(?:\.(\d+))?([bcdeEfFgGnosxX%])?$/su.exec(spec);
  if (m === null) throw new TemplateProblem(`ValueError: Invalid format specifier '${spec}'`);
  const [, fillArg, alignArg, signFlag = "-", alt, zero, widthArg, group, precArg, type] = m;
  const width = widthArg === undefined ? 0 : Number(widthArg);
  const prec = precArg === undefined ? undefined : Number(precArg);
  if (width > 0 || prec !== undefined) account.build(Math.max(width, prec ?? 0), "string formatting");
  let body: string;
  let sign = "";
  const isNum = isNumber(value);
  if (isNum && (type !== undefined ? type !== "s" : true)) {
    const float = isFloat(value);
    const n = float ? toDouble(value) : (intValue(value) as number | bigint);
    if (n < 0 || Object.is(n, -0)) sign = "-";
    else if (signFlag === "+") sign = "+";
    else if (signFlag === " ") sign = " ";
    if (float && type !== undefined && "dbcoxX".includes(type))
      throw new TemplateProblem(`ValueError: Unknown format code '${type}' for object of type 'float'`);
    if (!float && prec !== undefined && (type === undefined || "dbcoxXn".includes(type)))
      throw new TemplateProblem("ValueError: Precision not allowed in integer format specifier");
    const t = type ?? (float ? (prec !== undefined ? "r" : "") : "d");
    if (t === "") body = pyFloatRepr(Math.abs(Number(n)));
    else if (t === "r") body = shortForm(Math.abs(Number(n)), prec as number, alt !== undefined);
    else if (t === "%") body = `${fixedPy(Math.abs(Number(n)) * 100, prec ?? 6)}%`;
    else if (t === "b") body = (alt ? "0b" : "") + intPart(n).toString(2);
    else body = formatNumberBody(n, t === "n" ? (float ? "g" : "d") : t, prec, alt !== undefined);
    if (group !== undefined) {
      const [ip, fp] = body.split(".");
      body = (ip ?? "").replace(/\B(?=(\d{3})+(?!\d))/g, group) + (fp === undefined ? "" : `.${fp}`);
    }
  } else {
    body = pyStr(value);
    if (prec !== undefined) body = cutPiece(body.slice(0, prec));
  }
  const fill = fillArg ?? (zero !== undefined && isNum ? "0" : " ");
  const align = alignArg ?? (zero !== undefined && isNum ? "=" : isNum ? ">" : "<");
  const len = sign.length + body.length;
  if (len >= width) return sign + body;
  const pad = width - len;
  switch (align) {
    case "<":
      return sign + body + fill.repeat(pad);
    case ">":
      return fill.repeat(pad) + sign + body;
    case "=":
      return sign + fill.repeat(pad) + body;
    default: {
      const left = Math.floor(pad / 2);
      return fill.repeat(left) + sign + body + fill.repeat(pad - left);
    }
  }
}

/** Python `str.format(*args, **kwargs)`; widths and precisions are charged to `account` before they are used. */
export function pyFormatMethod(
  fmt: string,
  args: readonly unknown[],
  account: RenderAccount = new RenderAccount(),
): string {
  if (opaqueActive() && hasMarks(fmt)) return markText(pyFormatMethod(plainOpaque(fmt), args, account));
  const { pos, kw } = splitArgs(args);
  let auto = 0;
  let out = "";
  let i = 0;
  while (i < fmt.length) {
    const ch = fmt[i] as string;
    if (ch === "{" && fmt[i + 1] === "{") {
      out += "{";
      i += 2;
      continue;
    }
    if (ch === "}" && fmt[i + 1] === "}") {
      out += "}";
      i += 2;
      continue;
    }
    if (ch === "}") throw new TemplateProblem("ValueError: Single '}' encountered in format string");
    if (ch !== "{") {
      out += ch;
      i++;
      continue;
    }
    let depth = 1;
    let j = i + 1;
    while (j < fmt.length && depth > 0) {
      if (fmt[j] === "{") depth++;
      else if (fmt[j] === "}") depth--;
      if (depth > 0) j++;
    }
    if (depth > 0) throw new TemplateProblem("ValueError: Single '{' encountered in format string");
    const field = fmt.slice(i + 1, j);
    i = j + 1;
    const fm = /^([^!:.[]*)((?:\.[^!:.[]+|\[[^\]]*\])*)(?:!([rsa]))?(?::(.*))?$/s.exec(field);
    if (fm === null) throw new TemplateProblem(`ValueError: bad format field '${field}'`);
    const [, name = "", path = "", conv, specRaw = ""] = fm;
    let value: unknown;
    if (name === "") value = pos[auto++];
    else if (/^\d+$/.test(name)) value = pos[Number(name)];
    else {
      if (kw === undefined || !hasOwn(kw, name)) throw new TemplateProblem(`KeyError: '${name}'`);
      value = kw[name];
    }
    if (name === "" || /^\d+$/.test(name)) {
      const idx = name === "" ? auto - 1 : Number(name);
      if (idx >= pos.length) {
        throw new TemplateProblem(
          `IndexError: Replacement index ${idx} out of range for positional args tuple`,
        );
      }
    }
    if (path !== "") value = lookupField(value, path);
    if (conv === "r" || conv === "a") value = pyRepr(value);
    else if (conv === "s") value = pyStr(value);
    const spec = specRaw.includes("{") ? pyFormatMethod(specRaw, args, account) : specRaw;
    out += spec === "" ? (isSafeString(value) ? value.val : pyStr(value)) : applySpec(value, spec, account);
  }
  return out;
}
