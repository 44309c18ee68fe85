/**
 * Loads a workspace package that may not exist yet (its placeholder entry exports nothing, or it is not built).
 * Parts of the suite whose package is missing are reported as unavailable instead of failing the whole run.
 */
export type Loaded<T> =
  | { readonly ok: true; readonly module: T }
  | { readonly ok: false; readonly reason: string };

export async function loadOptional<T>(specifier: string, needs: readonly string[]): Promise<Loaded<T>> {
  let module: Record<string, unknown>;
  try {
    module = (await import(specifier)) as Record<string, unknown>;
  } catch (error) {
    return { ok: false, reason: `${specifier} could not be loaded (${firstLine(error)})` };
  }
  const missing = needs.filter((name) => module[name] === undefined);
  if (missing.length > 0) {
    return { ok: false, reason: `${specifier} does not export ${missing.join(", ")} yet` };
  }
  return { ok: true, module: module as T };
}

export function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split("\n")[0]!.slice(0, 200);
}
