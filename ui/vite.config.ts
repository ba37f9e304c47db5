import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig, loadEnv } from 'vite';

// `npm run dev` relaie /app/api vers un serveur Liftdesk déjà lancé
// (LIFTDESK_URL, par défaut http://127.0.0.1:8080).
export default defineConfig(({ mode }) => {
  const env = loadEnv(mode, '.', 'LIFTDESK_');
  const apiTarget = env.LIFTDESK_URL || 'http://127.0.0.1:8080';

  return {
    base: '/',
    plugins: [svelte({ configFile: false })],
    build: {
      outDir: 'dist',
      assetsDir: 'assets',
      emptyOutDir: true,
    },
    server: {
      proxy: {
        '/app/api': { target: apiTarget, changeOrigin: false },
      },
    },
    test: {
      include: ['src/**/*.test.ts'],
      environment: 'node',
    },
  };
});
