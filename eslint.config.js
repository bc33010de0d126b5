// Lint rules: typescript-eslint's type-aware recommended set, with floating promises forbidden
// (STYLE.md rule 11) so no state change is ever fire-and-forget.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** One config block per folder, refusing imports of the named sibling folders of src/. */
function boundaries(refused) {
  return Object.entries(refused).map(([files, folders]) => ({
    files: [`${files}/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: folders.map((folder) => `**/${folder}/**`), message: 'STYLE.md: imports point inward (http -> app -> domain); this folder must not know that one.' }] },
      ],
    },
  }));
}

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        // node:test's describe/it return promises the runner itself awaits.
        { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['describe', 'it', 'test', 'suite'] }] },
      ],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
    },
  },
  // STYLE.md rule 13: imports point inward. Each folder is refused the folders it must not know.
  ...boundaries({
    'src/lib/**': ['domain', 'ports', 'app', 'engine', 'adapters', 'connectors', 'http', 'config'],
    'src/domain/**': ['ports', 'app', 'engine', 'adapters', 'connectors', 'http', 'config'],
    'src/ports/**': ['app', 'engine', 'adapters', 'connectors', 'http'],
    'src/app/**': ['engine', 'adapters', 'connectors', 'http'],
    'src/engine/**': ['app', 'adapters', 'connectors', 'http'],
    'src/adapters/**': ['app', 'engine', 'connectors', 'http'],
    'src/connectors/**': ['app', 'engine', 'http'],
  }),
  {
    // STYLE.md: the console talks to the service over HTTP only; it imports none of the service's code.
    files: ['console/**/*.ts', 'console/**/*.tsx'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/src/**'], message: 'STYLE.md: the console talks to the service over HTTP only (the admin API).' }] }],
    },
  },
  {
    // Tests read JSON answers field by field; typing every body would only restate the assertions.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
    },
  },
  // Plain JavaScript (the config itself, examples/*.mjs an integrator copies) has no type information.
  { files: ['**/*.js', '**/*.mjs'], ...tseslint.configs.disableTypeChecked },
);
