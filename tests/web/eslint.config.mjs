// Lint rules for the web client (web/js) and these tests: ESLint's recommended set, plus
// a few that catch slips the type checks miss. Run from the repository root (scripts/test-web does).
import js from "@eslint/js";
import globals from "globals";
import chaturanga from "./catalogue-only.mjs";

export default [
  { ignores: ["target/**", "**/node_modules/**"] },
  { ...js.configs.recommended },
  {
    files: ["web/js/**/*.js"],
    languageOptions: { ecmaVersion: 2023, sourceType: "module", globals: globals.browser },
    plugins: { chaturanga },
    rules: { "chaturanga/catalogue-only": "error" },
  },
  {
    files: ["tests/web/*.mjs"],
    languageOptions: { ecmaVersion: 2023, sourceType: "module", globals: globals.node },
  },
  {
    rules: {
      eqeqeq: "error",
      "no-var": "error",
      "prefer-const": "error",
    },
  },
];
