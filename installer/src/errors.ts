/** Exit codes of the CLI: 0 ok, 1 the question found a problem (unknown file, stale or missing intel), 2 usage or internal error. */
export const EXIT_OK = 0;
export const EXIT_PROBLEM = 1;
export const EXIT_USAGE = 2;

/** A mistake in how the command was called: printed with a pointer to --help, exit 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** The command ran but the answer is a problem the user must act on: exit 1. */
export class ProblemError extends Error {
  override name = 'ProblemError';
  constructor(message: string, readonly hint?: string) {
    super(message);
  }
}
