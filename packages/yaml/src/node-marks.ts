import { isAlias, isMap, isSeq } from "./nodes.js";

/**
 * The number of `target` among the nodes of a document in PyYAML's composing order (a node before its contents, a
 * key before its value), and how many nodes there are: the same count PyYAML's events give, so that the node a
 * construction error names can be found among them (see `nodeStarts` in mark-parser.ts). A missing key or value
 * counts as the empty scalar PyYAML makes for it; a pair written as a flow sequence's item (`[a: 1]`) as the
 * single-pair mapping PyYAML reads it as. An alias is one node (its anchor's node is counted where it is written).
 */
export function nodeNumber(
  root: unknown,
  target: object,
  emptyValue = false,
): { number: number | undefined; count: number } {
  let count = 0;
  let number: number | undefined;
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    // `emptyValue`: the target is the pair whose missing value is meant.
    const found = emptyValue ? isEmptyOf(node) && node.emptyValueOf === target : node === target;
    if (found && number === undefined) number = count;
    count++;
    if (isAlias(node)) continue;
    if (isMap(node)) pushPairs(stack, node.items);
    else if (isSeq(node)) {
      for (let i = node.items.length - 1; i >= 0; i--) {
        const item = node.items[i];
        stack.push(isPairItem(item) ? { pairOnly: item } : item);
      }
    } else if (isPairMarker(node)) pushPairs(stack, [node.pairOnly]);
  }
  return { number, count };
}

interface PairLike {
  readonly key: unknown;
  readonly value: unknown;
}

function pushPairs(stack: unknown[], pairs: readonly unknown[]): void {
  for (let i = pairs.length - 1; i >= 0; i--) {
    const pair = pairs[i] as PairLike;
    stack.push(
      pair.value === null || pair.value === undefined ? { emptyValueOf: pair } : pair.value,
      pair.key,
    );
  }
}

function isPairItem(item: unknown): item is PairLike {
  return typeof item === "object" && item !== null && !isMap(item) && !isSeq(item) && "key" in item;
}

function isPairMarker(node: unknown): node is { readonly pairOnly: PairLike } {
  return typeof node === "object" && node !== null && "pairOnly" in node;
}

function isEmptyOf(node: unknown): node is { readonly emptyValueOf: PairLike } {
  return typeof node === "object" && node !== null && "emptyValueOf" in node;
}
