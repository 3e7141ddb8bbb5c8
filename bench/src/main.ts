// The benchmark suite's entry (`npm run bench [-- S1 ...]`); scenarios arrive with issue 6.
process.stdout.write('no scenarios yet\n');
