// Compiles the nunjucks AST to JavaScript with Jinja/Python semantics: Python truthiness and operators, str()
// printing, Jinja scoping for loops, macros with varargs/kwargs, attribute vs item lookup, and positions on
// every error. It extends nunjucks' own Compiler and emits calls into our runtime (runtime.ts), which the
// rendered code receives as its `runtime` argument — nunjucks' global runtime is never modified.
import { PyFloat } from "@merge/core";
import { type NjAny, njCompiler, njNodes, njRuntime } from "./nunjucks-internals.js";
import { type ConstEvaluator, FOLDED_NAME, markFolds } from "./const-fold.js";
import { PyFor, parseTemplate } from "./parser.js";
import { markSoftNames } from "./soft-frames.js";

const BaseCompiler: NjAny = njCompiler.Compiler;

/** Names of filters and tests known to the environment: unknown ones fail at compile time, as in Jinja. */
export interface CompileNames {
  readonly filters: ReadonlySet<string>;
  readonly tests: ReadonlySet<string>;
  /** Salt's serializer tags (`import_yaml`, `load_json ... endload`, ...); default true. */
  readonly saltTags?: boolean;
  /** Jinja's `trim_blocks`: the first newline after a block tag or a comment is dropped. Default false. */
  readonly trimBlocks?: boolean;
  /**
   * Printing (`{{ x }}`) hands each value and the name it was looked up by to `env.pyUndefinedText(value, name)`,
   * which returns the text an undefined value prints as (and any other value as it is). Default false.
   */
  readonly undefinedText?: boolean;
}

/** A for loop's names in the order they are written, through nested parts (`k, (a, b)`). */
function loopNames(target: NjAny): NjAny[] {
  return target instanceof njNodes.Array ? (target.children as NjAny[]).flatMap(loopNames) : [target];
}

function str(s: string): string {
  return JSON.stringify(s)
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/** Source-like text of an expression, for messages such as `'pillar.roles' is undefined`. */
function describe(node: NjAny): string {
  switch (node?.typename) {
    case "Group":
      // `(pillar.x)` is `pillar.x`; a tuple is an expression.
      return node.children.length === 1 && !node.pyTuple ? describe(node.children[0]) : "expression";
    case "Symbol":
      return String(node.value);
    case "Literal":
      return node.value === null
        ? "None"
        : typeof node.value === "string"
          ? `'${node.value}'`
          : String(node.value);
    case "PyAttr":
      return `${describe(node.target)}.${node.val.value}`;
    case "LookupVal":
      return `${describe(node.target)}[${describe(node.val)}]`;
    case "FunCall":
      return `${describe(node.name)}()`;
    case "Filter":
      return `${describe(node.args.children[0])}|${node.name.value}`;
    case "InlineIf":
      return `${describe(node.body)} if ${describe(node.cond)}`;
    default:
      return "expression";
  }
}

/** The render's resource account (budget.ts), as compiled code reaches it. */
const ACCOUNT = "env.pyState.account";
/** The render's state (RenderState of environment.ts), as compiled code reaches it. */
const STATE = "env.pyState";

/** Filters that fail on an undefined value in Jinja (`int(Undefined)` raises); see `compileChecked`. */
const FILTERS_REFUSING_UNDEFINED = new Set([
  "attr",
  "dictsort",
  "filesizeformat",
  "float",
  "indent",
  "int",
  // Salt's: libyaml asks the value for `read`; traverse indexes it.
  "load_yaml",
  "traverse",
  "wordwrap",
  "xmlattr",
]);
/** Filters whose undefined result (an item of an empty sequence) carries a hint in Jinja. */
const EMPTY_HINTS: Readonly<Record<string, string>> = {
  first: "No first item, sequence was empty.",
  last: "No last item, sequence was empty.",
  min: "No aggregated item, sequence was empty.",
  max: "No aggregated item, sequence was empty.",
  random: "No random item, sequence was empty.",
};

/** Tests that fail when a value they compute with is undefined (`Undefined % 2`, `Undefined < 1`). */
const TESTS_REFUSING_UNDEFINED = new Set([
  "divisibleby",
  "even",
  "odd",
  "lt",
  "le",
  "gt",
  "ge",
  "lessthan",
  "greaterthan",
  "<",
  "<=",
  ">",
  ">=",
]);

/** Operands an undefined-value message can name (see `operandNames`). */
const NAMED_OPERANDS = new Set(["Symbol", "PyAttr", "LookupVal", "FunCall"]);

/** An expression whose undefined value always has a note (a hinted filter, an inline `if` without `else`). */
function hintedUndefined(node: NjAny): boolean {
  if (node?.typename === "Filter")
    return EMPTY_HINTS[node.name.value] !== undefined || defaultFallback(node) !== undefined;
  return node?.typename === "InlineIf" && (node.else_ === null || node.else_ === undefined);
}

/** The fallback argument of a `default` (or `d`) filter: `y` of `x|default(y)` or `x|default(default_value=y)`. */
function defaultFallback(node: NjAny): NjAny {
  if (node.name.value !== "default" && node.name.value !== "d") return undefined;
  const fallback = node.args.children[1];
  if (!(fallback instanceof njNodes.KeywordArgs)) return fallback;
  const pair = (fallback.children as NjAny[]).find((p) => p.key?.value === "default_value");
  return pair?.value;
}

/** Whether a call's arguments hold a `*` or `**` splat. */
function hasSplat(args: NjAny): boolean {
  return (args.children as NjAny[]).some((c) => c.typename === "PyStarArgs" || c.typename === "PyStarKwargs");
}

/** The name Jinja gives an undefined value: the variable, the attribute or the literal key looked up last. */
function undefinedName(node: NjAny): string {
  switch (node?.typename) {
    case "Symbol":
      return String(node.value);
    case "PyAttr":
      return String(node.val.value);
    case "LookupVal":
      return node.val?.typename === "Literal" && node.val.value !== null
        ? String(node.val.value)
        : describe(node);
    default:
      return describe(node);
  }
}

// Jinja's filters that are given the render context (`pass_context`), which its constant folding never computes.
const CONTEXT_FILTERS = new Set(["map", "select", "reject", "selectattr", "rejectattr", "random"]);

class PyCompiler extends BaseCompiler {
  constructor(...args: unknown[]) {
    super(...args);
  }

  /** Compiling an expression to compute it as Jinja's constant folding does: calls are never computed. */
  declare pyFolding: boolean | undefined;

  compile(node: NjAny, frame: NjAny): void {
    const folded = node?.[FOLDED_NAME];
    if (folded !== undefined) {
      // Jinja wrote this expression's value into its Python code, where `nan` and `inf` are unknown names.
      this._emit(`runtime.pyNameError(${str(folded)})`);
      return;
    }
    if (this.pyFolding === true && node?.typename === "FunCall") {
      this._emit("runtime.pyNotConstant()");
      return;
    }
    super.compile(node, frame);
  }

  declare names: CompileNames;
  declare temps: string[];
  /** The block being compiled (for `super()`). */
  declare pyBlock: string | undefined;
  /** Where the code of the function being compiled starts in `codebuf`. */
  declare pyFuncStart: number;

  init(templateName: string, names: CompileNames): void {
    super.init(templateName, false);
    this.names = names;
    this.temps = [];
  }

  private pos(node: NjAny): void {
    this._emit(`lineno = ${node.lineno}; colno = ${node.colno};\n`);
  }

  private temp(): string {
    const id = this._tmpid();
    this.temps.push(id);
    return id;
  }

  getCode(): string {
    const decl = this.temps.length > 0 ? `var ${this.temps.join(", ")};\n` : "";
    return decl + super.getCode();
  }

  _compileExpression(node: NjAny, frame: NjAny): void {
    this.compile(node, frame);
  }

  _emitFuncBegin(node: NjAny, name: string): void {
    this.pyBlock = name.startsWith("b_") ? name.slice(2) : undefined;
    super._emitFuncBegin(node, name);
    this._emitLine("var pyDone = false;");
    this.pyFuncStart = this.codebuf.length;
  }

  // nunjucks runs the rest of a template that includes or imports another inside the other's callback, so inside the
  // other's `try`: an error the rest raises reached that catch and was stamped with the included file and its last
  // line. Once this function has handed over its output, an error reaching its catch is the caller's: it is thrown on,
  // to the catch of the template it happened in, which stamps it with its own file and line.
  _emitFuncEnd(noReturn: boolean): void {
    if (!noReturn) this._emitLine(`pyDone = true; cb(null, ${this.buffer});`);
    else {
      // The root hands over its output (or its layout's, with `extends`) in lines nunjucks writes itself.
      const done = new Set([
        `cb(null, ${this.buffer});`,
        "parentTemplate.rootRenderFunc(env, context, frame, runtime, cb);",
      ]);
      for (let i = this.pyFuncStart; i < this.codebuf.length; i++) {
        const line = this.codebuf[i] as string;
        if (done.has(line.trim())) this.codebuf[i] = `pyDone = true; ${line}`;
      }
    }
    this._closeScopeLevels();
    this._emitLine("} catch (e) {");
    this._emitLine("  if (pyDone) throw e;");
    this._emitLine(`  cb(runtime.pyTagError(e, lineno, colno, ${this._templateName()}));`);
    this._emitLine("}");
    this._emitLine("}");
    this.buffer = null;
  }

  compileOutput(node: NjAny, frame: NjAny): void {
    let literal = 0;
    for (const child of node.children)
      if (child instanceof njNodes.TemplateData) literal += child.value.length;
    if (literal > 0) this._emitLine(`${ACCOUNT}.write(${literal});`);
    for (const child of node.children) {
      if (child instanceof njNodes.TemplateData) {
        if (child.value) {
          this._emit(`${this.buffer} += `);
          this.compileLiteral(child, frame);
          this._emitLine(";");
        }
      } else {
        this.pos(child);
        this._emit(`${this.buffer} += runtime.pyOut(`);
        if (this.names.undefinedText === true) {
          this._emit("env.pyUndefinedText(");
          this.compile(child, frame);
          this._emit(`, ${str(undefinedName(child))})`);
        } else this.compile(child, frame);
        this._emitLine(`, ${ACCOUNT});`);
      }
    }
  }

  compilePyDo(node: NjAny, frame: NjAny): void {
    this.pos(node);
    this._emit("(");
    this.compile(node.expr, frame);
    this._emitLine(");");
  }

  compileIf(node: NjAny, frame: NjAny): void {
    this.pos(node);
    this._emit("if (runtime.pyBool(");
    this.compile(node.cond, frame);
    this._emitLine(")) {");
    this._withScopedSyntax(() => this.compile(node.body, frame));
    if (node.else_) {
      this._emitLine("} else {");
      this._withScopedSyntax(() => this.compile(node.else_, frame));
    }
    this._emitLine("}");
  }

  compileInlineIf(node: NjAny, frame: NjAny): void {
    this._emit("(runtime.pyBool(");
    this.compile(node.cond, frame);
    this._emit(") ? ");
    this.compile(node.body, frame);
    this._emit(" : ");
    if (node.else_ !== null && node.else_ !== undefined) this.compile(node.else_, frame);
    else {
      // Jinja's undefined value for a false condition without `else` says so when it is used.
      const hint = `the inline if-expression on line ${node.lineno + 1} evaluated to false and no else section was defined.`;
      this._emit(`runtime.pyUndefinedBound(${STATE}, ${str(describe(node))}, ${str(hint)})`);
    }
    this._emit(")");
  }

  compileOr(node: NjAny, frame: NjAny): void {
    const t = this.temp();
    this._emit(`((${t} = `);
    this.compile(node.left, frame);
    this._emit(`), runtime.pyBool(${t}) ? ${t} : `);
    this.compile(node.right, frame);
    this._emit(")");
  }

  compileAnd(node: NjAny, frame: NjAny): void {
    const t = this.temp();
    this._emit(`((${t} = `);
    this.compile(node.left, frame);
    this._emit(`), runtime.pyBool(${t}) ? `);
    this.compile(node.right, frame);
    this._emit(` : ${t})`);
  }

  compileLiteral(node: NjAny, frame: NjAny): void {
    const value = node.value;
    if (value instanceof PyFloat) this._emit(`runtime.pyFloat(${value.value})`);
    else if (typeof value === "bigint") this._emit(`${value}n`);
    else super.compileLiteral(node, frame);
  }

  compileNeg(node: NjAny, frame: NjAny): void {
    this.unaryCall("pyNeg", node, frame);
  }

  compilePos(node: NjAny, frame: NjAny): void {
    this.unaryCall("pyPos", node, frame);
  }

  /**
   * The texts of the operands a message may name (variables, attributes, items, calls), as JSON with `null` for the
   * others; undefined when none is such. An operator given one of them goes through `runtime.pyOp`, which turns its
   * failure on an undefined operand into Jinja's message for that operand (`'dict object' has no attribute 'x'`).
   */
  private operandNames(operands: readonly NjAny[]): string | undefined {
    const named = operands.map((operand) => {
      let node = operand;
      // `(pillar.x) + 1` names `pillar.x`.
      while (node?.typename === "Group" && node.children.length === 1 && !node.pyTuple)
        node = node.children[0];
      return NAMED_OPERANDS.has(node?.typename) || hintedUndefined(node) ? describe(node) : null;
    });
    return named.every((name) => name === null) ? undefined : JSON.stringify(named);
  }

  private unaryCall(fn: string, node: NjAny, frame: NjAny): void {
    const named = this.operandNames([node.target]);
    this._emit(named === undefined ? `runtime.${fn}(` : `runtime.pyOp(runtime.${fn}, `);
    this.compile(node.target, frame);
    this._emit(named === undefined ? ")" : `, undefined, undefined, ${str(named)}, ${STATE})`);
  }

  compileNot(node: NjAny, frame: NjAny): void {
    this._emit("!runtime.pyBool(");
    this.compile(node.target, frame);
    this._emit(")");
  }

  private binCall(fn: string, node: NjAny, frame: NjAny, charged = false, checked = true): void {
    const named = checked ? this.operandNames([node.left, node.right]) : undefined;
    this._emit(named === undefined ? `runtime.${fn}(` : `runtime.pyOp(runtime.${fn}, `);
    this.compile(node.left, frame);
    this._emit(", ");
    this.compile(node.right, frame);
    if (named !== undefined) this._emit(`, ${charged ? ACCOUNT : "undefined"}, ${str(named)}, ${STATE})`);
    else this._emit(charged ? `, ${ACCOUNT})` : ")");
  }

  compileAdd(node: NjAny, frame: NjAny): void {
    this.binCall("pyAdd", node, frame, true);
  }
  compileSub(node: NjAny, frame: NjAny): void {
    this.binCall("pySub", node, frame);
  }
  compileMul(node: NjAny, frame: NjAny): void {
    this.binCall("pyMul", node, frame, true);
  }
  compileDiv(node: NjAny, frame: NjAny): void {
    this.binCall("pyDiv", node, frame);
  }
  compileFloorDiv(node: NjAny, frame: NjAny): void {
    this.binCall("pyFloorDiv", node, frame);
  }
  compileMod(node: NjAny, frame: NjAny): void {
    this.binCall("pyMod", node, frame, true);
  }
  compilePow(node: NjAny, frame: NjAny): void {
    this.binCall("pyPow", node, frame, true);
  }
  // `~` takes an undefined value (as nothing), so it needs no check; so does `in` (see compileCompare).
  compileConcat(node: NjAny, frame: NjAny): void {
    this.binCall("pyConcat", node, frame, true, false);
  }

  compileCompare(node: NjAny, frame: NjAny): void {
    // Python chains comparisons (`a < b < c` is `a < b and b < c`).
    const ops = node.ops as NjAny[];
    if (ops.length > 1) this._emit("(");
    let left = node.expr;
    ops.forEach((op, i) => {
      if (i > 0) this._emit(" && ");
      if (op.type === "in" || op.type === "notin") {
        // `in` takes an undefined value (as nothing to look in), so it needs no check.
        this._emit(op.type === "in" ? "runtime.pyIn(" : "!runtime.pyIn(");
        this.compile(left, frame);
        this._emit(", ");
        this.compile(op.expr, frame);
        this._emit(`, ${ACCOUNT})`);
        left = op.expr;
        return;
      }
      // Ordering an undefined value fails (see operandNames); `==` and `!=` compare it.
      const ordering = op.type !== "==" && op.type !== "!=";
      const named = ordering ? this.operandNames([left, op.expr]) : undefined;
      this._emit(
        named === undefined
          ? `runtime.pyCompare(${str(op.type)}, `
          : `runtime.pyCompareOp(${str(op.type)}, ${str(named)}, ${STATE}, `,
      );
      this.compile(left, frame);
      this._emit(", ");
      this.compile(op.expr, frame);
      this._emit(")");
      left = op.expr;
    });
    if (ops.length > 1) this._emit(")");
  }

  compileGroup(node: NjAny, frame: NjAny): void {
    if (node.children.length === 1 && !node.pyTuple) {
      this._emit("(");
      this.compile(node.children[0], frame);
      this._emit(")");
      return;
    }
    this._emit("runtime.pyTuple([");
    node.children.forEach((c: NjAny, i: number) => {
      if (i > 0) this._emit(", ");
      this.compile(c, frame);
    });
    this._emit("])");
  }

  compileDict(node: NjAny, frame: NjAny): void {
    // Keys may be any expression in Jinja; build through a helper so `__proto__` stays data. A dict literal is a
    // PyDict; keyword arguments (`f(a=1)`) a plain object of names, which nunjucks then marks.
    this._emit(node.typename === "KeywordArgs" ? "runtime.pyKwargs([" : "runtime.pyDict([");
    node.children.forEach((pair: NjAny, i: number) => {
      if (i > 0) this._emit(", ");
      const key = pair.key;
      // Keyword arguments (`f(name=1)`) name their key; a dict literal's bare name is a variable, as in Jinja.
      if (node.typename === "KeywordArgs" && key instanceof njNodes.Symbol)
        this._emit(str(String(key.value)));
      else this.compile(key, frame);
      this._emit(", ");
      this.compile(pair.value, frame);
    });
    this._emit("])");
  }

  // Lookups get the render's state, where one that finds nothing is noted: using its undefined value then raises
  // Jinja's message (`'dict object' has no attribute 'x'`), see LookupMiss in errors.ts.
  compileLookupVal(node: NjAny, frame: NjAny): void {
    this._emit("runtime.pyGetitem(");
    this.compile(node.target, frame);
    this._emit(", ");
    this.compile(node.val, frame);
    this._emit(`, ${str(describe(node.target))}, ${STATE}, ${str(describe(node))})`);
  }

  compilePyAttr(node: NjAny, frame: NjAny): void {
    this._emit("runtime.pyGetattr(");
    this.compile(node.target, frame);
    this._emit(`, ${str(String(node.val.value))}, ${str(describe(node.target))}, ${STATE})`);
  }

  compilePySlice(node: NjAny, frame: NjAny): void {
    this._emit("runtime.pySlice(");
    this.compile(node.target, frame);
    for (const part of [node.start, node.stop, node.step]) {
      this._emit(", ");
      if (part === null || part === undefined) this._emit("null");
      else this.compile(part, frame);
    }
    this._emit(`, ${str(describe(node.target))}, ${STATE})`);
  }

  compileFunCall(node: NjAny, frame: NjAny): void {
    this._emit(`(lineno = ${node.lineno}, colno = ${node.colno}, `);
    const callee = node.name;
    if (callee instanceof njNodes.Symbol && callee.value === "super" && this.pyBlock !== undefined) {
      // The parent template's version of the current block.
      this._emit(`runtime.pySuper(env, context, ${str(this.pyBlock)}, b_${this.pyBlock}, frame))`);
      return;
    }
    if (callee instanceof njNodes.Node && callee.typename === "PyAttr") {
      this._emit("runtime.pyCallAttr(");
      this.compile(callee.target, frame);
      this._emit(`, ${str(String(callee.val.value))}, `);
      this.compileArgList(node.args, frame);
      this._emit(`, ${str(describe(callee.target))}, ${STATE}))`);
      return;
    }
    this._emit("runtime.pyCall(");
    this.compile(callee, frame);
    this._emit(", ");
    this.compileArgList(node.args, frame);
    this._emit(`, ${str(describe(callee))}, context))`);
  }

  /**
   * A call's arguments as a JavaScript array: a literal when they are plain, else built at run time by
   * `runtime.pyCallArgs` from the positional values, the `*` iterable, the keywords and the `**` mapping.
   */
  private compileArgList(args: NjAny, frame: NjAny): void {
    const children = args.children as NjAny[];
    if (!hasSplat(args)) {
      this._compileAggregate(args, frame, "[", "]");
      return;
    }
    const star = children.find((c) => c.typename === "PyStarArgs");
    const starstar = children.find((c) => c.typename === "PyStarKwargs");
    const keywords = children.filter((c) => c instanceof njNodes.KeywordArgs);
    const positional = children.filter((c) => c !== star && c !== starstar && !keywords.includes(c));
    this._emit("runtime.pyCallArgs([");
    positional.forEach((c, i) => {
      if (i > 0) this._emit(", ");
      this.compile(c, frame);
    });
    this._emit("], ");
    this.compileSplat(star, frame);
    this._emit(", ");
    if (keywords.length === 0) this._emit("null");
    else {
      const all = new njNodes.KeywordArgs(args.lineno, args.colno);
      for (const k of keywords) for (const pair of k.children) all.addChild(pair);
      this.compileDict(all, frame);
    }
    this._emit(", ");
    this.compileSplat(starstar, frame);
    this._emit(`, ${str(starstar === undefined ? "" : describe(starstar.value))})`);
  }

  /** `[value]` of a splat (so that a splat of an undefined value differs from no splat), or `null`. */
  private compileSplat(splat: NjAny, frame: NjAny): void {
    if (splat === undefined) {
      this._emit("null");
      return;
    }
    this._emit("[");
    this.compile(splat.value, frame);
    this._emit("]");
  }

  compileFilter(node: NjAny, frame: NjAny): void {
    const name = node.name.value as string;
    if (!this.names.filters.has(name)) {
      if (node.pySoft === true) {
        this.compileMissing(`No filter named '${name}' found.`, node.args, frame);
        return;
      }
      this.fail(`No filter named '${name}'.`, node.lineno, node.colno);
    }
    if (this.pyFolding === true && CONTEXT_FILTERS.has(name)) {
      this._emit("runtime.pyNotConstant()");
      return;
    }
    const fallback = defaultFallback(node);
    if (fallback !== undefined) {
      // `x|default(y)` with both undefined is y's undefined value, and its use fails with y's message in Jinja.
      this._emit("runtime.pyDefaulted(");
      this.compileFilterCall(name, node, frame);
      this._emit(
        `, ${STATE}, ${str(describe(node))}, ${str(describe(fallback))}, ${fallback instanceof njNodes.Symbol})`,
      );
      return;
    }
    const hint = EMPTY_HINTS[name];
    if (hint !== undefined) {
      // An item of an empty sequence is undefined, with Jinja's hint when it is used.
      this._emit("runtime.pyHinted(");
      this.compileFilterCall(name, node, frame);
      this._emit(`, ${STATE}, ${str(describe(node))}, ${str(hint)})`);
      return;
    }
    this.compileFilterCall(name, node, frame);
  }

  private compileFilterCall(name: string, node: NjAny, frame: NjAny): void {
    if (FILTERS_REFUSING_UNDEFINED.has(name)) {
      this.compileChecked(`env.getFilter(${str(name)})`, node.args, frame, 1);
      return;
    }
    if (hasSplat(node.args)) {
      this._emit(`env.getFilter(${str(name)}).apply(context, `);
      this.compileArgList(node.args, frame);
    } else {
      this._emit(`env.getFilter(${str(name)}).call(context, `);
      this._compileAggregate(node.args, frame);
    }
    this._emit(")");
  }

  /**
   * An unknown filter or test where Jinja checks it only when it runs (see soft-frames.ts): its arguments are
   * computed, then it fails with Jinja's runtime `message`.
   */
  private compileMissing(message: string, args: NjAny, frame: NjAny): void {
    this._emit(`runtime.pyMissingName(${str(message)}, `);
    if (hasSplat(args)) this.compileArgList(args, frame);
    else this._compileAggregate(args, frame, "[", "]");
    this._emit(")");
  }

  /**
   * A call of filter or test `fn` through `runtime.pyChecked`, which gives an undefined value among the first `named`
   * arguments Jinja's message for it (named by its expression) when the call fails on it.
   */
  private compileChecked(fn: string, args: NjAny, frame: NjAny, named: number): void {
    this._emit(`runtime.pyChecked(${fn}, context, `);
    if (hasSplat(args)) this.compileArgList(args, frame);
    else this._compileAggregate(args, frame, "[", "]");
    const descs = (args.children as NjAny[]).slice(0, named).map((child) => describe(child));
    this._emit(`, ${str(JSON.stringify(descs))}, ${STATE})`);
  }

  compileIs(node: NjAny, frame: NjAny): void {
    const right = node.right;
    let name: string;
    if (right instanceof njNodes.FunCall) name = String(right.name.value);
    else name = right.value === null ? "none" : String(right.value);
    const args = new njNodes.NodeList(node.lineno, node.colno, [node.left]);
    if (right instanceof njNodes.FunCall && right.args) for (const a of right.args.children) args.addChild(a);
    if (!this.names.tests.has(name)) {
      if (node.pySoft === true) {
        this.compileMissing(`No test named '${name}' found.`, args, frame);
        return;
      }
      this.fail(`No test named '${name}'.`, node.lineno, node.colno);
    }
    if (TESTS_REFUSING_UNDEFINED.has(name)) {
      this._emit("(");
      this.compileChecked(`env.getTest(${str(name)})`, args, frame, args.children.length);
      this._emit(" === true)");
      return;
    }
    if (hasSplat(args)) {
      this._emit(`(env.getTest(${str(name)}).apply(context, `);
      this.compileArgList(args, frame);
    } else {
      this._emit(`(env.getTest(${str(name)}).call(context, `);
      this._compileAggregate(args, frame);
    }
    this._emit(") === true)");
  }

  compileSymbol(node: NjAny, frame: NjAny): void {
    const id = frame.lookup(node.value);
    if (id) this._emit(id);
    // Jinja's `self` (the template's blocks) unless the template binds the name itself.
    else if (node.value === "self") this._emit("runtime.pySelf(env, context, frame)");
    else this._emit(`runtime.pyLookup(context, frame, ${str(node.value)})`);
  }

  /** The compile-time id of `name` when it is bound in the current scope (stopping at loop/macro scopes). */
  private localId(frame: NjAny, name: string): string | undefined {
    let f = frame;
    while (f) {
      const v = f.variables[name];
      if (v !== undefined) return v;
      if (f.isolateWrites) return undefined;
      f = f.parent;
    }
    return undefined;
  }

  compileSet(node: NjAny, frame: NjAny): void {
    this.pos(node);
    const targets = node.targets as NjAny[];
    const valueId = this._tmpid();
    this._emit(`var ${valueId} = `);
    if (node.valueId !== undefined) this._emit(node.valueId);
    else if (node.value) this.compile(node.value, frame);
    else this.compile(node.body, frame);
    this._emitLine(";");
    const single = targets.length === 1 && node.pyTupleTarget !== true;
    if (!single) this._emitLine(`${valueId} = runtime.pyUnpack(${valueId}, ${targets.length});`);
    targets.forEach((target, i) => {
      const value = single ? valueId : `${valueId}[${i}]`;
      if (target.pyTargetTuple === true) {
        // `(a, b)` inside the target: unpacks its own part of the value.
        this.compileSet(
          {
            lineno: target.lineno,
            colno: target.colno,
            targets: target.children,
            pyTupleTarget: true,
            valueId: value,
          },
          frame,
        );
        return;
      }
      if (target.typename === "PyAttr" || target.typename === "LookupVal") {
        // `{% set ns.attr = value %}` (Jinja namespaces).
        this._emit("runtime.pySetAttr(");
        this.compile(target.target, frame);
        this._emit(", ");
        if (target.typename === "PyAttr") this._emit(str(String(target.val.value)));
        else this.compile(target.val, frame);
        this._emitLine(`, ${value});`);
        if (node.value && single) this.noteUndefinedSet(value, describe(target), node.value);
        return;
      }
      if (!(target instanceof njNodes.Symbol))
        this.fail("cannot assign to this expression", target.lineno, target.colno);
      const name = String(target.value);
      const id = this.localId(frame, name);
      if (id !== undefined) this._emitLine(`${id} = ${value};`);
      this._emitLine(`runtime.pySetVar(frame, ${str(name)}, ${value});`);
      const source = node.value
        ? single
          ? node.value
          : node.value.pyTuple
            ? node.value.children[i]
            : null
        : null;
      if (source) this.noteUndefinedSet(value, name, source);
      this._emitLine(`if (frame.topLevel) { context.setVariable(${str(name)}, ${value});`);
      if (name.charAt(0) !== "_") this._emitLine(`context.addExport(${str(name)}, ${value});`);
      this._emitLine("}");
    });
  }

  /**
   * After `set`, `with` or `set ns.attr` stored `value` (a JavaScript expression) under `name`: when it is undefined,
   * it keeps the message of the expression it was read from (`'dict object' has no attribute 'x'`), as in Jinja.
   */
  private noteUndefinedSet(value: string, name: string, source: NjAny): void {
    const from = `${str(describe(source))}, ${source instanceof njNodes.Symbol}`;
    this._emitLine(`if (${value} === undefined) runtime.pyUndefinedSet(${STATE}, ${str(name)}, ${from});`);
  }

  /** A loop variable bound to `item`; one bound to an undefined value never borrows another binding's message. */
  private bindLoopName(name: string, id: string, item: string): void {
    this._emitLine(`${id} = ${item}; frame.variables[${str(name)}] = ${id};`);
    this._emitLine(`if (${id} === undefined) runtime.pyUndefinedBound(${STATE}, ${str(name)});`);
  }

  /** Binds the loop's names (`ids` in the order of `loopNames`), unpacking the item, nested parts too. */
  private bindLoopNames(node: NjAny, item: string, ids: string[]): void {
    let next = 0;
    const bind = (target: NjAny, value: string): void => {
      if (target instanceof njNodes.Array) {
        const u = this._tmpid();
        this._emitLine(`var ${u} = runtime.pyUnpack(${value}, ${target.children.length});`);
        (target.children as NjAny[]).forEach((child, i) => {
          bind(child, `${u}[${i}]`);
        });
      } else {
        this.bindLoopName(String(target.value), ids[next++] as string, value);
      }
    };
    bind(node.name, item);
  }

  compilePyFor(node: NjAny, frame: NjAny): void {
    this.pos(node);
    this.refuseLoopAssignment(node);
    if (!node.recursive) {
      this.emitLoop(node, frame, () => this.compile(node.arr, frame), "0", "null");
      return;
    }
    // A recursive loop is a function of its iterable and depth that returns its output; `loop(items)` calls it
    // again one level deeper (Jinja renders `else` at every level, inside that function).
    const outer = this._tmpid();
    const fn = this._tmpid();
    const items = this._tmpid();
    const depth = this._tmpid();
    this._emitLine(`var ${outer} = frame;`);
    this._emitLine(`var ${fn} = function (${items}, ${depth}) {`);
    this._emitLine(`var frame = ${outer};`);
    const account = this._tmpid();
    this._emitLine(`var ${account} = ${ACCOUNT};`);
    this._emitLine(`${account}.enter();`);
    this._emitLine("try {");
    const buf = this._pushBuffer();
    this._emitLine("");
    this.emitLoop(node, frame, () => this._emit(items), depth, fn);
    this._emitLine(`return ${buf};`);
    this._popBuffer();
    this._emitLine(`} finally { ${account}.leave(); }`);
    this._emitLine("};");
    this._emit(`${this.buffer} += ${fn}(`);
    this.compile(node.arr, frame);
    this._emitLine(", 0);");
  }

  /**
   * Jinja refuses a template that assigns to `loop` anywhere inside a for loop: as the loop's target or a nested
   * loop's, or with `set` in its body, its `else` or a macro defined there (`with` and macro parameters may be named
   * `loop`). The first such name in the text is the one reported.
   */
  private refuseLoopAssignment(node: NjAny): void {
    const targets: NjAny[] = [];
    for (const loop of [node, ...(node.findAll(PyFor) as NjAny[])]) {
      targets.push(...loopNames(loop.name));
    }
    const names = (target: NjAny): NjAny[] =>
      target.pyTargetTuple === true ? target.children.flatMap(names) : [target];
    for (const set of node.findAll(njNodes.Set) as NjAny[]) targets.push(...set.targets.flatMap(names));
    let first: NjAny;
    for (const target of targets) {
      if (!(target instanceof njNodes.Symbol) || target.value !== "loop") continue;
      if (
        first === undefined ||
        target.lineno < first.lineno ||
        (target.lineno === first.lineno && target.colno < first.colno)
      )
        first = target;
    }
    if (first !== undefined)
      this.fail("Can't assign to special loop variable in for-loop target", first.lineno, first.colno);
  }

  /** The loop itself, writing to the current buffer; `depth` and `recurse` are what `loop` reports and calls. */
  private emitLoop(node: NjAny, frame: NjAny, iterable: () => void, depth: string, recurse: string): void {
    const arr = this._tmpid();
    const len = this._tmpid();
    const i = this._tmpid();
    const loop = this._tmpid();
    this._emit(`var ${arr} = runtime.pyIter(`);
    iterable();
    this._emitLine(`, ${str(describe(node.arr))});`);
    const outer = frame;
    frame = frame.push(true);
    // Each iteration gets a scope of its own, as in Jinja: what the body sets does not outlive the iteration
    // (`{% set x = x + i %}` starts from the outer `x` every time).
    const outerFrame = this._tmpid();
    this._emitLine(`var ${outerFrame} = frame;`);
    this._emitLine("frame = frame.push(true);");
    const names = loopNames(node.name);
    const ids = names.map(() => this._tmpid());
    this._emitLine(`var ${ids.join(", ")};`);
    names.forEach((n, k) => {
      frame.set(n.value, ids[k]);
    });
    if (node.filter) {
      const kept = this._tmpid();
      const j = this._tmpid();
      this._emitLine(`var ${kept} = [];`);
      this._emitLine(`for (var ${j} = 0; ${j} < ${arr}.length; ${j}++) {`);
      this.bindLoopNames(node, `${arr}[${j}]`, ids);
      this._emit("if (runtime.pyBool(");
      this.compile(node.filter, frame);
      this._emitLine(`)) ${kept}.push(${arr}[${j}]);`);
      this._emitLine("}");
      this._emitLine(`${arr} = ${kept};`);
    }
    this._emitLine(`var ${len} = ${arr}.length;`);
    this._emitLine(`${ACCOUNT}.step(${len});`);
    this._emitLine(`var ${loop} = new runtime.PyLoop(${arr}, ${depth}, ${recurse});`);
    this._emitLine(`for (var ${i} = 0; ${i} < ${len}; ${i}++) {`);
    this._emitLine(`frame = ${outerFrame}.push(true);`);
    // Jinja binds `loop` only for a loop that is recursive or whose body names it; otherwise a template the body
    // includes (or imports with context) does not see it.
    if (node.recursive || namesLoop(node.body)) this._emitLine(`frame.variables.loop = ${loop};`);
    this._emitLine(`${loop}.index0 = ${i};`);
    this.bindLoopNames(node, `${arr}[${i}]`, ids);
    this._withScopedSyntax(() => this.compile(node.body, frame));
    this._emitLine("}");
    this._emitLine(`frame = ${outerFrame};`);
    if (node.else_) {
      this._emitLine(`if (${len} === 0) {`);
      this._withScopedSyntax(() => this.compile(node.else_, outer));
      this._emitLine("}");
    }
  }

  /**
   * `{% macro %}`: as nunjucks compiles it, except that a macro defined inside a loop, a macro or a block sees the
   * variables around it (a Jinja macro is a closure: `{% for x in xs %}{% macro m() %}{{ x }}{% endmacro %}`).
   */
  compileMacro(node: NjAny, frame: NjAny): void {
    const nested = frame.parent !== undefined || frame.pyMacroBody === true;
    const funcId = this._compileMacro(node, nested ? frame : undefined);
    const name = node.name.value;
    frame.set(name, funcId);
    if (frame.parent) {
      this._emitLine(`frame.set(${str(name)}, ${funcId});`);
    } else {
      if (name.charAt(0) !== "_") this._emitLine(`context.addExport(${str(name)});`);
      this._emitLine(`context.setVariable(${str(name)}, ${funcId});`);
    }
  }

  _compileMacro(node: NjAny, frame: NjAny): string {
    const keepFrame = frame !== undefined;
    const funcId = `macro_${this._tmpid()}`;
    const params: { name: string; def: NjAny }[] = [];
    for (const arg of node.args.children as NjAny[]) {
      if (arg instanceof njNodes.Dict) {
        for (const pair of arg.children as NjAny[])
          params.push({ name: String(pair.key.value), def: pair.value });
      } else {
        if (!(arg instanceof njNodes.Symbol))
          this.fail("macro parameters must be names", arg.lineno, arg.colno);
        params.push({ name: String(arg.value), def: null });
      }
    }
    const used = new Set<string>();
    for (const s of node.body.findAll(njNodes.Symbol) as NjAny[]) used.add(String(s.value));
    const macroName = node.name ? String(node.name.value) : "caller";
    const a = this._tmpid();
    const callerFrame = this._tmpid();
    const flags = `${used.has("varargs")}, ${used.has("kwargs")}, ${used.has("caller")}`;
    this._emitLine(
      `var ${funcId} = runtime.pyMacro(${str(macroName)}, ${JSON.stringify(params.map((p) => p.name))}, ${flags}, ${node instanceof njNodes.Caller}, function (${a}) {`,
    );
    this._emitLine(`var ${callerFrame} = frame;`);
    const account = this._tmpid();
    this._emitLine(`var ${account} = ${ACCOUNT};`);
    this._emitLine(`${account}.enter();`);
    this._emitLine(`frame = ${keepFrame ? "frame.push(true)" : "new runtime.Frame(undefined, true)"};`);
    this._emitLine("try {");
    const compileFrame = keepFrame ? frame.push(true) : new njRuntime.Frame(undefined, true);
    compileFrame.pyMacroBody = true;
    params.forEach((p, k) => {
      this._emit(
        `frame.variables[${str(p.name)}] = (${a}.args[${k}] !== runtime.MISSING ? ${a}.args[${k}] : `,
      );
      if (p.def) this.compile(p.def, compileFrame);
      else
        this._emit(
          `runtime.pyUndefinedBound(${STATE}, ${str(p.name)}, ${str(`parameter '${p.name}' was not provided`)})`,
        );
      this._emitLine(");");
      this._emitLine(
        `if (frame.variables[${str(p.name)}] === undefined && ${a}.args[${k}] !== runtime.MISSING) runtime.pyUndefinedBound(${STATE}, ${str(p.name)});`,
      );
    });
    this._emitLine(`frame.variables.varargs = ${a}.varargs; frame.variables.kwargs = ${a}.kwargs;`);
    // Without a call block, a macro that uses `caller` finds it undefined, with Jinja's hint.
    const noCaller = used.has("caller")
      ? ` else runtime.pyUndefinedBound(${STATE}, "caller", "No caller defined");`
      : "";
    this._emitLine(`if (${a}.caller !== undefined) frame.variables.caller = ${a}.caller;${noCaller}`);
    const buf = this._pushBuffer();
    this._withScopedSyntax(() => this.compile(node.body, compileFrame));
    this._emitLine(`frame = ${callerFrame};`);
    // With autoescape off (Salt's setting) a Jinja macro returns a plain str, not Markup.
    this._emitLine(`${account}.leave();`);
    this._emitLine(`return ${buf};`);
    this._emitLine(
      `} catch (e) { frame = ${callerFrame}; ${account}.leave(); throw runtime.pyTagError(e, lineno, colno, ${this._templateName()}); }`,
    );
    this._emitLine("});");
    this._popBuffer();
    return funcId;
  }

  compileImport(node: NjAny, frame: NjAny): void {
    this.pos(node);
    super.compileImport(node, frame);
  }

  compileFromImport(node: NjAny, frame: NjAny): void {
    this.pos(node);
    const start = this.codebuf.length;
    super.compileFromImport(node, frame);
    // A name the template does not export is, as in Jinja, an undefined value whose use says so (nunjucks fails
    // at the import): `the template 'm.jinja' (imported on line 1) does not export the requested name 'x'`.
    const source = describe(node.template);
    for (let i = start; i < this.codebuf.length; i++) {
      const line = this.codebuf[i] as string;
      const missing = /^cb\(new Error\("cannot import '(.*)'"\)\); return;(\n?)$/.exec(line);
      if (missing === null) continue;
      const name = missing[1] as string;
      // As nunjucks reads the names: `x` or `x as y` (a Pair).
      const entry = (node.names.children as NjAny[]).find(
        (n) => (n instanceof njNodes.Pair ? n.key.value : n.value) === name,
      );
      const alias = entry instanceof njNodes.Pair ? String(entry.value.value) : name;
      const hint = `the template ${source} (imported on line ${node.lineno + 1}) does not export the requested name '${name}'`;
      // The `var` of the previous line names the value nunjucks sets next.
      const id = /^var (\w+) = /.exec(this.codebuf[i - 2] as string)?.[1];
      this.codebuf[i] =
        `var ${id} = runtime.pyUndefinedBound(${STATE}, ${str(alias)}, ${str(hint)});${missing[2]}`;
    }
  }

  compileInclude(node: NjAny, frame: NjAny): void {
    this.pos(node);
    if (node.pyWithoutContext !== true) {
      super.compileInclude(node, frame);
      return;
    }
    // `without context`: the included template sees the globals only, as an import without context does.
    const start = this.codebuf.length;
    super.compileInclude(node, frame);
    for (let i = start; i < this.codebuf.length; i++) {
      const line = this.codebuf[i] as string;
      if (line.startsWith("template.render(context.getVariables(), frame, "))
        // A frame of its own (no caller's variables) keeps the render synchronous, as nunjucks is when given one.
        this.codebuf[i] = line.replace(
          "template.render(context.getVariables(), frame, ",
          "template.render({}, new runtime.Frame(), ",
        );
    }
  }

  compilePyWith(node: NjAny, frame: NjAny): void {
    this.pos(node);
    const values = (node.values as NjAny[]).map((v) => {
      const id = this._tmpid();
      this._emit(`var ${id} = `);
      this.compile(v, frame);
      this._emitLine(";");
      return id;
    });
    const inner = frame.push(true);
    this._emitLine("frame = frame.push(true);");
    const bind = (target: NjAny, value: string, source: NjAny): void => {
      if (target.pyTargetTuple === true) {
        const parts = this._tmpid();
        this._emitLine(`var ${parts} = runtime.pyUnpack(${value}, ${target.children.length});`);
        (target.children as NjAny[]).forEach((child, i) => {
          bind(child, `${parts}[${i}]`, null);
        });
        return;
      }
      if (!(target instanceof njNodes.Symbol))
        this.fail("cannot assign to this expression", target.lineno, target.colno);
      this._emitLine(`frame.variables[${str(String(target.value))}] = ${value};`);
      if (source !== null) this.noteUndefinedSet(value, String(target.value), source);
    };
    (node.targets as NjAny[]).forEach((t, i) => {
      bind(t, values[i] as string, node.values[i]);
    });
    this._withScopedSyntax(() => this.compile(node.body, inner));
    this._emitLine("frame = frame.pop();");
  }

  compilePyImportData(node: NjAny, frame: NjAny): void {
    this._emit(
      `(lineno = ${node.lineno}, colno = ${node.colno}, runtime.pyImportData(env, context, frame, ${str(node.kind)}, `,
    );
    this.compile(node.template, frame);
    this._emit(`, ${node.withContext ? "true" : "false"}))`);
  }

  compilePyLoadData(node: NjAny, frame: NjAny): void {
    this._emit(
      `(lineno = ${node.lineno}, colno = ${node.colno}, runtime.pyLoadData(env, ${str(node.kind)}, `,
    );
    this.compile(node.body, frame);
    this._emit("))");
  }
}

/** Compiles template text to the JavaScript source of a nunjucks template module (`{root, b_*}`). */
/**
 * The JavaScript of a template. With `evaluate` (which computes a literal expression as the template would), the
 * expressions Jinja's constant folding turns into a non-finite float fail as under Jinja (see const-fold.ts).
 */
export function compileTemplate(
  src: string,
  name: string,
  names: CompileNames,
  evaluate?: ConstEvaluator,
): string {
  const compiler = new PyCompiler(name, names);
  const root = parseTemplate(withoutOpenCommentAtEnd(src), [], {
    saltTags: names.saltTags !== false,
    trimBlocks: names.trimBlocks === true,
  });
  markSoftNames(root);
  if (evaluate !== undefined) markFolds(root, evaluate);
  compiler.compile(root, undefined);
  return compiler.getCode();
}

/**
 * Jinja's lexer stops at the end of the text without an error, so a comment opened by its very last characters
 * (`abc {#`, also `{#-` and `{#+`) is no comment and no error: the text before it is the template, with the white
 * space before `{#-` taken off. nunjucks would refuse it. Where the `{#` is not a comment's start (inside a string,
 * an open comment or a raw block), the template fails without it too, and the syntax check reads the text as written.
 */
function withoutOpenCommentAtEnd(src: string): string {
  const open = /\{#([-+]?)$/.exec(src);
  if (open === null) return src;
  const before = src.slice(0, open.index);
  return open[1] === "-" ? before.trimEnd() : before;
}

/**
 * The body of a function `(env, context, frame, runtime)` returning the value of one expression node, compiled for
 * constant folding: a call, or a filter given the render context, fails with `runtime.pyNotConstant()`.
 */
export function compileConstExpression(node: NjAny, names: CompileNames): string {
  const compiler = new PyCompiler("<constant>", names);
  compiler.pyFolding = true;
  compiler.compile(node, new njRuntime.Frame());
  const code = (compiler.codebuf as string[]).join("");
  const temps = compiler.temps.length > 0 ? `var ${compiler.temps.join(", ")};\n` : "";
  return `var lineno = 0, colno = 0;\n${temps}return (${code});`;
}

/**
 * Whether a loop body reads the name `loop` (Jinja's `find_undeclared(body, ('loop',))`): anywhere in it, nested
 * loops and macros included, but not as the name of a keyword argument.
 */
function namesLoop(body: NjAny): boolean {
  if (!body) return false;
  const keywordNames = new Set<NjAny>();
  for (const kw of body.findAll(njNodes.KeywordArgs) as NjAny[]) {
    for (const pair of kw.children as NjAny[]) keywordNames.add(pair.key);
  }
  return (body.findAll(njNodes.Symbol) as NjAny[]).some(
    (sym) => sym.value === "loop" && !keywordNames.has(sym),
  );
}
