import { packageTestConfig } from "../vitest.shared.ts";

export default packageTestConfig({
  test: {
    include: ["src/**/*.test.ts"],
  },
});
