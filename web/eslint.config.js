import { readdirSync } from 'node:fs'
import js from '@eslint/js'
import globals from 'globals'
import { fileURLToPath } from 'node:url'
import importPlugin from 'eslint-plugin-import'
import jsxA11y from 'eslint-plugin-jsx-a11y'
import reactHooks from 'eslint-plugin-react-hooks'
import tseslint from 'typescript-eslint'

// A feature is a vertical slice (its api, components, hooks, utils) that
// never reaches into another feature: what two features share lives in
// src/components, src/hooks or src/lib, and only src/app and src/routes
// compose features. Shared code imports no feature, and features import
// neither the app shell nor the routes.
const features = readdirSync('src/features', { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)

const boundaries = [
  ...features.map((feature) => ({
    target: `./src/features/${feature}`,
    from: './src/features',
    except: [`./${feature}`],
    message: 'A feature imports no other feature: move what they share to src/components, src/hooks or src/lib.',
  })),
  {
    target: ['./src/components', './src/hooks', './src/lib', './src/api'],
    from: ['./src/features', './src/app', './src/routes'],
    message: 'Shared code imports no feature, app or route module.',
  },
  {
    target: './src/features',
    from: ['./src/app', './src/routes'],
    message: 'A feature imports neither the app shell nor the routes.',
  },
]

// A query key given as an array literal: in a query's or a filter's
// options, or as the key a cache read or write takes first.
const queryKeyLiterals = [
  "Property[key.name='queryKey'] > ArrayExpression",
  "Property[key.name='queryKey'] > TSAsExpression > ArrayExpression",
  "CallExpression[callee.property.name=/^(getQueryData|setQueryData|getQueryState)$/][arguments.0.type='ArrayExpression']",
]

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'playwright-report', 'test-results'] },
  {
    files: ['src/**/*.{ts,tsx}'],
    languageOptions: { parser: tseslint.parser, parserOptions: { ecmaFeatures: { jsx: true } } },
    plugins: { import: importPlugin, 'jsx-a11y': jsxA11y, 'react-hooks': reactHooks },
    settings: {
      'import/resolver': { [fileURLToPath(new URL('./scripts/eslint-resolver.cjs', import.meta.url))]: {} },
    },
    rules: {
      // The recommended set: each rule it turns on is an error.
      ...jsxA11y.flatConfigs.recommended.rules,
      // A choice's label nests its name and hint one level deeper than the
      // rule looks by default (label > span > span > text).
      'jsx-a11y/label-has-associated-control': ['error', { depth: 3 }],
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      'import/no-restricted-paths': ['error', { zones: boundaries }],
      // sonner is loaded with the first toast (src/lib/toast.ts); a static
      // import anywhere else would put it back on every page.
      'no-restricted-imports': ['error', { paths: [{ name: 'sonner', message: "Use toast from '@/lib/toast'." }] }],
      // A query key written out where it is used can drift from the one
      // another feature invalidates: every key comes from src/lib/query-keys.
      'no-restricted-syntax': ['error', ...queryKeyLiterals.map((selector) => ({ selector, message: 'Take the query key from queryKeys in @/lib/query-keys.' }))],
    },
  },
  { files: ['src/lib/toast.ts'], rules: { 'no-restricted-imports': 'off' } },
  { files: ['src/lib/query-keys.ts'], rules: { 'no-restricted-syntax': 'off' } },
  // The sandboxed face mesh's frame script (sandbox/face-mesh): a classic
  // script beside the package's, with its FaceMesh global.
  {
    files: ['sandbox/**/*.js'],
    languageOptions: { sourceType: 'script', globals: { ...globals.browser, FaceMesh: 'readonly' } },
    rules: { ...js.configs.recommended.rules },
  },
)
