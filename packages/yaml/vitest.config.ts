import { fileURLToPath } from "node:url";
import { packageTestConfig } from "../../vitest.shared.ts";

export default packageTestConfig({
  // The tests run the sources: #yaml-library (package.json "imports") is the Node one, from source.
  resolve: { alias: { "#yaml-library": fileURLToPath(new URL("./src/yaml-library.ts", import.meta.url)) } },
});
