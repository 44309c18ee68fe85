// Jinja syntax nunjucks lacks, added by extending nunjucks' own parser: `for ... if cond`, `{% do %}`, slices,
// dot access kept distinct from subscripts, `True/False/None`, and Salt's serializer tags (`import_yaml`,
// `load_yaml ... endload` and friends).
import { PyFloat } from "@merge/core";
import { type NjAny, njLexer, njNodes, njParser } from "./nunjucks-internals.js";
import { extractMatching } from "./scan.js";

const Node = njNodes.Node;

/** `{% do expr %}`: evaluate, print nothing. */
export const PyDo: NjAny = Node.extend("PyDo", { fields: ["expr"] });
/** `target[start:stop:step]`. */
export const PySlice: NjAny = Node.extend("PySlice", { fields: ["target", "start", "stop", "step"] });
/** `target.name` (attribute access, which prefers Python methods over dict keys as Jinja does). */
export const PyAttr: NjAny = Node.extend("PyAttr", { fields: ["target", "val"] });
/** `{% import_yaml "f" as v %}`: render the file (relative to the config's directory) and parse it. */
export const PyImportData: NjAny = Node.extend("PyImportData", {
  fields: ["kind", "template", "withContext"],
});
/** `{% load_yaml as v %}...{% endload %}`: parse the rendered block. */
export const PyLoadData: NjAny = Node.extend("PyLoadData", { fields: ["kind", "body"] });
/** `*value` in a call's arguments. */
export const PyStarArgs: NjAny = Node.extend("PyStarArgs", { fields: ["value"] });
/** `**value` in a call's arguments. */
export const PyStarKwargs: NjAny = Node.extend("PyStarKwargs", { fields: ["value"] });
/** `{% with %}` scope. */
export const PyWith: NjAny = Node.extend("PyWith", { fields: ["targets", "values", "body"] });
/** A `for` loop with Jinja's optional `if` filter and `recursive` marker. */
export const PyFor: NjAny = njNodes.For.extend("PyFor", {
  fields: ["arr", "name", "body", "else_", "filter", "recursive"],
});

const IMPORT_TAGS: Record<string, string> = { import_yaml: "yaml", import_json: "json", import_text: "text" };
const LOAD_TAGS: Record<string, string> = { load_yaml: "yaml", load_json: "json", load_text: "text" };

/** The tags after which Jinja's `parse_statements` reads a body, where a colon may end the tag. */
const COLON_TAGS = new Set([
  "if",
  "elif",
  "else",
  "for",
  "macro",
  "call",
  "filter",
  "block",
  "load_yaml",
  "load_json",
  "load_text",
]);

/** A parenthesised part of an assignment target: the name or attribute inside, or a tuple of targets. */
function assignable(target: NjAny): NjAny {
  if (!(target instanceof njNodes.Group)) return target;
  if (target.children.length === 1 && target.pyTuple !== true) {
    const inner = assignable(target.children[0]);
    inner.pyParenthesized = true;
    return inner;
  }
  target.children = target.children.map(assignable);
  target.pyTargetTuple = true;
  return target;
}

const BaseParser: NjAny = njParser.Parser;

class PyParser extends BaseParser {
  constructor(...args: unknown[]) {
    super(...args);
  }

  /** Whether Salt's serializer tags are known (set by `parseTemplate`). */
  declare pySaltTags: boolean;
  /**
   * Set when the parser has just taken a `{{`, or the `if`/`elif` opening a tag: Jinja reads a tuple there
   * (`{{ a, b }}` prints `(a, b)`, `{% if a, %}` is true), where nunjucks reads one expression.
   */
  declare pyTupleNext: boolean;
  declare pyPeeking: boolean;
  /** The last token taken, and the type of the one taken before it (a token pushed back and taken again counts once). */
  declare pyLastToken: NjAny;
  declare pyTypeBefore: string | undefined;

  nextToken(withWhitespace?: boolean): NjAny {
    const tok = super.nextToken(withWhitespace);
    if (!this.pyPeeking && tok !== this.pyLastToken) {
      this.pyTypeBefore = this.pyLastToken?.type;
      this.pyLastToken = tok;
    }
    if (!this.pyPeeking) {
      const afterTagStart = this.pyTypeBefore === njLexer.TOKEN_BLOCK_START;
      this.pyTupleNext =
        tok?.type === njLexer.TOKEN_VARIABLE_START ||
        (afterTagStart && tok?.type === njLexer.TOKEN_SYMBOL && (tok.value === "if" || tok.value === "elif"));
    }
    return tok;
  }

  peekToken(): NjAny {
    if (this.peeked) return this.peeked;
    this.pyPeeking = true;
    try {
      return super.peekToken();
    } finally {
      this.pyPeeking = false;
    }
  }

  parseExpression(): NjAny {
    if (this.pyTupleNext !== true) return super.parseExpression();
    this.pyTupleNext = false;
    const first = super.parseExpression();
    if (this.peekToken()?.type !== njLexer.TOKEN_COMMA) return first;
    const tuple = new njNodes.Group(first.lineno, first.colno, [first]);
    tuple.pyTuple = true;
    while (this.skip(njLexer.TOKEN_COMMA)) {
      const next = this.peekToken()?.type;
      if (next === njLexer.TOKEN_VARIABLE_END || next === njLexer.TOKEN_BLOCK_END) break;
      tuple.addChild(super.parseExpression());
    }
    return tuple;
  }

  parseStatement(): NjAny {
    const tok = this.peekToken();
    if (tok && tok.type === njLexer.TOKEN_SYMBOL) {
      // nunjucks takes `elseif` for `elif`; Jinja knows no such tag.
      if (tok.value === "elseif") this.fail("unknown block tag: elseif", tok.lineno, tok.colno);
      if (this.breakOnBlocks && this.breakOnBlocks.indexOf(tok.value) !== -1) return null;
      if (tok.value === "do") return this.parseDo();
      if (tok.value === "with") return this.parseWith();
      if (tok.value === "for") return this.parsePyFor();
      if (this.pySaltTags && IMPORT_TAGS[tok.value] !== undefined)
        return this.parseImportData(IMPORT_TAGS[tok.value] as string);
      if (this.pySaltTags && LOAD_TAGS[tok.value] !== undefined)
        return this.parseLoadData(LOAD_TAGS[tok.value] as string);
    }
    return super.parseStatement();
  }

  /**
   * The end of a block tag. Jinja reads one optional colon before the `%}` of the tags whose body follows (Python's
   * habit: `{% if x: %}`, `{% else: %}`, `{% for a in b: %}`, `{% macro m(): %}`), but not after an end tag or a
   * tag without a body.
   */
  advanceAfterBlockEnd(name?: string): NjAny {
    const tag = name ?? this.peekToken()?.value;
    if (COLON_TAGS.has(tag)) {
      if (name === undefined) this.nextToken();
      if (this.peekToken()?.type === njLexer.TOKEN_COLON) this.nextToken();
      return super.advanceAfterBlockEnd(tag);
    }
    return super.advanceAfterBlockEnd(name);
  }

  parseDo(): NjAny {
    const tok = this.nextToken();
    const node = new PyDo(tok.lineno, tok.colno, this.parseExpression());
    this.advanceAfterBlockEnd(tok.value);
    return node;
  }

  /** `{% with a = 1, b = x %}...{% endwith %}`: names visible only inside the block. */
  parseWith(): NjAny {
    const tok = this.nextToken();
    const targets: NjAny[] = [];
    const values: NjAny[] = [];
    // Targets until the end of the tag, a comma before each but the first (so a trailing comma is refused).
    while (this.peekToken()?.type !== njLexer.TOKEN_BLOCK_END) {
      if (targets.length > 0 && !this.skip(njLexer.TOKEN_COMMA))
        this.fail("expected ',' in with", tok.lineno, tok.colno);
      // A target as `set` reads one: `a, b = pair` and `(a, b) = pair` unpack (a parenthesised part too).
      const { targets: parts } = this.assignTargets();
      let target = parts[0];
      if (parts.length > 1) {
        target = new njNodes.Group(parts[0].lineno, parts[0].colno, parts);
        target.pyTargetTuple = true;
      }
      targets.push(target);
      if (!this.skipValue(njLexer.TOKEN_OPERATOR, "="))
        this.fail("expected '=' in with", tok.lineno, tok.colno);
      values.push(this.parseExpression());
    }
    this.advanceAfterBlockEnd(tok.value);
    const body = this.parseUntilBlocks("endwith");
    this.advanceAfterBlockEnd();
    return new PyWith(tok.lineno, tok.colno, targets, values, body);
  }

  parsePyFor(): NjAny {
    const forTok = this.nextToken();
    const node = new PyFor(forTok.lineno, forTok.colno);
    // A name, or names to unpack each item into (an Array, nested for parenthesised parts: `(k, (a, b))`).
    const loopTarget = (target: NjAny): NjAny => {
      const read = assignable(target);
      if (read instanceof njNodes.Symbol) return read;
      if (read.pyTargetTuple !== true)
        this.fail("expected a loop variable name", forTok.lineno, forTok.colno);
      const names = new njNodes.Array(read.lineno, read.colno);
      for (const child of read.children) names.addChild(loopTarget(child));
      return names;
    };
    node.name = loopTarget(this.parsePrimary(true));
    if (this.peekToken().type === njLexer.TOKEN_COMMA) {
      const first = node.name;
      node.name = new njNodes.Array(first.lineno, first.colno);
      node.name.addChild(first);
      while (this.skip(njLexer.TOKEN_COMMA)) {
        // Jinja reads a name after the comma even when it is `in`: `{% for k, in m %}` does not parse.
        if (this.peekToken().type === njLexer.TOKEN_SYMBOL && this.peekToken().value === "in")
          this.fail('expected "in" in for loop', forTok.lineno, forTok.colno);
        node.name.addChild(loopTarget(this.parsePrimary(true)));
      }
    }
    if (!this.skipSymbol("in")) this.fail('expected "in" in for loop', forTok.lineno, forTok.colno);
    node.arr = this.parseOr();
    node.filter = this.skipSymbol("if") ? this.parseExpression() : null;
    node.recursive = this.skipSymbol("recursive");
    this.advanceAfterBlockEnd(forTok.value);
    node.body = this.parseUntilBlocks("endfor", "else");
    if (this.skipSymbol("else")) {
      this.advanceAfterBlockEnd("else");
      node.else_ = this.parseUntilBlocks("endfor");
    }
    this.advanceAfterBlockEnd();
    return node;
  }

  parseImportData(kind: string): NjAny {
    const tok = this.nextToken();
    const template = this.parseExpression();
    if (!this.skipSymbol("as")) this.fail(`${tok.value}: expected "as"`, tok.lineno, tok.colno);
    const target = this.parsePrimary(true);
    if (!(target instanceof njNodes.Symbol))
      this.fail(`${tok.value}: expected a name`, tok.lineno, tok.colno);
    const withContext = this.parseWithContext() === true;
    this.advanceAfterBlockEnd(tok.value);
    const value = new PyImportData(tok.lineno, tok.colno, kind, template, withContext);
    return new njNodes.Set(tok.lineno, tok.colno, [target], value);
  }

  parseLoadData(kind: string): NjAny {
    const tok = this.nextToken();
    if (!this.skipSymbol("as")) this.fail(`${tok.value}: expected "as"`, tok.lineno, tok.colno);
    // Salt reads an assignment target here, as `set` does: `as a, b`, `as (a, b)` and `as a,` unpack the value.
    const { targets, tuple } = this.assignTargets();
    const names = (target: NjAny): boolean =>
      target instanceof njNodes.Symbol || (target.pyTargetTuple === true && target.children.every(names));
    if (!targets.every(names)) this.fail(`${tok.value}: expected a name`, tok.lineno, tok.colno);
    this.advanceAfterBlockEnd(tok.value);
    const body = this.parseUntilBlocks("endload");
    this.advanceAfterBlockEnd();
    const capture = new njNodes.Capture(tok.lineno, tok.colno, body);
    const value = new PyLoadData(tok.lineno, tok.colno, kind, capture);
    const node = new njNodes.Set(tok.lineno, tok.colno, targets, value);
    node.pyTupleTarget = tuple;
    return node;
  }

  /**
   * Jinja's assignment target: names separated by commas, a trailing comma before the end of the tag making a tuple
   * of one, and parentheses around any part (`(a, b)` unpacks, `(a)` is the name, `(a,)` a tuple of one). A
   * parenthesised tuple is marked `pyTargetTuple`; `tuple` tells whether the top level is a tuple.
   */
  assignTargets(): { targets: NjAny[]; tuple: boolean } {
    const targets: NjAny[] = [];
    let tuple = false;
    for (;;) {
      targets.push(assignable(this.parsePrimary()));
      if (!this.skip(njLexer.TOKEN_COMMA)) break;
      tuple = true;
      if (this.peekToken()?.type === njLexer.TOKEN_BLOCK_END) break;
    }
    return { targets, tuple };
  }

  /** `{% raw %}...{% endraw %}`, with Jinja's whitespace control on both tags (nunjucks ignores `-` there). */
  parseRaw(tagName?: string): NjAny {
    const name = tagName ?? "raw";
    const begun = this.advanceAfterBlockEnd();
    this.dropLeadingWhitespace = false;
    const end = new RegExp(`([\\s\\S]*?)\\{%(-?)\\s*end${name}\\s*(-?)%\\}`);
    const m = this.tokens._extractRegex(end);
    if (!m) this.fail(`unexpected end of template, expected 'end${name}'`, begun.lineno, begun.colno);
    let text: string = m[1];
    if (begun.value.charAt(0) === "-") text = text.replace(/^\s+/, "");
    if (m[2] === "-") text = text.replace(/\s+$/, "");
    if (m[3] === "-") this.dropLeadingWhitespace = true;
    return new njNodes.Output(begun.lineno, begun.colno, [
      new njNodes.TemplateData(begun.lineno, begun.colno, text),
    ]);
  }

  /**
   * `{% set a = x %}`, `{% set a, b = pair %}`, `{% set t = 1, 2 %}` (a tuple), `{% set ns.x = 1 %}`,
   * `{% set a %}..{% endset %}`, `{% set a | filter %}..{% endset %}`.
   */
  parseSet(): NjAny {
    const tag = this.nextToken();
    const { targets, tuple } = this.assignTargets();
    // Jinja assigns to names, or to one namespace's attribute alone (`ns.x`, not in parentheses or a tuple), never
    // to a subscript (`x[0]`).
    const leaves = (target: NjAny): NjAny[] =>
      target.pyTargetTuple === true ? target.children.flatMap(leaves) : [target];
    const wrong = targets.flatMap(leaves).find((target) => !(target instanceof njNodes.Symbol));
    const namespaceAttr =
      targets.length === 1 &&
      !tuple &&
      targets[0].typename === "PyAttr" &&
      targets[0].pyParenthesized !== true &&
      targets[0].target instanceof njNodes.Symbol;
    if (wrong !== undefined && !namespaceAttr)
      this.fail("expected the end of the set tag", wrong.lineno, wrong.colno);
    const node = new njNodes.Set(tag.lineno, tag.colno, targets);
    node.pyTupleTarget = tuple;
    if (this.skipValue(njLexer.TOKEN_OPERATOR, "=")) {
      const first = this.parseExpression();
      if (this.peekToken()?.type === njLexer.TOKEN_COMMA) {
        const tuple = new njNodes.Group(first.lineno, first.colno, [first]);
        tuple.pyTuple = true;
        while (this.skip(njLexer.TOKEN_COMMA)) {
          if (this.peekToken()?.type === njLexer.TOKEN_BLOCK_END) break;
          tuple.addChild(this.parseExpression());
        }
        node.value = tuple;
      } else node.value = first;
      this.advanceAfterBlockEnd(tag.value);
    } else {
      // `{% set x | trim | upper %}..{% endset %}`: the filters apply to the block's text. They are parsed around a
      // stand-in, replaced by the block once it is read.
      const standIn = new njNodes.Literal(tag.lineno, tag.colno, "");
      const filtered = this.parseFilter(standIn);
      const end = this.nextToken();
      if (!end || end.type !== njLexer.TOKEN_BLOCK_END) {
        this.fail("expected = or the end of the set tag", tag.lineno, tag.colno);
      }
      if (end.value.charAt(0) === "-") this.dropLeadingWhitespace = true;
      const capture = new njNodes.Capture(tag.lineno, tag.colno, this.parseUntilBlocks("endset"));
      node.body = filtered === standIn ? capture : replaceInnermost(filtered, capture);
      node.value = null;
      this.advanceAfterBlockEnd();
    }
    return node;
  }

  /**
   * Jinja's arithmetic levels, loosest first: `+` and `-` (one level, left to right: `a + b - c` is `(a + b) - c`),
   * then `~`, then `*`, `/`, `//` and `%`. nunjucks puts `~` loosest and gives each operator its own level, which
   * changes results: `'a' ~ 1 + 2` is `('a' ~ 1) + 2` (a TypeError) and `0.1 + 0.2 - 0.3` is `(0.1 + 0.2) - 0.3`.
   * nunjucks' comparisons read their operands with parseConcat, so that is where the loosest level goes.
   */
  parseConcat(): NjAny {
    let node = this.parseTilde();
    for (;;) {
      if (this.skipValue(njLexer.TOKEN_OPERATOR, "+"))
        node = new njNodes.Add(node.lineno, node.colno, node, this.parseTilde());
      else if (this.skipValue(njLexer.TOKEN_OPERATOR, "-"))
        node = new njNodes.Sub(node.lineno, node.colno, node, this.parseTilde());
      else return node;
    }
  }

  parseAdd(): NjAny {
    return this.parseConcat();
  }

  /** `a ~ b ~ c`, between the additive and the multiplicative operators. */
  parseTilde(): NjAny {
    let node = this.parseMul();
    while (this.skipValue(njLexer.TOKEN_TILDE, "~"))
      node = new njNodes.Concat(node.lineno, node.colno, node, this.parseMul());
    return node;
  }

  /** `*`, `/`, `//` and `%` at one level, left to right, as in Jinja: `7 * 3 // 2` is `(7 * 3) // 2`, 10. */
  parseMul(): NjAny {
    let node = this.parsePow();
    for (;;) {
      if (this.skipValue(njLexer.TOKEN_OPERATOR, "*"))
        node = new njNodes.Mul(node.lineno, node.colno, node, this.parsePow());
      else if (this.skipValue(njLexer.TOKEN_OPERATOR, "/"))
        node = new njNodes.Div(node.lineno, node.colno, node, this.parsePow());
      else if (this.skipValue(njLexer.TOKEN_OPERATOR, "//"))
        node = new njNodes.FloorDiv(node.lineno, node.colno, node, this.parsePow());
      else if (this.skipValue(njLexer.TOKEN_OPERATOR, "%"))
        node = new njNodes.Mod(node.lineno, node.colno, node, this.parsePow());
      else return node;
    }
  }

  /**
   * An operand with its filters and tests, which Jinja reads at one level, left to right, right after the value:
   * `1 + 1 is even` is `1 + (1 is even)`, `x is defined|string` is `(x is defined)|string`. nunjucks reads filters
   * there but tests at a level of their own, below the comparisons.
   */
  parseUnary(noFilters?: boolean): NjAny {
    const tok = this.peekToken();
    let node: NjAny;
    if (this.skipValue(njLexer.TOKEN_OPERATOR, "-"))
      node = new njNodes.Neg(tok.lineno, tok.colno, this.parseUnary(true));
    else if (this.skipValue(njLexer.TOKEN_OPERATOR, "+"))
      node = new njNodes.Pos(tok.lineno, tok.colno, this.parseUnary(true));
    else node = this.parsePrimary();
    if (noFilters) return node;
    for (;;) {
      const next = this.peekToken();
      if (next?.type === njLexer.TOKEN_PIPE) node = this.parseFilter(node);
      else if (next?.type === njLexer.TOKEN_SYMBOL && next.value === "is") {
        this.nextToken();
        node = this.parseTest(node);
      } else return node;
    }
  }

  /** Jinja's test syntax after `is`: `test`, `not test`, `test(args)` and `test arg` (one argument, no parentheses). */
  parseTest(node: NjAny): NjAny {
    const not = this.skipSymbol("not");
    const start = this.peekToken();
    let test = this.parsePrimary(true);
    const next = this.peekToken();
    if (next?.type === njLexer.TOKEN_SYMBOL && next.value === "is")
      this.fail("You cannot chain multiple tests with is", next.lineno, next.colno);
    if (next && next.type === njLexer.TOKEN_LEFT_PAREN) {
      test = new njNodes.FunCall(start.lineno, start.colno, test, this.parseCallArgs());
    } else if (next && startsTestArgument(next)) {
      const arg = this.parsePrimary();
      test = new njNodes.FunCall(
        start.lineno,
        start.colno,
        test,
        new njNodes.NodeList(next.lineno, next.colno, [arg]),
      );
    }
    const tested = new njNodes.Is(node.lineno, node.colno, node, test);
    return not ? new njNodes.Not(node.lineno, node.colno, tested) : tested;
  }

  /** Tests are read with their operand (see parseUnary): this level only passes through. */
  parseIs(): NjAny {
    return this.parseCompare();
  }

  /** `in` and `not in` are comparisons in Jinja, and chain with them: `1 in [1] == true` is `1 in [1] and [1] == true`. */
  parseIn(): NjAny {
    return this.parseIs();
  }

  /** Python's chained comparisons, `in` and `not in` among them. */
  parseCompare(): NjAny {
    const expr = this.parseConcat();
    const ops: NjAny[] = [];
    for (;;) {
      const tok = this.nextToken();
      if (!tok) break;
      // nunjucks' lexer reads `===` and `!==`; Jinja's reads `==` then a stray `=`, which does not parse.
      if (tok.type === njLexer.TOKEN_OPERATOR && (tok.value === "===" || tok.value === "!=="))
        this.fail(`unexpected '='`, tok.lineno, tok.colno);
      if (tok.type === njLexer.TOKEN_OPERATOR && COMPARE_OPERATORS.has(tok.value)) {
        ops.push(new njNodes.CompareOperand(tok.lineno, tok.colno, this.parseConcat(), tok.value));
      } else if (tok.type === njLexer.TOKEN_SYMBOL && tok.value === "in") {
        ops.push(new njNodes.CompareOperand(tok.lineno, tok.colno, this.parseConcat(), "in"));
      } else if (
        tok.type === njLexer.TOKEN_SYMBOL &&
        tok.value === "not" &&
        this.peekToken()?.value === "in"
      ) {
        this.nextToken();
        ops.push(new njNodes.CompareOperand(tok.lineno, tok.colno, this.parseConcat(), "notin"));
      } else {
        this.pushToken(tok);
        break;
      }
    }
    return ops.length > 0 ? new njNodes.Compare(ops[0].lineno, ops[0].colno, expr, ops) : expr;
  }

  /**
   * `{% filter upper|replace('A', 'b') %}...{% endfilter %}`: a chain of filters, as Jinja reads it (nunjucks reads
   * one). They are parsed around a stand-in, replaced by the block once it is read, as for a block `set`.
   */
  parseFilterStatement(): NjAny {
    const tok = this.nextToken();
    const name = this.parseFilterName();
    const standIn = new njNodes.Literal(name.lineno, name.colno, "");
    const first = new njNodes.Filter(
      name.lineno,
      name.colno,
      name,
      new njNodes.NodeList(name.lineno, name.colno, [standIn, ...this.parseFilterArgs(name)]),
    );
    const filtered = this.parseFilter(first);
    this.advanceAfterBlockEnd(tok.value);
    const body = new njNodes.Capture(name.lineno, name.colno, this.parseUntilBlocks("endfilter"));
    this.advanceAfterBlockEnd();
    return new njNodes.Output(name.lineno, name.colno, [replaceInnermost(filtered, body)]);
  }

  /**
   * `a if b else c`, as Jinja reads it: the `else` part is itself a conditional (`1 if x else 2 if y else 3`), and
   * another `if` may follow (`a if b if c` tests `c` first). nunjucks reads only an `or` expression after `else`.
   */
  parseInlineIf(): NjAny {
    let node = this.parseOr();
    while (this.skipSymbol("if")) {
      const cond = this.parseOr();
      const body = node;
      node = new njNodes.InlineIf(body.lineno, body.colno);
      node.body = body;
      node.cond = cond;
      node.else_ = this.skipSymbol("else") ? this.parseInlineIf() : null;
    }
    return node;
  }

  /** List, dict and tuple literals, with the trailing comma Jinja accepts (`(1,)` is a tuple). */
  parseAggregate(): NjAny {
    const tok = this.nextToken();
    let node: NjAny;
    let close: string;
    if (tok.type === njLexer.TOKEN_LEFT_PAREN) {
      node = new njNodes.Group(tok.lineno, tok.colno);
      close = njLexer.TOKEN_RIGHT_PAREN;
    } else if (tok.type === njLexer.TOKEN_LEFT_BRACKET) {
      node = new njNodes.Array(tok.lineno, tok.colno);
      close = njLexer.TOKEN_RIGHT_BRACKET;
    } else if (tok.type === njLexer.TOKEN_LEFT_CURLY) {
      node = new njNodes.Dict(tok.lineno, tok.colno);
      close = njLexer.TOKEN_RIGHT_CURLY;
    } else {
      return null;
    }
    let trailingComma = false;
    for (;;) {
      const next = this.peekToken();
      if (!next) this.fail("unexpected end of input in a literal", tok.lineno, tok.colno);
      if (next.type === close) {
        this.nextToken();
        break;
      }
      if (node.children.length > 0) {
        if (!this.skip(njLexer.TOKEN_COMMA)) this.fail("expected ',' in a literal", next.lineno, next.colno);
        trailingComma = true;
        if (this.peekToken()?.type === close) {
          this.nextToken();
          break;
        }
      }
      trailingComma = false;
      if (node instanceof njNodes.Dict) {
        const key = this.parseExpression();
        if (!this.skip(njLexer.TOKEN_COLON))
          this.fail("expected ':' after a dict key", key.lineno, key.colno);
        const value = this.parseExpression();
        node.addChild(new njNodes.Pair(key.lineno, key.colno, key, value));
      } else {
        node.addChild(this.parseExpression());
      }
    }
    if (node instanceof njNodes.Group && trailingComma) node.pyTuple = true;
    return node;
  }

  /**
   * `{% include name [ignore missing] [with context | without context] %}`, as Jinja reads it; `name` may be a list
   * (the first template found is included, see PyEnvironment.getTemplate).
   */
  parseInclude(): NjAny {
    const tag = this.peekToken();
    if (!this.skipSymbol("include")) this.fail("expected include", tag.lineno, tag.colno);
    const node = new njNodes.Include(tag.lineno, tag.colno);
    node.template = this.parseExpression();
    if (this.peekToken()?.type === njLexer.TOKEN_SYMBOL && this.peekToken().value === "ignore") {
      this.nextToken();
      if (!this.skipSymbol("missing")) this.fail("expected 'missing' after 'ignore'", tag.lineno, tag.colno);
      node.ignoreMissing = true;
    }
    const context = this.peekToken();
    if (context?.type === njLexer.TOKEN_SYMBOL && (context.value === "with" || context.value === "without")) {
      this.nextToken();
      if (!this.skipSymbol("context"))
        this.fail(`expected 'context' after '${context.value}'`, tag.lineno, tag.colno);
      node.pyWithoutContext = context.value === "without";
    }
    this.advanceAfterBlockEnd(tag.value);
    return node;
  }

  parsePrimary(noPostfix?: boolean): NjAny {
    const tok = this.peekToken();
    let node: NjAny;
    if (tok && (tok.type === njLexer.TOKEN_INT || tok.type === njLexer.TOKEN_FLOAT)) {
      this.nextToken();
      node = new njNodes.Literal(tok.lineno, tok.colno, numberLiteral(tok.type, tok.value));
    } else if (tok && tok.type === njLexer.TOKEN_STRING) {
      // Adjacent string literals are one string, as in Jinja (and Python): `'a' "b"` is `'ab'`.
      this.nextToken();
      let value = String(tok.value);
      for (let next = this.peekToken(); next?.type === njLexer.TOKEN_STRING; next = this.peekToken()) {
        this.nextToken();
        value += String(next.value);
      }
      node = new njNodes.Literal(tok.lineno, tok.colno, value);
    } else node = super.parsePrimary(true);
    // Jinja spells the constants True/False/None too.
    if (node instanceof njNodes.Symbol && !(node instanceof njNodes.Literal)) {
      if (node.value === "True" || node.value === "False" || node.value === "None") {
        const value = node.value === "None" ? null : node.value === "True";
        const lit = new njNodes.Literal(node.lineno, node.colno, value);
        return noPostfix ? lit : this.parsePostfix(lit);
      }
    }
    return noPostfix ? node : this.parsePostfix(node);
  }

  parsePostfix(start: NjAny): NjAny {
    let node = start;
    let tok = this.peekToken();
    while (tok) {
      if (tok.type === njLexer.TOKEN_LEFT_PAREN) {
        node = new njNodes.FunCall(tok.lineno, tok.colno, node, this.parseCallArgs());
      } else if (tok.type === njLexer.TOKEN_LEFT_BRACKET) {
        node = this.parseSubscript(node);
      } else if (tok.type === njLexer.TOKEN_OPERATOR && tok.value === ".") {
        this.nextToken();
        const val = this.nextToken();
        if (!val || (val.type !== njLexer.TOKEN_SYMBOL && val.type !== njLexer.TOKEN_INT)) {
          this.fail(
            `expected a name after ".", got ${val ? val.value : "end of input"}`,
            tok.lineno,
            tok.colno,
          );
        }
        if (val.type === njLexer.TOKEN_INT) {
          // `items.0` is a subscript in Jinja.
          const index = new njNodes.Literal(val.lineno, val.colno, Number.parseInt(val.value, 10));
          node = new njNodes.LookupVal(tok.lineno, tok.colno, node, index);
        } else {
          const key = new njNodes.Literal(val.lineno, val.colno, val.value);
          node = new PyAttr(tok.lineno, tok.colno, node, key);
        }
      } else {
        break;
      }
      tok = this.peekToken();
    }
    return node;
  }

  /**
   * The parameters of a macro or a call block (`(a, b=1)`), built as nunjucks builds them (the names, then the
   * defaults as `KeywordArgs`), with Jinja's rule that a parameter without a default cannot follow one with a
   * default: `{% macro m(a=1, b) %}` fails to compile, called or not.
   */
  parseSignature(tolerant?: boolean, noParens?: boolean): NjAny {
    let tok = this.peekToken();
    if (!noParens && tok?.type !== njLexer.TOKEN_LEFT_PAREN) {
      if (tolerant) return null;
      this.fail("expected arguments", tok?.lineno, tok?.colno);
    }
    if (tok.type === njLexer.TOKEN_LEFT_PAREN) tok = this.nextToken();
    const args = new njNodes.NodeList(tok.lineno, tok.colno);
    const kwargs = new njNodes.KeywordArgs(tok.lineno, tok.colno);
    for (let first = true; ; first = false) {
      tok = this.peekToken();
      if (!tok) this.fail("unexpected end of input in a signature");
      if (!noParens && tok.type === njLexer.TOKEN_RIGHT_PAREN) {
        this.nextToken();
        break;
      }
      if (noParens && tok.type === njLexer.TOKEN_BLOCK_END) break;
      if (!first && !this.skip(njLexer.TOKEN_COMMA)) {
        this.fail("parseSignature: expected comma after expression", tok.lineno, tok.colno);
      }
      const arg = this.parseExpression();
      if (this.skipValue(njLexer.TOKEN_OPERATOR, "=")) {
        kwargs.addChild(new njNodes.Pair(arg.lineno, arg.colno, arg, this.parseExpression()));
      } else if (kwargs.children.length > 0) {
        this.fail("non-default argument follows default argument", arg.lineno, arg.colno);
      } else {
        args.addChild(arg);
      }
    }
    if (kwargs.children.length > 0) args.addChild(kwargs);
    return args;
  }

  /**
   * The arguments of a call, as Jinja's parser reads them: positional arguments, `name=value` keywords,
   * `*iterable` and `**mapping` (each splat at most once; nothing positional after a keyword or a splat, nothing at
   * all after `**`), and an optional trailing comma. The splats become `PyStarArgs` and `PyStarKwargs` children
   * of the argument list, after the positional ones and around the `KeywordArgs`.
   */
  parseCallArgs(): NjAny {
    const open = this.nextToken();
    const args = new njNodes.NodeList(open.lineno, open.colno);
    const kwargs = new njNodes.KeywordArgs(open.lineno, open.colno);
    let star: NjAny = null;
    let starstar: NjAny = null;
    const ensure = (ok: boolean) => {
      if (!ok) this.fail("invalid syntax for function call expression", open.lineno, open.colno);
    };
    let first = true;
    for (;;) {
      let tok = this.peekToken();
      if (!tok) this.fail("unexpected end of input in a call", open.lineno, open.colno);
      if (tok.type === njLexer.TOKEN_RIGHT_PAREN) break;
      if (!first) {
        if (!this.skip(njLexer.TOKEN_COMMA))
          this.fail("expected ',' between arguments", tok.lineno, tok.colno);
        tok = this.peekToken();
        if (tok?.type === njLexer.TOKEN_RIGHT_PAREN) break;
      }
      first = false;
      if (tok.type === njLexer.TOKEN_OPERATOR && tok.value === "*") {
        ensure(star === null && starstar === null);
        this.nextToken();
        star = new PyStarArgs(tok.lineno, tok.colno, this.parseExpression());
      } else if (tok.type === njLexer.TOKEN_OPERATOR && tok.value === "**") {
        ensure(starstar === null);
        this.nextToken();
        starstar = new PyStarKwargs(tok.lineno, tok.colno, this.parseExpression());
      } else {
        const arg = this.parseExpression();
        if (this.skipValue(njLexer.TOKEN_OPERATOR, "=")) {
          ensure(starstar === null && arg instanceof njNodes.Symbol && !(arg instanceof njNodes.Literal));
          kwargs.addChild(new njNodes.Pair(arg.lineno, arg.colno, arg, this.parseExpression()));
        } else {
          ensure(star === null && starstar === null && kwargs.children.length === 0);
          args.addChild(arg);
        }
      }
    }
    this.nextToken();
    if (star !== null) args.addChild(star);
    if (kwargs.children.length > 0) args.addChild(kwargs);
    if (starstar !== null) args.addChild(starstar);
    return args;
  }

  /** `x[i]` or a Python slice `x[a:b:c]` (any part optional). */
  parseSubscript(target: NjAny): NjAny {
    const open = this.nextToken();
    const parts: NjAny[] = [null];
    let colons = 0;
    // `x[1, 2]` looks up the tuple `(1, 2)`.
    let tuple: NjAny[] | undefined;
    for (;;) {
      const t = this.peekToken();
      if (!t) this.fail("unexpected end of input in subscript", open.lineno, open.colno);
      if (t.type === njLexer.TOKEN_RIGHT_BRACKET) {
        this.nextToken();
        break;
      }
      if (t.type === njLexer.TOKEN_COMMA && colons === 0 && parts[0] !== null) {
        this.nextToken();
        tuple ??= [parts[0]];
        parts[0] = this.parseExpression();
        tuple.push(parts[0]);
        continue;
      }
      if (t.type === njLexer.TOKEN_COLON && tuple !== undefined)
        this.fail("expected ] in subscript", t.lineno, t.colno);
      if (t.type === njLexer.TOKEN_COLON) {
        this.nextToken();
        colons++;
        if (colons > 2) this.fail("too many colons in slice", t.lineno, t.colno);
        parts.push(null);
        continue;
      }
      if (parts[parts.length - 1] !== null) this.fail("expected ] or : in subscript", t.lineno, t.colno);
      parts[parts.length - 1] = this.parseExpression();
    }
    if (colons === 0) {
      // `x[]` looks up the empty tuple, as in Jinja (usually a missing comma: `f('a' [])`).
      if (parts[0] === null) tuple = [];
      else if (tuple === undefined) return new njNodes.LookupVal(open.lineno, open.colno, target, parts[0]);
      const key = new njNodes.Group(open.lineno, open.colno, tuple);
      key.pyTuple = true;
      return new njNodes.LookupVal(open.lineno, open.colno, target, key);
    }
    return new PySlice(open.lineno, open.colno, target, parts[0] ?? null, parts[1] ?? null, parts[2] ?? null);
  }
}

/**
 * The value of a number literal, as Python reads it: an int of any size (a `bigint` past 2^53) or a float, a whole
 * float as a `PyFloat` (`1.0`, `2e3`) so that it stays a float.
 */
function numberLiteral(type: string, text: string): number | bigint | PyFloat {
  const digits = text.replace(/_/g, "");
  if (type === njLexer.TOKEN_INT) {
    // BigInt reads the 0x, 0o and 0b forms too.
    const n = BigInt(digits);
    return n >= MIN_SAFE && n <= MAX_SAFE ? Number(n) : n;
  }
  const x = Number.parseFloat(digits);
  return Number.isInteger(x) ? new PyFloat(x) : x;
}

const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** Jinja's lexer patterns for numbers (jinja2/lexer.py `float_re` and `integer_re`), anchored where reading is. */
const FLOAT_PATTERN = /(?:\d+_)*\d+(?:(?:\.(?:\d+_)*\d+)?e[+-]?(?:\d+_)*\d+|\.(?:\d+_)*\d+)/iy;
const INT_PATTERN = /0b(?:_?[01])+|0o(?:_?[0-7])+|0x(?:_?[\da-f])+|[1-9](?:_?\d)*|0(?:_?0)*/iy;

function isDigit(ch: string | undefined): boolean {
  return ch !== undefined && ch >= "0" && ch <= "9";
}

/** The number token that starts at `at` of `src`, as Jinja's lexer reads it. */
function readNumber(src: string, at: number): { type: string; text: string } | undefined {
  if (src[at - 1] !== ".") {
    FLOAT_PATTERN.lastIndex = at;
    const float = FLOAT_PATTERN.exec(src);
    if (float !== null) return { type: njLexer.TOKEN_FLOAT, text: float[0] };
  }
  INT_PATTERN.lastIndex = at;
  const int = INT_PATTERN.exec(src);
  return int === null ? undefined : { type: njLexer.TOKEN_INT, text: int[0] };
}

/** Names that end a test rather than start its argument (`x is even and y`); any other name is the argument. */
const ENDS_TEST = new Set(["and", "or", "else", "is"]);

/** Jinja's comparison operators. */
const COMPARE_OPERATORS = new Set(["==", "!=", "<", ">", "<=", ">="]);

function startsTestArgument(tok: NjAny): boolean {
  switch (tok.type) {
    case njLexer.TOKEN_STRING:
    case njLexer.TOKEN_INT:
    case njLexer.TOKEN_FLOAT:
    case njLexer.TOKEN_BOOLEAN:
    case njLexer.TOKEN_NONE:
    case njLexer.TOKEN_LEFT_BRACKET:
    case njLexer.TOKEN_LEFT_CURLY:
      return true;
    case njLexer.TOKEN_SYMBOL:
      return !ENDS_TEST.has(tok.value);
    default:
      return false;
  }
}

/**
 * nunjucks' tokenizer ends a tag at the first `}}`, even inside a dict literal (`{'a': {'b': 1}}`); Jinja
 * balances braces. This wraps one tokenizer instance to do the same.
 */
const SIMPLE_ESCAPES: Record<string, string> = {
  "\\": "\\",
  "'": "'",
  '"': '"',
  a: "\x07",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  "\n": "",
};

/** A string literal with Python's escapes (`\u00e9`, `\x41`, octal); unknown escapes such as `\d` keep the backslash. */
function parsePyString(tokens: NjAny, quote: string): string {
  tokens.forward();
  let out = "";
  while (!tokens.isFinished() && tokens.current() !== quote) {
    const ch = tokens.current();
    tokens.forward();
    if (ch !== "\\") {
      out += ch;
      continue;
    }
    const e = tokens.current();
    const simple = SIMPLE_ESCAPES[e];
    if (simple !== undefined) {
      out += simple;
      tokens.forward();
      continue;
    }
    const hexLen = e === "x" ? 2 : e === "u" ? 4 : e === "U" ? 8 : 0;
    if (hexLen > 0) {
      const hex = tokens.str.slice(tokens.index + 1, tokens.index + 1 + hexLen);
      if (hex.length === hexLen && /^[0-9a-fA-F]+$/.test(hex)) {
        out += String.fromCodePoint(Number.parseInt(hex, 16));
        for (let i = 0; i <= hexLen; i++) tokens.forward();
        continue;
      }
      // Python's codec refuses a short hex escape (`'\x4'`), and so Jinja's lexer refuses the template.
      throw new Error(`truncated \\${e} escape`);
    }
    if (e === "N" && tokens.str[tokens.index + 1] !== "{") throw new Error("malformed \\N character escape");
    if (e >= "0" && e <= "7") {
      let oct = "";
      while (oct.length < 3 && tokens.current() >= "0" && tokens.current() <= "7") {
        oct += tokens.current();
        tokens.forward();
      }
      out += String.fromCharCode(Number.parseInt(oct, 8));
      continue;
    }
    out += "\\";
  }
  // nunjucks lets a string run to the end of the template; Jinja's lexer finds no string there and stops.
  if (tokens.isFinished()) throw new Error("unterminated string");
  tokens.forward();
  return out;
}

/** The word characters a Jinja name is made of, at the start of a nunjucks name. */
// Built on first use (a pattern of Unicode classes costs V8 a good part of a millisecond; see lazy-patterns.test.ts),
// and only for a name that is not all ASCII word characters.
const ASCII_NAME = /^[A-Za-z0-9_]+$/;
let namePrefix: RegExp | undefined;
/** The start of `text` that is a Jinja name: its word characters (Unicode letters, digits, marks, connectors, `·`). */
function namePart(text: string): string {
  if (ASCII_NAME.test(text)) return text;
  // biome-ignore lint/complexity/useRegexLiterals: a constructor call, so that lazy-patterns.test.ts sees when it is built
  namePrefix ??= new RegExp("^[\\p{L}\\p{N}\\p{Mn}\\p{Mc}\\p{Pc}·]+", "u");
  return namePrefix.exec(text)?.[0] ?? "";
}

function balancedTokens(src: string, trimBlocks: boolean): NjAny {
  // nunjucks' trimBlocks drops the newline after a block tag; Jinja's trim_blocks also drops it after a comment.
  const tokens = njLexer.lex(src, { trimBlocks });
  tokens._extractMatching = extractMatching;
  tokens._parseString = (quote: string) => parsePyString(tokens, quote);
  const next = tokens.nextToken.bind(tokens);
  // nunjucks rejects a `#}` in template text ("unexpected end of comment"); Jinja prints it. The tokenizer reads a
  // comment as one text token that starts with `{#`, so `#}` ends something only inside such a token.
  let inComment = false;
  const extractString = tokens._extractString.bind(tokens);
  tokens._extractString = (str: string): NjAny => {
    const found = extractString(str);
    if (found && str === "{#" && !tokens.in_code) inComment = true;
    return found;
  };
  const matches = tokens._matches.bind(tokens);
  tokens._matches = (str: string): NjAny => (str === "#}" && !inComment ? null : matches(str));
  let depth = 0;
  tokens.nextToken = (): NjAny => {
    inComment = false;
    if (tokens.in_code && depth > 0 && tokens.str.startsWith("}}", tokens.index)) {
      const lineno = tokens.lineno;
      const colno = tokens.colno;
      tokens.forward();
      depth--;
      return { type: njLexer.TOKEN_RIGHT_CURLY, value: "}", lineno, colno };
    }
    // Numbers are read with Jinja's own patterns (nunjucks reads `1.5e3` as `1.5` and a name, `0x1F` as `0` and a
    // name): a float first (`1_0.5`, `1e3`, not after a `.`, so `x.0.1` stays two lookups), else an int
    // (`0x1F`, `0o17`, `0b101`, `1_000`; a zero alone, so `07` is `0` then `7`, which does not parse).
    if (tokens.in_code && isDigit(tokens.current())) {
      const number = readNumber(tokens.str, tokens.index);
      if (number !== undefined) {
        const { lineno, colno } = tokens;
        for (let i = 0; i < number.text.length; i++) tokens.forward();
        return { type: number.type, value: number.text, lineno, colno };
      }
    }
    // `+%}` (Jinja's "keep the newline after this tag", which matters with trim_blocks): the `+` is not code.
    const keepNewline =
      tokens.in_code && tokens.current() === "+" && tokens.str.startsWith("%}", tokens.index + 1);
    if (keepNewline) tokens.forward();
    const trim = tokens.trimBlocks;
    if (keepNewline) tokens.trimBlocks = false;
    const tok = next();
    tokens.trimBlocks = trim;
    // `{%+` (Jinja's "keep the white space before this tag", which matters with lstrip_blocks, never on here).
    if (tok?.type === njLexer.TOKEN_BLOCK_START && tok.value === "{%" && tokens.current() === "+")
      tokens.forward();
    // nunjucks reads a name up to the next space or operator (`if'a'`, `a$b`); Jinja's names are word characters
    // only. The name ends where they do and the rest is read again (`if` then the string `'a'`); a character Jinja
    // reads as no token at all (`$`) does not parse.
    if (tok?.type === njLexer.TOKEN_SYMBOL) {
      const word = namePart(tok.value);
      if (word === "") throw new Error(`unexpected character in ${tok.value}`);
      if (word.length < tok.value.length) {
        tokens.backN(tok.value.length - word.length);
        return { ...tok, value: word };
      }
    }
    // nunjucks reads `null` as None; in Jinja it is an ordinary (usually undefined) name.
    if (tok && tok.type === njLexer.TOKEN_NONE && tok.value === "null")
      return { ...tok, type: njLexer.TOKEN_SYMBOL };
    if (trimBlocks && tok && tok.type === njLexer.TOKEN_COMMENT && tokens.current() === "\n")
      tokens.forward();
    if (tok) {
      if (tok.type === njLexer.TOKEN_LEFT_CURLY) depth++;
      else if (tok.type === njLexer.TOKEN_RIGHT_CURLY) depth = Math.max(0, depth - 1);
      else if (tok.type === njLexer.TOKEN_BLOCK_END || tok.type === njLexer.TOKEN_VARIABLE_END) depth = 0;
    }
    return tok;
  };
  return tokens;
}

/** Syntax choices: Salt's serializer tags (default on) and Jinja's `trim_blocks` (default off). */
export interface ParseOptions {
  readonly saltTags?: boolean;
  readonly trimBlocks?: boolean;
}

/** Parses (already newline-normalised) template text into a nunjucks AST with the Jinja additions above. */
export function parseTemplate(
  src: string,
  extensions: readonly unknown[],
  options: ParseOptions = {},
): NjAny {
  const parser = new PyParser(balancedTokens(src, options.trimBlocks === true));
  parser.pySaltTags = options.saltTags !== false;
  parser.extensions = extensions;
  return parser.parseAsRoot();
}

/** A chain of filters parsed around a stand-in (`x|f|g` is g(f(x))) with the stand-in replaced by `value`. */
function replaceInnermost(chain: NjAny, value: NjAny): NjAny {
  let filter = chain;
  for (;;) {
    const input = filter.args.children[0];
    if (!(input instanceof njNodes.Filter)) {
      filter.args.children[0] = value;
      return chain;
    }
    filter = input;
  }
}
