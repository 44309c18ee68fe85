import { expect, test } from "@playwright/test";
import { editorOf, LAB_RESULT, open, result } from "./helpers.js";

test.describe("spec lab", () => {
  test("merges the documents with the spec, and the result follows the spec as it is typed", async ({
    page,
  }) => {
    await open(page);
    await page.getByRole("tab", { name: "Spec lab" }).click();
    const merged = result(page, LAB_RESULT);
    // dict() without `replace` keeps a key's first value: cloud-init's rule.
    await expect(merged).toContainText("packages:- git- curl");
    await expect(merged).toContainText("port: 8080");

    await page.getByLabel(/^Merger spec/).fill("dict(replace)+list()+str()");
    await expect(merged).toContainText("packages:- curlport: 9090");

    await page.getByLabel(/^Merger spec/).fill("list(prepend)+dict(no_replace,recurse_list)+str()");
    await expect(merged).toContainText("packages:- curl- git");

    await page.getByLabel("Examples of specs").selectOption("stack(merge-first)");
    await expect(page.getByLabel(/^Merger spec/)).toHaveValue("stack(merge-first)");
    await expect(merged).toContainText("port: 8080");
  });

  test("an invalid spec shows its coded error under the field, and fixing it brings the result back", async ({
    page,
  }) => {
    await open(page);
    await page.getByRole("tab", { name: "Spec lab" }).click();
    const spec = page.getByLabel(/^Merger spec/);
    await spec.fill("list(extend)+dict(");
    const error = page.locator("#spec-error");
    await expect(error).toContainText("SPEC_SYNTAX");
    await expect(spec).toHaveAttribute("aria-invalid", "true");
    await expect(spec).toHaveAttribute("aria-describedby", "spec-error");

    await spec.fill("list(extend)+lsit()");
    await expect(error).toContainText("UNKNOWN_MERGER");

    await spec.fill("stack(merge-first,overwrite)");
    await expect(error).toContainText("SPEC_SYNTAX");

    await spec.fill("list(extend)+dict()+str(append)");
    await expect(error).toBeEmpty();
    await expect(result(page, LAB_RESULT)).toContainText("port: 8080");
  });

  test("a YAML error in a document is placed on its line", async ({ page }) => {
    await open(page);
    await page.getByRole("tab", { name: "Spec lab" }).click();
    await page.getByLabel("Document 2 (YAML)").fill("a: 1\nb: [unclosed\n");
    await expect(page.locator(".outputs .error")).toContainText("YAML_PARSE");
    await expect(editorOf(page, "doc-2")).toHaveAttribute("data-highlight-kind", "error");
  });
});
