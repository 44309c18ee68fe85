/**
 * A mistake in the command line (unknown option, missing argument). Kept apart from `MergeError` so that parsing
 * arguments and printing help load nothing from the merge packages; it maps to exit status 2.
 */
export class UsageError extends Error {
  readonly code = "USAGE";
  constructor(
    message: string,
    /** The command whose `--help` the user should read. */
    readonly command?: string,
  ) {
    super(message);
    this.name = "UsageError";
  }
}

export function isUsageError(value: unknown): value is UsageError {
  return value instanceof UsageError;
}
