// Imported first by main.ts, so this mark is the bundle's first statement to run: the time from the script's
// arrival (its resource timing) to here is parsing and compiling it. The marks are read by test/e2e/stepRender.test.ts
// to say where a first open's time goes (docs/performance.md).
performance.mark('persona-lab:bundle-start');
