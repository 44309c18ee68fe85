/**
 * Where PyYAML (or libyaml, for Salt) stops on a text the loader refuses: the parser's states and the composer's
 * anchor and document checks run over `MarkScanner`'s tokens, pulling them as lazily as PyYAML does, so that the
 * first problem met is PyYAML's and its mark is PyYAML's `problem_mark` (the token the parser did not expect, the
 * `:` that cannot be a value, the spot where a saved simple key went stale). Only called once a text is known to
 * be refused: it costs nothing on good input, and it never decides whether a text is accepted.
 */
import { MarkedProblem, MarkScanner, type ScanMark, type ScanToken, type TokenKind } from "./mark-scanner.js";

type EventKind =
  | "stream-start"
  | "stream-end"
  | "document-start"
  | "document-end"
  | "alias"
  | "scalar"
  | "sequence-start"
  | "sequence-end"
  | "mapping-start"
  | "mapping-end";

interface ParseEvent {
  readonly kind: EventKind;
  readonly start: ScanMark;
  readonly anchor?: string | undefined;
}

type State = () => ParseEvent;

const DEFAULT_HANDLES = ["!", "!!"];

/** PyYAML's token names, as its parser's messages quote them. */
const TOKEN_NAMES: Record<TokenKind, string> = {
  "stream-start": "<stream start>",
  "stream-end": "<stream end>",
  directive: "<directive>",
  "document-start": "<document start>",
  "document-end": "<document end>",
  "block-sequence-start": "<block sequence start>",
  "block-mapping-start": "<block mapping start>",
  "block-end": "<block end>",
  "flow-sequence-start": "[",
  "flow-mapping-start": "{",
  "flow-sequence-end": "]",
  "flow-mapping-end": "}",
  "block-entry": "-",
  "flow-entry": ",",
  key: "?",
  value: ":",
  alias: "<alias>",
  anchor: "<anchor>",
  tag: "<tag>",
  scalar: "<scalar>",
};

class MarkParser {
  private state: State | undefined = () => this.streamStart();
  private readonly states: State[] = [];
  private handles = new Set(DEFAULT_HANDLES);
  private readonly scanner: MarkScanner;

  constructor(
    text: string,
    private readonly libyaml: boolean,
  ) {
    this.scanner = new MarkScanner(text, libyaml);
  }

  next(): ParseEvent | undefined {
    const state = this.state;
    return state === undefined ? undefined : state();
  }

  private peek(): ScanToken {
    return this.scanner.peekToken();
  }

  private is(...kinds: TokenKind[]): boolean {
    return kinds.includes(this.peek().kind);
  }

  private take(): ScanToken {
    return this.scanner.nextToken();
  }

  private pop(): State {
    return this.states.pop()!;
  }

  private unexpected(pyProblem: string, cProblem: string, token: ScanToken): never {
    throw new MarkedProblem(
      this.libyaml ? cProblem : `${pyProblem}, but found '${TOKEN_NAMES[token.kind]}'`,
      token.start,
    );
  }

  private empty(at: ScanMark): ParseEvent {
    return { kind: "scalar", start: at };
  }

  private streamStart(): ParseEvent {
    const token = this.take();
    this.state = () => this.implicitDocumentStart();
    return { kind: "stream-start", start: token.start };
  }

  private implicitDocumentStart(): ParseEvent {
    if (this.is("directive", "document-start", "stream-end")) return this.documentStart();
    this.handles = new Set(DEFAULT_HANDLES);
    const start = this.peek().start;
    this.states.push(() => this.documentEnd());
    this.state = () => this.node(true, false);
    return { kind: "document-start", start };
  }

  private documentStart(): ParseEvent {
    while (this.is("document-end")) this.take();
    if (this.is("stream-end")) {
      const token = this.take();
      this.state = undefined;
      return { kind: "stream-end", start: token.start };
    }
    const start = this.peek().start;
    this.directives();
    if (!this.is("document-start"))
      this.unexpected("expected '<document start>'", "did not find expected <document start>", this.peek());
    this.take();
    this.states.push(() => this.documentEnd());
    this.state = () => this.documentContent();
    return { kind: "document-start", start };
  }

  private directives(): void {
    let version = false;
    this.handles = new Set();
    while (this.is("directive")) {
      const token = this.take();
      if (token.version !== undefined) {
        if (version)
          throw new MarkedProblem(
            this.libyaml ? "found duplicate %YAML directive" : "found duplicate YAML directive",
            token.start,
          );
        const [major, minor] = token.version;
        // libyaml knows YAML 1.1 and 1.2; PyYAML any 1.x (with a warning).
        if (major !== 1 || (this.libyaml && minor !== 1 && minor !== 2))
          throw new MarkedProblem(
            this.libyaml
              ? "found incompatible YAML document"
              : "found incompatible YAML document (version 1.* is required)",
            token.start,
          );
        version = true;
      } else if (token.name?.startsWith("!")) {
        if (this.handles.has(token.name))
          throw new MarkedProblem(
            this.libyaml ? "found duplicate %TAG directive" : `duplicate tag handle '${token.name}'`,
            token.start,
          );
        this.handles.add(token.name);
      }
    }
    for (const handle of DEFAULT_HANDLES) this.handles.add(handle);
  }

  private documentEnd(): ParseEvent {
    const start = this.peek().start;
    if (this.is("document-end")) this.take();
    this.state = () => this.documentStart();
    return { kind: "document-end", start };
  }

  private documentContent(): ParseEvent {
    if (this.is("directive", "document-start", "document-end", "stream-end")) {
      const at = this.peek().start;
      this.state = this.pop();
      return this.empty(at);
    }
    return this.node(true, false);
  }

  private node(block: boolean, indentless: boolean): ParseEvent {
    if (this.is("alias")) {
      const token = this.take();
      this.state = this.pop();
      return { kind: "alias", start: token.start, anchor: token.name };
    }
    let anchor: string | undefined;
    let start: ScanMark | undefined;
    let tag: ScanToken | undefined;
    if (this.is("anchor")) {
      const token = this.take();
      start = token.start;
      anchor = token.name;
      if (this.is("tag")) tag = this.take();
    } else if (this.is("tag")) {
      tag = this.take();
      start = tag.start;
      if (this.is("anchor")) anchor = this.take().name;
    }
    if (tag?.name !== undefined && !this.handles.has(tag.name))
      throw new MarkedProblem(
        this.libyaml ? "found undefined tag handle" : `found undefined tag handle '${tag.name}'`,
        tag.start,
      );
    const at = start ?? this.peek().start;
    if (indentless && this.is("block-entry")) {
      this.state = () => this.indentlessEntry();
      return { kind: "sequence-start", start: at, anchor };
    }
    const token = this.peek();
    switch (token.kind) {
      case "scalar":
        this.take();
        this.state = this.pop();
        return { kind: "scalar", start: at, anchor };
      case "flow-sequence-start":
        this.take();
        this.state = () => this.flowSequenceEntry(true);
        return { kind: "sequence-start", start: at, anchor };
      case "flow-mapping-start":
        this.take();
        this.state = () => this.flowMappingKey(true);
        return { kind: "mapping-start", start: at, anchor };
      default:
        break;
    }
    if (block && token.kind === "block-sequence-start") {
      this.take();
      this.state = () => this.blockSequenceEntry();
      return { kind: "sequence-start", start: at, anchor };
    }
    if (block && token.kind === "block-mapping-start") {
      this.take();
      this.state = () => this.blockMappingKey();
      return { kind: "mapping-start", start: at, anchor };
    }
    if (anchor !== undefined || tag !== undefined) {
      this.state = this.pop();
      return { kind: "scalar", start: at, anchor };
    }
    return this.unexpected("expected the node content", "did not find expected node content", token);
  }

  private blockSequenceEntry(): ParseEvent {
    if (this.is("block-entry")) {
      const token = this.take();
      if (!this.is("block-entry", "block-end")) {
        this.states.push(() => this.blockSequenceEntry());
        return this.node(true, false);
      }
      this.state = () => this.blockSequenceEntry();
      return this.empty(token.end);
    }
    if (!this.is("block-end"))
      this.unexpected("expected <block end>", "did not find expected '-' indicator", this.peek());
    const token = this.take();
    this.state = this.pop();
    return { kind: "sequence-end", start: token.start };
  }

  private indentlessEntry(): ParseEvent {
    if (this.is("block-entry")) {
      const token = this.take();
      if (!this.is("block-entry", "key", "value", "block-end")) {
        this.states.push(() => this.indentlessEntry());
        return this.node(true, false);
      }
      this.state = () => this.indentlessEntry();
      return this.empty(token.end);
    }
    this.state = this.pop();
    return { kind: "sequence-end", start: this.peek().start };
  }

  private blockMappingKey(): ParseEvent {
    if (this.is("key")) {
      const token = this.take();
      if (!this.is("key", "value", "block-end")) {
        this.states.push(() => this.blockMappingValue());
        return this.node(true, true);
      }
      this.state = () => this.blockMappingValue();
      return this.empty(token.end);
    }
    if (!this.is("block-end"))
      this.unexpected("expected <block end>", "did not find expected key", this.peek());
    const token = this.take();
    this.state = this.pop();
    return { kind: "mapping-end", start: token.start };
  }

  private blockMappingValue(): ParseEvent {
    if (this.is("value")) {
      const token = this.take();
      if (!this.is("key", "value", "block-end")) {
        this.states.push(() => this.blockMappingKey());
        return this.node(true, true);
      }
      this.state = () => this.blockMappingKey();
      return this.empty(token.end);
    }
    this.state = () => this.blockMappingKey();
    return this.empty(this.peek().start);
  }

  private flowSequenceEntry(first: boolean): ParseEvent {
    if (!this.is("flow-sequence-end")) {
      if (!first) {
        if (this.is("flow-entry")) this.take();
        else this.flowExpected("]");
      }
      if (this.is("key")) {
        const token = this.peek();
        this.state = () => this.flowPairKey();
        return { kind: "mapping-start", start: token.start };
      }
      if (!this.is("flow-sequence-end")) {
        this.states.push(() => this.flowSequenceEntry(false));
        return this.node(false, false);
      }
    }
    const token = this.take();
    this.state = this.pop();
    return { kind: "sequence-end", start: token.start };
  }

  /** PyYAML says "but got" here where its other messages say "but found". */
  private flowExpected(close: "]" | "}"): never {
    const token = this.peek();
    throw new MarkedProblem(
      this.libyaml
        ? `did not find expected ',' or '${close}'`
        : `expected ',' or '${close}', but got '${TOKEN_NAMES[token.kind]}'`,
      token.start,
    );
  }

  private flowPairKey(): ParseEvent {
    const token = this.take();
    if (!this.is("value", "flow-entry", "flow-sequence-end")) {
      this.states.push(() => this.flowPairValue());
      return this.node(false, false);
    }
    this.state = () => this.flowPairValue();
    return this.empty(token.end);
  }

  private flowPairValue(): ParseEvent {
    if (this.is("value")) {
      const token = this.take();
      if (!this.is("flow-entry", "flow-sequence-end")) {
        this.states.push(() => this.flowPairEnd());
        return this.node(false, false);
      }
      this.state = () => this.flowPairEnd();
      return this.empty(token.end);
    }
    this.state = () => this.flowPairEnd();
    return this.empty(this.peek().start);
  }

  private flowPairEnd(): ParseEvent {
    this.state = () => this.flowSequenceEntry(false);
    return { kind: "mapping-end", start: this.peek().start };
  }

  private flowMappingKey(first: boolean): ParseEvent {
    if (!this.is("flow-mapping-end")) {
      if (!first) {
        if (this.is("flow-entry")) this.take();
        else this.flowExpected("}");
      }
      if (this.is("key")) {
        const token = this.take();
        if (!this.is("value", "flow-entry", "flow-mapping-end")) {
          this.states.push(() => this.flowMappingValue());
          return this.node(false, false);
        }
        this.state = () => this.flowMappingValue();
        return this.empty(token.end);
      }
      if (!this.is("flow-mapping-end")) {
        this.states.push(() => {
          this.state = () => this.flowMappingKey(false);
          return this.empty(this.peek().start);
        });
        return this.node(false, false);
      }
    }
    const token = this.take();
    this.state = this.pop();
    return { kind: "mapping-end", start: token.start };
  }

  private flowMappingValue(): ParseEvent {
    if (this.is("value")) {
      const token = this.take();
      if (!this.is("flow-entry", "flow-mapping-end")) {
        this.states.push(() => this.flowMappingKey(false));
        return this.node(false, false);
      }
      this.state = () => this.flowMappingKey(false);
      return this.empty(token.end);
    }
    this.state = () => this.flowMappingKey(false);
    return this.empty(this.peek().start);
  }
}

/** The first problem PyYAML (`libyaml`: libyaml under Salt) meets in `text`, or undefined if it composes. */
export function firstProblem(
  text: string,
  options: { readonly libyaml: boolean; readonly single: boolean },
): MarkedProblem | undefined {
  const parser = new MarkParser(text, options.libyaml);
  const anchors = new Set<string>();
  let documents = 0;
  try {
    for (let event = parser.next(); event !== undefined; event = parser.next()) {
      switch (event.kind) {
        case "document-start":
          documents++;
          if (options.single && documents > 1)
            return new MarkedProblem(
              "expected a single document in the stream, but found another document",
              event.start,
              true,
            );
          break;
        case "document-end":
          anchors.clear();
          break;
        case "alias":
          if (!anchors.has(event.anchor!))
            return new MarkedProblem(`found undefined alias '${event.anchor}'`, event.start, true);
          break;
        case "scalar":
        case "sequence-start":
        case "mapping-start":
          if (event.anchor !== undefined) {
            if (anchors.has(event.anchor))
              return new MarkedProblem(`found duplicate anchor '${event.anchor}'`, event.start, true);
            anchors.add(event.anchor);
          }
          break;
        default:
          break;
      }
    }
  } catch (error) {
    if (error instanceof MarkedProblem) return error;
    throw error;
  }
  return undefined;
}

/**
 * Where PyYAML's nodes of document `index` start (`node.start_mark`: the first property, else the content; where an
 * empty scalar is made, the mark PyYAML gives it), in composing order; undefined when the stream has a problem
 * before that document ends.
 */
export function nodeStarts(text: string, libyaml: boolean, index: number): ScanMark[] | undefined {
  const parser = new MarkParser(text, libyaml);
  const starts: ScanMark[] = [];
  let document = -1;
  try {
    for (let event = parser.next(); event !== undefined; event = parser.next()) {
      if (event.kind === "document-start") document++;
      else if (event.kind === "document-end" && document === index) return starts;
      else if (
        document === index &&
        (event.kind === "scalar" ||
          event.kind === "alias" ||
          event.kind === "sequence-start" ||
          event.kind === "mapping-start")
      )
        starts.push(event.start);
    }
  } catch (error) {
    if (error instanceof MarkedProblem) return undefined;
    throw error;
  }
  return undefined;
}
