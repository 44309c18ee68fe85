// Jinja's `lipsum()` global: paragraphs of random pseudo-Latin, made as Jinja's generate_lorem_ipsum makes them
// (its output is random in Jinja too, so only its shape can agree).
import { accountOf, RenderAccount } from "./budget.js";
import { intValue } from "./numbers.js";
import { TemplateProblem, typeError } from "./errors.js";
import { bindCall } from "./kwargs.js";
import { htmlEscape, markSafe, pyBool, pyTypeName } from "./pyvalues.js";

// Words of the classic lorem ipsum passage and its usual continuations.
const WORDS = (
  "a ac accumsan ad adipiscing aenean aliquam aliquet amet ante aptent arcu at auctor augue bibendum blandit " +
  "class commodo condimentum congue consectetuer consequat conubia convallis cras cubilia cum curabitur curae " +
  "cursus dapibus diam dictum dictumst dignissim dis dolor donec dui duis egestas eget eleifend elementum elit " +
  "enim erat eros est et etiam eu euismod facilisi facilisis fames faucibus felis fermentum feugiat fringilla " +
  "fusce gravida habitant habitasse hac hendrerit hymenaeos iaculis id imperdiet in inceptos integer interdum " +
  "ipsum justo lacinia lacus laoreet lectus leo libero ligula litora lobortis lorem luctus maecenas magna magnis " +
  "malesuada massa mattis mauris metus mi molestie mollis montes morbi mus nam nascetur natoque nec neque " +
  "netus nibh nisi nisl non nonummy nostra nulla nullam nunc odio orci ornare parturient pede pellentesque " +
  "penatibus per pharetra phasellus placerat platea porta porttitor posuere potenti praesent pretium primis " +
  "proin pulvinar purus quam quis quisque rhoncus ridiculus risus rutrum sagittis sapien scelerisque sed sem " +
  "semper senectus sit sociis sociosqu sodales sollicitudin suscipit suspendisse taciti tellus tempor tempus " +
  "tincidunt torquent tortor tristique turpis ullamcorper ultrices ultricies urna ut varius vehicula vel velit " +
  "venenatis vestibulum vitae vivamus viverra volutpat vulputate"
).split(" ");

/** Python's `random.randrange(start, stop)` (3.11): ints only, a non-empty range. */
function randrange(start: number, stop: number): number {
  if (stop <= start)
    throw new TemplateProblem(`ValueError: empty range for randrange() (${start}, ${stop}, ${stop - start})`);
  return start + Math.floor(Math.random() * (stop - start));
}

/** An int argument as `range()` and `randrange()` take it (a whole float passes randrange, as in Python 3.11). */
function intArg(value: unknown, which: number | undefined): number {
  const n = intValue(value);
  if (n !== undefined && typeof value !== "boolean") return Number(n);
  if (typeof value === "boolean") return Number(value);
  if (which !== undefined && typeof value === "number" && Number.isInteger(value)) return value;
  if (which !== undefined && typeof value === "number")
    throw new TemplateProblem(`ValueError: non-integer arg ${which} for randrange()`);
  throw typeError(`'${pyTypeName(value)}' object cannot be interpreted as an integer`);
}

/** One paragraph of `randrange(min, max)` words: capitalized sentences, commas every few words, a final period. */
function paragraph(min: number, max: number): string {
  const words: string[] = [];
  let capitalize = true;
  let lastComma = 0;
  let lastStop = 0;
  let last: string | undefined;
  const count = randrange(min, max);
  for (let idx = 0; idx < count; idx++) {
    let word: string;
    do word = WORDS[Math.floor(Math.random() * WORDS.length)] as string;
    while (word === last);
    last = word;
    if (capitalize) {
      word = word.charAt(0).toUpperCase() + word.slice(1);
      capitalize = false;
    }
    if (idx - randrange(3, 8) > lastComma) {
      lastComma = idx;
      lastStop += 2;
      word += ",";
    }
    if (idx - randrange(10, 20) > lastStop) {
      lastComma = idx;
      lastStop = idx;
      word += ".";
      capitalize = true;
    }
    words.push(word);
  }
  const text = words.join(" ");
  if (text.endsWith(",")) return `${text.slice(0, -1)}.`;
  return text.endsWith(".") ? text : `${text}.`;
}

/** `lipsum(n=5, html=True, min=20, max=100)`: `n` paragraphs, as `<p>` elements (markup-safe) or blank-line separated. */
export function lipsum(this: unknown, ...args: unknown[]): unknown {
  const given = bindCall(args, "generate_lorem_ipsum", ["n", "html", "min", "max"], 0);
  const n = given.has("n") ? intArg(given.get("n"), undefined) : 5;
  const min = given.has("min") ? intArg(given.get("min"), 1) : 20;
  const max = given.has("max") ? intArg(given.get("max"), 2) : 100;
  // At most `max` words a paragraph, each charged to the render's budget before any is made.
  (accountOf(this) ?? new RenderAccount()).build(Math.max(n, 0) * Math.max(max, 0), "lipsum()");
  const paragraphs: string[] = [];
  for (let i = 0; i < n; i++) paragraphs.push(paragraph(min, max));
  if (given.has("html") && !pyBool(given.get("html"))) return paragraphs.join("\n\n");
  return markSafe(paragraphs.map((p) => `<p>${htmlEscape(p)}</p>`).join("\n"));
}
