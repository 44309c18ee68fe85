import { packageTestConfig } from "../../vitest.shared.ts";

export default packageTestConfig({
  test: {
    // Type tests (`*.test-d.ts`) run through tsc, so a misspelt option that stops being a type error fails the run.
    typecheck: { enabled: true, include: ["src/**/*.test-d.ts"], tsconfig: "./tsconfig.json" },
  },
});
