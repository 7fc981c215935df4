// The three longest functions (lines, nested functions included) of each package's hand-written src,
// read with the TypeScript compiler. Run from the repository root: node scripts/longest-functions.mjs
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const filesUnder = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'gen' ? [] : filesUnder(path);
    return path.endsWith('.ts') ? [path] : [];
  });

for (const pkg of readdirSync('packages')) {
  const found = [];
  for (const file of filesUnder(join('packages', pkg, 'src'))) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const lineOf = (pos) => source.getLineAndCharacterOfPosition(pos).line + 1;
    const visit = (node) => {
      if (ts.isFunctionLike(node) && node.body) {
        const name = node.name?.getText() ?? (ts.isVariableDeclaration(node.parent) ? node.parent.name.getText() : '(anonymous)');
        found.push([lineOf(node.end) - lineOf(node.getStart()) + 1, `${file}:${lineOf(node.getStart())} ${name}`]);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  found.sort((a, b) => b[0] - a[0]);
  console.log(`${pkg}: ${found.slice(0, 3).map(([lines, where]) => `${lines} ${where}`).join(' | ') || 'none'}`);
}
