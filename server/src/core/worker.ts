/**
 * The core as a simulation worker loads it (a worker thread, the background process, a web
 * worker): the in-process runner, which plays every task of the SimRunner port, and a roster's
 * import, the one other task a worker takes. The facade (./service.ts) re-exports both; a worker
 * imports them from here so that it loads the simulator and the import alone, not every feature
 * of the facade (a thread's bundle is then started in well under half the time).
 */
export { inProcessRunner } from './sim/run-here';
export { importRoster } from './roster/import';
