// Copies the built files of the chart library that package-lock.json pins
// into static/vendor/, where go:embed puts them in the binary. Run it with
// `npm ci && npm run vendor` after changing the pinned version, and commit
// what it writes: building Mallard needs no network and no npm.
'use strict';
const fs = require('fs');
const path = require('path');

const files = { uplot: ['dist/uPlot.iife.min.js', 'dist/uPlot.min.css', 'LICENSE'] };

for (const [pkg, list] of Object.entries(files)) {
  const from = path.join(__dirname, 'node_modules', pkg), to = path.join(__dirname, 'static', 'vendor', pkg);
  const { version } = JSON.parse(fs.readFileSync(path.join(from, 'package.json'), 'utf8'));
  fs.rmSync(to, { recursive: true, force: true });
  fs.mkdirSync(to, { recursive: true });
  for (const f of list) fs.copyFileSync(path.join(from, f), path.join(to, path.basename(f)));
  fs.writeFileSync(path.join(to, 'VERSION'), `${version}\n`);
  console.log(`${pkg} ${version} -> ${path.relative(__dirname, to)}`);
}
