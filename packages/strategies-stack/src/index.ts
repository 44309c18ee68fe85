export {
  createStackAccumulator,
  type StackAccumulator,
  type StackAccumulatorOptions,
  type StackDocumentOptions,
  stackMergeAll,
} from "./accumulator.js";
export { pyEquals } from "./equality.js";
export { type StackMergeOptions, stackMerge } from "./merge.js";
export { type StackOption, stackMerger, strategyFromOptions } from "./plugin.js";
export { isStackStrategy, STACK_STRATEGIES, type StackStrategy } from "./strategy.js";
