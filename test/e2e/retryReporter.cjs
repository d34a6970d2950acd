// Mocha's spec reporter, plus a line for every attempt that failed and is run again (the e2e suite
// retries once: a real workbench on a shared machine). Mocha's own reporters say nothing of a retry,
// so a flaky test would pass unseen; this names it and its first failure in the output.
'use strict';
const Mocha = require('mocha');

class SpecWithRetries extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.on(Mocha.Runner.constants.EVENT_TEST_RETRY, (test, err) => {
      const message = String((err && err.message) || err).split('\n')[0];
      console.log(`      ↻ failed once, running again (flaky): ${test.fullTitle()}: ${message}`);
    });
  }
}

module.exports = SpecWithRetries;
