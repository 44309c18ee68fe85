import { packageTestConfig } from "../../vitest.shared.ts";

export default packageTestConfig({
  test: {
    // The binary tests run dist/bin.cjs as a user would, so dist must match the sources first.
    globalSetup: ["./test/build-once.ts"],
  },
});
