// cloud-init reads a MIME message with Python's email parser, which ends a header block at the first line that is
// not a header (a `#cloud-config` line, a comment, a YAML key with a space in it) and reads that line and the rest as
// the body, as if a blank line stood before it. mailsplit, which takes the message apart here, reads every line up to
// the first blank one as a header, and drops a part whose headers run into the next boundary. It also misses a
// boundary line with spaces or tabs after it, which Python (and RFC 2046) accept. So before mailsplit sees the
// message, a blank line is put wherever Python's parser ends a header block without one, and the blanks after a
// boundary are taken off; a message that needs neither is passed on as it is.

// A line Python's email parser reads as a header: `From `, a name of printable characters other than `:` followed by
// `:`, or a continuation line (a leading space or tab).
const HEADER_LINE = /^(?:From |[\x21-\x39\x3b-\x7e]*:|[\t ])/;
const CONTENT_TYPE = /^content-type[\t ]*:/i;
const BOUNDARY_PARAM = /;\s*boundary\s*=\s*(?:"([^"]*)"|([^;\s]+))/i;

/** Bytes [from, to) are replaced by `put`. */
interface Edit {
  readonly from: number;
  readonly to: number;
  readonly put: string;
}

interface Line {
  readonly start: number;
  /** Where the line's text ends, before its `\n` or `\r\n`. */
  readonly end: number;
  readonly text: string;
}

/** The message as mailsplit reads it the way Python's email parser reads the original. */
export function withHeaderSeparators(bytes: Buffer): Buffer {
  const lines = splitLines(bytes);
  const edits: Edit[] = [];
  const newline = bytes.includes("\r\n") ? "\r\n" : "\n";
  scanEntity(lines, 0, lines.length, (at) => edits.push({ from: at, to: at, put: newline }), edits);
  if (edits.length === 0) return bytes;
  edits.sort((a, b) => a.from - b.from);
  const pieces: Buffer[] = [];
  let from = 0;
  for (const edit of edits) {
    pieces.push(bytes.subarray(from, edit.from), Buffer.from(edit.put, "latin1"));
    from = edit.to;
  }
  pieces.push(bytes.subarray(from));
  return Buffer.concat(pieces);
}

function splitLines(bytes: Buffer): Line[] {
  const text = bytes.toString("latin1");
  const lines: Line[] = [];
  let at = 0;
  while (at < text.length) {
    const newline = text.indexOf("\n", at);
    const next = newline < 0 ? text.length : newline + 1;
    const end =
      newline < 0 ? text.length : newline > at && text[newline - 1] === "\r" ? newline - 1 : newline;
    lines.push({ start: at, end, text: text.slice(at, end) });
    at = next;
  }
  return lines;
}

/**
 * One entity (the message, or a part) in lines [from, to): its headers end at a blank line, at the first line that
 * is not a header (where a separator is wanted), or at `to` (the part's closing boundary, where one is wanted too,
 * so that mailsplit does not read the boundary as a header). A multipart entity's parts are scanned in turn.
 */
function scanEntity(
  lines: readonly Line[],
  from: number,
  to: number,
  separate: (at: number) => void,
  edits: Edit[],
): void {
  let contentType: string | undefined;
  let inContentType = false;
  let body = to;
  // An empty part still needs its blank line, or mailsplit reads the boundary after it as a header.
  if (from === to && to < lines.length) separate(lines[to]!.start);
  for (let i = from; i < to; i++) {
    const line = lines[i]!;
    if (line.text === "") {
      body = i + 1;
      break;
    }
    if (!HEADER_LINE.test(line.text)) {
      separate(line.start);
      body = i;
      break;
    }
    if (line.text[0] === " " || line.text[0] === "\t") {
      if (inContentType) contentType += line.text;
    } else {
      inContentType = contentType === undefined && CONTENT_TYPE.test(line.text);
      if (inContentType) contentType = line.text.slice(line.text.indexOf(":") + 1);
    }
    if (i === to - 1 && to < lines.length) separate(lines[to]!.start);
  }
  if (contentType === undefined || !/^\s*multipart\//i.test(contentType)) return;
  const match = BOUNDARY_PARAM.exec(contentType);
  const boundary = match?.[1] ?? match?.[2];
  if (boundary === undefined || boundary === "") return;
  const delimiter = `--${boundary}`;
  let partStart: number | undefined;
  for (let i = body; i < to; i++) {
    const text = lines[i]!.text;
    if (!text.startsWith(delimiter)) continue;
    const rest = text.slice(delimiter.length);
    const closing = rest.startsWith("--");
    const blanks = closing ? rest.length - 2 : rest.length;
    if (!/^[\t ]*$/.test(rest.slice(rest.length - blanks))) continue;
    if (blanks > 0) edits.push({ from: lines[i]!.end - blanks, to: lines[i]!.end, put: "" });
    if (partStart !== undefined) scanEntity(lines, partStart, i, separate, edits);
    if (closing) return;
    partStart = i + 1;
  }
}
