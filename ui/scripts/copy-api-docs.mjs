// Copies Swagger UI's browser files into dist/api-docs/ so that the REST API
// documentation page (/api/v2/docs) works offline, with no CDN.
import { copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const source = dirname(require.resolve('swagger-ui-dist/package.json'));
const target = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'api-docs');
mkdirSync(target, { recursive: true });
for (const file of ['swagger-ui-bundle.js', 'swagger-ui.css']) {
  copyFileSync(join(source, file), join(target, file));
}
console.log(`Swagger UI copié dans ${target}`);
