#!/usr/bin/env node
console.log('no benchmarks yet');
