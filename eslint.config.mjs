import nextCoreWebVitals from 'eslint-config-next/core-web-vitals';
import nextTypescript from 'eslint-config-next/typescript';
import prettier from 'eslint-config-prettier/flat';

const config = [
  ...nextCoreWebVitals,
  ...nextTypescript,
  // Layout is Prettier's job (`npm run format`); ESLint keeps to meaning.
  prettier,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      // A module that imports itself back (client -> seed -> audit -> client) runs half-initialized.
      'import/no-cycle': ['error', { ignoreExternal: true }],
      // Prettier folds code at 120 but leaves long comments and literals; past 160 a line no longer fits a review.
      // Strings and class lists stay whole so they can be searched for.
      'max-len': [
        'error',
        { code: 160, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true, ignoreUrls: true },
      ],
    },
    // Packages cannot import the app back: not parsing them keeps the cycle check fast.
    settings: { 'import/ignore': ['node_modules'] },
  },
  // The tables of one schema reference each other: schema.ts re-exports the feature tables, which name users and
  // organizations only inside drizzle's lazy `references(() => …)`, so nothing runs half-initialized.
  { files: ['lib/db/schema.ts', 'lib/db/*-schema.ts'], rules: { 'import/no-cycle': 'off' } },
  // One way to the database for features: drizzle (its builder, `sql` where the builder cannot say it, `.prepare`
  // for hot reads). A statement written as SQL text and run by name is for the writes a benchmark shows need it
  // (docs/architecture.md, "Reaching the database"): they are listed here, and a new one needs its figures.
  {
    files: ['**/*.ts', '**/*.tsx'],
    ignores: [
      'lib/db/**',
      'lib/queues/publish-service.ts',
      'lib/silences/service.ts',
      'lib/subscriptions/service.ts',
      '**/*.test.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/db/client', '@/lib/db/client'],
              importNames: ['runStatement', 'runBlindStatement'],
              message: 'Use drizzle; SQL text run by name is for the benchmarked hot writes (docs/architecture.md).',
            },
          ],
        },
      ],
    },
  },
  // Generated from the OpenAPI document (npm run openapi:types): its comments are the operations' descriptions.
  { files: ['lib/api-types.ts'], rules: { 'max-len': 'off' } },
  // Playwright fixtures call their callback `use`; it is not React's hook.
  { files: ['e2e/**'], rules: { 'react-hooks/rules-of-hooks': 'off' } },
  {
    ignores: [
      '.next/**',
      'node_modules/**',
      'data/**',
      'drizzle/**',
      'test-results*/**',
      'playwright-report/**',
      'next-env.d.ts',
      // Redoc's bundle, copied there by scripts/vendor-redoc.mjs.
      'public/api-reference/**',
    ],
  },
];

export default config;
