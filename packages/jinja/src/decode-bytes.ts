// Salt's `load_yaml` (the serializer extension behind `import_yaml`, `{% load_yaml %}` and `|load_yaml`) passes
// what PyYAML read through `salt.utils.data.decode`: every bytes value of its mappings and lists (a YAML `!!binary`)
// becomes text, decoded as UTF-8, and bytes that are not UTF-8 fail the render with Python's UnicodeDecodeError.
// Mapping keys are decoded too; sets and other values are left as they are, as `decode` leaves them.
import { PyDict } from "@merge/core";
import { TemplateProblem } from "./errors.js";

/** `value` with the bytes of its mappings and lists decoded; a freshly parsed value, changed in place where it can. */
export function decodeBinary(value: unknown): unknown {
  if (value instanceof Uint8Array) return utf8Text(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = decodeBinary(value[i]);
    return value;
  }
  if (value instanceof PyDict) {
    let hasBytesKey = false;
    for (const [key, item] of value.entries()) {
      if (key instanceof Uint8Array) hasBytesKey = true;
      const decoded = decodeBinary(item);
      if (decoded !== item) value.set(key, decoded);
    }
    if (!hasBytesKey) return value;
    // A key that was bytes is text now: the mapping is made again in its order (a key equal to an earlier one
    // replaces that one's value, in its place, as Python's dict assignment does).
    const out = new PyDict();
    for (const [key, item] of value.entries()) out.set(key instanceof Uint8Array ? utf8Text(key) : key, item);
    return out;
  }
  return value;
}

const decoder = new TextDecoder("utf-8", { fatal: true });

function utf8Text(bytes: Uint8Array): string {
  try {
    return decoder.decode(bytes);
  } catch {
    throw new TemplateProblem(`UnicodeDecodeError: ${pythonUtf8Error(bytes)}`);
  }
}

/**
 * Python's message for the first place where `bytes` is not UTF-8, e.g. `'utf-8' codec can't decode byte 0xff in
 * position 0: invalid start byte`.
 */
export function pythonUtf8Error(bytes: Uint8Array): string {
  const hex = (b: number) => `0x${b.toString(16).padStart(2, "0")}`;
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i]!;
    if (lead < 0x80) {
      i++;
      continue;
    }
    let need: number;
    // The range the byte after the lead may take (it excludes overlong forms, surrogates and code points above U+10FFFF).
    let low = 0x80;
    let high = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) need = 1;
    else if (lead >= 0xe0 && lead <= 0xef) {
      need = 2;
      if (lead === 0xe0) low = 0xa0;
      if (lead === 0xed) high = 0x9f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      need = 3;
      if (lead === 0xf0) low = 0x90;
      if (lead === 0xf4) high = 0x8f;
    } else {
      return `'utf-8' codec can't decode byte ${hex(lead)} in position ${i}: invalid start byte`;
    }
    for (let k = 1; k <= need; k++) {
      const at = i + k;
      if (at >= bytes.length) {
        const end = bytes.length - 1;
        return end === i
          ? `'utf-8' codec can't decode byte ${hex(lead)} in position ${i}: unexpected end of data`
          : `'utf-8' codec can't decode bytes in position ${i}-${end}: unexpected end of data`;
      }
      const b = bytes[at]!;
      const ok = k === 1 ? b >= low && b <= high : b >= 0x80 && b <= 0xbf;
      if (!ok) {
        return k === 1
          ? `'utf-8' codec can't decode byte ${hex(lead)} in position ${i}: invalid continuation byte`
          : `'utf-8' codec can't decode bytes in position ${i}-${at - 1}: invalid continuation byte`;
      }
    }
    i += need + 1;
  }
  return "'utf-8' codec can't decode the bytes";
}
