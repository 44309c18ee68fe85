import { expect, test } from "@playwright/test";
import { CLOUD_RESULT, LAB_RESULT, open, result, yamlBomb } from "./helpers.js";

test.describe("a shared URL", () => {
  test("holds the whole state in its fragment and restores it in a new tab", async ({ page, context }) => {
    await open(page);
    await page.getByRole("radio", { name: /^stack:/ }).check();
    await page.getByLabel("Part 2 text").fill("#cloud-config\nrun_cmd:\n  - bash3\n  - shared\n");
    await page.getByRole("tab", { name: "Spec lab" }).click();
    await page.getByLabel(/^Merger spec/).fill("dict(replace)+list()+str()");
    await expect(result(page, LAB_RESULT)).toContainText("port: 9090");
    await page.getByRole("tab", { name: "cloud-config parts" }).click();
    await expect(result(page, CLOUD_RESULT).getByRole("option")).toHaveText([
      "run_cmd:",
      "- bash1",
      "- bash2",
      "- bash3",
      "- shared",
    ]);
    await page.getByRole("button", { name: "Copy a link to this state" }).click();
    await expect(page.getByRole("status").filter({ hasText: /holds the whole state/ })).toBeVisible();
    const shared = page.url();
    expect(new URL(shared).hash).toMatch(/^#v1=[A-Za-z0-9_-]+$/);

    const other = await context.newPage();
    await other.goto(shared);
    await expect(other.getByRole("radio", { name: /^stack:/ })).toBeChecked();
    await expect(other.getByLabel("Part 2 text")).toHaveValue(/- shared/);
    await expect(result(other, CLOUD_RESULT).getByRole("option")).toHaveText([
      "run_cmd:",
      "- bash1",
      "- bash2",
      "- bash3",
      "- shared",
    ]);
    await other.getByRole("tab", { name: "Spec lab" }).click();
    await expect(other.getByLabel(/^Merger spec/)).toHaveValue("dict(replace)+list()+str()");
  });

  test("a damaged fragment opens the examples", async ({ page }) => {
    await open(page, "#v1=not-a-state");
    await expect(result(page, CLOUD_RESULT).getByRole("option")).toHaveText([
      "run_cmd:",
      "- bash3",
      "- bash4",
    ]);
  });
});

test.describe("hostile input", () => {
  test("a YAML alias bomb in a part stops with a coded error, and the tab keeps working", async ({
    page,
  }) => {
    await open(page);
    await page.getByLabel("Part 2 text").fill(`#cloud-config\n${yamlBomb()}`);
    const parts = page.getByRole("table", { name: "Parts" });
    await expect(parts.getByRole("row", { name: /part-002/ })).toContainText("rejected");
    await expect(parts.getByRole("row", { name: /part-002/ })).toContainText("SIZE_LIMIT");
    await expect(result(page, CLOUD_RESULT).getByRole("option")).toHaveText([
      "run_cmd:",
      "- bash1",
      "- bash2",
    ]);

    // The page still answers: an edit merges again.
    await page.getByLabel("Part 2 text").fill("#cloud-config\nrun_cmd: [after, the, bomb]\n");
    await expect(result(page, CLOUD_RESULT).getByRole("option")).toHaveText([
      "run_cmd:",
      "- after",
      "- the",
      "- bomb",
    ]);
  });

  test("a YAML alias bomb in the spec lab is a coded error on its document", async ({ page }) => {
    await open(page);
    await page.getByRole("tab", { name: "Spec lab" }).click();
    await page.getByLabel("Document 1 (YAML)").fill(yamlBomb());
    await expect(page.locator(".outputs .error")).toContainText("SIZE_LIMIT");
    await page.getByLabel("Document 1 (YAML)").fill("port: 1\n");
    await expect(result(page, LAB_RESULT)).toContainText("port: 1");
  });

  test("a gzip bomb in pasted user-data stops at the inflate budget", async ({ page }) => {
    const { gzipSync } = await import("node:zlib");
    const bomb = gzipSync(Buffer.alloc(80 * 1024 * 1024), { level: 9 }).toString("base64");
    const message = [
      'Content-Type: multipart/mixed; boundary="B"',
      "MIME-Version: 1.0",
      "",
      "--B",
      "Content-Type: application/gzip",
      "Content-Transfer-Encoding: base64",
      'Content-Disposition: attachment; filename="bomb.gz"',
      "",
      ...(bomb.match(/.{1,76}/g) ?? []),
      "--B--",
      "",
    ].join("\n");
    await open(page);
    await page.getByRole("radio", { name: "whole user-data (MIME multipart)" }).check();
    await page.getByLabel(/^User-data/).fill(message);
    await expect(page.locator(".outputs .error")).toContainText("SIZE_LIMIT");
    await page.getByLabel(/^User-data/).fill("#cloud-config\nrun_cmd: [fine]\n");
    await expect(result(page, CLOUD_RESULT).getByRole("option")).toHaveText(["run_cmd:", "- fine"]);
  });
});

test.describe("large input", () => {
  test("a 10,000-line part merges in the worker while the other fields stay editable", async ({ page }) => {
    await open(page);
    const items = Array.from({ length: 10_000 }, (_, i) => `  - cmd${i}`).join("\n");
    // As a paste delivers it: the new value and one input event. (Playwright's `fill` types through Chrome's
    // editing command, which is quadratic in the number of lines: minutes for 10,000 lines in any textarea.)
    await page.getByLabel("Part 2 text").evaluate((area, text) => {
      (area as HTMLTextAreaElement).value = text;
      area.dispatchEvent(new InputEvent("input", { bubbles: true, inputType: "insertFromPaste" }));
    }, `#cloud-config\nmerge_how: list(append)+dict(recurse_array)+str()\nrun_cmd:\n${items}\n`);
    // Edits go on while it merges; the latest input is what the result shows.
    await page.getByLabel("Part 1 name").fill("renamed-while-merging");
    const parts = page.getByRole("table", { name: "Parts" });
    await expect(parts.getByRole("row", { name: /renamed-while-merging/ })).toContainText("merged");
    const more = page.getByRole("button", { name: /Show the other \d+ lines of the result/ });
    await more.click();
    const merged = result(page, CLOUD_RESULT);
    await expect(merged.getByRole("option", { name: "- cmd9999" })).toBeVisible();
    await expect(merged.getByRole("option", { name: "- bash1" })).toBeVisible();
  });
});
