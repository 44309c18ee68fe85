import { expect, type Locator, type Page } from "@playwright/test";

/** Opens the playground (served by global-setup), optionally with a state fragment. */
export async function open(page: Page, hash = ""): Promise<void> {
  const url = process.env.PLAYGROUND_URL;
  if (url === undefined) throw new Error("PLAYGROUND_URL is not set: the global setup did not run");
  await page.goto(url + hash);
  await expect(page.getByRole("heading", { name: "@merge playground" })).toBeVisible();
}

/** The result listbox of a mode. */
export function result(page: Page, name: string): Locator {
  return page.getByRole("listbox", { name });
}

export const CLOUD_RESULT = "Merged cloud-config, as cloud-init writes it";
export const LAB_RESULT = "Merged document";
export const STACK_RESULT = "Merged pillar";

/** The editor frame around the textarea with `id` (it carries the highlighted line). */
export function editorOf(page: Page, id: string): Locator {
  return page.locator(".editor", { has: page.locator(`#${id}`) });
}

/** A billion-laughs document: nine aliases deep, 9^9 strings once expanded. */
export function yamlBomb(prefix = ""): string {
  const names = "abcdefghi";
  const lines = [`${prefix}a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]`];
  for (let i = 1; i < names.length; i++) {
    const previous = `*${names[i - 1]}`;
    lines.push(`${names[i]}: &${names[i]} [${Array(9).fill(previous).join(",")}]`);
  }
  return `${lines.join("\n")}\n`;
}
