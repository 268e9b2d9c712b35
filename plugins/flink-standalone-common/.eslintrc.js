module.exports = require('@backstage/cli/config/eslint-factory')(__dirname, {
  rules: {
    // Table-driven spec tests assert through a helper.
    'jest/expect-expect': [
      'warn',
      { assertFunctionNames: ['expect', 'expectProblem'] },
    ],
  },
});
