// Jinja's own wording and line for a template that does not compile. nunjucks' parser (under ours) refuses the same
// templates Jinja refuses, but says so in its own words and often on another line; Salt's users search for Jinja's
// messages. So, once compiling has failed, this reads the text again as Jinja's lexer and parser read it, only to
// find the first error Jinja would raise: Jinja's lexer and token stream (jinja-tokens.ts) and, here, a recogniser
// for Jinja 3.1's grammar with Salt's serializer tags. It builds no tree beyond the kind of each expression (which
// `can't assign to` and `expected call` need).
import { pyRepr } from "./pyvalues.js";
import { describe, describeExpr, matches, Stop, Stream, tokens } from "./jinja-tokens.js";

/** Where and why Jinja stops: its message, and the 1-based line (and column) of the token it stopped at. */
export interface JinjaSyntaxError {
  readonly message: string;
  readonly line: number;
  readonly column: number;
}

/** What the environment knows: Salt's tags on (the default) or off, and the filter and test names (checked after parsing). */
export interface JinjaSyntaxOptions {
  readonly saltTags?: boolean;
  readonly filters: ReadonlySet<string>;
  readonly tests: ReadonlySet<string>;
}

/** An expression as far as the checks need it: its node kind (Jinja's class name, lower case) and line. */
interface Expr {
  readonly kind: string;
  readonly line: number;
  readonly column: number;
  readonly items?: readonly Expr[];
}

/** Names Jinja reads as constants, which cannot be assigned to. */
const CONSTANT_NAMES = new Set(["true", "false", "none", "True", "False", "None"]);
const STATEMENT_TAGS = new Set([
  "for",
  "if",
  "block",
  "extends",
  "print",
  "macro",
  "include",
  "from",
  "import",
  "set",
  "with",
  "autoescape",
]);
const SALT_IMPORT_TAGS = new Set(["import_yaml", "import_json", "import_text"]);
const SALT_LOAD_TAGS = new Set(["load_yaml", "load_json", "load_text"]);
const COMPARE_TYPES = new Set(["eq", "ne", "lt", "lteq", "gt", "gteq"]);
const MATH1: Record<string, string> = { add: "add", sub: "sub" };
const MATH2: Record<string, string> = { mul: "mul", div: "div", floordiv: "floordiv", mod: "mod" };
const TEST_ARGUMENT_TYPES = new Set(["name", "string", "integer", "float", "lparen", "lbracket", "lbrace"]);

function canAssign(e: Expr): boolean {
  if (e.kind === "name" || e.kind === "nsref") return true;
  if (e.kind === "tuple") return (e.items ?? []).every(canAssign);
  return false;
}

/** Jinja 3.1's parser, reading only to find the first error. */
class Checker {
  private readonly tagStack: string[] = [];
  private readonly endStack: (readonly string[])[] = [];
  /** Filters and tests named, and blocks defined, in the order Jinja's compiler meets them. */
  readonly uses: {
    kind: "filter" | "test" | "block";
    name: string;
    line: number;
    column: number;
    soft: boolean;
  }[] = [];
  /** Inside an `if` or an inline if, where Jinja checks filter and test names only when they run (soft-frames.ts). */
  private soft = false;

  constructor(
    private readonly s: Stream,
    private readonly saltTags: boolean,
  ) {}

  fail(message: string, line?: number, column?: number): never {
    throw new Stop(message, line ?? this.s.current.line, column ?? this.s.current.column);
  }

  private failTag(
    name: string | undefined,
    ends: readonly (readonly string[])[],
    line: number,
    column: number,
  ): never {
    const expected = new Set<string>();
    for (const group of ends) for (const e of group) expected.add(describeExpr(e));
    const innermost = ends[ends.length - 1];
    const looking = innermost?.map((e) => pyRepr(describeExpr(e))).join(" or ");
    const message = [
      name === undefined ? "Unexpected end of template." : `Encountered unknown tag ${pyRepr(name)}.`,
    ];
    if (looking) {
      if (name !== undefined && expected.has(name))
        message.push(
          `You probably made a nesting mistake. Jinja is expecting this tag, but currently looking for ${looking}.`,
        );
      else message.push(`Jinja was looking for the following tags: ${looking}.`);
    }
    const tag = this.tagStack[this.tagStack.length - 1];
    if (tag !== undefined) message.push(`The innermost block that needs to be closed is ${pyRepr(tag)}.`);
    this.fail(message.join(" "), line, column);
  }

  private failEof(ends: readonly string[]): never {
    this.failTag(undefined, [...this.endStack, ends], this.s.current.line, this.s.current.column);
  }

  parse(): void {
    this.subparse(undefined);
  }

  private subparse(ends: readonly string[] | undefined): void {
    const s = this.s;
    if (ends !== undefined) this.endStack.push(ends);
    try {
      while (!s.atEnd) {
        const tok = s.current;
        if (tok.type === "data") s.next();
        else if (tok.type === "variable_begin") {
          s.next();
          this.tuple({ condexpr: true });
          s.expect("variable_end");
        } else if (tok.type === "block_begin") {
          s.next();
          if (ends?.some((e) => matches(s.current, e))) return;
          this.statement();
          s.expect("block_end");
        } else this.fail("internal parsing error");
      }
    } finally {
      if (ends !== undefined) this.endStack.pop();
    }
  }

  private statements(ends: readonly string[], dropNeedle = false): void {
    const s = this.s;
    s.skipIf("colon");
    s.expect("block_end");
    this.subparse(ends);
    if (s.current.type === "eof") this.failEof(ends);
    if (dropNeedle) s.next();
  }

  private statement(): void {
    const s = this.s;
    const tok = s.current;
    if (tok.type !== "name") this.fail("tag name expected", tok.line, tok.column);
    const name = tok.value;
    const known =
      STATEMENT_TAGS.has(name) ||
      name === "call" ||
      name === "filter" ||
      name === "do" ||
      (this.saltTags && (SALT_IMPORT_TAGS.has(name) || SALT_LOAD_TAGS.has(name)));
    if (!known) this.failTag(name, this.endStack, tok.line, tok.column);
    this.tagStack.push(name);
    try {
      this.tag(name);
    } finally {
      this.tagStack.pop();
    }
  }

  /** Runs `read` with the filters and tests it meets in a soft frame (`true`) or in a frame of their own. */
  private framed<T>(soft: boolean, read: () => T): T {
    const was = this.soft;
    this.soft = soft;
    try {
      return read();
    } finally {
      this.soft = was;
    }
  }

  private tag(name: string): void {
    const s = this.s;
    switch (name) {
      case "set": {
        s.next();
        this.assignTarget({ withNamespace: true });
        if (s.skipIf("assign")) {
          this.tuple({ condexpr: true });
          return;
        }
        this.framed(false, () => {
          this.filter(false);
          this.statements(["name:endset"], true);
        });
        return;
      }
      case "for": {
        s.expect("name:for");
        this.assignTarget({});
        s.expect("name:in");
        this.tuple({ condexpr: false });
        this.framed(false, () => {
          if (s.skipIf("name:if")) this.expression();
          s.skipIf("name:recursive");
          this.statements(["name:endfor", "name:else"]);
          if (s.next().value !== "endfor") this.statements(["name:endfor"], true);
        });
        return;
      }
      case "if": {
        s.expect("name:if");
        this.framed(true, () => this.ifBody());
        return;
      }
      case "with": {
        s.next();
        let first = true;
        while (s.current.type !== "block_end") {
          if (!first) s.expect("comma");
          first = false;
          this.assignTarget({});
          s.expect("assign");
          this.expression();
        }
        this.framed(false, () => this.statements(["name:endwith"], true));
        return;
      }
      case "autoescape":
        s.next();
        this.expression();
        this.framed(false, () => this.statements(["name:endautoescape"], true));
        return;
      case "block": {
        const tok = s.next();
        const block = s.expect("name").value;
        s.skipIf("name:scoped");
        s.skipIf("name:required");
        if (s.current.type === "sub")
          this.fail(
            "Block names in Jinja have to be valid Python identifiers and may not contain hyphens, use an underscore instead.",
          );
        this.uses.push({ kind: "block", name: block, line: tok.line, column: tok.column, soft: false });
        this.framed(false, () => this.statements(["name:endblock"], true));
        s.skipIf(`name:${block}`);
        return;
      }
      case "extends":
        s.next();
        this.expression();
        return;
      case "include":
        s.next();
        this.expression();
        if (matches(s.current, "name:ignore") && matches(s.look(), "name:missing")) s.skip(2);
        this.importContext();
        return;
      case "import":
        this.importTag();
        return;
      case "from":
        this.fromTag();
        return;
      case "macro":
        s.next();
        this.assignTarget({ nameOnly: true });
        this.framed(false, () => {
          this.signature();
          this.statements(["name:endmacro"], true);
        });
        return;
      case "print": {
        s.next();
        let first = true;
        while (s.current.type !== "block_end") {
          if (!first) s.expect("comma");
          first = false;
          this.expression();
        }
        return;
      }
      case "call": {
        const tok = s.next();
        if (s.current.type === "lparen") this.framed(false, () => this.signature());
        const call = this.expression();
        if (call.kind !== "call") this.fail("expected call", tok.line, tok.column);
        this.framed(false, () => this.statements(["name:endcall"], true));
        return;
      }
      case "filter":
        s.next();
        this.framed(false, () => {
          this.filter(true);
          this.statements(["name:endfilter"], true);
        });
        return;
      case "do":
        s.next();
        this.tuple({ condexpr: true });
        return;
      default:
        if (SALT_IMPORT_TAGS.has(name)) {
          this.importTag();
          return;
        }
        // load_yaml, load_json, load_text
        s.next();
        s.expect("name:as");
        this.assignTarget({});
        this.framed(false, () => this.statements(["name:endload"], true));
    }
  }

  /** An `if` tag after its name: the test, the body, any `elif` and `else` branches. */
  private ifBody(): void {
    const s = this.s;
    for (;;) {
      this.tuple({ condexpr: false });
      this.statements(["name:elif", "name:else", "name:endif"]);
      const tok = s.next();
      if (matches(tok, "name:elif")) continue;
      if (matches(tok, "name:else")) this.statements(["name:endif"], true);
      return;
    }
  }

  private importContext(): void {
    const s = this.s;
    if (
      (matches(s.current, "name:with") || matches(s.current, "name:without")) &&
      matches(s.look(), "name:context")
    )
      s.skip(2);
  }

  private importTag(): void {
    const s = this.s;
    s.next();
    this.expression();
    s.expect("name:as");
    this.assignTarget({ nameOnly: true });
    this.importContext();
  }

  private fromTag(): void {
    const s = this.s;
    s.next();
    this.expression();
    s.expect("name:import");
    const context = (): boolean => {
      if (
        (s.current.value === "with" || s.current.value === "without") &&
        matches(s.look(), "name:context")
      ) {
        s.skip(2);
        return true;
      }
      return false;
    };
    let named = false;
    for (;;) {
      if (named) s.expect("comma");
      if (s.current.type === "name") {
        if (context()) return;
        const target = s.current;
        this.assignTarget({ nameOnly: true });
        if (target.value.startsWith("_"))
          this.fail("names starting with an underline can not be imported", target.line, target.column);
        named = true;
        if (s.skipIf("name:as")) this.assignTarget({ nameOnly: true });
        if (context() || s.type() !== "comma") return;
      } else s.expect("name");
    }
  }

  private signature(): void {
    const s = this.s;
    let args = 0;
    let defaults = false;
    s.expect("lparen");
    while (s.current.type !== "rparen") {
      if (args > 0) s.expect("comma");
      this.assignTarget({ nameOnly: true });
      if (s.skipIf("assign")) {
        this.expression();
        defaults = true;
      } else if (defaults) this.fail("non-default argument follows default argument");
      args++;
    }
    s.expect("rparen");
  }

  private assignTarget(o: { nameOnly?: boolean; withNamespace?: boolean }): Expr {
    const s = this.s;
    let target: Expr;
    if (o.withNamespace === true && s.look().type === "dot") {
      const tok = s.expect("name");
      s.next();
      s.expect("name");
      target = { kind: "nsref", line: tok.line, column: tok.column };
    } else if (o.nameOnly === true) {
      const tok = s.expect("name");
      target = { kind: "name", line: tok.line, column: tok.column };
    } else target = this.tuple({ simplified: true });
    if (!canAssign(target)) this.fail(`can't assign to ${pyRepr(target.kind)}`, target.line, target.column);
    return target;
  }

  private expression(condexpr = true): Expr {
    return condexpr ? this.condexpr() : this.or();
  }

  private condexpr(): Expr {
    const s = this.s;
    let line = s.current.line;
    let column = s.current.column;
    const first = this.uses.length;
    let e = this.or();
    while (s.skipIf("name:if")) {
      // The whole inline if is a soft frame, the value before `if` (read already) included.
      for (let i = first; i < this.uses.length; i++) (this.uses[i] as { soft: boolean }).soft = true;
      this.framed(true, () => {
        this.or();
        if (s.skipIf("name:else")) this.condexpr();
      });
      e = { kind: "condexpr", line, column };
      line = s.current.line;
      column = s.current.column;
    }
    return e;
  }

  private binary(kind: string, sub: () => Expr, op: () => boolean): Expr {
    const s = this.s;
    const start = s.current;
    let e = sub();
    while (op()) {
      sub();
      e = { kind, line: start.line, column: start.column };
    }
    return e;
  }

  private or(): Expr {
    return this.binary(
      "or",
      () => this.and(),
      () => this.s.skipIf("name:or"),
    );
  }

  private and(): Expr {
    return this.binary(
      "and",
      () => this.not(),
      () => this.s.skipIf("name:and"),
    );
  }

  private not(): Expr {
    const s = this.s;
    if (matches(s.current, "name:not")) {
      const tok = s.next();
      this.not();
      return { kind: "not", line: tok.line, column: tok.column };
    }
    return this.compare();
  }

  private compare(): Expr {
    const s = this.s;
    const start = s.current;
    const e = this.math1();
    let compared = false;
    for (;;) {
      if (COMPARE_TYPES.has(s.current.type)) s.next();
      else if (s.skipIf("name:in")) {
        /* `in` */
      } else if (matches(s.current, "name:not") && matches(s.look(), "name:in")) s.skip(2);
      else break;
      this.math1();
      compared = true;
    }
    return compared ? { kind: "compare", line: start.line, column: start.column } : e;
  }

  private math1(): Expr {
    const s = this.s;
    const start = s.current;
    let e = this.concat();
    for (let kind = MATH1[s.current.type]; kind !== undefined; kind = MATH1[s.current.type]) {
      s.next();
      this.concat();
      e = { kind, line: start.line, column: start.column };
    }
    return e;
  }

  private concat(): Expr {
    return this.binary(
      "concat",
      () => this.math2(),
      () => this.s.skipIf("tilde"),
    );
  }

  private math2(): Expr {
    const s = this.s;
    const start = s.current;
    let e = this.pow();
    for (let kind = MATH2[s.current.type]; kind !== undefined; kind = MATH2[s.current.type]) {
      s.next();
      this.pow();
      e = { kind, line: start.line, column: start.column };
    }
    return e;
  }

  private pow(): Expr {
    return this.binary(
      "pow",
      () => this.unary(true),
      () => this.s.skipIf("pow"),
    );
  }

  private unary(withFilter: boolean): Expr {
    const s = this.s;
    const tok = s.current;
    let e: Expr;
    if (tok.type === "sub" || tok.type === "add") {
      s.next();
      this.unary(false);
      e = { kind: tok.type === "sub" ? "neg" : "pos", line: tok.line, column: tok.column };
    } else e = this.primary();
    e = this.postfix(e);
    return withFilter ? this.filterExpr(e) : e;
  }

  private primary(): Expr {
    const s = this.s;
    const tok = s.current;
    const at = { line: tok.line, column: tok.column };
    if (tok.type === "name") {
      s.next();
      return { kind: CONSTANT_NAMES.has(tok.value) ? "const" : "name", ...at };
    }
    if (tok.type === "string") {
      s.next();
      while (s.current.type === "string") s.next();
      return { kind: "const", ...at };
    }
    if (tok.type === "integer" || tok.type === "float") {
      s.next();
      return { kind: "const", ...at };
    }
    if (tok.type === "lparen") {
      s.next();
      const e = this.tuple({ condexpr: true, explicitParentheses: true });
      s.expect("rparen");
      return e;
    }
    if (tok.type === "lbracket") return this.list();
    if (tok.type === "lbrace") return this.dict();
    this.fail(`unexpected ${pyRepr(describe(tok))}`, tok.line, tok.column);
  }

  /**
   * Whether a tuple ends here. Jinja's parser also passes "extra end rules" (`in` after a `for` target), but hands
   * them to `test_any` as one tuple argument, which never matches: `{% for k, in m %}` reads `in` as a second
   * target and fails at `m`.
   */
  private tupleEnd(): boolean {
    const t = this.s.current.type;
    return t === "variable_end" || t === "block_end" || t === "rparen";
  }

  private tuple(o: { simplified?: boolean; condexpr?: boolean; explicitParentheses?: boolean }): Expr {
    const s = this.s;
    let line = s.current.line;
    let column = s.current.column;
    const parse = (): Expr =>
      o.simplified === true ? this.primary() : this.expression(o.condexpr !== false);
    const items: Expr[] = [];
    let isTuple = false;
    for (;;) {
      if (items.length > 0) s.expect("comma");
      if (this.tupleEnd()) break;
      items.push(parse());
      if (s.current.type !== "comma") break;
      isTuple = true;
      line = s.current.line;
      column = s.current.column;
    }
    if (!isTuple) {
      const only = items[0];
      if (only !== undefined) return only;
      if (o.explicitParentheses !== true)
        this.fail(`Expected an expression, got ${pyRepr(describe(s.current))}`);
    }
    return { kind: "tuple", line, column, items };
  }

  private list(): Expr {
    const s = this.s;
    const tok = s.expect("lbracket");
    let items = 0;
    while (s.current.type !== "rbracket") {
      if (items > 0) s.expect("comma");
      if (s.current.type === "rbracket") break;
      this.expression();
      items++;
    }
    s.expect("rbracket");
    return { kind: "list", line: tok.line, column: tok.column };
  }

  private dict(): Expr {
    const s = this.s;
    const tok = s.expect("lbrace");
    let items = 0;
    while (s.current.type !== "rbrace") {
      if (items > 0) s.expect("comma");
      if (s.current.type === "rbrace") break;
      this.expression();
      s.expect("colon");
      this.expression();
      items++;
    }
    s.expect("rbrace");
    return { kind: "dict", line: tok.line, column: tok.column };
  }

  private postfix(node: Expr): Expr {
    let e = node;
    for (;;) {
      const t = this.s.current.type;
      if (t === "dot" || t === "lbracket") e = this.subscript(e);
      else if (t === "lparen") e = this.call();
      else return e;
    }
  }

  private filterExpr(node: Expr): Expr {
    const s = this.s;
    let e = node;
    for (;;) {
      const t = s.current.type;
      if (t === "pipe") e = this.filter(false);
      else if (matches(s.current, "name:is")) e = this.test();
      else if (t === "lparen") e = this.call();
      else return e;
    }
  }

  private subscript(_node: Expr): Expr {
    const s = this.s;
    const tok = s.next();
    if (tok.type === "dot") {
      const attr = s.current;
      s.next();
      if (attr.type === "name") return { kind: "getattr", line: tok.line, column: tok.column };
      if (attr.type !== "integer") this.fail("expected name or number", attr.line, attr.column);
      return { kind: "getitem", line: tok.line, column: tok.column };
    }
    let args = 0;
    while (s.current.type !== "rbracket") {
      if (args > 0) s.expect("comma");
      this.subscribed();
      args++;
    }
    s.expect("rbracket");
    return { kind: "getitem", line: tok.line, column: tok.column };
  }

  /** One part of a subscript: an expression or a slice `a:b:c` (every part optional). */
  private subscribed(): void {
    const s = this.s;
    if (s.current.type === "colon") s.next();
    else {
      this.expression();
      if (s.current.type !== "colon") return;
      s.next();
    }
    if (s.type() !== "colon" && s.type() !== "rbracket" && s.type() !== "comma") this.expression();
    if (s.type() === "colon") {
      s.next();
      if (s.type() !== "rbracket" && s.type() !== "comma") this.expression();
    }
  }

  private callArgs(): void {
    const s = this.s;
    const open = s.expect("lparen");
    let star = false;
    let starstar = false;
    let keywords = false;
    let needComma = false;
    const ensure = (ok: boolean) => {
      if (!ok) this.fail("invalid syntax for function call expression", open.line, open.column);
    };
    while (s.current.type !== "rparen") {
      if (needComma) {
        s.expect("comma");
        if (s.current.type === "rparen") break;
      }
      if (s.current.type === "mul") {
        ensure(!star && !starstar);
        s.next();
        this.expression();
        star = true;
      } else if (s.current.type === "pow") {
        ensure(!starstar);
        s.next();
        this.expression();
        starstar = true;
      } else if (s.current.type === "name" && s.look().type === "assign") {
        ensure(!starstar);
        s.skip(2);
        this.expression();
        keywords = true;
      } else {
        ensure(!star && !starstar && !keywords);
        this.expression();
      }
      needComma = true;
    }
    s.expect("rparen");
  }

  private call(): Expr {
    const tok = this.s.current;
    this.callArgs();
    return { kind: "call", line: tok.line, column: tok.column };
  }

  /** `|name(args)` filters, or those of a `{% filter %}` tag (`inline`: no pipe before the first). */
  private filter(inline: boolean): Expr {
    const s = this.s;
    let first = inline;
    let e: Expr = { kind: "filter", line: s.current.line, column: s.current.column };
    while (s.current.type === "pipe" || first) {
      if (!first) s.next();
      first = false;
      const tok = s.expect("name");
      let name = tok.value;
      while (s.current.type === "dot") {
        s.next();
        name += `.${s.expect("name").value}`;
      }
      if (s.current.type === "lparen") this.callArgs();
      this.uses.push({ kind: "filter", name, line: tok.line, column: tok.column, soft: this.soft });
      e = { kind: "filter", line: tok.line, column: tok.column };
    }
    return e;
  }

  private test(): Expr {
    const s = this.s;
    const tok = s.next();
    const negated = s.skipIf("name:not");
    const nameTok = s.expect("name");
    let name = nameTok.value;
    while (s.current.type === "dot") {
      s.next();
      name += `.${s.expect("name").value}`;
    }
    if (s.current.type === "lparen") this.callArgs();
    else if (
      TEST_ARGUMENT_TYPES.has(s.current.type) &&
      !["name:else", "name:or", "name:and"].some((e) => matches(s.current, e))
    ) {
      if (matches(s.current, "name:is")) this.fail("You cannot chain multiple tests with is");
      this.postfix(this.primary());
    }
    this.uses.push({ kind: "test", name, line: tok.line, column: tok.column, soft: this.soft });
    return { kind: negated ? "not" : "test", line: tok.line, column: tok.column };
  }
}

/**
 * The error Jinja (3.1, set up as Salt sets it up) raises compiling `src`, or undefined when Jinja compiles it. `src`
 * is the text as the lexer sees it: newlines normalised and one trailing newline dropped (`jinjaSource`). After the
 * parse, the names Jinja's compiler checks: a block defined twice, then the filters and tests, in template order.
 */
export function jinjaSyntaxError(src: string, options: JinjaSyntaxOptions): JinjaSyntaxError | undefined {
  let checker: Checker;
  try {
    // The stream reads its first token at once: the lexer may stop there already.
    checker = new Checker(new Stream(tokens(src)), options.saltTags !== false);
    checker.parse();
  } catch (e) {
    if (e instanceof Stop) return { message: e.message, line: e.line, column: e.column };
    // Nesting too deep for JavaScript's stack: nunjucks' message stands.
    if (e instanceof RangeError) return undefined;
    throw e;
  }
  const blocks = new Set<string>();
  for (const use of checker.uses) {
    if (use.kind !== "block") continue;
    if (blocks.has(use.name))
      return { message: `block ${pyRepr(use.name)} defined twice`, line: use.line, column: use.column };
    blocks.add(use.name);
  }
  for (const use of checker.uses) {
    if (use.soft) continue;
    if (use.kind === "filter" && !options.filters.has(use.name))
      return { message: `No filter named ${pyRepr(use.name)}.`, line: use.line, column: use.column };
    if (use.kind === "test" && !options.tests.has(use.name))
      return { message: `No test named ${pyRepr(use.name)}.`, line: use.line, column: use.column };
  }
  return undefined;
}
