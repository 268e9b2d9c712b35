module.exports = require('@backstage/cli/config/eslint-factory')(__dirname, {
  rules: {
    // Tests assert through waitFor()/holds(), which throw when the state never comes.
    'jest/expect-expect': [
      'warn',
      { assertFunctionNames: ['expect', 'holds', 'waitFor', 'createReadyPod'] },
    ],
  },
});
