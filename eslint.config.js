// The browser game's lint: ESLint's recommended rules, for ES modules run in the
// browser (the page) and in node (tests/web/js/). `npx eslint src/noughts/web/js tests/web/js`.
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    files: ["src/noughts/web/js/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.browser },
  },
  {
    files: ["tests/web/js/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.node },
  },
];
