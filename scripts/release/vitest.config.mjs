import { packageTestConfig } from "../../vitest.shared.ts";

export default packageTestConfig({
  test: {
    include: ["*.test.mjs"],
  },
});
