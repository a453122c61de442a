// Lints and format-checks the handout page's front end: ESLint on the script modules joined as
// the build joins them (cmake/JoinHandoutScript.cmake), each message traced back to its module and
// line; Prettier on every module, the style sheet and the template. Exits 1 on any finding.
// Usage: node scripts/js-lint/lint-handout.mjs [--fix]   (--fix rewrites with Prettier only)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import * as prettier from 'prettier';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');
const pageDir = join(root, 'resources', 'handout');
const moduleDir = join(pageDir, 'js');
const fix = process.argv.includes('--fix');
let problems = 0;

// ---- ESLint on the joined script --------------------------------------------------------------
function joinedScript() {
  const dir = mkdtempSync(join(tmpdir(), 'handout-lint-'));
  try {
    const out = join(dir, 'handout.js');
    execFileSync('cmake', [
      `-DMODULES=${join(moduleDir, 'modules.txt')}`,
      `-DOUTPUT=${out}`,
      '-P',
      join(root, 'cmake', 'JoinHandoutScript.cmake'),
    ]);
    return readFileSync(out, 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Line n of the joined script as "js/module.js:m", from the `// ---- module: NAME` markers.
function moduleLine(lines, n) {
  for (let i = n - 1; i >= 0; --i) {
    const m = /^\/\/ ---- module: (.+)$/.exec(lines[i]);
    if (m) return `resources/handout/js/${m[1]}:${n - 1 - i}`;
  }
  return `(joined script):${n}`;
}

const joined = joinedScript();
const joinedLines = joined.split('\n');
const eslint = new ESLint({ cwd: here, overrideConfigFile: join(here, 'eslint.config.mjs') });
const [result] = await eslint.lintText(joined, { filePath: join(here, 'handout.js') });
for (const m of result.messages) {
  console.log(`${moduleLine(joinedLines, m.line)}:${m.column}: ${m.message} (${m.ruleId || 'parse'})`);
  ++problems;
}

// ---- Prettier on each source file -------------------------------------------------------------
const listed = readFileSync(join(moduleDir, 'modules.txt'), 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'));
for (const f of readdirSync(moduleDir).filter((f) => f.endsWith('.js'))) {
  if (!listed.includes(f)) {
    console.log(`resources/handout/js/${f}: not in modules.txt, so never part of the page`);
    ++problems;
  }
}
const files = [
  ...listed.map((f) => join(moduleDir, f)),
  join(pageDir, 'handout.css'),
  join(pageDir, 'handout.html'),
  join(pageDir, 'handout.schema.json'),
];
const config = join(here, '.prettierrc.json');
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const options = await prettier.resolveConfig(file, { config });
  const formatted = await prettier.format(text, { ...options, filepath: file });
  if (formatted === text) continue;
  if (fix) {
    writeFileSync(file, formatted);
    console.log(`formatted ${relative(root, file)}`);
  } else {
    console.log(`${relative(root, file)}: not formatted (node scripts/js-lint/lint-handout.mjs --fix)`);
    ++problems;
  }
}
if (problems) console.log(`lint-handout: ${problems} finding(s)`);
process.exit(problems ? 1 : 0);
