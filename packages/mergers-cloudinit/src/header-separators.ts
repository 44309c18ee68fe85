// cloud-init reads a MIME message with Python's email parser, which ends a header block at the first line that is
// not a header (a `#cloud-config` line, a comment, a YAML key with a space in it) and reads that line and the rest as
// the body, as if a blank line stood before it. mailsplit, which takes the message apart here, reads every line up to
// the first blank one as a header, and drops a part whose headers run into the next boundary. It also misses a
// boundary line with spaces or tabs after it, which Python (and RFC 2046) accept. Inside a header block, Python
// skips the lines that have no header name (`:` first), an envelope `From ` line (as the block's first line it is
// the Unix "From" line, as its last line the first line of the body), and a continuation of no header. So before
// mailsplit sees the message, a blank line is put wherever Python's parser ends a header block without one, the lines
// it skips are taken out, and the blanks after a boundary are taken off. The parts are also cut where Python cuts
// them: any enclosing boundary ends a nested part, what follows a closing boundary is an epilogue and no part, and a
// nested multipart whose own first boundary does not come first holds no part. A message that needs none of it is
// passed on as it is.

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
  /** A part taken out whole: the edits inside it go with it (see `withHeaderSeparators`). */
  readonly cut?: true;
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
  let cut: Edit | undefined;
  for (const edit of edits) {
    // Sorted by where they start, so an edit inside the last cut comes after it. A blank line put where a cut
    // starts belongs to the part before it; it was made earlier, sorts first and stays.
    if (edit.cut === true) cut = edit;
    else if (cut !== undefined && edit.from < cut.to) continue;
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
  // An empty part still needs its blank line, or mailsplit reads the boundary after it as a header.
  if (from === to) {
    if (to < lines.length) separate(lines[to]!.start);
    return;
  }
  // The header block: lines [from, end), ended by a blank line, a line that is no header, or the part's end.
  let end = from;
  while (end < to && lines[end]!.text !== "" && HEADER_LINE.test(lines[end]!.text)) end++;
  const blankEnds = end < to && lines[end]!.text === "";
  let body = blankEnds ? end + 1 : end;
  // Where mailsplit is to find the end of the headers: before the first body line, or before the boundary.
  let separator = blankEnds || end === lines.length ? undefined : lines[end]!.start;
  const skip = (i: number) => edits.push({ from: lines[i]!.start, to: lineAfter(lines, i), put: "" });
  let contentType: string | undefined;
  let inContentType = false;
  // Whether a header is open, so that a continuation line belongs to it.
  let open = false;
  for (let i = from; i < end; i++) {
    const text = lines[i]!.text;
    if (text[0] === " " || text[0] === "\t") {
      if (!open) skip(i);
      else if (inContentType) contentType += text;
      continue;
    }
    open = false;
    inContentType = false;
    if (text.startsWith("From ")) {
      if (i === end - 1 && i > from) {
        // The block's last line: it starts the body, and the blank line that ended the block is dropped.
        separator = lines[i]!.start;
        if (blankEnds) skip(end);
        body = i;
      } else skip(i);
      continue;
    }
    if (text[0] === ":") {
      skip(i);
      continue;
    }
    open = true;
    inContentType = contentType === undefined && CONTENT_TYPE.test(text);
    if (inContentType) contentType = text.slice(text.indexOf(":") + 1);
  }
  const boundary = multipartBoundary(contentType);
  if (boundary !== undefined && to < lines.length && !opensParts(lines, body, to, `--${boundary}`)) {
    // A nested multipart whose first boundary does not come before its parent's next one: Python's parser reads no
    // part in it (every enclosing boundary ends a part, however deep), and cloud-init skips a multipart part, so it
    // is as if it were not there. mailsplit would take the parent's boundary lines for its own (when it reuses the
    // parent's boundary) or lose the parts after it: it is taken out, with the boundary line before it.
    edits.push({ from: lines[from - 1]!.start, to: lines[to]!.start, put: "", cut: true });
    return;
  }
  if (separator !== undefined) separate(separator);
  if (boundary === undefined) return;
  const delimiter = `--${boundary}`;
  let partStart: number | undefined;
  for (let i = body; i < to; i++) {
    const boundaryLine = delimiterLine(lines[i]!.text, delimiter);
    if (boundaryLine === undefined) continue;
    const { closing, blanks } = boundaryLine;
    if (blanks > 0) edits.push({ from: lines[i]!.end - blanks, to: lines[i]!.end, put: "" });
    if (partStart !== undefined) scanEntity(lines, partStart, i, separate, edits);
    if (closing) {
      // What follows the closing boundary is the epilogue, which Python's parser keeps out of the parts; mailsplit
      // would read further boundary lines there as more parts.
      if (i + 1 < to)
        edits.push({
          from: lines[i + 1]!.start,
          to: to < lines.length ? lines[to]!.start : Infinity,
          put: "",
        });
      return;
    }
    partStart = i + 1;
  }
  if (partStart !== undefined) scanEntity(lines, partStart, to, separate, edits);
  // A nested multipart not closed before its parent's next boundary: Python's parser ends it there, and keeps the
  // parts it read. mailsplit would read on into the parent's parts, so it is given its closing boundary there.
  if (to < lines.length)
    edits.push({
      from: lines[to]!.start,
      to: lines[to]!.start,
      put: `${delimiter}--${newlineOf(lines, to)}`,
    });
}

/** The boundary of a multipart `Content-Type` value, or undefined for another type or no usable boundary. */
function multipartBoundary(contentType: string | undefined): string | undefined {
  if (contentType === undefined || !/^\s*multipart\//i.test(contentType)) return undefined;
  const match = BOUNDARY_PARAM.exec(contentType);
  const boundary = match?.[1] ?? match?.[2];
  return boundary === "" ? undefined : boundary;
}

/** Whether `text` is a boundary line of `delimiter` (blanks may follow it), and whether it closes the multipart. */
function delimiterLine(text: string, delimiter: string): { closing: boolean; blanks: number } | undefined {
  if (!text.startsWith(delimiter)) return undefined;
  const rest = text.slice(delimiter.length);
  const closing = rest.startsWith("--");
  const blanks = closing ? rest.length - 2 : rest.length;
  return /^[\t ]*$/.test(rest.slice(rest.length - blanks)) ? { closing, blanks } : undefined;
}

/** Whether a boundary line that opens a part comes in lines [from, to) before any closing one. */
function opensParts(lines: readonly Line[], from: number, to: number, delimiter: string): boolean {
  for (let i = from; i < to; i++) {
    const found = delimiterLine(lines[i]!.text, delimiter);
    if (found !== undefined) return !found.closing;
  }
  return false;
}

/** The line break that ends line `i - 1` (the one before a boundary line `i`). */
function newlineOf(lines: readonly Line[], i: number): string {
  const before = lines[i - 1];
  return before !== undefined && lines[i]!.start - before.end === 2 ? "\r\n" : "\n";
}

/** Where the line after line `i` starts (the end of the text after the last line). */
function lineAfter(lines: readonly Line[], i: number): number {
  const next = lines[i + 1];
  return next === undefined ? Infinity : next.start;
}
