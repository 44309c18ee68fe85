import { expect, test } from "@playwright/test";
import { CLOUD_RESULT, editorOf, open, result, STACK_RESULT } from "./helpers.js";

test.describe("keyboard and screen readers", () => {
  test("the whole explain flow works with the keyboard alone", async ({ page }) => {
    await open(page);
    const merged = result(page, CLOUD_RESULT);
    await expect(merged.getByRole("option")).toHaveCount(3);
    // Tab until the result has the focus: everything before it is reachable in reading order.
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press("Tab");
      if (await merged.evaluate((el) => el === document.activeElement)) break;
    }
    await expect(merged).toBeFocused();
    await expect(merged.getByRole("option", { selected: true })).toHaveText("run_cmd:");
    await page.keyboard.press("ArrowDown");
    await expect(merged.getByRole("option", { selected: true })).toHaveText("- bash3");
    await expect(page.getByTestId("origin")).toHaveText("part-002, line 3");
    await expect(editorOf(page, "part-2-text")).toHaveAttribute("data-highlight-line", "3");

    // The mode tabs follow the tab pattern: arrow keys move between them.
    await page.getByRole("tab", { name: "cloud-config parts" }).focus();
    await page.keyboard.press("ArrowRight");
    await expect(page.getByRole("tab", { name: "Spec lab" })).toBeFocused();
    await expect(page.getByRole("tab", { name: "Spec lab" })).toHaveAttribute("aria-selected", "true");
    await page.keyboard.press("ArrowRight");
    await expect(page.getByRole("tab", { name: "PillarStack" })).toHaveAttribute("aria-selected", "true");
    await expect(result(page, STACK_RESULT)).toBeVisible();
  });

  test("every field has a label, and the stack's file tabs move with the arrow keys", async ({ page }) => {
    await open(page);
    for (const view of ["cloud-config parts", "Spec lab", "PillarStack"]) {
      await page.getByRole("tab", { name: view }).click();
      await expect(page.locator("main textarea, main input, main select").first()).toBeVisible();
      const unlabelled = await page
        .locator("main textarea, main input:not([type=radio]), main select")
        .evaluateAll((fields) =>
          fields.filter((f) => (f as HTMLInputElement).labels?.length === 0).map((f) => f.id || f.outerHTML),
        );
      expect(unlabelled).toEqual([]);
    }
    await page.getByRole("tab", { name: "config.cfg" }).focus();
    await page.keyboard.press("ArrowRight");
    await expect(page.getByRole("tab", { name: "common/xxx.yml" })).toBeFocused();
    await expect(page.getByLabel("Contents of common/xxx.yml")).toBeVisible();
  });

  test("is readable at 360 px: nothing wider than the screen", async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 800 });
    await open(page);
    for (const view of ["cloud-config parts", "Spec lab", "PillarStack"]) {
      await page.getByRole("tab", { name: view }).click();
      await expect(page.getByRole("listbox")).toBeVisible();
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(360);
    }
  });
});
