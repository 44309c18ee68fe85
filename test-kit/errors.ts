// Runs a function that must fail and returns its MergeError; anything else thrown is rethrown, and no failure at
// all fails the test. The tests of every package use it to assert codes, paths and positions.
import { isMergeError, type MergeError } from "../packages/core/src/errors.js";

export function catchMergeError(run: () => unknown): MergeError {
  try {
    run();
  } catch (error) {
    if (isMergeError(error)) return error;
    throw error;
  }
  throw new Error("expected a MergeError");
}
