import { packageTestConfig } from "../../vitest.shared.ts";

export default packageTestConfig({
  test: {
    // The runner test imports the kit by its package name, so dist must match the sources first.
    globalSetup: ["./test/build-once.ts"],
  },
});
