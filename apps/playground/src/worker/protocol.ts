// The messages between the page and the merge worker. Everything here is plain data (structured-clone safe).

export type CloudMode = "current" | "stack";

export interface PartInput {
  readonly name: string;
  /** The part's `Merge-Type` header value; empty for none. */
  readonly header: string;
  readonly text: string;
}

export interface CloudInput {
  readonly mode: CloudMode;
  readonly source: "parts" | "mime";
  readonly parts: readonly PartInput[];
  /** A whole user-data blob (MIME multipart or plain), used when `source` is `mime`. */
  readonly mime: string;
}

export interface LabInput {
  readonly spec: string;
  readonly docs: readonly string[];
}

export interface StackFile {
  readonly name: string;
  readonly text: string;
}

export interface StackInput {
  readonly files: readonly StackFile[];
  readonly config: string;
  readonly minionId: string;
  readonly grains: string;
  readonly pillar: string;
}

export type Job =
  | { readonly mode: "cloud"; readonly input: CloudInput }
  | { readonly mode: "lab"; readonly input: LabInput }
  | { readonly mode: "stack"; readonly input: StackInput };

export type Request = Job & { readonly id: number };

/** A coded error, placed in an input when it can be. */
export interface ErrorView {
  readonly code: string;
  readonly message: string;
  /** The input it belongs to: part, document or file index (as the mode numbers them). */
  readonly input?: number;
  readonly file?: string;
  readonly line?: number;
  readonly column?: number;
  /** Offset in the spec string, for spec errors. */
  readonly offset?: number;
  readonly path?: string;
  /** The whole line as the CLI prints it. */
  readonly text: string;
}

/** Where a value was written. */
export interface Place {
  readonly input: number;
  readonly name: string;
  readonly line: number | undefined;
}

export interface DecisionView {
  readonly action: string;
  readonly merger: string;
  readonly at: Place | undefined;
  readonly detail: string | undefined;
}

/** A value another input had at the same path, which is not what the result holds. */
export interface BeatenView extends Place {
  readonly value: string;
}

export interface EntryView {
  readonly path: string;
  readonly kind: "dict" | "list" | "value";
  readonly value: string | undefined;
  readonly origin: Place | undefined;
  readonly contributors: readonly Place[];
  readonly decision: DecisionView | undefined;
  readonly history: readonly DecisionView[];
  readonly beaten: readonly BeatenView[];
}

export interface ResultView {
  /** The result as text (what cloud-init writes, or the merged YAML). */
  readonly text: string;
  /** For each line of `text`, the index of the entry it shows, or -1. */
  readonly lines: readonly number[];
  readonly entries: readonly EntryView[];
  readonly inputs: readonly { readonly name: string; readonly note?: string }[];
  readonly removed: readonly { readonly path: string; readonly decision: DecisionView }[];
}

export interface PartOutcomeView {
  readonly name: string;
  readonly type: string;
  readonly status: "merged" | "rejected";
  readonly mergers?: string;
  readonly error?: ErrorView;
}

export interface CloudOutput {
  readonly mode: "cloud";
  readonly result: ResultView | undefined;
  readonly parts: readonly PartOutcomeView[];
  /** The parts taken out of pasted user-data (their text, to show and highlight). */
  readonly extracted: readonly { readonly name: string; readonly header: string; readonly text: string }[];
  readonly skipped: readonly { readonly name: string; readonly type: string; readonly reason: string }[];
  readonly error: ErrorView | undefined;
}

export interface LabOutput {
  readonly mode: "lab";
  readonly result: ResultView | undefined;
  readonly specError: ErrorView | undefined;
  readonly errors: readonly ErrorView[];
}

export interface StackOutput {
  readonly mode: "stack";
  readonly result: ResultView | undefined;
  readonly files: readonly string[];
  readonly warnings: readonly {
    readonly code: string;
    readonly message: string;
    readonly file?: string;
    readonly line?: number;
  }[];
  readonly errors: readonly ErrorView[];
}

export type Output = CloudOutput | LabOutput | StackOutput;

export type Response =
  | { readonly id: number; readonly ok: true; readonly output: Output }
  | { readonly id: number; readonly ok: false; readonly error: ErrorView };
