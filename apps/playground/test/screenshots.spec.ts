// Pictures of each mode for the README, taken with the same browser as the tests. They are written only when
// PLAYGROUND_SCREENSHOTS is set (`PLAYGROUND_SCREENSHOTS=1 pnpm --filter playground test screenshots`).
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import { CLOUD_RESULT, LAB_RESULT, open, result, STACK_RESULT } from "./helpers.js";

const out = (name: string) => fileURLToPath(new URL(`../docs/${name}.png`, import.meta.url));

test.describe("screenshots", () => {
  test.skip(process.env.PLAYGROUND_SCREENSHOTS === undefined, "set PLAYGROUND_SCREENSHOTS to write them");
  test.use({ viewport: { width: 1280, height: 860 } });

  test("cloud-config parts, a replaced run_cmd explained", async ({ page }) => {
    await open(page);
    await result(page, CLOUD_RESULT).getByRole("option", { name: "run_cmd:" }).click();
    await expect(page.getByTestId("beaten")).toContainText("bash1");
    await page.screenshot({ path: out("cloud-config"), fullPage: false });
  });

  test("spec lab", async ({ page }) => {
    await open(page);
    await page.getByRole("tab", { name: "Spec lab" }).click();
    await result(page, LAB_RESULT).getByRole("option", { name: "- curl" }).click();
    await expect(page.getByTestId("origin")).toContainText("document 2");
    await page.screenshot({ path: out("spec-lab"), fullPage: false });
  });

  test("PillarStack", async ({ page }) => {
    await open(page);
    await page.getByRole("tab", { name: "PillarStack" }).click();
    await result(page, STACK_RESULT).getByRole("option", { name: "port: 2200" }).click();
    await expect(page.getByTestId("origin")).toContainText("line");
    await page.screenshot({ path: out("pillarstack"), fullPage: false });
  });

  test("narrow screen", async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 760 });
    await open(page);
    await page.getByRole("heading", { name: "@merge playground" }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: out("narrow"), fullPage: false });
  });
});
