import { expect, test } from "@playwright/test";
import { editorOf, open, result, STACK_RESULT } from "./helpers.js";

test.describe("PillarStack", () => {
  test("its engine is loaded only when the mode is opened", async ({ page }) => {
    const requested: string[] = [];
    page.on("request", (request) => requested.push(new URL(request.url()).pathname));
    await open(page);
    await expect(page.getByRole("table", { name: "Parts" })).toBeVisible();
    expect(requested.filter((path) => /\/stack-[^/]*\.js$/.test(path))).toEqual([]);
    await page.getByRole("tab", { name: "PillarStack" }).click();
    await expect(result(page, STACK_RESULT)).toContainText("timezone: UTC");
    expect(requested.filter((path) => /\/stack-[^/]*\.js$/.test(path))).toHaveLength(1);
  });

  test("examples/stack for test-1-dev: the files in order and the merged pillar", async ({ page }) => {
    await open(page);
    await page.getByRole("tab", { name: "PillarStack" }).click();
    await expect(
      page.getByRole("list", { name: /Files merged for test-1-dev/ }).getByRole("listitem"),
    ).toHaveText([
      "core.yml",
      "common/xxx.yml",
      "common/yyy.yml",
      "osarchs/amd64.yml",
      "oscodenames/jessie.yml",
      "roles/db.yml",
      "minions/test-1-dev.yml",
    ]);
    const merged = result(page, STACK_RESULT);
    await expect(merged).toContainText("packages:- curl- vim- prometheus-node-exporter- intel-microcode");

    // Another host: other grains select other files.
    await page.getByLabel("Minion id").fill("test-2-dev");
    await page.getByLabel("Grains (YAML)").fill("osarch: armhf\noscodename: wheezy\n");
    await page.getByLabel("Pillar from earlier ext_pillars (YAML)").fill("roles: [web]\n");
    await expect(page.getByRole("list", { name: /Files merged for test-2-dev/ })).toContainText(
      "osarchs/armhf.yml",
    );
    await expect(page.getByRole("list", { name: /Files merged for test-2-dev/ })).toContainText(
      "roles/web.yml",
    );
  });

  test("a new file in the tree is merged when the config lists it", async ({ page }) => {
    await open(page);
    await page.getByRole("tab", { name: "PillarStack" }).click();
    await page.getByRole("button", { name: "Add a file" }).click();
    await page.getByLabel("File path").fill("extra.yml");
    await page.getByLabel("Contents of extra.yml").fill("extra_key: from the new file\n");
    await page.getByRole("tab", { name: "config.cfg" }).click();
    const config = page.getByLabel("Contents of config.cfg");
    await config.fill(`${await config.inputValue()}extra.yml\n`);
    await expect(result(page, STACK_RESULT)).toContainText("extra_key: from the new file");
  });

  test("a template imports, includes and checks files of the tree kept in the page", async ({ page }) => {
    await open(page);
    await page.getByRole("tab", { name: "PillarStack" }).click();
    await page.getByRole("button", { name: "Add a file" }).click();
    await page.getByLabel("File path").fill("common/x.yml");
    await page.getByLabel("Contents of common/x.yml").fill("port: 8080\nname: shared\n");
    await page.getByRole("tab", { name: "core.yml" }).click();
    const core = page.getByLabel("Contents of core.yml");
    await core.fill(
      `${await core.inputValue()}{% import_yaml "common/x.yml" as x %}\n` +
        "shared_port: {{ x.port }}\n" +
        "x_exists: {{ __salt__['file.file_exists']('common/x.yml') }}\n" +
        "nothing_exists: {{ __salt__['file.file_exists']('common/none.yml') }}\n" +
        '{% include "common/x.yml" %}\n',
    );
    const merged = result(page, STACK_RESULT);
    await expect(merged).toContainText("shared_port: 8080");
    await expect(merged).toContainText("x_exists: true");
    await expect(merged).toContainText("nothing_exists: false");
    await expect(merged).toContainText("name: shared");
    await expect(page.locator(".outputs .error")).toHaveCount(0);

    // An error in the imported file names its tab, one click away.
    await page.getByRole("tab", { name: "common/x.yml" }).click();
    await page.getByLabel("Contents of common/x.yml").fill("port: {{ nope.port }}\n");
    await expect(page.locator(".outputs .error").first()).toContainText("'nope' is undefined");
    await page.getByRole("tab", { name: "core.yml" }).click();
    await page.getByRole("button", { name: "Show common/x.yml, line 1" }).click();
    await expect(page.getByRole("tab", { name: "common/x.yml" })).toHaveAttribute("aria-selected", "true");
  });

  test("selecting a value opens the file it came from at its line", async ({ page }) => {
    await open(page);
    await page.getByRole("tab", { name: "PillarStack" }).click();
    await result(page, STACK_RESULT).getByRole("option", { name: "timezone: UTC" }).first().click();
    await expect(page.getByTestId("origin")).toHaveText("core.yml, line 2");
    await expect(page.getByRole("tab", { name: "core.yml" })).toHaveAttribute("aria-selected", "true");
    await expect(editorOf(page, "file-text")).toHaveAttribute("data-highlight-line", "2");
  });

  test("a template error names its file and line, which is one click away", async ({ page }) => {
    await open(page);
    await page.getByRole("tab", { name: "PillarStack" }).click();
    await page.getByRole("tab", { name: "roles/db.yml" }).click();
    const text = page.getByLabel("Contents of roles/db.yml");
    await text.fill(`${await text.inputValue()}broken: {{ grains['osarch'] | nosuchfilter }}\n`);
    const error = page.locator(".outputs .error").first();
    await expect(error).toContainText("TEMPLATE_");
    await expect(error).toContainText("roles/db.yml");
    await page.getByRole("tab", { name: "core.yml" }).click();
    await page.getByRole("button", { name: /Show roles\/db\.yml, line \d+/ }).click();
    await expect(page.getByRole("tab", { name: "roles/db.yml" })).toHaveAttribute("aria-selected", "true");
    await expect(editorOf(page, "file-text")).not.toHaveAttribute("data-highlight-line", "");
  });
});

test.describe("PillarStack inputs", () => {
  test("grains must be a mapping (any keys), and a list is a coded error", async ({ page }) => {
    await open(page);
    await page.getByRole("tab", { name: "PillarStack" }).click();
    const grains = page.getByLabel("Grains (YAML)");
    await grains.fill("osarch: amd64\noscodename: jessie\ncode: x\ntext: y\n");
    await expect(page.getByRole("list", { name: /Files merged for test-1-dev/ })).toContainText(
      "osarchs/amd64.yml",
    );
    await grains.fill("- osarch\n- amd64\n");
    await expect(page.locator(".outputs .error")).toContainText("INPUT_NOT_MAPPING");
    await expect(page.locator(".outputs .error")).toContainText("grains");
  });
});
