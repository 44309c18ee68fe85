import { expect, test } from "@playwright/test";
import { CLOUD_RESULT, editorOf, open, result } from "./helpers.js";

test.describe("cloud-config parts", () => {
  test("the seed's run_cmd example gives bash3, bash4 in current mode", async ({ page }) => {
    await open(page);
    const merged = result(page, CLOUD_RESULT);
    await expect(merged.getByRole("option")).toHaveText(["run_cmd:", "- bash3", "- bash4"]);
    await expect(merged).toContainText("# from 2 files");
    const parts = page.getByRole("table", { name: "Parts" });
    await expect(parts.getByRole("row", { name: /part-001/ })).toContainText("dict(replace)+list()+str()");
  });

  test("the seed's run_cmd example gives bash1 to bash4 in stack mode", async ({ page }) => {
    await open(page);
    await page.getByRole("radio", { name: /^stack:/ }).check();
    await expect(result(page, CLOUD_RESULT).getByRole("option")).toHaveText([
      "run_cmd:",
      "- bash1",
      "- bash2",
      "- bash3",
      "- bash4",
    ]);
    const parts = page.getByRole("table", { name: "Parts" });
    await expect(parts.getByRole("row", { name: /part-002/ })).toContainText(
      "list(extend)+dict(recurse_list,recurse_str)+str(append)",
    );
  });

  test("a Merge-Type header, a new part, reordering and removing parts change the merge", async ({
    page,
  }) => {
    await open(page);
    const merged = result(page, CLOUD_RESULT);
    await page.getByLabel("Part 2 Merge-Type header").fill("list(append)+dict(recurse_array)+str()");
    await expect(merged.getByRole("option")).toHaveText([
      "run_cmd:",
      "- bash1",
      "- bash2",
      "- bash3",
      "- bash4",
    ]);

    await page.getByRole("button", { name: "Add a part" }).click();
    await page.getByLabel("Part 3 text").fill("#cloud-config\npackages: [git]\n");
    await expect(merged.getByRole("option")).toHaveText([
      "packages:",
      "- git",
      "run_cmd:",
      "- bash1",
      "- bash2",
      "- bash3",
      "- bash4",
    ]);

    await page.getByRole("button", { name: "Remove part 3" }).click();
    await page.getByLabel("Part 2 Merge-Type header").fill("");
    await page.getByRole("button", { name: "Move part 2 up" }).click();
    await expect(page.getByLabel("Part 1 name")).toHaveValue("part-002");
    await expect(merged.getByRole("option")).toHaveText(["run_cmd:", "- bash1", "- bash2"]);
  });

  test("a part that is not a mapping is rejected with its coded error, and the others still merge", async ({
    page,
  }) => {
    await open(page);
    await page.getByLabel("Part 1 text").fill("#cloud-config\n- just\n- a list\n");
    const parts = page.getByRole("table", { name: "Parts" });
    await expect(parts.getByRole("row", { name: /part-001/ })).toContainText("rejected");
    await expect(parts.getByRole("row", { name: /part-001/ })).toContainText("CLOUD_CONFIG_PART");
    await expect(result(page, CLOUD_RESULT).getByRole("option")).toHaveText([
      "run_cmd:",
      "- bash3",
      "- bash4",
    ]);
  });

  test("pasted MIME user-data: its cloud-config parts merge with their Merge-Type, other parts are listed", async ({
    page,
  }) => {
    await open(page);
    await page.getByRole("radio", { name: "whole user-data (MIME multipart)" }).check();
    await expect(result(page, CLOUD_RESULT).getByRole("option")).toHaveText([
      "packages:",
      "- git",
      "- curl",
      "runcmd:",
      "- echo base",
      "- echo extra",
    ]);
    await expect(page.getByText("hello.sh: text/x-shellscript parts are not cloud-config")).toBeVisible();
    await expect(page.getByLabel(/Part 2 taken from the user-data: extra.yaml/)).toHaveValue(/echo extra/);
  });
});

test.describe("explain", () => {
  test("selecting a value highlights the line it came from and names the merger", async ({ page }) => {
    await open(page);
    const merged = result(page, CLOUD_RESULT);
    await merged.getByRole("option", { name: "- bash3" }).click();
    const why = page.getByTestId("explanation");
    await expect(why.getByTestId("origin")).toHaveText("part-002, line 3");
    await expect(editorOf(page, "part-2-text")).toHaveAttribute("data-highlight-line", "3");
    await expect(editorOf(page, "part-2-text").locator(".code > .line-mark")).toBeVisible();
    await expect(editorOf(page, "part-1-text")).toHaveAttribute("data-highlight-line", "");
  });

  test("a replaced list names the merger that replaced it and the value it beat", async ({ page }) => {
    await open(page);
    await result(page, CLOUD_RESULT).getByRole("option", { name: "run_cmd:" }).click();
    const why = page.getByTestId("explanation");
    await expect(why.getByTestId("origin")).toHaveText("part-002, line 2");
    await expect(why.getByTestId("decision")).toContainText("dict(replace)");
    await expect(why.getByTestId("beaten")).toContainText('["bash1", "bash2"] in part-001, line 2');
    // The beaten value's line is one click away.
    await why.getByTestId("beaten").getByRole("button", { name: "part-001, line 2" }).click();
    await expect(editorOf(page, "part-1-text")).toHaveAttribute("data-highlight-line", "2");
  });
});
